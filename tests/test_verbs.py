"""The library's verbs: `envforge.X` loads them on first use, and they do what the commands do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import envforge
from envforge.errors import UserInputError
from envforge.stages.registry import STAGES
from tests.conftest import REPO


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO)
    return {name for name in run.stdout.split() if name == "envforge" or name.startswith("envforge.")}


def test_importing_envforge_loads_only_its_version() -> None:
    assert _loaded_after("import envforge") == {"envforge", "envforge.version"}


def test_what_an_exported_package_imports_loads_nothing_of_the_generator() -> None:
    loaded = _loaded_after("import envforge.runtime.session, envforge.runtime.mcp_server")
    generator = ("envforge.stages", "envforge.pipeline", "envforge.verbs", "envforge.suite", "envforge.cli")
    assert "envforge.runtime.session" in loaded
    assert sorted(name for name in loaded if name.startswith(generator)) == []


def test_the_root_names_each_verb_and_nothing_else_unknown() -> None:
    assert all(callable(getattr(envforge, name)) for name in envforge.__all__ if name != "__version__")
    assert set(envforge.__all__) <= set(dir(envforge))
    with pytest.raises(AttributeError, match="has no attribute 'gnerate'"):
        _ = envforge.gnerate  # type: ignore[attr-defined]


def test_generate_builds_a_shipped_blueprint_by_name_and_resumes_from_the_cache(tmp_path: Path) -> None:
    run = envforge.generate("retail", tmp_path, rows=60, tasks=4)
    assert (run.env_id, run.package) == ("envforge/retail-v0", tmp_path / "retail")
    assert (run.package / "envforge.yaml").is_file()
    assert [result.stage for result in run.stages] == [stage.name for stage in STAGES]
    again = envforge.generate(REPO / "blueprints" / "retail.yaml", tmp_path, rows=60, tasks=4)
    assert {stage.status for stage in again.stages} == {"cached"}
    assert again.package_hash == run.package_hash


def test_a_verb_refuses_bad_input_as_the_command_does(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="rtail: no such blueprint file or shipped blueprint; did you mean"):
        envforge.generate("rtail", tmp_path)
