"""The composite GitHub Action (action.yml): its inputs, that its steps use them, and its shell
steps run for real with bash (GitHub's `${{ }}` expressions filled in the way the runner does;
the `uses:` step and the pip install are GitHub's and PyPI's part and are not run here)."""

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
    assert "--output-format sarif --exit-zero" in sarif["run"] and '> "$DL_LINT_SARIF_FILE"' in sarif["run"]
    assert sarif["env"]["DL_LINT_SARIF_FILE"] == "${{ inputs.sarif-file }}"
    # the SARIF run comes first: the annotations step's exit code is the action's result
    names = [step.get("id") or step["name"] for step in ACTION["runs"]["steps"]]
    assert names.index("dl-lint (SARIF)") < names.index("dl-lint")


def _evaluate(expression: str, inputs: dict) -> str:
    if expression.startswith("inputs."):
        name = expression[len("inputs.") :]
        return inputs.get(name, ACTION["inputs"][name]["default"])
    values = {
        "github.action_path": str(ROOT),
        "steps.python.outputs.python-path": sys.executable,
        "steps.install.outputs.exe": str(Path(sys.executable).with_name("dl-lint")),
    }
    return values[expression]


def _condition(step: dict, inputs: dict) -> bool:
    condition = step.get("if")
    if condition is None:
        return True
    match = re.fullmatch(r"inputs\.([\w-]+) != ''", condition)
    assert match, f"the test understands only `inputs.X != ''`, not {condition!r}"
    return _evaluate(f"inputs.{match.group(1)}", inputs) != ""


def run_action(workspace: Path, inputs: dict) -> list:
    """Run the action's lint steps as the runner would: returns (step name, CompletedProcess)."""
    results = []
    for step in ACTION["runs"]["steps"]:
        name = step.get("id") or step["name"]
        if "uses" in step or name == "install" or not _condition(step, inputs):
            continue
        env = {k: v for k, v in os.environ.items() if not k.startswith("DL_LINT")}
        env.update(
            {
                key: EXPRESSION.sub(lambda m: _evaluate(m.group(1), inputs), value)
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
def test_action_annotates_and_writes_sarif(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.py").write_text(BAD)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "bad.py").write_text(BAD)
    inputs = {"paths": "src other", "args": "--select DL0", "sarif-file": "dl-lint.sarif"}
    (sarif_name, sarif_run), (name, run) = run_action(tmp_path, inputs)
    assert sarif_name == "dl-lint (SARIF)" and sarif_run.returncode == 0, sarif_run.stderr
    log = json.loads((tmp_path / "dl-lint.sarif").read_text())
    assert log["version"] == "2.1.0"
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["DL001", "DL001"]
    assert name == "dl-lint" and run.returncode == 1  # the step fails: problems were found
    lines = run.stdout.splitlines()
    assert lines[0].startswith("::error title=dl-lint (DL001),file=other/bad.py,line=2,col=29,")
    assert lines[1].startswith("::error title=dl-lint (DL001),file=src/bad.py,line=2,col=29,")


@needs_bash
def test_action_defaults_lint_everything_and_skip_sarif(tmp_path):
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nDataLoader([1], num_workers=2)\n"
    )
    [(name, run)] = run_action(tmp_path, {})
    assert name == "dl-lint" and run.returncode == 0, run.stdout + run.stderr
    assert not list(tmp_path.glob("*.sarif"))


@needs_bash
def test_action_inputs_are_not_evaluated_by_the_shell(tmp_path):
    (tmp_path / "train.py").write_text(BAD)
    [(_, run)] = run_action(tmp_path, {"args": "$(touch injected) `touch injected2` *"})
    assert run.returncode == 2  # dl-lint got them as (odd) arguments and said so
    assert not (tmp_path / "injected").exists() and not (tmp_path / "injected2").exists()


def test_readme_documents_the_inputs_and_the_hooks():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## GitHub Action") : readme.index("## Notebooks")]
    for name, spec in ACTION["inputs"].items():
        default = spec["default"]
        assert f"| `{name}` | `{default}` |" in section or f'| `{name}` | `"{default}"` |' in section, name
    workflows = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]
    steps = [step for workflow in workflows for step in workflow["jobs"]["dl-lint"]["steps"]]
    assert {step["uses"].split("@")[0] for step in steps} >= {
        "dl-lint/dl-lint",
        "github/codeql-action/upload-sarif",
    }
    used = [step["with"] for step in steps if step["uses"].startswith("dl-lint/dl-lint@")]
    assert all(set(given) <= set(ACTION["inputs"]) for given in used)
    hooks = readme[readme.index("## pre-commit") : readme.index("## GitHub Action")]
    [config] = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", hooks, re.S)]
    manifest = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {hook["id"] for hook in config["repos"][0]["hooks"]} == manifest
