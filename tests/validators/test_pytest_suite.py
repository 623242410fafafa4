"""`pytest validators --package PATH`: the conformance suite of `envforge check` as pytest tests, run as a user's CI
runs it (a fresh pytest from the repository root), and from an installed wheel through `envforge check --pytest-path`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from envforge.validators.checks import CHECK_NAMES
from tests.conftest import REPO, envforge_cli

SHOWCASE = REPO / "generated" / "showcase" / "retail"
SAMPLE = "3"
WHEEL_SOURCE = ("setup.py", "pyproject.toml", "README.md", "envforge", "blueprints", "validators")
"""What setuptools reads to build the wheel, copied out so that the build writes nothing into the checkout."""


def run_pytest(*args: str, cwd: Path = REPO, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def junit_cases(path: Path) -> dict[str, str]:
    """Each test case's name and how it ended: passed, failed (with its failure's text) or skipped."""
    cases = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        failure, skipped = case.find("failure"), case.find("skipped")
        if failure is not None:
            cases[case.get("name", "")] = f"failed: {failure.get('message')}"
        else:
            cases[case.get("name", "")] = "skipped" if skipped is not None else "passed"
    return cases


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the showcase package, without its generation cache, folder name and all (`retail`)."""
    return Path(shutil.copytree(SHOWCASE, tmp_path / "packages" / "retail", ignore=shutil.ignore_patterns(".cache")))


def flip_a_byte_of_the_state(package: Path) -> None:
    state = package / "state.sqlite"
    data = bytearray(state.read_bytes())
    data[len(data) // 2] ^= 0xFF
    state.write_bytes(bytes(data))


def test_the_showcase_package_passes_one_test_per_check_of_the_library(package: Path, tmp_path: Path) -> None:
    junit = tmp_path / "conformance.xml"

    run = run_pytest("validators", "--package", str(package), "--sample", SAMPLE, "--junitxml", str(junit))

    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(CHECK_NAMES)} passed" in run.stdout
    assert junit_cases(junit) == {f"test_check[retail-{name}]": "passed" for _, name in CHECK_NAMES}


def test_a_tampered_state_fails_its_check_with_the_results_envforge_check_reports(
    package: Path, tmp_path: Path
) -> None:
    flip_a_byte_of_the_state(package)
    junit = tmp_path / "conformance.xml"

    run = run_pytest("validators", "--package", str(package), "--sample", SAMPLE, "--junitxml", str(junit))

    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAILED validators/test_conformance.py::test_check[retail-package_integrity]" in run.stdout
    assert "  - state.sqlite: content differs from the manifest's hash" in run.stdout
    cases = junit_cases(junit)
    assert "state.sqlite: content differs from the manifest's hash" in cases["test_check[retail-package_integrity]"]
    cli = envforge_cli("check", str(package), "--sample", SAMPLE, "--json")
    assert cli.returncode == 1, cli.stderr
    reported = json.loads(cli.stdout)["checks"]
    assert [(name, outcome.split(":")[0]) for name, outcome in cases.items()] == [
        (f"test_check[retail-{check['name']}]", check["status"]) for check in reported
    ]


def test_no_package_is_a_one_line_usage_error() -> None:
    run = run_pytest("validators")

    assert run.returncode == pytest.ExitCode.USAGE_ERROR
    assert run.stderr.strip() == (
        "ERROR: no package to check: pass --package PATH, a package folder (pytest validators --package PATH)"
    )


def test_a_folder_of_packages_is_refused_naming_the_package_inside(package: Path) -> None:
    run = run_pytest("validators", "--package", str(package.parent))

    assert run.returncode == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: --package {package.parent}: not an environment package" in run.stderr
    assert f"did you mean {package}?" in run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_an_installed_wheel_runs_the_same_suite_from_the_folder_check_names(package: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in WHEEL_SOURCE:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(REPO / name, source / name)
    build = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "--disable-pip-version-check",
    ]
    subprocess.run([*build, "-w", str(tmp_path), str(source)], check=True, capture_output=True, timeout=300)
    site = tmp_path / "site"
    with zipfile.ZipFile(next(tmp_path.glob("envforge-*.whl"))) as wheel:
        wheel.extractall(site)
    empty = tmp_path / "ci"
    empty.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    printed = subprocess.run(
        [sys.executable, "-m", "envforge.cli.app", "check", "--pytest-path"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    flip_a_byte_of_the_state(package)

    run = run_pytest(printed, "--package", str(package), "--sample", SAMPLE, cwd=empty, pythonpath=site)

    assert printed == str(site / "envforge" / "conformance")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "test_conformance.py::test_check[retail-package_integrity]" in run.stdout
