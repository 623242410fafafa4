"""The command line starts light: registering every command imports none of their dependencies."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_importing_the_app_loads_only_the_cli_and_typer() -> None:
    code = "import sys, envforge.cli.app; print(' '.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO)
    loaded = set(run.stdout.split())
    ours = {name for name in loaded if name.startswith("envforge.") and not name.startswith("envforge.cli")}
    # The options modules (and `envforge.bench.sizes`) hold option defaults and import no other module of envforge
    # at run time; `envforge.version` is what the root module (every import of envforge) loads.
    assert ours == {
        "envforge.errors",
        "envforge.version",
        "envforge.bench",
        "envforge.bench.options",
        "envforge.bench.sizes",
        "envforge.ir",
        "envforge.ir.serving",
        "envforge.rollouts",
        "envforge.rollouts.options",
        "envforge.serving",
        "envforge.serving.options",
        "envforge.suite",
        "envforge.suite.settings",
        "envforge.synthesis",
        "envforge.synthesis.options",
    }
    assert not loaded & {"mcp", "pydantic", "rich", "uvicorn", "starlette", "yaml"}
