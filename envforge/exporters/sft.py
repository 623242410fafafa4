"""Supervised fine-tuning and analysis datasets from oracle trajectories.

`train.jsonl` and `test.jsonl` are OpenAI's chat fine-tuning format (messages, tools, arguments as JSON strings).
`messages.parquet` is the same conversations for Hugging Face `datasets`, with the tool list as a
JSON string and arguments as JSON strings, so heterogeneous schemas survive Parquet's typing, and each task's
difficulty features and teacher-only context (`signals`), which the chat format has no place for.
"""

from __future__ import annotations

import json
from typing import Any

from envforge.exporters.signals import TaskSignals
from envforge.exporters.split import Split
from envforge.exporters.tables import jsonl_bytes, parquet_bytes
from envforge.exporters.trajectories import Trajectory
from envforge.runtime.episode import EnvPackage


def chat_row(trajectory: Trajectory) -> dict[str, Any]:
    return {"messages": trajectory.messages, "tools": trajectory.tools, "parallel_tool_calls": False}


def analysis_row(trajectory: Trajectory, split: Split, package: EnvPackage, signals: TaskSignals) -> dict[str, Any]:
    task = trajectory.task
    messages = [
        {
            "role": message["role"],
            "content": message.get("content"),
            "tool_calls": message.get("tool_calls"),
            "tool_call_id": message.get("tool_call_id"),
            "name": message.get("name"),
        }
        for message in trajectory.messages
    ]
    return {
        "env_id": trajectory.env_id,
        "task_id": task.id,
        "split": split,
        "kind": task.kind,
        "band": task.difficulty.band,
        "chain_length": task.difficulty.chain_length,
        "writes": task.difficulty.writes,
        **signals.columns(package, task),
        "source": trajectory.source,
        "reward": trajectory.reward,
        "messages": messages,
        "tools": json.dumps(trajectory.tools, ensure_ascii=False, sort_keys=True),
    }


def render_sft(
    trajectories: list[tuple[Trajectory, Split]], packages: dict[str, EnvPackage], signals: TaskSignals
) -> dict[str, bytes]:
    """The SFT files of one environment or a whole suite; `packages` by env id."""
    return {
        f"{part}.jsonl": jsonl_bytes([chat_row(trajectory) for trajectory, split in trajectories if split == part])
        for part in ("train", "test")
    } | {
        "messages.parquet": parquet_bytes(
            [
                analysis_row(trajectory, split, packages[trajectory.env_id], signals)
                for trajectory, split in trajectories
            ]
        ),
    }
