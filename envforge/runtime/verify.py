"""Verification: a pure function of (initial state, final state, transcript) -> Verdict."""

from __future__ import annotations

import re
from collections import Counter

from envforge.hashing import canonical_json
from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.diff import diff_states

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
MONEY_TOLERANCE = 0.005
REASONS_SHOWN = 3


def _key(change: RowChange) -> str:
    return canonical_json(change.model_dump(mode="json"))


def _describe(change: RowChange) -> str:
    if change.before is None:
        return f"insert into {change.entity} {canonical_json(change.after)}"
    if change.after is None:
        return f"delete {change.entity} {change.key}"
    return f"update {change.entity} {change.key} {canonical_json(change.after)}"


def _numbers(text: str) -> list[float]:
    found = []
    for match in _NUMBER.findall(text):
        try:
            found.append(float(match.replace(",", "")))
        except ValueError:
            continue
    return found


def _normal_text(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def answer_matches(expected: str, given: str | None) -> bool:
    """Numbers match numerically anywhere in the answer; text matches case- and spacing-insensitively."""
    if not given:
        return False
    if _NUMBER.fullmatch(expected.strip()):
        target = float(expected.replace(",", ""))
        return any(abs(number - target) <= MONEY_TOLERANCE for number in _numbers(given))
    return _normal_text(expected) in _normal_text(given)


def judge(spec: VerifierSpec, actual: list[RowChange], transcript: Transcript | None) -> Verdict:
    """Compare the run's changes (and answer) with the golden ones."""
    expected = Counter(_key(change) for change in spec.expected_changes)
    got = Counter(_key(change) for change in actual)
    by_key = {_key(change): change for change in [*spec.expected_changes, *actual]}
    missing = sorted((expected - got).elements())
    extra = sorted((got - expected).elements())
    components = {"expected_changes_made": not missing, "no_unexpected_changes": not extra}
    reasons = [f"missing: {_describe(by_key[key])}" for key in missing[:REASONS_SHOWN]]
    reasons += [f"unexpected: {_describe(by_key[key])}" for key in extra[:REASONS_SHOWN]]
    if spec.answer is not None:
        answer = transcript.answer if transcript is not None else None
        components["answer_correct"] = answer_matches(spec.answer, answer)
        if not components["answer_correct"]:
            reasons.append(f"the answer does not contain {spec.answer!r}")
    passed = all(components.values())
    return Verdict(reward=1.0 if passed else 0.0, passed=passed, components=components, reasons=reasons)


def verify(spec: VerifierSpec, initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Judge a run from its initial and final state (SQLite bytes) and its transcript."""
    return judge(spec, diff_states(initial, final), transcript)
