"""The conformance suite: run every check on a package and collect one result per check."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial

from envforge.ir.manifest import MANIFEST
from envforge.pipeline.progress import step
from envforge.runtime.opened_package import OpenedPackage
from envforge.validators.app_reachability import check_app_reachability
from envforge.validators.determinism import check_oracle_determinism, check_reset_determinism
from envforge.validators.loaded_package import LoadedPackage, load_package
from envforge.validators.mcp_roundtrip import check_mcp_roundtrip
from envforge.validators.package_integrity import check_package_integrity
from envforge.validators.results import CheckResult, ConformanceError
from envforge.validators.seed_invariants import check_seed_invariants
from envforge.validators.tool_behaviour import check_tool_behaviour
from envforge.validators.ui_paths import check_ui_paths
from envforge.validators.verifier_gates import check_verifier_gates

logger = logging.getLogger("envforge.validators")

Check = Callable[[LoadedPackage], str]
"""Returns a one-line account of what it checked, or raises ConformanceError."""

CHECKS: tuple[tuple[str, str, Check], ...] = (
    ("seed_invariants", "seed_invariants", check_seed_invariants),
    ("tool_behaviour", "tool_tests", check_tool_behaviour),
    ("verifier_gates", "verifier_gates", check_verifier_gates),
    ("determinism", "oracle_determinism", check_oracle_determinism),
    ("determinism", "reset_determinism", check_reset_determinism),
    ("mcp_roundtrip", "mcp_roundtrip", check_mcp_roundtrip),
    ("apps", "app_reachability", check_app_reachability),
    ("apps", "ui_paths", check_ui_paths),
)
"""(family, name, check) of the checks that need the package loaded, in the order they run."""

INTEGRITY = ("integrity", "package_integrity")
LOADS = ("integrity", "package_loads")
CHECK_NAMES: tuple[tuple[str, str], ...] = (INTEGRITY, LOADS, *((family, name) for family, name, _ in CHECKS))
"""(family, name) of every result `run_checks` reports, in its order: what the pytest face of the suite collects."""


def _integrity(package: OpenedPackage) -> str:
    problems = check_package_integrity(package)
    if problems:
        raise ConformanceError(
            f"files do not match {MANIFEST} (changed after generation; regenerate the package)",
            [str(problem) for problem in problems],
        )
    return f"every file is listed in {MANIFEST} and has its recorded sha256"


def _timed(family: str, name: str, run: Callable[[], str]) -> CheckResult:
    """The check `name` as a progress step whose outcome is its status."""
    with step(name) as current:
        result = _result(family, name, run)
        current.outcome = result.status
    return result


def _result(family: str, name: str, run: Callable[[], str]) -> CheckResult:
    started = time.perf_counter()
    try:
        message = run()
    except ConformanceError as failure:
        return CheckResult(family, name, "failed", failure.summary, time.perf_counter() - started, failure.problems)
    except Exception as exc:
        # A damaged package can break a check anywhere; report it as that check's failure, not a crash.
        logger.info("check %s.%s raised", family, name, exc_info=True)
        problem = f"{type(exc).__name__}: {exc}"
        return CheckResult(family, name, "failed", "the check stopped", time.perf_counter() - started, (problem,))
    return CheckResult(family, name, "passed", message, time.perf_counter() - started)


def run_checks(package: OpenedPackage, *, sample: int | None = None) -> list[CheckResult]:
    """Every check on `package` (opened by `open_for_check`), in order; `sample` gates and replays only that
    many tasks (an even spread). Any problem is a failed check."""
    results = [_timed(*INTEGRITY, lambda: _integrity(package))]
    loaded: LoadedPackage | None = None

    def load() -> str:
        nonlocal loaded
        loaded = load_package(package, sample=sample)
        counts = f"{len(loaded.env.tools)} tools, {len(loaded.tasks)} tasks"
        return f"{loaded.env.env_id} loads: {counts}; state.sqlite passes SQLite's integrity_check"

    results.append(_timed(*LOADS, load))
    for family, name, check in CHECKS:
        if loaded is None:
            results.append(CheckResult(family, name, "skipped", "not run: the package does not load", 0.0))
        else:
            results.append(_timed(family, name, partial(check, loaded)))
    return results
