"""Verifier gates: each shipped verifier rewards its golden run and rejects the initial state, no-ops and mutants."""

from __future__ import annotations

from collections import Counter
from typing import Any

from envforge.errors import EnvforgeError
from envforge.ir.tasks import RunHistory, TaskSpec, Transcript, Verdict
from envforge.runtime.claims import Vocabulary
from envforge.runtime.session import Session
from envforge.runtime.tasks import VerifyFn, load_package_verifier
from envforge.stages.verifiers.gate import gate_task
from envforge.stages.verifiers.stage import unrelated_writes
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError


class VerifierContractError(EnvforgeError):
    """A verifier that is not a `verify(history, transcript) -> Verdict` function."""


def _contract(verify: Any) -> VerifyFn:
    if not callable(verify):
        raise VerifierContractError("it defines no verify function")

    def checked(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
        verdict = verify(history, transcript, vocabulary)
        if not isinstance(verdict, Verdict):
            raise VerifierContractError(f"verify returned {type(verdict).__name__}, not a Verdict")
        return verdict

    return checked


def _gate(
    package: LoadedPackage, task: TaskSpec, session: Session, met: Counter[str], legitimate: Counter[str]
) -> str | None:
    """Why the task's shipped verifier fails the gate, or None when it passes; counts the mutants met per class and
    the legitimate runs per variation."""
    where = f"verifiers/{task.id}.py"
    try:
        verify = _contract(getattr(load_package_verifier(package.files, task.id), "verify", None))
        result = gate_task(task, session, verify, unrelated_writes(package.tasks, package.env, task))
    except Exception as exc:
        # Shipped verifiers are code from the package: whatever they raise is a finding about that task.
        return f"{task.id}: {where} raised {type(exc).__name__}: {exc}"
    met.update(mutant.kind for mutant in result.mutants if not mutant.equivalent)
    legitimate.update(run.variation for run in result.mutants if run.variation is not None)
    return None if result.accepted else f"{task.id}: {result.reason} ({where})"


def check_verifier_gates(package: LoadedPackage) -> str:
    """Gate every (sampled) task with the verifier the package ships, not one rendered afresh: the golden run,
    the initial state, a no-op, and every class of cheat."""
    session = Session(package.env)
    met: Counter[str] = Counter()
    legitimate: Counter[str] = Counter()
    try:
        rejected = [
            reason for task in package.sampled if (reason := _gate(package, task, session, met, legitimate)) is not None
        ]
    finally:
        session.close()
    if rejected:
        raise ConformanceError(f"{len(rejected)} of {len(package.sampled)} verifiers failed the gate", rejected)
    classes = ", ".join(f"{kind} {count}" for kind, count in sorted(met.items()))
    variations = ", ".join(f"{name} {count}" for name, count in sorted(legitimate.items()))
    return (
        f"{len(package.sampled)} of {len(package.tasks)} tasks gated; every verifier passed, rejected every "
        f"cheat ({classes}) and rewarded every legitimate variation ({variations})"
    )
