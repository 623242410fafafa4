"""`pytest validators --package PATH`: the conformance suite of `envforge check`, one test per check and package,
for a user's CI (JUnit from pytest's own `--junitxml`).

A folder of pytest files, not a package: a top-level `validators` package would shadow the PyPI package of that
name. An installed envforge ships the same files as `envforge/conformance/` (`envforge check --pytest-path`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import envforge
from envforge.errors import PackageError
from envforge.validators.loaded_package import require_package
from envforge.validators.results import CheckReport

USAGE = "pytest validators --package PATH"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("envforge", "envforge conformance suite")
    group.addoption(
        "--package",
        action="append",
        default=[],
        metavar="PATH",
        help="An environment package folder (made by `envforge generate`) to check; repeat for several.",
    )
    group.addoption(
        "--sample", type=int, default=None, metavar="N", help="Gate and replay only this many tasks (an even spread)."
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    # Here rather than in pytest_configure, so that `pytest validators --help` still shows these options.
    config = session.config
    packages: list[str] = config.getoption("package")
    if not packages:
        raise pytest.UsageError(f"no package to check: pass --package PATH, a package folder ({USAGE})")
    for package in packages:
        try:
            require_package(Path(package))
        except PackageError as exc:
            raise pytest.UsageError(f"--package {exc}") from None
    sample: int | None = config.getoption("sample")
    if sample is not None and sample < 1:
        raise pytest.UsageError(f"--sample {sample}: gate at least 1 task, or leave --sample out to gate every task")


@pytest.fixture(scope="session")
def check_report(request: pytest.FixtureRequest) -> CheckReport:
    """The whole suite on one package (the `package` parameter), run once however many of its checks are collected:
    the same call `envforge check` makes, at the same cost."""
    sample: int | None = request.config.getoption("sample")
    return envforge.check(request.param, sample=sample)
