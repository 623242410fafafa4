"""Seed invariants: the shipped state satisfies every invariant its blueprint declares."""

from __future__ import annotations

from envforge.ir.violations import count_state_violations, describe_violations
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError


def check_seed_invariants(package: LoadedPackage) -> str:
    """Count the rows of state.sqlite that break each declared invariant; any such row fails the check."""
    counts = count_state_violations(package.env.blueprint, package.env.template)
    problems = describe_violations(counts)
    if problems:
        raise ConformanceError(f"{len(problems)} of {len(counts)} seed invariants are violated", problems)
    return f"{len(counts)} seed invariants hold on every row of state.sqlite"
