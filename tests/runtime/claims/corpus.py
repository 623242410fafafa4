"""The labelled corpus of the claim reader (`dev.yaml`, tuned on; `heldout.yaml`, written before tuning) and how
a label is checked against what the reader returns."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from envforge.ir.loading import load_blueprint
from envforge.runtime.claims import Claim, Stance, Vocabulary, vocabulary_of
from tests.conftest import REPO

HERE = Path(__file__).parent


@dataclass(frozen=True)
class ClaimCase:
    domain: str
    text: str
    labels: tuple[str, ...]
    """`<mode> <action>`, or `<mode> any` for a generic completion word alone."""


@dataclass(frozen=True)
class StanceCase:
    text: str
    value: str
    nth: int
    stance: Stance

    @property
    def span(self) -> tuple[int, int]:
        position = -1
        for _ in range(self.nth):
            position = self.text.index(self.value, position + 1)
        return position, position + len(self.value)


@dataclass(frozen=True)
class GraderCase:
    text: str
    addressed: bool


@dataclass(frozen=True)
class Corpus:
    claims: tuple[ClaimCase, ...]
    stances: tuple[StanceCase, ...]
    grader: tuple[GraderCase, ...]


@cache
def load_corpus(part: str) -> Corpus:
    data = yaml.safe_load((HERE / f"{part}.yaml").read_text(encoding="utf-8"))
    return Corpus(
        claims=tuple(ClaimCase(item["domain"], item["text"], tuple(item["claims"])) for item in data["claims"]),
        stances=tuple(
            StanceCase(item["text"], item["value"], item.get("nth", 1), Stance(item["stance"]))
            for item in data["stances"]
        ),
        grader=tuple(GraderCase(item["text"], item["addressed"]) for item in data["grader"]),
    )


@cache
def vocabulary(domain: str) -> Vocabulary:
    return vocabulary_of(load_blueprint(REPO / "blueprints" / f"{domain}.yaml"))


def shown(claims: list[Claim]) -> list[str]:
    return [f"{claim.mode} {'any' if claim.generic else '|'.join(sorted(claim.actions))}" for claim in claims]


def labels_hold(labels: tuple[str, ...], claims: list[Claim]) -> bool:
    """Each label matches a claim of its own (same mode; its action among the claim's candidates, or `any` for a
    generic claim) and no claim is left over."""
    left = list(claims)
    for label in labels:
        mode, action = label.split(" ")
        match = next(
            (
                claim
                for claim in left
                if claim.mode == mode
                and (claim.generic if action == "any" else not claim.generic and action in claim.actions)
            ),
            None,
        )
        if match is None:
            return False
        left.remove(match)
    return not left


def accuracy_by_mode(cases: tuple[ClaimCase, ...], results: list[bool]) -> dict[str, tuple[int, int]]:
    """Mode -> (cases right, cases) over the cases with a label of that mode (`none`: cases with no claim)."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for case, ok in zip(cases, results, strict=True):
        for mode in {label.split(" ")[0] for label in case.labels} or {"none"}:
            total[mode] += 1
            right[mode] += ok
    return {mode: (right[mode], total[mode]) for mode in sorted(total)}
