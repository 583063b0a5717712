"""The pre-commit hooks, run by the real pre-commit in temporary git repositories, against this
repository as it is on disk.

The hook repository is a snapshot (conftest.repository_snapshot): the files pip needs, copied
from the repository root and committed in a repository of their own, reached as users reach dl-lint,
by its URL (here a local path) and a commit SHA. Each consumer project gets a
.pre-commit-config.yaml pinned to that full SHA (`rev:`), as the README says to write it, and
runs `pre-commit run`. pre-commit clones the hook repository at the SHA and pip-installs it into
a virtualenv (libcst and click come from the package index), keyed by repo and rev in
PRE_COMMIT_HOME, which the tests of this module share: the environment is built once (about
30 s), each run then takes about a second. The README's own path is followed to the letter too:
its snippet with the placeholders filled in, `pre-commit autoupdate --freeze` to pin the SHA, and
the hooks run from the result.

`pre-commit try-repo` (the way a hook author tries hooks) is tested too, in one test that
covers the three cases: it builds a new store in a temporary folder on every call
(`Store(tempdir)` in pre_commit/commands/try_repo.py), so it ignores PRE_COMMIT_HOME and
pip-installs the hook environment on each call (about 10-30 s); and it does not see untracked
files, so a new module or a new .pre-commit-hooks.yaml would be missing until committed (one
more reason for the committed snapshot).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import GIT_IDENTITY, ROOT

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
GOOD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], num_workers=2)\n"
# A safe fix: num_workers is a variable, so prefetch_factor is guarded on it (nothing is lost).
FIXABLE = "from torch.utils.data import DataLoader\nworkers = 0\nloader = DataLoader([1, 2], num_workers=workers, prefetch_factor=2)\n"
GUARDED = FIXABLE.replace("prefetch_factor=2)", "prefetch_factor=2 if workers > 0 else None)")
# Issue 27's example: num_workers set to 0 to debug, the options tuned for workers left in place,
# with comments. Removing them is unsafe (ruff: a safe fix keeps the user's intent and comments).
DEBUGGING = """\
from torch.utils.data import DataLoader


def init(worker_id):
    pass


loader = DataLoader(range(8), batch_size=4, num_workers=0,  # was 8; debugging
                    prefetch_factor=4,  # tuned on A100
                    persistent_workers=True, worker_init_fn=init, timeout=30)
"""


def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "DL_LINT_"))}
    env.update(GIT_IDENTITY)
    env["PRE_COMMIT_HOME"] = str(home)
    env["NO_COLOR"] = "1"
    # the venv's own bin first: `pre-commit` and the git it shells out to
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _git(cwd: Path, *args: str, env: dict) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory, repository_snapshot):
    """(hook repository path, its commit SHA, environment)."""
    repo, rev = repository_snapshot
    return repo, rev, _env(tmp_path_factory.mktemp("pre-commit-home"))


@pytest.fixture
def project(tmp_path, hook_repo):
    repo, rev, env = hook_repo
    _git(tmp_path, "init", "-q", env=env)
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n"
        f"  - repo: {repo.as_posix()}\n"
        f"    rev: {rev}\n"
        f"    hooks:\n"
        f"      - id: dl-lint-fix\n"
        f"      - id: dl-lint\n"
    )
    return tmp_path


def run_hook(project: Path, hook_repo, hook: str, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pre_commit", "run", hook, "--color", "never", *args]
    return subprocess.run(command, cwd=project, env=hook_repo[2], capture_output=True, text=True, timeout=600)


def stage(project: Path, hook_repo, files: dict) -> None:
    for name, text in files.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _git(project, "add", "-A", env=hook_repo[2])


def test_manifest_matches_ruffs_conventions():
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"dl-lint", "dl-lint-fix"}
    assert hooks["dl-lint"]["entry"] == "dl-lint check --force-exclude"
    assert hooks["dl-lint-fix"]["entry"] == "dl-lint check --fix --force-exclude"
    for hook in hooks.values():
        assert hook["language"] == "python"
        # findings in Hydra configs, HF arguments files, TOML files a script reads by key path;
        # container definitions (compose, Makefiles: DL104)
        assert hook["types_or"] == ["python", "jupyter", "yaml", "json", "toml", "makefile"]
        assert hook["require_serial"] is True
        assert hook["minimum_pre_commit_version"] == "2.9.2"
        assert hook.get("pass_filenames", True) is True  # files come from pre-commit, never `.`
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_hook_fails_on_a_staged_file_with_a_problem(project, hook_repo):
    stage(project, hook_repo, {"src/bad.py": BAD, "src/good.py": GOOD})
    result = run_hook(project, hook_repo, "dl-lint", "--files", "src/bad.py", "src/good.py")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "dl-lint" in result.stdout and "Failed" in result.stdout
    assert "src/bad.py:2:29: DL001 " in result.stdout
    assert "prefetch_factor=2 is passed but num_workers=0" in result.stdout
    assert "good.py" not in result.stdout.split("Failed", 1)[1]


HYDRA_TRAIN = """\
import hydra
from torch.utils.data import DataLoader


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg):
    return DataLoader(range(8), num_workers=cfg.num_workers, persistent_workers=True)
"""


def test_hook_on_a_staged_hydra_config_reports_at_its_line(project, hook_repo):
    """Only the YAML changed: the hook gets the YAML file, and dl-lint judges it through the
    Python file that composes it."""
    stage(project, hook_repo, {"train.py": HYDRA_TRAIN, "conf/config.yaml": "batch_size: 4\nnum_workers: 0\n"})
    result = run_hook(project, hook_repo, "dl-lint", "--files", "conf/config.yaml")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "conf/config.yaml:2:1: DL002 " in result.stdout


HF_TRAIN = (ROOT / "fixtures/rules/transformers_args/examples/run_clm.py").read_text()


def test_hook_on_a_staged_json_arguments_file_reports_at_its_line(project, hook_repo):
    """Only an HF arguments file changed (a JSON config source): the hook runs on it, and
    dl-lint judges it through the script that parses it (issue 26)."""
    args = '{"output_dir": "out",\n "dataloader_persistent_workers": true}\n'
    stage(project, hook_repo, {"run_clm.py": HF_TRAIN, "args.json": args, "package.json": '{"name": "x"}\n'})
    result = run_hook(project, hook_repo, "dl-lint", "--files", "args.json", "package.json")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "args.json:2:2: DL002 " in result.stdout or "args.json:2:1: DL002 " in result.stdout, result.stdout
    assert "package.json" not in result.stdout.split("Failed", 1)[1]


def test_hook_on_a_staged_makefile_reports_the_loaders_its_container_limits(project, hook_repo):
    """Only docker/Makefile changed (its `docker run` lost `--shm-size`): pre-commit passes the
    Makefile (type makefile), and dl-lint reports DL104 at the loader it now limits (issue 26)."""
    fixture = ROOT / "fixtures/rules/dl104_makefile"
    makefile = (fixture / "docker/Makefile").read_text()
    stage(project, hook_repo, {"train.py": (fixture / "train.py").read_text(),
                               "docker/Makefile": makefile.replace("-it -d", "-it -d --shm-size 8g")})
    _git(project, "commit", "-qm", "a container with 8 GiB of /dev/shm", env=hook_repo[2])
    assert run_hook(project, hook_repo, "dl-lint").returncode == 0  # nothing staged: skipped
    stage(project, hook_repo, {"docker/Makefile": makefile})
    result = run_hook(project, hook_repo, "dl-lint")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "train.py:19:64: DL104 " in result.stdout, result.stdout


def test_hook_passes_on_a_clean_file(project, hook_repo):
    stage(project, hook_repo, {"good.py": GOOD})
    result = run_hook(project, hook_repo, "dl-lint", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_hook_with_no_python_files_is_skipped(project, hook_repo):
    # --files: with --all-files the staged .pre-commit-config.yaml is a file of the hook's types
    # (YAML, for Hydra configs) and the hook runs, passing.
    stage(project, hook_repo, {"notes.txt": "nothing to lint\n"})
    result = run_hook(project, hook_repo, "dl-lint", "--files", "notes.txt")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(no files to check)" in result.stdout and "Skipped" in result.stdout


def test_hook_honours_exclude_through_force_exclude(project, hook_repo):
    stage(
        project,
        hook_repo,
        {
            "pyproject.toml": '[tool.dl-lint]\nexclude = ["generated/*"]\n',
            "generated/bad.py": BAD,
            "build/bad.py": BAD,  # a default exclude
        },
    )
    result = run_hook(project, hook_repo, "dl-lint", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout and "DL001" not in result.stdout


def test_hook_lints_notebooks(project, hook_repo):
    import json

    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": BAD}
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    stage(project, hook_repo, {"nb.ipynb": json.dumps(notebook, indent=1) + "\n"})
    result = run_hook(project, hook_repo, "dl-lint", "--all-files")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "nb.ipynb:cell 1:2:29: DL001" in result.stdout


def test_fix_hook_rewrites_the_file(project, hook_repo, run_cli):
    """Needs `dl-lint check --fix` and DL001's safe fix: the hook fixes the file, pre-commit fails
    the run because the hook modified it, and dl-lint is then clean on it."""
    stage(project, hook_repo, {"bad.py": FIXABLE})
    result = run_hook(project, hook_repo, "dl-lint-fix", "--files", "bad.py")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "files were modified by this hook" in result.stdout, result.stdout
    assert (project / "bad.py").read_text() == GUARDED
    again = run_cli("bad.py", cwd=project)
    assert again.returncode == 0, again.stdout


def test_fix_hook_keeps_what_was_written_for_workers_and_its_comments(project, hook_repo, run_cli):
    """Issue 27: the fix hook runs on every commit, so it applies safe fixes only. With
    num_workers=0 written to debug, removing prefetch_factor, persistent_workers, worker_init_fn
    and timeout (and the comment on prefetch_factor's line) is unsafe: the hook leaves the file
    byte for byte, fails on the crash, and says how many fixes --unsafe-fixes would apply."""
    stage(project, hook_repo, {"train.py": DEBUGGING})
    result = run_hook(project, hook_repo, "dl-lint-fix", "--files", "train.py")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "files were modified by this hook" not in result.stdout, result.stdout
    assert (project / "train.py").read_text() == DEBUGGING
    for code in ("DL001", "DL002", "DL005", "DL304"):
        assert f": {code} " in result.stdout, result.stdout
    assert "[*]" not in result.stdout
    assert "4 hidden fixes can be enabled with the `--unsafe-fixes` option." in result.stdout
    # By hand, the user can still ask for them (and then the comments go with the lines).
    unsafe = run_cli("--fix", "--unsafe-fixes", "train.py", cwd=project)
    assert unsafe.returncode == 0, unsafe.stdout
    assert "prefetch_factor" not in (project / "train.py").read_text()


def try_repo(project: Path, hook_repo, hook: str, *files: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo[0]), hook, "--color", "never"]
    command += ["--files", *files]
    return subprocess.run(command, cwd=project, env=hook_repo[2], capture_output=True, text=True, timeout=600)


def test_try_repo(project, hook_repo):
    """`pre-commit try-repo` against this repository (its snapshot): fails on a staged file with a
    DL001 and prints the diagnostic, passes on a clean file, and the fix hook rewrites the file."""
    stage(project, hook_repo, {"src/bad.py": BAD, "src/good.py": GOOD, "src/fixable.py": FIXABLE})

    failed = try_repo(project, hook_repo, "dl-lint", "src/bad.py", "src/good.py")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout and "src/bad.py:2:29: DL001 " in failed.stdout

    passed = try_repo(project, hook_repo, "dl-lint", "src/good.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout

    fixed = try_repo(project, hook_repo, "dl-lint-fix", "src/fixable.py")
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    assert "files were modified by this hook" in fixed.stdout
    assert (project / "src" / "fixable.py").read_text() == GUARDED


def _readme_config() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## pre-commit") : readme.index("\n## ", readme.index("## pre-commit") + 1)]
    [config] = re.findall(r"```yaml\n(.*?)```", section, re.S)
    return config


def test_readme_pins_a_commit_and_autoupdate_freeze_fills_it_in(tmp_path, hook_repo):
    """Issue #19: the README's pre-commit path, to the letter. Its snippet (placeholders filled
    with this repository's URL, here a local path) pins `rev: <commit-sha>`; `pre-commit
    autoupdate --freeze` writes the real full SHA; then the hooks run from that commit."""
    repo, sha, env = hook_repo
    config = _readme_config()
    parsed = yaml.safe_load(config)
    [entry] = parsed["repos"]
    assert (entry["repo"], entry["rev"]) == ("<repository URL>", "<commit-sha>")  # a commit, not a tag
    manifest = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {hook["id"] for hook in entry["hooks"]} == manifest

    _git(tmp_path, "init", "-q", env=env)
    (tmp_path / ".pre-commit-config.yaml").write_text(config.replace("<repository URL>", repo.as_posix()))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pre-commit autoupdate --freeze --repo <repository URL>" in readme
    update = subprocess.run(
        [sys.executable, "-m", "pre_commit", "autoupdate", "--freeze", "--repo", repo.as_posix(), "--color", "never"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert update.returncode == 0, update.stdout + update.stderr
    [pinned] = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text())["repos"]
    assert pinned["rev"] == sha and re.fullmatch(r"[0-9a-f]{40}", sha)

    stage(tmp_path, hook_repo, {"src/bad.py": BAD})
    result = run_hook(tmp_path, hook_repo, "dl-lint", "--all-files")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "src/bad.py:2:29: DL001 " in result.stdout


def test_a_rev_that_does_not_exist_fails(tmp_path, hook_repo):
    """Why the README pins a SHA: `rev: v0.1.0` names a tag that does not exist, and pre-commit
    cannot even install the hooks (exit code 3)."""
    repo, _sha, env = hook_repo
    _git(tmp_path, "init", "-q", env=env)
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo.as_posix()}\n    rev: v0.1.0\n    hooks:\n      - id: dl-lint\n"
    )
    stage(tmp_path, hook_repo, {"good.py": GOOD})
    result = run_hook(tmp_path, hook_repo, "dl-lint", "--all-files")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "v0.1.0" in result.stdout + result.stderr

