"""DL104 (container shared memory): what the run definitions of a repository leave of /dev/shm
(dl_lint.analysis.containers), and the proof with torch: the fixture's loader fails in a 64 MiB
/dev/shm, as in a Docker container without --shm-size, and runs with the size DL104 suggests."""

from __future__ import annotations

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


def test_candidates_are_a_few_well_known_names(tmp_path):
    for name in ("docker-compose.yml", "compose.override.yaml", "Dockerfile", "setup.py", "docker/run.sh",
                 ".devcontainer/gpu/devcontainer.json", "deep/down/docker-compose.yml", "k8s/job.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    listings = {}
    paths, changed = candidate_files(str(tmp_path), listings)
    found = sorted(Path(p).relative_to(tmp_path).as_posix() for p in paths)
    assert changed and candidate_files(str(tmp_path))[0] == paths
    assert found == [".devcontainer/gpu/devcontainer.json", "compose.override.yaml", "docker-compose.yml",
                     "docker/run.sh", "k8s/job.yaml"]


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
    failed = subprocess.run(small + script, cwd=folder, capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0
    assert "unable to allocate shared memory" in failed.stderr or "Bus error" in failed.stderr, failed.stderr[-2000:]
    enough = subprocess.run(_private_shm(suggested) + script, cwd=folder, capture_output=True, text=True, timeout=300)
    assert enough.returncode == 0 and "trained" in enough.stdout, enough.stderr[-2000:]
