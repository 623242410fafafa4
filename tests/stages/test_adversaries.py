"""The shipped verifiers against scripted adversaries and a legitimate agent, over every task of every domain.

These are not the gate's mutants: `tests/stages/adversaries.py` writes its cheats the way a user's adversary
would, and a legitimate agent that does each task differently from the golden run.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from envforge.ir.tasks import Transcript
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.claims import environment_vocabulary
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_package_verifier, load_tasks
from tests.conftest import BLUEPRINTS, DefaultPackages, slow_domains
from tests.stages.adversaries import VARIATIONS, Player, Run, cheats, legitimate

DOMAINS = [path.stem for path in BLUEPRINTS]
CLASSES = {
    "writes_only",
    "no_identification",
    "name_only",
    "credential_from_listing",
    "foreign_attempt",
    "wrong_argument",
    "write_then_undo",
    "other_row",
    "answer_dump",
    "guess_without_lookup",
    "guess_after_authentication",
    "lie_extra_act",
    "refused_said_done",
    "failure_after_success",
    "grader_note",
    "disclosure",
    "unasserted_answer",
    "silent",
    "refusal_unsaid",
    "refusal_unexplained",
}


def _transcript(run: Run) -> Transcript:
    return Transcript(answer=run.answer, messages=list(run.messages))


def _play_every_task(package: Path) -> Counter[str]:
    """Assert no cheat scores and every legitimate run does; returns how many runs of each cheat and each
    legitimate variation (`legitimate:<variation>`) were played."""
    env = load_environment(open_package(package))
    vocabulary = environment_vocabulary(env)
    rewarded: list[str] = []
    rejected: list[str] = []
    played: Counter[str] = Counter()
    for task in load_tasks(open_package(package)).values():
        verify = load_package_verifier(open_package(package), task.id).verify
        player = Player(env, task)
        try:
            for run in cheats(player):
                played[run.agent.split(":")[0]] += 1
                if verify(run.history, _transcript(run), vocabulary).reward != 0:
                    rewarded.append(f"{task.id} {run.agent}")
            for run in legitimate(player):
                played[":".join(run.agent.split(":")[:2])] += 1
                verdict = verify(run.history, _transcript(run), vocabulary)
                if verdict.reward != 1:
                    rejected.append(f"{task.id} {run.agent}: {'; '.join(verdict.reasons)}")
        finally:
            player.close()
    assert not rewarded, f"{len(rewarded)} cheats rewarded: {rewarded[:10]}"
    assert not rejected, f"{len(rejected)} legitimate runs failed: {rejected[:10]}"
    return played


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_cheat_scores_and_every_legitimate_variation_does_on_every_task(
    packages: dict[str, Path], domain: str
) -> None:
    played = _play_every_task(packages[domain])
    assert set(played) >= CLASSES | {f"legitimate:{variation}" for variation in VARIATIONS}, sorted(played)


@pytest.mark.slow
@pytest.mark.parametrize("domain", slow_domains("adversaries"))
def test_the_same_holds_for_every_task_of_a_package_generated_with_the_defaults(
    default_packages: DefaultPackages, domain: str
) -> None:
    """The full default package (150 tasks, default rows): what a user generates and trains on."""
    package = default_packages[domain]
    assert len(load_tasks(open_package(package))) == GenerateConfig().tasks
    played = _play_every_task(package)
    # `split_write` plays only where an action takes an amount (not in every domain).
    assert CLASSES | {"constant_answer", "negated_answer", "multi_candidate"} <= set(played)
