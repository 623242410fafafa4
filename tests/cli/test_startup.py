"""The command line starts light: registering every command imports none of their dependencies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def test_importing_the_app_loads_only_the_cli_and_typer() -> None:
    code = "import sys, envforge.cli.app; print(' '.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO)
    loaded = set(run.stdout.split())
    ours = {name for name in loaded if name.startswith("envforge.") and not name.startswith("envforge.cli")}
    # The options modules (and `envforge.bench.sizes`, `envforge.ir.row_budget`) hold option defaults and import no
    # other module of envforge at run time but `envforge.errors`; `envforge.version` is what the root module (every
    # import of envforge) loads.
    assert ours == {
        "envforge.errors",
        "envforge.version",
        "envforge.bench",
        "envforge.bench.options",
        "envforge.bench.sizes",
        "envforge.ir",
        "envforge.ir.row_budget",
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


HEAVY = {
    "matplotlib",
    "sqlalchemy",
    "networkx",
    "faker",
    "jsonschema",
    "starlette",
    "uvicorn",
    "mcp",
    "torch",
    "playwright",
    "envforge.stages",
    "envforge.pipeline",
    "envforge.runtime",
}
"""What a command imports only once it has work to do: a refusal, or a help text, is given without them."""


def loaded_by(code: str) -> set[str]:
    """The modules (and their packages) loaded once `code` has run in a fresh interpreter."""
    script = f"import sys\n{code}\nprint(' '.join(sys.modules), file=sys.stderr)"
    run = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, cwd=REPO)
    assert "Traceback" not in run.stderr, run.stderr
    return set(run.stderr.splitlines()[-1].split())


def test_the_help_of_generate_loads_none_of_what_generating_needs() -> None:
    loaded = loaded_by(
        "from envforge.cli.app import main\ntry:\n    main(['generate', '--help'])\nexcept SystemExit:\n    pass"
    )
    assert "envforge.cli.commands.generate" in loaded
    assert not loaded & HEAVY


@pytest.mark.parametrize("blueprint", ["retail.yaml", "fused/airline_banking.yaml"])
def test_loading_and_checking_a_blueprint_for_a_run_loads_none_of_the_stages_or_their_libraries(
    blueprint: str,
) -> None:
    loaded = loaded_by(
        "from pathlib import Path\nfrom envforge.ir.loading import load_run_blueprint\n"
        f"load_run_blueprint(Path('blueprints/{blueprint}'), 1000, 1_000_000)"
    )
    assert "envforge.ir.checks" in loaded
    assert not loaded & HEAVY


@pytest.mark.parametrize("command", [["generate", "-o", "out"], ["lint"]])
def test_a_refused_blueprint_is_refused_before_the_stages_load(command: list[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("domain: x\n", encoding="utf-8")
    argv = [command[0], str(bad), *(str(tmp_path / arg) if arg == "out" else arg for arg in command[1:])]
    loaded = loaded_by(f"from envforge.cli.app import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass")
    assert "envforge.ir.loading" in loaded
    # lint's command builds its dry run's config (`envforge.pipeline.dag`, light) before it loads the blueprint.
    assert not loaded & (HEAVY - {"envforge.pipeline"} if command == ["lint"] else HEAVY)
    assert "envforge.pipeline.runner" not in loaded
    assert not (tmp_path / "out").exists()


def test_python_dash_m_envforge_is_the_envforge_command() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "envforge", "generate", "no-such-blueprint.yaml", "-o", "out"],
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert run.returncode == 2 and run.stderr.startswith("envforge: error: "), run.stderr
    assert "no-such-blueprint.yaml" in run.stderr and "Traceback" not in run.stderr
