"""DL104 (container shared memory): what the run definitions of a repository leave of /dev/shm
(dl_lint.analysis.containers), and the proof with torch: the fixture's loader fails in a 64 MiB
/dev/shm, as in a Docker container without --shm-size, and runs with the size DL104 suggests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.containers import DOCKER_DEFAULT_SHM, candidate_files, docker_size, jsonc, relevant, run_definitions

from conftest import FIXTURES

MIB = 1024 * 1024


def definitions(**files: str):
    data = {f"/repo/{name.replace('__', '/')}": text.encode() for name, text in files.items()}
    return [(d.what, d.shm, d.how) for d in run_definitions({p: b for p, b in data.items() if relevant(p, b)})]


@pytest.mark.parametrize(
    "text, size", [("2gb", 2 * 1024**3), ("512m", 512 * MIB), ("1G", 1024**3), (67108864, 64 * MIB), ("64MiB", 64 * MIB)]
)
def test_docker_sizes(text, size):
    assert docker_size(text) == size


@pytest.mark.parametrize("text", ["${SHM_SIZE}", "lots", True, 0, None])
def test_what_is_not_a_docker_size(text):
    assert docker_size(text) is None


def test_compose_services_leave_64_mib_unless_they_set_it():
    found = definitions(
        **{
            "docker-compose.yml": """
services:
  train:
    build: {context: ., shm_size: 2gb}
  big:
    build: .
    shm_size: 8gb
  host:
    build: .
    ipc: host
  tmp:
    image: pytorch/pytorch
    command: python train.py
    volumes: ["/tmp/shm:/dev/shm"]
  db:
    image: postgres
  child:
    extends: {service: train}
    command: python eval.py
""",
        }
    )
    assert found == [
        ("service train of docker-compose.yml", DOCKER_DEFAULT_SHM, "no shm_size or ipc: host"),
        ("service big of docker-compose.yml", 8 * 1024**3, "shm_size: 8gb"),
        ("service host of docker-compose.yml", None, "ipc: host"),
        ("service tmp of docker-compose.yml", None, "a volume at /dev/shm"),
        ("service child of docker-compose.yml", None, "it extends another service"),
    ]


def test_broken_or_foreign_files_are_unknown_never_an_error():
    assert definitions(**{"compose.yaml": "services:\n  a:\n    build: .\n   b: 1\n"}) == [
        ("compose.yaml", None, "its YAML could not be read")
    ]
    assert definitions(**{".devcontainer__devcontainer.json": "{ not json"}) == [
        (".devcontainer/devcontainer.json", None, "its JSON could not be read")
    ]
    assert definitions(**{"compose.yml": "- just\n- a list\n"}) == []
    assert definitions(**{"mkdocs.yml": "site_name: docs\n"}) == []  # no containers: not read at all


def test_kubernetes_pods_and_their_dev_shm():
    manifest = """
kind: Pod
spec:
  containers:
    - name: {name}
      image: train
      args: ["python", "train.py"]
      volumeMounts: {mounts}
  volumes:
    - name: dshm
      emptyDir: {{medium: Memory}}
  hostIPC: {host}
"""
    plain = definitions(**{"k8s__pod.yaml": manifest.format(name="a", mounts="[]", host="false")})
    assert plain == [("container a of the Pod in pod.yaml", DOCKER_DEFAULT_SHM, "no memory-backed emptyDir at /dev/shm")]
    mounted = manifest.format(name="b", mounts="[{name: dshm, mountPath: /dev/shm}]", host="false")
    assert definitions(**{"k8s__pod.yaml": mounted})[0][1:] == (None, "an emptyDir with medium: Memory at /dev/shm")
    host = manifest.format(name="c", mounts="[]", host="true")
    assert definitions(**{"k8s__pod.yaml": host})[0][1:] == (None, "hostIPC: true")


def test_devcontainers_with_comments_and_docker_run_scripts():
    assert jsonc('{"a": "http://x//y", /* c */ "b": [1, 2,], // d\n}') == {"a": "http://x//y", "b": [1, 2]}
    found = definitions(
        **{
            ".devcontainer__devcontainer.json": '{"runArgs": ["--shm-size", "4g"], // big\n}',
            "scripts__run.sh": "docker run --rm -v $(pwd):/ws img python train.py\n"
            "docker run $DOCKER_ARGS -v $PWD:/ws img python train.py\n"
            "docker run --ipc=host img python train.py\n"
            "docker run redis\n",
        }
    )
    assert found == [
        (".devcontainer/devcontainer.json", 4 * 1024**3, "--shm-size 4g"),
        ("docker run in run.sh", DOCKER_DEFAULT_SHM, "no --shm-size or --ipc=host"),
        ("docker run in run.sh", None, "its arguments come from a variable"),
        ("docker run in run.sh", None, "--ipc=host"),
    ]


def test_makefile_recipes_that_run_docker_with_the_makefile_s_variables():
    """CM-1 of held-out set 3: ``make run`` from docker/ starts the container that mounts the
    repository, ``docker container run`` in a recipe with continuations and make variables."""
    cm1 = (
        "NAME=consistency_models\nTAG=0.1\nPROJECT_DIRECTORY = $(shell pwd)/..\n\nbuild:\n"
        "\tdocker build -t ${NAME}:${TAG} -f Dockerfile .\n\nrun:\n\tdocker container run --gpus all\\\n"
        "\t\t--restart=always\\\n\t\t-it -d \\\n\t\t-v $(PROJECT_DIRECTORY):/home/${NAME}\\\n"
        "\t\t--name ${NAME} ${NAME}:${TAG} /bin/bash\n"
    )
    run = "docker run of target run in Makefile"
    assert definitions(docker__Makefile=cm1) == [(run, DOCKER_DEFAULT_SHM, "no --shm-size or --ipc=host")]
    assert definitions(docker__Makefile=cm1.replace("-it -d", "-it -d --shm-size 8g")) == [(run, 8 * 1024**3, "--shm-size 8g")]
    assert definitions(docker__Makefile=cm1.replace("-it -d", "--ipc=host")) == [(run, None, "--ipc=host")]
    assert definitions(docker__Makefile=cm1.replace("-it -d", "--ipc host")) == [(run, None, "--ipc=host")]
    # without the mount, /bin/bash in an image: not the project's code
    assert definitions(docker__Makefile=cm1.replace("-v $(PROJECT_DIRECTORY):/home/${NAME}", "")) == []
    # the mount's folder from a function dl-lint does not evaluate: not known to be the project
    assert definitions(docker__Makefile=cm1.replace("$(shell pwd)/..", "$(dir $(lastword $(MAKEFILE_LIST)))")) == []

    def size(makefile: str):
        [(_, shm, how)] = definitions(**{"Makefile": makefile})
        return shm, how

    recipe = "train:\n\t@docker run --rm --shm-size $(SHM) -v $(CURDIR):/ws img python train.py\n"
    assert size("SHM = 8g\n" + recipe) == (8 * 1024**3, "--shm-size 8g")
    assert size("SHM := 512m # enough\n" + recipe) == (512 * MIB, "--shm-size 512m")
    assert size("S = 2g\nSHM = $(S)\n" + recipe) == (2 * 1024**3, "--shm-size 2g")
    assert size(recipe) == (None, "--shm-size ${SHM} (not read)")  # from the environment or `make SHM=...`
    assert size("SHM ?= 8g\n" + recipe)[0] is None  # the environment may set it
    assert size("SHM = 8g\nSHM += x\n" + recipe)[0] is None
    assert size("ifeq ($(GPU),1)\nSHM = 8g\nendif\n" + recipe)[0] is None
    assert size("train: SHM = 1g\nSHM = 8g\n" + recipe)[0] is None  # target-specific
    assert size("include common.mk\nSHM = 8g\n" + recipe)[0] is None  # may be set again there
    assert size("SHM = $(SHM)\n" + recipe)[0] is None  # refers to itself
    assert size("OPTS = --shm-size 1g\ntrain:\n\tdocker run $(OPTS) -v $(PWD):/ws img python x.py\n") == (1024**3, "--shm-size 1g")
    # options a variable or a function may hold are unknown, as in a shell script
    assert size("train:\n\tdocker run $(DOCKER_ARGS) -v $(PWD):/ws img python x.py\n")[0] is None
    assert size("train:\n\tdocker run $(shell cat opts) -v $(PWD):/ws img python x.py\n")[0] is None
    # $$ is the shell's $; podman and nvidia-docker run containers the same way
    assert size("t:\n\tpodman run -v $$(pwd):/ws img bash\n") == (DOCKER_DEFAULT_SHM, "no --shm-size or --ipc=host")
    assert definitions(**{"docker__gpu.mk": "t: ; nvidia-docker run img python x.py\n"}) == [
        ("docker run of target t in gpu.mk", DOCKER_DEFAULT_SHM, "no --shm-size or --ipc=host")
    ]
    # not a recipe: a variable holding the command, a define block, a comment; a recipe running
    # something else, or a container of another program
    assert definitions(**{"Makefile": "RUN = docker run img python x.py\n# docker run img python\n"
                                      "define R\n\tdocker run img python x.py\nendef\n"
                                      "test:\n\tpython -m pytest\ndb:\n\tdocker run -d postgres\n"}) == []


def test_candidates_are_a_few_well_known_names(tmp_path):
    for name in ("docker-compose.yml", "compose.override.yaml", "Dockerfile", "setup.py", "docker/run.sh",
                 ".devcontainer/gpu/devcontainer.json", "deep/down/docker-compose.yml", "k8s/job.yaml",
                 "Makefile", "docker/GNUmakefile", "scripts/train.mk", "docs/Makefile", "Makefile.am"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    listings = {}
    paths, changed = candidate_files(str(tmp_path), listings)
    found = sorted(Path(p).relative_to(tmp_path).as_posix() for p in paths)
    assert changed and candidate_files(str(tmp_path))[0] == paths
    assert found == [".devcontainer/gpu/devcontainer.json", "Makefile", "compose.override.yaml", "docker-compose.yml",
                     "docker/GNUmakefile", "docker/run.sh", "k8s/job.yaml", "scripts/train.mk"]


def test_yaml_is_imported_only_when_a_yaml_run_definition_exists(tmp_path):
    probe = (
        "import sys\nfrom dl_lint import lint_paths\nlint_paths([sys.argv[1]])\n"
        "print('yaml' in sys.modules)\n"
    )
    without = subprocess.run([sys.executable, "-c", probe, str(FIXTURES / "rules" / "dl104_dockerfile_only")],
                             capture_output=True, text=True, timeout=120)
    assert without.stdout.strip() == "False", without.stderr
    with_compose = subprocess.run([sys.executable, "-c", probe, str(FIXTURES / "rules" / "dl104_compose")],
                                  capture_output=True, text=True, timeout=120)
    assert with_compose.stdout.strip() == "True", with_compose.stderr


def test_dl101_leaves_a_loader_dl104_reports(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "rules" / "dl104_compose", project)
    # A budget the loader exceeds too: DL104 alone reports it; without DL104, DL101 does.
    (project / "pyproject.toml").write_text('[tool.dl-lint]\nselect = ["ALL"]\nmemory-budget = "100MiB"\n')
    codes = [d.code for d in lint_paths([project]).diagnostics if d.filename.endswith("train.py")]
    assert codes == ["DL104"]
    codes = [d.code for d in lint_paths([project], overrides={"ignore": ("DL104",)}).diagnostics]
    assert codes == ["DL101"]


def test_the_cache_notices_a_changed_run_definition(tmp_path):
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "rules" / "dl104_compose", project)
    cache = tmp_path / "cache"
    assert [d.code for d in lint_paths([project], cache=True, cache_dir=cache).diagnostics] == ["DL104"]
    compose = project / "docker-compose.yml"
    compose.write_text(compose.read_text().replace("    command: python train.py", "    command: python train.py\n    ipc: host"))
    assert lint_paths([project], cache=True, cache_dir=cache).diagnostics == []


def _private_shm(size: str):
    """A command prefix that runs in a private mount namespace with /dev/shm of ``size`` (as a
    container without --shm-size has), or None when this machine does not allow one."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return None
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /dev/shm"],
        capture_output=True, timeout=30,
    )
    if probe.returncode != 0:
        return None
    return ["unshare", "-m", "--propagation", "private", "sh", "-c",
            f'mount -t tmpfs -o size={size} tmpfs /dev/shm && exec "$0" "$@"']


@pytest.mark.torch
def test_the_loader_fails_in_docker_s_64_mib_and_runs_with_the_suggested_size():
    folder = FIXTURES / "rules" / "dl104_compose"
    [diagnostic] = [d for d in lint_paths([folder]).diagnostics if d.code == "DL104"]
    suggested = re.search(r'shm_size: "(\d+[mg])"', diagnostic.detail).group(1)
    small = _private_shm("64m")
    if small is None:
        pytest.skip("no private mount namespace here (unshare -m needs CAP_SYS_ADMIN): the 64 MiB run cannot be made")
    script = [sys.executable, "train.py"]
    try:
        failed = subprocess.run(small + script, cwd=folder, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as stopped:
        # Seen once (2026-12-05, on a loaded machine): a worker killed by SIGBUS in the full
        # /dev/shm leaves the main process waiting on its queue. It did not train either.
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else (stopped.stdout or "")
        assert "trained" not in out
    else:
        assert failed.returncode != 0
        assert "unable to allocate shared memory" in failed.stderr or "Bus error" in failed.stderr, failed.stderr[-2000:]
    enough = subprocess.run(_private_shm(suggested) + script, cwd=folder, capture_output=True, text=True, timeout=300)
    assert enough.returncode == 0 and "trained" in enough.stdout, enough.stderr[-2000:]


@pytest.mark.parametrize(
    "fixture, named",
    [
        ("dl104_makefile", "docker/Makefile"),
        ("dl104_compose", "docker-compose.yml"),
        ("dl104_docker_run", "scripts/train.sh"),
        ("dl104_devcontainer", ".devcontainer/devcontainer.json"),
    ],
)
def test_a_run_naming_only_the_container_definition_reports_its_findings(fixture, named, tmp_path, monkeypatch):
    """Issue 26: a commit that only changes the container (a staged Makefile, compose file or
    script) is reported at the loaders it now limits, as a full run reports them."""
    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "rules" / fixture, project)
    monkeypatch.chdir(project)
    assert (project / named).is_file()
    full = [(d.filename, d.location.row, d.code, d.message) for d in lint_paths(["."]).diagnostics]
    assert [code for _, _, code, _ in full] == ["DL104"]
    for cache in (False, True):
        found = lint_paths([named], cache=cache, cache_dir=tmp_path / "cache")
        assert [(d.filename, d.location.row, d.code, d.message) for d in found.diagnostics] == full
        assert [os.path.relpath(r.path) for d in found.diagnostics for r in d.related] == [named]
    # a Makefile that defines no container of the code: nothing to report, and it is not Python
    (project / "Makefile").write_text("docs:\n\t$(MAKE) -C docs html  # from torch.utils.data import DataLoader\n")
    assert lint_paths(["Makefile"]).diagnostics == []


def test_a_run_naming_only_the_container_definition_reports_its_findings_in_notebooks(tmp_path, monkeypatch):
    """The loader in a notebook (the project index holds .py files only): naming the devcontainer
    still judges it (ignite's EfficientNet notebook, found by bench/partial_runs.py)."""
    import json

    project = tmp_path / "p"
    shutil.copytree(FIXTURES / "rules" / "dl104_devcontainer", project)
    source = (project / "train.py").read_text().replace("  # expect: DL104", "")
    (project / "train.py").unlink()
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source.splitlines(True)}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (project / "train.ipynb").write_text(json.dumps(notebook))
    monkeypatch.chdir(project)
    # DL104 alone: the notebook's dataset class also gets DL202 (workers cannot import it)
    only = {"select": ("DL104",)}
    full = [(d.filename, d.location.row, d.code) for d in lint_paths(["."], overrides=only).diagnostics]
    assert [code for _, _, code in full] == ["DL104"] and full[0][0].endswith("train.ipynb")
    named = [(d.filename, d.location.row, d.code) for d in lint_paths([".devcontainer/devcontainer.json"], overrides=only).diagnostics]
    assert named == full


def test_the_makefile_definition_is_cited_at_its_line(tmp_path):
    [diagnostic] = lint_paths([FIXTURES / "rules" / "dl104_makefile"]).diagnostics
    [cited] = diagnostic.related
    assert cited.path.endswith(os.path.join("docker", "Makefile")) and cited.row == 13
    assert "docker run of target run" in cited.note and "64 MiB" in diagnostic.message
    assert "docker run --shm-size=512m" in diagnostic.detail
