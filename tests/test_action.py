"""The composite GitHub Action (action.yml): its inputs, that its steps use them, and its shell
steps run for real with bash, as the runner runs them (GitHub's `${{ }}` expressions filled in
the way the runner does): the install step pip-installs dl-lint from the action's checkout (a
committed snapshot of this repository) into a virtualenv of its own, and the lint steps run the
`dl-lint` it installed. Only `actions/setup-python` (GitHub's part) is not run: the Python
running the tests stands in for it. The workflows the README and docs/integrations.md show are
run with their own inputs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

BAD = "from torch.utils.data import DataLoader\nloader = DataLoader([1, 2], prefetch_factor=2)\n"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
STEPS = {step.get("id") or step["name"]: step for step in ACTION["runs"]["steps"]}
EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def test_inputs():
    inputs = ACTION["inputs"]
    assert set(inputs) == {"paths", "args", "sarif-file", "python-version"}
    assert inputs["paths"]["default"] == "."
    assert inputs["args"]["default"] == ""
    assert inputs["sarif-file"]["default"] == ""
    assert not any(spec.get("required") for spec in inputs.values())
    assert all(spec["description"] for spec in inputs.values())


def test_steps_set_up_python_install_from_the_action_and_use_every_input():
    assert ACTION["runs"]["using"] == "composite"
    setup = STEPS["python"]
    assert setup["uses"].startswith("actions/setup-python@")
    assert setup["with"]["python-version"] == "${{ inputs.python-version }}"
    install = STEPS["install"]
    assert install["env"]["DL_LINT_SOURCE"] == "${{ github.action_path }}"
    assert install["env"]["DL_LINT_PYTHON"] == "${{ steps.python.outputs.python-path }}"
    assert "pip install" in install["run"] and '"$DL_LINT_SOURCE"' in install["run"]
    sarif, github = STEPS["dl-lint (SARIF)"], STEPS["dl-lint"]
    assert sarif["if"] == "inputs.sarif-file != ''"
    for step in (sarif, github):
        assert step["shell"] == "bash"
        assert step["env"]["DL_LINT_PATHS"] == "${{ inputs.paths }}"
        assert step["env"]["DL_LINT_ARGS"] == "${{ inputs.args }}"
        assert "$DL_LINT_PATHS $DL_LINT_ARGS" in step["run"]
        # inputs reach the shell only through environment variables (no template injection)
        assert "${{" not in step["run"]
    assert "--output-format github" in github["run"]
    for step in (sarif, github):  # the results cache is kept out of the checkout
        assert step["env"]["DL_LINT_CACHE_DIR"] == "${{ runner.temp }}/dl-lint-cache"
    assert "--output-format sarif --exit-zero" in sarif["run"] and '> "$DL_LINT_SARIF_FILE"' in sarif["run"]
    assert sarif["env"]["DL_LINT_SARIF_FILE"] == "${{ inputs.sarif-file }}"
    # the SARIF run comes first: the annotations step's exit code is the action's result
    names = [step.get("id") or step["name"] for step in ACTION["runs"]["steps"]]
    assert names.index("dl-lint (SARIF)") < names.index("dl-lint")


@pytest.fixture(scope="module")
def installed(tmp_path_factory, repository_snapshot):
    """Run the install step for real; the outputs it wrote to $GITHUB_OUTPUT (``exe``)."""
    if shutil.which("bash") is None:
        pytest.fail("bash is needed to run the action's steps")
    action_path, _sha = repository_snapshot
    runner_temp = tmp_path_factory.mktemp("runner-temp")
    output = runner_temp / "github-output"
    output.write_text("")
    step = STEPS["install"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DL_LINT", "PIP_REQUIRE_VIRTUALENV"))}
    values = {"github.action_path": str(action_path), "steps.python.outputs.python-path": sys.executable}
    env.update({key: EXPRESSION.sub(lambda m: values[m.group(1)], value) for key, value in step["env"].items()})
    env.update({"RUNNER_TEMP": str(runner_temp), "GITHUB_OUTPUT": str(output)})
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step["run"]],
        env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    exe = Path(outputs["exe"])
    assert exe.is_file() and str(exe).startswith(str(runner_temp))  # its own virtualenv, not ours
    return {"action_path": str(action_path), "exe": str(exe), "runner_temp": str(runner_temp)}


def _evaluate(expression: str, inputs: dict, installed: dict) -> str:
    if expression.startswith("inputs."):
        name = expression[len("inputs.") :]
        return inputs.get(name, ACTION["inputs"][name]["default"])
    values = {
        "github.action_path": installed["action_path"],
        "steps.python.outputs.python-path": sys.executable,
        "steps.install.outputs.exe": installed["exe"],
        "runner.temp": installed["runner_temp"],
    }
    return values[expression]


def _condition(step: dict, inputs: dict) -> bool:
    condition = step.get("if")
    if condition is None:
        return True
    match = re.fullmatch(r"inputs\.([\w-]+) != ''", condition)
    assert match, f"the test understands only `inputs.X != ''`, not {condition!r}"
    return inputs.get(match.group(1), ACTION["inputs"][match.group(1)]["default"]) != ""


def run_action(workspace: Path, inputs: dict, installed: dict) -> list:
    """Run the action's lint steps as the runner would: returns (step name, CompletedProcess)."""
    unknown = set(inputs) - set(ACTION["inputs"])
    assert not unknown, f"inputs the action does not have: {unknown}"
    results = []
    for step in ACTION["runs"]["steps"]:
        name = step.get("id") or step["name"]
        if "uses" in step or name == "install" or not _condition(step, inputs):
            continue  # setup-python is GitHub's; the install step ran once, in `installed`
        env = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT")}
        env.update(
            {
                key: EXPRESSION.sub(lambda m: _evaluate(m.group(1), inputs, installed), value)
                for key, value in step["env"].items()
            }
        )
        env["NO_COLOR"] = "1"
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        results.append((name, result))
        if result.returncode != 0:
            break
    return results


@needs_bash
def test_install_step_is_valid_bash():
    result = subprocess.run(["bash", "-n", "-c", STEPS["install"]["run"]], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@needs_bash
def test_action_annotates_and_writes_sarif(tmp_path, installed):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.py").write_text(BAD)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "bad.py").write_text(BAD)
    inputs = {"paths": "src other", "args": "--select DL0", "sarif-file": "dl-lint.sarif"}
    (sarif_name, sarif_run), (name, run) = run_action(tmp_path, inputs, installed)
    assert sarif_name == "dl-lint (SARIF)" and sarif_run.returncode == 0, sarif_run.stderr
    log = json.loads((tmp_path / "dl-lint.sarif").read_text())
    assert log["version"] == "2.1.0"
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["DL001", "DL001"]
    assert name == "dl-lint" and run.returncode == 1  # the step fails: problems were found
    lines = run.stdout.splitlines()
    assert lines[0].startswith("::error title=dl-lint (DL001),file=other/bad.py,line=2,col=29,")
    assert lines[1].startswith("::error title=dl-lint (DL001),file=src/bad.py,line=2,col=29,")


@needs_bash
def test_action_defaults_lint_everything_and_skip_sarif(tmp_path, installed):
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nDataLoader([1], num_workers=2)\n"
    )
    [(name, run)] = run_action(tmp_path, {}, installed)
    assert name == "dl-lint" and run.returncode == 0, run.stdout + run.stderr
    assert not list(tmp_path.glob("*.sarif"))


@needs_bash
def test_action_keeps_its_cache_in_the_runners_temporary_folder(tmp_path, installed):
    """Nothing is written into the checkout, and a .dl_lint_cache committed there (a folder
    that is a link out of the checkout, here) is neither read nor written: both steps use the
    cache in RUNNER_TEMP, the second one answered by the first."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "train.py").write_text(BAD)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / ".dl_lint_cache").symlink_to(outside, target_is_directory=True)
    cache_dir = Path(installed["runner_temp"]) / "dl-lint-cache"
    shutil.rmtree(cache_dir, ignore_errors=True)
    (sarif_name, sarif_run), (name, run) = run_action(tmp_path, {"sarif-file": "out.sarif"}, installed)
    assert sarif_run.returncode == 0 and run.returncode == 1, sarif_run.stderr + run.stderr
    assert run.stderr == "" and run.stdout.startswith("::error title=dl-lint (DL001),file=train.py,")
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [".dl_lint_cache", "out.sarif", "pyproject.toml", "train.py"]
    assert list(cache_dir.glob("results-*.json"))


@needs_bash
def test_action_inputs_are_not_evaluated_by_the_shell(tmp_path, installed):
    (tmp_path / "train.py").write_text(BAD)
    [(_, run)] = run_action(tmp_path, {"args": "$(touch injected) `touch injected2` *"}, installed)
    assert run.returncode == 2  # dl-lint got them as (odd) arguments and said so
    assert not (tmp_path / "injected").exists() and not (tmp_path / "injected2").exists()


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _workflows(markdown: str) -> list:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", markdown, re.S)]


def _action_steps(workflows: list) -> list:
    steps = [step for workflow in workflows if "jobs" in workflow for step in workflow["jobs"]["dl-lint"]["steps"]]
    return [step for step in steps if step.get("uses", "").startswith("OWNER/dl-lint@")]


README = (ROOT / "README.md").read_text(encoding="utf-8")
INTEGRATIONS = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")


def test_docs_document_the_inputs_and_pin_a_commit():
    section = _section(INTEGRATIONS, "## GitHub Action")
    for name, spec in ACTION["inputs"].items():
        default = spec["default"]
        assert f"| `{name}` | `{default}` |" in section or f'| `{name}` | `"{default}"` |' in section, name
    documented = _action_steps(_workflows(section)) + _action_steps(_workflows(_section(README, "## CI")))
    assert len(documented) >= 3
    for step in documented:
        # Pinned to a commit: no release tag exists (issue #19: `@v0.1.0` named nothing).
        assert step["uses"] == "OWNER/dl-lint@<commit-sha>", step
        assert set(step.get("with", {})) <= set(ACTION["inputs"]), step
    uploads = [s for w in _workflows(section) if "jobs" in w for s in w["jobs"]["dl-lint"]["steps"]]
    assert any(s.get("uses", "").startswith("github/codeql-action/upload-sarif@") for s in uploads)


@needs_bash
def test_the_readme_workflow_runs_as_documented(tmp_path, installed):
    """The README's workflow, with its own inputs: annotations for the problem, the step fails."""
    [step] = _action_steps(_workflows(_section(README, "## CI")))
    inputs = {key: str(value) for key, value in step.get("with", {}).items()}
    for folder in inputs.get("paths", ".").split():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "train.py").write_text(BAD)
    [(name, run)] = run_action(tmp_path, inputs, installed)
    assert name == "dl-lint" and run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.startswith("::error title=dl-lint (DL001),file=")


@needs_bash
def test_the_documented_code_scanning_workflow_writes_its_sarif(tmp_path, installed):
    section = _section(INTEGRATIONS, "## GitHub Action")
    steps = _action_steps(_workflows(section))
    [step] = [s for s in steps if "sarif-file" in s.get("with", {})]
    inputs = {key: str(value) for key, value in step["with"].items()}
    for folder in inputs.get("paths", ".").split():
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "train.py").write_text(BAD)
    results = run_action(tmp_path, inputs, installed)
    assert [name for name, _ in results] == ["dl-lint (SARIF)", "dl-lint"]
    log = json.loads((tmp_path / inputs["sarif-file"]).read_text())
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["DL001"]
    assert results[1][1].returncode == 1  # the annotations step still fails the job


def test_docs_document_the_hooks():
    hooks = _section(INTEGRATIONS, "## pre-commit")
    [config] = [block for block in _workflows(hooks) if "repos" in block]
    manifest = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {hook["id"] for hook in config["repos"][0]["hooks"]} == manifest
    [readme_config] = [block for block in _workflows(_section(README, "## pre-commit")) if "repos" in block]
    assert config == readme_config  # the same pinned snippet in both places
