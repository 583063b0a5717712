"""Hostile repositories, config readers (issue 28, sections 1 and 2): every project file dl-lint
reads comes through one guarded door (``dl_lint.reading``). A named pipe, a link to a device, a
file too large, or a path leading out of the project must end the run in bounded time, with a
DL000 where the file was named or referenced, silence where it was only found by walking, and
nothing of a file outside the project in any output.

Each case copies a fixture project whose findings are known (the positive control: the same run
on the untouched copy reports them, so the reader under attack is the one that runs), then puts
the hostile file in place and runs the real CLI in a subprocess with a timeout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES

RULES = FIXTURES / "rules"
TIMEOUT = 60  # seconds: a run that blocks on a FIFO or reads /dev/zero never ends

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="needs FIFOs and /dev/zero")


def _copy(name: str, tmp_path: Path) -> Path:
    root = tmp_path / name
    shutil.copytree(RULES / name, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _lint(root: Path, *args: str) -> subprocess.CompletedProcess:
    """``dl-lint --no-cache --output-format json ARGS`` from ``root``; fails the test if it does
    not end within TIMEOUT seconds."""
    exe = Path(sys.executable).with_name("dl-lint")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "dl_lint"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT_")}
    env["NO_COLOR"] = "1"
    started = time.monotonic()
    try:
        done = subprocess.run(
            command + ["--no-cache", "--output-format", "json", *args],
            cwd=root, capture_output=True, text=True, env=env, timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"dl-lint did not end within {TIMEOUT} s")
    assert time.monotonic() - started < TIMEOUT
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _found(done: subprocess.CompletedProcess) -> list:
    assert done.returncode in (0, 1), done.stderr
    return sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout))


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _to_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _dl000(found: list, name: str) -> bool:
    return any(f == name and code == "DL000" for f, _, code in found)


# -- section 1: special files in every config reader -----------------------------------------------


@posix_only
def test_hydra_group_file_fifo_is_dl000_and_dev_zero_is_unknown(tmp_path):
    root = _copy("hydra_configs", tmp_path)
    group = "conf/data/default.yaml"
    assert any(f == group and code == "DL002" for f, _, code in _found(_lint(root, ".")))  # positive control
    _fifo(root / group)
    found = _found(_lint(root, "."))
    assert _dl000(found, group)  # referenced by the defaults list: the user learns why
    assert not any(f == group and code != "DL000" for f, _, code in found)
    _to_zero(root / group.replace("default", "default"))  # replaces the FIFO
    found = _found(_lint(root, "."))
    assert not any(f == group for f, _, _ in found)  # /dev/zero is outside the project: unknown, silent


@posix_only
def test_hydra_primary_config_fifo(tmp_path):
    root = _copy("hydra_configs", tmp_path)
    _fifo(root / "conf/config.yaml")
    assert _dl000(_found(_lint(root, ".")), "conf/config.yaml")


@posix_only
def test_mmengine_base_fifo_and_dev_zero(tmp_path):
    root = _copy("mmengine_configs", tmp_path)
    base = "configs/_base_/datasets/coco_detection.py"
    before = _found(_lint(root, "."))
    assert any(code == "DL002" for _, _, code in before)
    for attack in (_fifo, _to_zero):
        attack(root / base)
        after = _found(_lint(root, "."))
        # the configs that inherit from it lose what they inherit (unknown), nothing hangs
        assert after != before
        assert all(code in ("DL000", "DL001", "DL002") for _, _, code in after)


@posix_only
def test_yacs_base_dev_zero_and_stray_fifo(tmp_path):
    root = _copy("yacs_research", tmp_path)
    before = _found(_lint(root, "."))
    assert ("configs/debug.yaml", 3, "DL001") in before
    # _BASE_ naming /dev/zero in plain text: a run whose base cannot be read is unknown
    (root / "configs/inherits_zero.yaml").write_text('_BASE_: "/dev/zero"\nDATALOADER:\n  NUM_WORKERS: 0\n')
    # a FIFO anywhere in the tree: the yacs reader walks every *.yaml, and must not wait on it
    os.mkfifo(root / "configs/stray.yaml")
    os.mkfifo(root / "deep.yml")
    after = _found(_lint(root, "."))
    assert after == before


@posix_only
def test_hf_arguments_json_fifo_and_dev_zero(tmp_path):
    root = _copy("transformers_args", tmp_path)
    name = "examples/persistent_without_workers.json"
    assert any(f == name and code == "DL002" for f, _, code in _found(_lint(root, ".")))
    _to_zero(root / name)
    assert not any(f == name for f, _, _ in _found(_lint(root, ".")))
    _fifo(root / name)
    found = _found(_lint(root, "."))
    assert not any(f == name and code != "DL000" for f, _, code in found)


@posix_only
def test_lightning_cli_config_fifo(tmp_path):
    root = _copy("lightning_cli", tmp_path)
    name = "configs/debug.yaml"
    assert any(f == name and code == "DL001" for f, _, code in _found(_lint(root, ".")))
    _fifo(root / name)
    assert not any(f == name and code != "DL000" for f, _, code in _found(_lint(root, ".")))
    (root / name).unlink()
    (root / name).symlink_to("/dev/zero")
    assert not any(f == name for f, _, _ in _found(_lint(root, ".")))


@posix_only
def test_run_definition_fifo(tmp_path):
    root = _copy("hydra_configs", tmp_path)
    os.mkfifo(root / "docker-compose.yml")
    (root / "compose.yaml").symlink_to("/dev/zero")
    _found(_lint(root, "."))  # ends


@posix_only
@pytest.mark.parametrize("hostile", ["fifo", "dev_zero", "huge", "outside"])
def test_makefile_run_definition_fifo_dev_zero_huge_or_outside(tmp_path, hostile):
    """A Makefile that runs ``docker run`` is a container definition (DL104): one that is a FIFO, a
    link to /dev/zero or to a file outside the project, or too large, is not read (no
    definition, no DL104 from it), and the run ends; named, a special file is a DL000."""
    root = _copy("dl104_makefile", tmp_path)
    makefile = root / "docker/Makefile"
    assert _found(_lint(root, ".")) == [("train.py", 19, "DL104")]  # the reader under attack reads it
    if hostile == "fifo":
        _fifo(makefile)
    elif hostile == "dev_zero":
        _to_zero(makefile)
    elif hostile == "huge":
        from dl_lint.analysis.containers import MAX_DEFINITION_BYTES

        makefile.write_text(makefile.read_text() + "# padding\n" * (MAX_DEFINITION_BYTES // 10 + 1))
    else:
        home = _outside(tmp_path)
        (home / "Makefile").write_text(makefile.read_text().replace("/bin/bash", f"/bin/bash {SECRET}"))
        makefile.unlink()
        makefile.symlink_to(home / "Makefile")
    started = time.monotonic()
    assert _found(_lint(root, ".")) == []
    assert time.monotonic() - started < 20
    named = _found(_lint(root, "docker/Makefile"))
    if hostile in ("fifo", "dev_zero"):
        assert named == [("docker/Makefile", 1, "DL000")]
    else:
        assert named == []
    if hostile == "outside":
        assert SECRET not in _every_output(root)


@posix_only
def test_python_module_links_to_devices_and_fifos(tmp_path):
    """A module an import reaches, which is a FIFO or a link to /dev/zero: the walker never lists
    such files, and the index reads only regular files."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom settings import WORKERS\nimport zero\n"
        "DataLoader([1], num_workers=WORKERS, persistent_workers=True)\n"
    )
    os.mkfifo(root / "settings.py")
    (root / "zero.py").symlink_to("/dev/zero")
    assert _found(_lint(root, ".")) == []


def test_yaml_larger_than_the_limit_is_dl000_when_referenced(tmp_path):
    from dl_lint.reading import MAX_CONFIG_BYTES

    root = _copy("hydra_configs", tmp_path)
    group = root / "conf/data/default.yaml"
    group.write_text(group.read_text() + "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1))
    started = time.monotonic()
    found = _found(_lint(root, "."))
    assert time.monotonic() - started < 20
    assert _dl000(found, "conf/data/default.yaml")


def test_a_large_yaml_under_the_limit_composes_quickly(tmp_path):
    """libyaml composes Hydra files (the pure-Python composer took 31.7 s for 10 MB)."""
    root = _copy("hydra_configs", tmp_path)
    group = root / "conf/trainer/default.yaml"
    group.write_text(group.read_text() + "".join(f"k{i}: [1, 2, {{a: b}}]\n" for i in range(100_000)))
    assert group.stat().st_size > 2_000_000
    started = time.monotonic()
    found = _found(_lint(root, "."))
    assert time.monotonic() - started < 20
    assert any(f == "conf/data/default.yaml" and code == "DL002" for f, _, code in found)


def test_duplicate_keys_in_a_hydra_file_are_dl000(tmp_path):
    """OmegaConf 2.3.1 refuses a file with a duplicate key ("found duplicate key"), so Hydra never
    composes it: the values are unknown and the user learns why."""
    root = _copy("hydra_configs", tmp_path)
    group = root / "conf/data/default.yaml"
    group.write_text(group.read_text() + "num_workers: 4\n")
    found = _found(_lint(root, "."))
    assert _dl000(found, "conf/data/default.yaml")
    assert not any(code in ("DL001", "DL002") for _, _, code in found)
    done = _lint(root, ".")
    assert "duplicate key num_workers" in done.stdout


def test_duplicate_keys_in_a_yacs_file_last_one_wins(tmp_path):
    """yacs and fvcore read YAML with yaml.safe_load: the last duplicate wins, no error."""
    root = _copy("yacs_research", tmp_path)
    debug = root / "configs/debug.yaml"
    text = debug.read_text()
    assert "NUM_WORKERS: 0" in text
    debug.write_text(text.replace("NUM_WORKERS: 0", "NUM_WORKERS: 0\n  NUM_WORKERS: 4"))
    found = _found(_lint(root, "."))
    assert not any(f == "configs/debug.yaml" for f, _, _ in found)  # 4 workers won: no crash
    debug.write_text(text.replace("NUM_WORKERS: 0", "NUM_WORKERS: 4\n  NUM_WORKERS: 0"))
    assert any(f == "configs/debug.yaml" and code == "DL001" for f, _, code in _found(_lint(root, ".")))


# -- section 2: nothing outside the project is read, nothing of it is printed -------------------------


SECRET = "ghp_TOPSECRET123"


def _outside(tmp_path: Path) -> Path:
    """A victim's home beside the project: a YAML file holding a token, and one PyYAML rejects."""
    home = tmp_path / "victim_home"
    home.mkdir()
    (home / "creds.yaml").write_text(f"token: {SECRET}\nnum_workers: 0\nmultiprocessing_context: {SECRET}\n")
    (home / "broken.yaml").write_text(f"a: [{SECRET}\n")
    return home


def _every_output(root: Path) -> str:
    out = []
    for fmt in ("concise", "full", "json", "sarif", "github", "gitlab", "junit"):
        done = _lint(root, "--output-format", fmt, ".")
        out.append(done.stdout + done.stderr)
    return "\n".join(out)


@pytest.mark.parametrize(
    "entry",
    ["- ../../victim_home/creds", "- ../../victim_home/broken", "- data: ../../../victim_home/creds", "- {abs}/creds", "- data: {abs}/broken"],
)
def test_hydra_defaults_leading_out_of_the_project(tmp_path, entry):
    home = _outside(tmp_path)
    root = _copy("hydra_configs", tmp_path)
    config = root / "conf/config.yaml"
    config.write_text(config.read_text().replace("defaults:\n", "defaults:\n  " + entry.format(abs=home) + "\n", 1))
    text = _every_output(root)
    assert SECRET not in text
    assert "victim_home" not in text
    assert str(tmp_path) not in text.replace(str(root), "")  # no absolute path outside the project


def test_hydra_config_path_outside_the_project(tmp_path):
    home = _outside(tmp_path)
    (home / "config.yaml").write_text(f"data:\n  num_workers: 0\nsecret: {SECRET}\n")
    root = _copy("hydra_configs", tmp_path)
    train = root / "train.py"
    train.write_text(train.read_text().replace('config_path="conf"', f'config_path="{home}"'))
    text = _every_output(root)
    assert SECRET not in text and "victim_home" not in text


def test_interpolation_cannot_copy_outside_text(tmp_path):
    """The token of issue 28: an interpolation of a key that only an outside file defines."""
    _outside(tmp_path)
    root = _copy("hydra_configs", tmp_path)
    config = root / "conf/config.yaml"
    config.write_text(
        config.read_text().replace("defaults:\n", "defaults:\n  - ../../victim_home/creds\n", 1)
        + "ctx: ${multiprocessing_context}\n"
    )
    train = root / "train.py"
    train.write_text(
        train.read_text()
        + "\n\n@hydra.main(version_base=None, config_path='conf', config_name='config')\n"
        "def other(cfg):\n    return DataLoader(range(8), num_workers=2, multiprocessing_context=cfg.ctx)\n"
    )
    assert SECRET not in _every_output(root)


def test_mmengine_base_outside_the_project(tmp_path):
    home = _outside(tmp_path)
    (home / "base.py").write_text(f"train_dataloader = dict(num_workers=0, persistent_workers=True, note='{SECRET}')\n")
    root = _copy("mmengine_configs", tmp_path)
    (root / "configs/leak.py").write_text(f"_base_ = ['{home}/base.py']\ntrain_dataloader = dict(batch_size=2)\n")
    text = _every_output(root)
    assert SECRET not in text and "victim_home" not in text


def test_yacs_base_outside_the_project(tmp_path):
    home = _outside(tmp_path)
    (home / "Base.yaml").write_text("DATALOADER:\n  NUM_WORKERS: 0\n")
    root = _copy("yacs_research", tmp_path)
    (root / "configs/leak.yaml").write_text(f"_BASE_: {home}/Base.yaml\n")
    (root / "configs/leak2.yaml").write_text("_BASE_: ../../victim_home/broken.yaml\n")
    before = _found(_lint(root, "."))
    text = _every_output(root)
    assert SECRET not in text and "victim_home" not in text
    assert not any(f.startswith("configs/leak") for f, _, _ in before)


def test_python_link_out_of_the_project(tmp_path):
    home = _outside(tmp_path)
    (home / "secret.py").write_text(f"x = (  # {SECRET}\n")  # a syntax error would print its line
    root = _copy("hydra_configs", tmp_path)
    (root / "leak.py").symlink_to(home / "secret.py")
    assert SECRET not in _every_output(root)
    done = _lint(root, "--output-format", "full", "leak.py")
    assert SECRET not in done.stdout + done.stderr
    assert "outside the project" in done.stdout


@posix_only
def test_instantiated_config_files_found_by_walking_fifo_and_dev_zero_are_unknown(tmp_path):
    """The YAML files a ``--base`` list may name are found by walking configs/: a FIFO or a link
    to /dev/zero among them is silently unknown (not named, not referenced), and the run ends."""
    root = _copy("instantiate_main_module", tmp_path)
    assert ("configs/debug.yaml", 7, "DL001") in _found(_lint(root, "."))  # positive control
    _fifo(root / "configs/debug.yaml")
    _to_zero(root / "configs/zero_batch.yaml")
    (root / "configs/outside.yaml").symlink_to(FIXTURES / "rules" / "instantiate_helper_module" / "configs" / "train.yaml")
    found = _found(_lint(root, "."))
    assert not any(f.startswith("configs/") for f, _, _ in found)
