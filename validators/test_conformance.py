"""One test per conformance check and package, from the library's own list of checks (a check added to
`envforge.validators` shows up here unchanged), each failing with that check's own message."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.validators.checks import CHECK_NAMES
from envforge.validators.results import CheckReport


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    packages: list[str] = metafunc.config.getoption("package")
    names = [Path(package).resolve().name for package in packages]
    metafunc.parametrize("check_report", packages, ids=names, indirect=True, scope="session")
    metafunc.parametrize("check", CHECK_NAMES, ids=[name for _, name in CHECK_NAMES])


def test_check(check_report: CheckReport, check: tuple[str, str]) -> None:
    result = {(result.family, result.name): result for result in check_report.results}[check]
    if result.status == "skipped":
        pytest.skip(result.message)
    if result.status == "failed":
        # As `envforge check` prints a failure: its one-line message, then every problem on a line of its own.
        pytest.fail("\n".join([result.message, *(f"  - {detail}" for detail in result.details)]), pytrace=False)
