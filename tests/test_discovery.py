"""Tests for dl_lint.discovery: walking, excludes, gitignore via real git, symlinks, errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dl_lint import discovery
from dl_lint.discovery import DEFAULT_EXCLUDES, DiscoveryError, discover, glob_matches

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def touch(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")


def rel(result, root: Path) -> list:
    return [p.relative_to(root).as_posix() if p.is_absolute() else p.as_posix() for p in result.files]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# --------------------------------------------------------------------- walking


def test_walk_collects_sorted_py_files(tmp_path):
    touch(tmp_path, "b.py", "a.py", "pkg/z.py", "pkg/sub/y.py", "pkg-x.py", "notes.txt", "data.pyc")
    result = discover([tmp_path], respect_gitignore=False)
    assert rel(result, tmp_path) == ["a.py", "b.py", "pkg/sub/y.py", "pkg/z.py", "pkg-x.py"]
    assert result.problems == ()


def test_paths_are_returned_as_given(tmp_path, monkeypatch):
    touch(tmp_path, "pkg/a.py")
    monkeypatch.chdir(tmp_path)
    assert discover(["."], respect_gitignore=False).files == (Path("pkg/a.py"),)
    assert discover(["pkg/"], respect_gitignore=False).files == (Path("pkg/a.py"),)
    absolute = discover([tmp_path / "pkg"], respect_gitignore=False).files
    assert absolute == (tmp_path / "pkg" / "a.py",)


def test_deduplicated_first_spelling_wins(tmp_path, monkeypatch):
    touch(tmp_path, "pkg/a.py", "pkg/b.py")
    monkeypatch.chdir(tmp_path)
    result = discover(["pkg/a.py", "pkg", str(tmp_path / "pkg" / "b.py"), "./pkg/a.py"], respect_gitignore=False)
    assert result.files == (Path("pkg/a.py"), Path("pkg/b.py"))


def test_suffixes(tmp_path):
    touch(tmp_path, "a.py", "nb.ipynb", "c.txt")
    assert rel(discover([tmp_path], respect_gitignore=False, suffixes=(".py", ".ipynb")), tmp_path) == ["a.py", "nb.ipynb"]


def test_missing_path_raises(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DiscoveryError) as info:
        discover(["foo/bar.py"])
    assert str(info.value) == "path does not exist: foo/bar.py"


def test_broken_symlink_named_explicitly_does_not_exist(tmp_path):
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    with pytest.raises(DiscoveryError, match="path does not exist: .*dangling.py"):
        discover([tmp_path / "dangling.py"])


# -------------------------------------------------------------------- excludes


def test_default_excludes(tmp_path):
    dirs = ["venv", ".venv", "env", "build", "dist", "__pycache__", ".git", "node_modules", ".tox", "site-packages"]
    touch(tmp_path, "keep.py", "src/build/gen.py", *(f"{d}/x.py" for d in dirs))
    assert set(dirs) <= set(DEFAULT_EXCLUDES)
    assert rel(discover([tmp_path], respect_gitignore=False), tmp_path) == ["keep.py"]


def test_default_excludes_only_apply_to_directories(tmp_path):
    touch(tmp_path, "env.py", "build.py")
    (tmp_path / "dist").mkdir()
    assert rel(discover([tmp_path], respect_gitignore=False, suffixes=(".py", "")), tmp_path) == ["build.py", "env.py"]


def test_explicit_paths_are_always_linted(tmp_path):
    touch(tmp_path, "build/gen_y.py", "build/inner/deep.py", "venv/lib.py", "script", "gen_x.py")
    result = discover(
        [tmp_path / "build", tmp_path / "venv" / "lib.py", tmp_path / "script", tmp_path / "gen_x.py"],
        exclude=["gen_*.py"],
        respect_gitignore=False,
    )
    assert rel(result, tmp_path) == ["build/inner/deep.py", "gen_x.py", "script", "venv/lib.py"]
    assert "build/gen_y.py" not in rel(result, tmp_path)  # still excluded when found by walking


def test_exclude_globs(tmp_path):
    touch(tmp_path, "a.py", "gen_a.py", "pkg/gen_b.py", "pkg/legacy/old.py", "other/legacy/kept.py",
          "data/x.py", "data.py/y.py", "src/deep/proto/m_pb2.py", "proto/top_pb2.py")  # fmt: skip
    result = discover(
        [tmp_path],
        exclude=["gen_*.py", "pkg/legacy"],
        extend_exclude=["data/", "**/proto/*_pb2.py"],
        root=tmp_path,
        respect_gitignore=False,
    )
    assert rel(result, tmp_path) == ["a.py", "data.py/y.py", "other/legacy/kept.py"]


def test_exclude_relative_to_root_not_cwd(tmp_path, monkeypatch):
    touch(tmp_path, "proj/pkg/legacy/old.py", "proj/pkg/new.py")
    monkeypatch.chdir(tmp_path)
    kw = dict(exclude=["pkg/legacy"], respect_gitignore=False)
    assert rel(discover(["proj"], **kw), tmp_path) == ["proj/pkg/legacy/old.py", "proj/pkg/new.py"]
    assert rel(discover(["proj"], root=tmp_path / "proj", **kw), tmp_path) == ["proj/pkg/new.py"]


@pytest.mark.parametrize(
    "pattern, path, is_dir, expected",
    [
        ("*.py", "a/b/c.py", False, True),
        ("tests", "src/tests", True, True),
        ("tests/", "src/tests", False, False),
        ("tests/", "src/tests", True, True),
        ("src/gen", "src/gen", True, True),
        ("src/gen", "lib/src/gen", True, False),
        ("./src/gen", "src/gen", True, True),
        ("/src/gen", "src/gen", True, True),
        ("**/gen", "gen", True, True),
        ("**/gen", "a/b/gen", True, True),
        ("src/**/*_pb2.py", "src/a/b/x_pb2.py", False, True),
        ("src/**/*_pb2.py", "lib/a/x_pb2.py", False, False),
        ("test_*", "pkg/test_a.py", False, True),
        ("test_*", "test/a.py", False, False),
    ],
)
def test_glob_matches(pattern, path, is_dir, expected):
    assert glob_matches(pattern, path, is_dir=is_dir) is expected


# -------------------------------------------------------------------- symlinks


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_symlinked_dirs_not_followed_files_are_inside_the_project(tmp_path):
    """Links to files are followed while they stay in the project; one leading out of it (a
    hostile checkout's ``link.py -> ~/.ssh/...``) is never read, and being found by walking, it
    is not reported either."""
    touch(tmp_path, "proj/pyproject.toml", "proj/a.py", "proj/pkg/b.py", "outside/secret.py")
    (tmp_path / "proj" / "loop").symlink_to(tmp_path / "proj")
    (tmp_path / "proj" / "out").symlink_to(tmp_path / "outside")
    (tmp_path / "proj" / "link.py").symlink_to(tmp_path / "outside" / "secret.py")
    (tmp_path / "proj" / "self.py").symlink_to(tmp_path / "proj" / "a.py")  # same file as a.py
    (tmp_path / "proj" / "pkg" / "c.py").symlink_to(tmp_path / "proj" / "pkg" / "b.py")
    result = discover([tmp_path / "proj"], respect_gitignore=False)
    assert rel(result, tmp_path / "proj") in (["a.py", "pkg/b.py"], ["self.py", "pkg/b.py"], ["a.py", "pkg/c.py"], ["self.py", "pkg/c.py"])
    assert result.problems == ()


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_named_link_out_of_the_project_is_refused(tmp_path):
    touch(tmp_path, "proj/pyproject.toml", "outside/secret.py")
    (tmp_path / "proj" / "link.py").symlink_to(tmp_path / "outside" / "secret.py")
    result = discover([tmp_path / "proj" / "link.py"], respect_gitignore=False)
    assert result.files == ()
    [(path, reason)] = result.problems
    assert path.name == "link.py" and "outside the project" in reason and "secret" not in reason


# ------------------------------------------------------------ unreadable dirs


def test_unreadable_directory_is_a_problem(tmp_path, monkeypatch):
    touch(tmp_path, "a.py", "locked/b.py")
    real_scandir = os.scandir

    def scandir(path):
        if os.path.basename(os.path.normpath(path)) == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", scandir)
    result = discover([tmp_path], respect_gitignore=False)
    assert rel(result, tmp_path) == ["a.py"]
    assert result.problems == ((tmp_path / "locked", "cannot read directory: Permission denied"),)


# ------------------------------------------------------------------- gitignore


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / ".gitignore").write_text("out/\n*.gen.py\ndata/*\n!data/keep.py\ntracked_ignored.py\n")
    touch(root, "a.py", "out/x.py", "pkg/m.gen.py", "pkg/m.py", "data/drop.py", "data/keep.py",
          "sub/secret.py", "sub/deep/secret.py", "sub/ok.py", "tracked_ignored.py")  # fmt: skip
    (root / "sub" / ".gitignore").write_text("secret.py\n")
    git(root, "add", "-f", "tracked_ignored.py")  # tracked files are never ignored by git
    return root


@needs_git
def test_gitignore(repo):
    assert rel(discover([repo]), repo) == ["a.py", "data/keep.py", "pkg/m.py", "sub/ok.py", "tracked_ignored.py"]


@needs_git
def test_gitignore_from_a_subdirectory_uses_parent_rules(repo, monkeypatch):
    monkeypatch.chdir(repo / "sub")
    assert discover(["."]).files == (Path("ok.py"),)


@needs_git
def test_gitignore_off(repo):
    assert len(discover([repo], respect_gitignore=False).files) == 10


@needs_git
def test_ignored_file_named_explicitly_is_linted(repo):
    files = discover([repo / "out" / "x.py", repo / "out"]).files
    assert files == (repo / "out" / "x.py",)


@needs_git
def test_one_git_call_per_repository(repo, monkeypatch):
    nested = repo / "vendor" / "lib"
    nested.mkdir(parents=True)
    git(nested, "init", "-q")
    (nested / ".gitignore").write_text("skip.py\n")
    touch(nested, "skip.py", "use.py")
    calls = _record_processes(monkeypatch)
    files = rel(discover([repo]), repo)
    assert "vendor/lib/use.py" in files and "vendor/lib/skip.py" not in files
    assert "sub/ok.py" in files and "sub/secret.py" not in files
    assert [c[2] for c in calls] == [str(repo), str(nested)]


def _record_processes(monkeypatch) -> list:
    """The command lines of the processes started from now on (started for real)."""
    calls = []

    class Recording(subprocess.Popen):
        def __init__(self, cmd, *args, **kwargs):
            calls.append(cmd)
            super().__init__(cmd, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", Recording)
    return calls


@needs_git
def test_no_git_installed(repo, monkeypatch):
    monkeypatch.setenv("PATH", str(repo / "no-such-dir"))
    assert len(discover([repo]).files) == 10


def test_outside_a_checkout(tmp_path, monkeypatch):
    touch(tmp_path, "a.py")
    (tmp_path / ".gitignore").write_text("a.py\n")  # not a repository: .gitignore means nothing
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert rel(discover([tmp_path]), tmp_path) == ["a.py"]


def test_no_git_process_outside_a_checkout(tmp_path, monkeypatch):
    """Without a .git folder or file above, git could only fail: it is not started."""
    if any((parent / ".git").exists() for parent in [tmp_path, *tmp_path.parents]):
        pytest.fail(f"{tmp_path} is inside a git checkout; this test needs a temporary folder outside one")
    touch(tmp_path, "a.py")
    calls = _record_processes(monkeypatch)
    assert rel(discover([tmp_path]), tmp_path) == ["a.py"]
    assert calls == []
    (tmp_path / ".git").write_text("gitdir: /nowhere\n")  # a worktree's .git file counts
    discover([tmp_path])
    assert len(calls) == 1 and calls[0][:3] == ["git", "-C", str(tmp_path)]


@needs_git
def test_git_hook_environment_is_ignored(repo, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))  # as in a hook of another repository
    files = rel(discover([repo]), repo)
    assert "tracked_ignored.py" in files  # tracked in repo's own index, not in other's
    assert "out/x.py" not in files
