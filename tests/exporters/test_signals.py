"""Difficulty and the teacher-only context in every dataset, for every task of every shipped domain: both load
with Hugging Face `datasets`, agree across formats, and nothing of the privileged context reaches a prompt the
student sees."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from datasets import load_dataset

from envforge.exporters.signals import PRIVILEGED_HEADER
from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import values
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import BLUEPRINTS

DOMAINS = sorted(path.stem for path in BLUEPRINTS)


def _rows(path: Path) -> list[dict[str, Any]]:
    return list(load_dataset("parquet", data_files=str(path), split="train"))


def _held_back(task: TaskSpec) -> list[str]:
    scenario = task.scenario
    said = [str(value) for value in [*scenario.hidden.values(), *scenario.details.values()] for value in values(value)]
    # A short word or number ("card", "3") may be said for another reason ("my library card number", "3 bags"):
    # only distinctive values (an email, a date, a reference, a description of which row).
    return [text for text in [*said, *scenario.which.values()] if len(text) >= 6]


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_dataset_carries_the_same_signals_and_no_prompt_shows_the_privileged_context(
    packages: dict[str, Path], exports: Path, domain: str
) -> None:
    package = load_package(open_package(packages[domain]))
    policies = [policy.text.strip() for policy in package.env.blueprint.policies]
    contexts: dict[str, set[str]] = {task_id: set() for task_id in package.task_ids}
    difficulties: dict[str, list[dict[str, Any]]] = {task_id: [] for task_id in package.task_ids}
    prompts: dict[str, list[tuple[str, list[dict[str, Any]]]]] = {task_id: [] for task_id in package.task_ids}
    for split in ("train", "test"):
        for row in _rows(exports / "verl" / domain / f"{split}.parquet"):
            task_id = row["extra_info"]["task_id"]
            contexts[task_id].add(row["extra_info"]["privileged_context"])
            difficulties[task_id].append(row["extra_info"]["difficulty"])
            prompts[task_id].append(("verl prompt", row["prompt"]))
        for row in _rows(exports / "trl" / domain / f"{split}.parquet"):
            contexts[row["task_id"]].add(row["privileged_context"])
            difficulties[row["task_id"]].append(row["difficulty"])
            prompts[row["task_id"]] += [("trl prompt", row["prompt"]), ("trl opening", row["opening"])]
    for row in _rows(exports / "sft" / domain / "messages.parquet"):
        contexts[row["task_id"]].add(row["privileged_context"])
        difficulties[row["task_id"]].append(row["difficulty"])
        prompts[row["task_id"]].append(("sft messages", row["messages"]))
    for task_id in package.task_ids:
        task = package.task(task_id)
        (context,) = contexts[task_id]
        assert context.startswith(PRIVILEGED_HEADER) and all(
            call.name.replace("_", " ") in context for call in task.oracle
        )
        assert len(difficulties[task_id]) == 3 and all(d == difficulties[task_id][0] for d in difficulties[task_id])
        assert difficulties[task_id][0]["oracle_calls"] == len(task.oracle)
        private = [line for line in context.splitlines()[1:] if line.strip() and not any(p in line for p in policies)]
        assert private, task_id
        for name, messages in prompts[task_id]:
            said = json.dumps([m["content"] for m in messages if m["role"] == "user"], ensure_ascii=False)
            shown = " ".join(message["content"] for message in messages if message["content"])
            assert PRIVILEGED_HEADER not in shown and not [line for line in private if line in shown], (task_id, name)
            if name == "trl opening":
                # With the user in the loop, what the user holds back is said only when the agent asks.
                assert [text for text in _held_back(task) if text in said] == [], (task_id, name)
