import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def run_cli(tmp_path):
    """Run the installed ``dl-lint`` entry point as a user would (a real subprocess)."""

    def run(*args, cwd=None, input=None, env=None):
        full_env = dict(os.environ)
        full_env.pop("DL_LINT_OUTPUT_FORMAT", None)
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
