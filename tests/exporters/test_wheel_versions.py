"""Wheels versioned by their content: a changed package or runtime gets a new version, so reinstalling a
re-exported wheel upgrades it, and an export leaves one build of each environment it wrote."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from envforge.exporters.run import export
from envforge.exporters.wheel import WheelSpec, build_wheel, with_content_version
from envforge.exporters.wheel_folder import superseded_wheels
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_tasks
from envforge.stages.generate import run_pipeline
from tests.conftest import REPO

TASKS_FILE = "envforge_env_retail/package/tasks.jsonl"
CONTENT_VERSION = re.compile(r"0\.1\.0\+h[0-9a-f]{12}")
FILES = {"pkg/__init__.py": b"VALUE = 1\n"}


def _spec(name: str, requires: list[str] | None = None) -> WheelSpec:
    return WheelSpec(name=name, version="0.1.0", summary="a test wheel", requires=requires or [])


def _write(folder: Path, spec: WheelSpec, files: dict[str, bytes]) -> WheelSpec:
    versioned = with_content_version(spec, files)
    (folder / versioned.filename).write_bytes(build_wheel(versioned, files))
    return versioned


def test_a_wheel_version_names_its_files_and_its_metadata() -> None:
    version = with_content_version(_spec("envforge-env-shop"), FILES).version
    assert CONTENT_VERSION.fullmatch(version)
    assert with_content_version(_spec("envforge-env-shop"), dict(FILES)).version == version
    assert with_content_version(_spec("envforge-env-shop"), {"pkg/__init__.py": b"VALUE = 2\n"}).version != version
    pinned_elsewhere = _spec("envforge-env-shop", ["envforge-runtime==0.1.0+h000000000000"])
    assert with_content_version(pinned_elsewhere, FILES).version != version


def test_a_reexport_retires_the_environments_earlier_build_and_runtimes_nothing_pins(tmp_path: Path) -> None:
    old_runtime = _write(tmp_path, _spec("envforge-runtime"), {"envforge/a.py": b"old\n"})
    orphan_runtime = _write(tmp_path, _spec("envforge-runtime"), {"envforge/a.py": b"older\n"})
    runtime = _write(tmp_path, _spec("envforge-runtime"), {"envforge/a.py": b"new\n"})
    old_shop = _write(tmp_path, _spec("envforge-env-shop", [f"envforge-runtime=={old_runtime.version}"]), FILES)
    other = _write(tmp_path, _spec("envforge-env-shop-two", [f"envforge-runtime=={old_runtime.version}"]), FILES)
    shop = _write(tmp_path, _spec("envforge-env-shop", [f"envforge-runtime=={runtime.version}"]), FILES)
    assert len({spec.filename for spec in (old_runtime, orphan_runtime, runtime, old_shop, other, shop)}) == 6
    stale = superseded_wheels(tmp_path, runtime, [shop])
    # The other environment was not exported this time: it keeps its build and the runtime it pins.
    assert sorted(path.name for path in stale) == sorted([old_shop.filename, orphan_runtime.filename])


def _installed(python: Path, distribution: str, member: str) -> dict[str, Any]:
    """What the venv of `python` has installed of `distribution`: version, requirements and the text of `member`."""
    code = (
        "import importlib.metadata as m, json, sys; d = m.distribution(sys.argv[1]); "
        "print(json.dumps({'version': d.version, 'requires': d.requires, 'text': d.locate_file(sys.argv[2]).read_text()}))"
    )
    result = subprocess.run(
        [str(python), "-c", code, distribution, member], capture_output=True, text=True, check=True, timeout=60
    )
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def _pip_install(python: Path, *wheels: Path) -> None:
    """`pip install --no-index --no-deps` into the venv of `python` (that venv has no pip of its own)."""
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "-q", "--no-index", "--no-deps", *map(str, wheels)], check=True, timeout=300)


def _wheels(folder: Path) -> tuple[Path, Path]:
    (env,) = sorted(folder.glob("envforge_env_retail-*.whl"))
    (runtime,) = sorted(folder.glob("envforge_runtime-*.whl"))
    return env, runtime


@pytest.mark.slow
def test_reinstalling_a_reexported_wheel_after_a_change_upgrades_it(tmp_path: Path) -> None:
    blueprint, generated, exports = REPO / "blueprints" / "retail.yaml", tmp_path / "generated", tmp_path / "exports"
    package = run_pipeline(blueprint, generated, GenerateConfig(rows=100, tasks=3)).package
    export([package], exports, ["wheel"])
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    first_env, first_runtime = _wheels(exports / "wheels")
    _pip_install(python, first_env, first_runtime)
    first = _installed(python, "envforge-env-retail", TASKS_FILE)
    assert len(first["text"].splitlines()) == len(load_tasks(open_package(package))) == 3

    package = run_pipeline(blueprint, generated, GenerateConfig(rows=100, tasks=4)).package
    export([package], exports, ["wheel"])
    env_wheel, runtime_wheel = _wheels(exports / "wheels")  # one environment build left: the new one
    assert runtime_wheel == first_runtime and env_wheel != first_env
    _pip_install(python, env_wheel, runtime_wheel)
    installed = _installed(python, "envforge-env-retail", TASKS_FILE)
    assert CONTENT_VERSION.fullmatch(installed["version"]) and installed["version"] != first["version"]
    assert env_wheel.name == f"envforge_env_retail-{installed['version']}-py3-none-any.whl"
    assert installed["text"] == (package / "tasks.jsonl").read_text(encoding="utf-8")
    assert len(installed["text"].splitlines()) == 4
    runtime = _installed(python, "envforge-runtime", "envforge/py.typed")
    assert f"envforge-runtime=={runtime['version']}" in installed["requires"]
