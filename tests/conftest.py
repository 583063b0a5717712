import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# What a clone of this repository needs to be installed by pip, used as pre-commit hooks and
# as a GitHub Action (the rest of the repository is tests, fixtures and docs).
SNAPSHOT_FILES = ("pyproject.toml", "README.md", "LICENSE", ".pre-commit-hooks.yaml", "action.yml")
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "dl-lint tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "dl-lint tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}


@pytest.fixture(scope="session")
def repository_snapshot(tmp_path_factory):
    """(path, commit SHA): this repository as it is on disk (uncommitted edits included),
    committed in a git repository of its own, the way users reach it: a repository URL and a
    commit. pre-commit clones it at the SHA; the GitHub Action's checkout is it."""
    repo = tmp_path_factory.mktemp("dl-lint-repository")
    for name in SNAPSHOT_FILES:
        shutil.copy2(ROOT / name, repo / name)
    shutil.copytree(ROOT / "dl_lint", repo / "dl_lint", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_IDENTITY)

    def git(*args):
        return subprocess.run(
            ["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True, timeout=60
        ).stdout.strip()

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "snapshot")
    return repo, git("rev-parse", "HEAD")


@pytest.fixture(scope="session", autouse=True)
def _cache_key_outside_the_users_home(tmp_path_factory):
    """The results cache's key (dl_lint.cache.user_key) is made under $XDG_CACHE_HOME: a
    folder of the test session's, not the home folder of whoever runs the tests. Subprocesses
    inherit it."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture(autouse=True)
def _torch_marked_tests_need_torch(request):
    """A test marked ``torch`` fails (never skips) when torch cannot be imported. The test extra
    installs torch on Python >= 3.10; on 3.9, where torch 2.13 does not exist, such tests are
    deselected explicitly with ``-m "not torch"`` (README, "Development")."""
    if request.node.get_closest_marker("torch") is None:
        return
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        pytest.fail(
            f"this test needs torch ({exc}): `pip install -e '.[test]'` on Python >= 3.10, "
            "or deselect the torch tests with -m 'not torch'",
            pytrace=False,
        )


@pytest.fixture
def run_cli(tmp_path):
    """Run the installed ``dl-lint`` entry point as a user would (a real subprocess)."""

    def run(*args, cwd=None, input=None, env=None):
        full_env = dict(os.environ)
        full_env.pop("DL_LINT_OUTPUT_FORMAT", None)
        full_env.pop("DL_LINT_DOCUMENTATION_URL", None)
        full_env["NO_COLOR"] = "1"
        full_env.update(env or {})
        exe = Path(sys.executable).with_name("dl-lint")
        command = [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]
        return subprocess.run(
            command + [str(a) for a in args],
            cwd=cwd or tmp_path,
            input=input,
            capture_output=True,
            text=True,
            env=full_env,
            timeout=120,
        )

    return run
