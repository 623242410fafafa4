"""The Hugging Face dataset card (`README.md`) of an exported dataset folder: what the environments, tasks and columns
are, filled from the blueprints.

The card declares no `configs`: `datasets` finds the splits by file name (`train.*`, `test.*`), and with declared
configs `datasets` 5 keys a local folder's cache by its name and the card's relative paths, so loading `trl/retail`
after `verl/retail` returned the verl rows."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jinja2
import pyarrow.parquet as pq
import yaml

from envforge.exporters.split import Split
from envforge.runtime.episode import EnvPackage

Kind = Literal["sft", "verl", "trl"]
TEMPLATE = Path(__file__).parent / "templates" / "dataset_card.md.jinja"
ANALYSIS = "messages.parquet"
"""The SFT folder's analysis table: every task's conversation with its split, kind and reward, loaded by its name
(a folder's splits are read by one builder, here the JSONL one)."""
SUMMARIES: dict[Kind, str] = {
    "sft": "Golden conversations of a tool-using customer-service agent, one per task: the user's messages, the "
    "agent's tool calls and their results, and the agent's answers, in OpenAI's chat fine-tuning format.",
    "verl": "Prompts for reinforcement learning with verl's multi-turn agent loop: each row is a task whose reward "
    "the environment's verifier computes from the run (`agent_loop.yaml`, `tool_config.yaml`).",
    "trl": "Conversational prompts for reinforcement learning with TRL: each row names the task its environment "
    "resets to, and the reward comes from that environment's verifier.",
}
SIGNALS = (
    " Each row also carries the task's `difficulty` (with each model's `pass_rates` when the export was given "
    "rollouts) and a `privileged_context` for a teacher model only: never put it in the student's prompt."
)
USAGE: dict[Kind, str] = {
    "sft": "Train on `train` (`messages`, `tools`) with any chat fine-tuning trainer; `messages.parquet` holds the "
    "same conversations of both splits with their task id, kind, difficulty band and reward, tools as a JSON string.",
    "verl": "Point verl's `data.train_files` and `data.val_files` at the Parquet files, and its agent loop at "
    "`agent_loop.yaml` (`envforge_agent` plays the scripted user; `envforge_agent_noisy` does so under tool and user "
    "noise whose level a curriculum raises; `envforge_agent_single_turn` reads the folded `prompt`); the environment "
    "package's wheel must be installed where the rollouts run.",
    "trl": "Give the `train` split to a TRL trainer with the envforge TRL environment (`envforge.adapters.trl`), "
    "which resets to `task_id` in `environment` and scores the run with its verifier: `prompt` (everything the user "
    "would say, folded in) with the plain environment, or `opening` (the user's first message) with the environment "
    "`...WithUser`, whose scripted user answers the `send_message_to_user` tool. Set the class attributes `noise` "
    "(e.g. `all@0.3`) and `curriculum` (e.g. `0,0.3,0.6,1`) on a subclass for noisy rollouts.",
}


@dataclass(frozen=True)
class CardFile:
    name: str
    split: str
    """`train` or `test`; empty for a file that is no split of the folder's dataset."""
    columns: list[str]


def _columns(name: str, data: bytes) -> list[str]:
    if name.endswith(".parquet"):
        return list(pq.read_schema(io.BytesIO(data)).names)
    first = data.split(b"\n", 1)[0]
    return sorted(json.loads(first)) if first else []


def _files(kind: Kind, files: Mapping[str, bytes]) -> list[CardFile]:
    extension = ".jsonl" if kind == "sft" else ".parquet"
    listed = [CardFile(f"{split}{extension}", split, []) for split in ("train", "test")]
    if kind == "sft":
        listed.append(CardFile(ANALYSIS, "", []))
    return [CardFile(f.name, f.split, _columns(f.name, files[f.name])) for f in listed if f.name in files]


def _package(package: EnvPackage, splits: Mapping[str, Split]) -> dict[str, Any]:
    blueprint = package.env.blueprint
    tools = package.env.toolgraph.tools
    tasks = package.tasks.values()
    counted = Counter(splits[task.id] for task in tasks)
    manifest = package.files.manifest
    return {
        "title": blueprint.title,
        "env_id": package.env_id,
        "domain": blueprint.domain,
        "description": " ".join(blueprint.description.split()),
        "entities": [entity.name for entity in blueprint.entities],
        "reads": sum(tool.kind == "read" for tool in tools),
        "writes": sum(tool.kind == "write" for tool in tools),
        "train": counted["train"],
        "test": counted["test"],
        "kinds": _counts(task.kind for task in tasks),
        "bands": _counts(task.difficulty.band for task in tasks),
        "policies": len(blueprint.policies),
        "version": manifest.envforge_version,
        "seed": manifest.seed,
        "rows": manifest.stats.get("state_rows", 0),
    }


def _counts(values: Any) -> str:
    return ", ".join(f"{value} {count}" for value, count in sorted(Counter(values).items()))


def _size_category(rows: int) -> str:
    return "n<1K" if rows < 1_000 else "1K<n<10K" if rows < 10_000 else "10K<n<100K"


def dataset_card(
    kind: Kind, packages: list[EnvPackage], splits: Mapping[str, Mapping[str, Split]], files: Mapping[str, bytes]
) -> bytes:
    """`README.md` for the folder holding `files`, exported from `packages` (one, or a suite)."""
    listed = _files(kind, files)
    described = [_package(package, splits[package.env_id]) for package in packages]
    rows = sum(len(package.tasks) for package in packages)
    names = ", ".join(str(package["domain"]) for package in described)
    front = {
        "pretty_name": f"envforge {names} ({kind})",
        "language": ["en"],
        "task_categories": ["text-generation"],
        "tags": ["envforge", "tool-use", "agents", "mcp", "synthetic", kind],
        "size_categories": [_size_category(rows)],
    }
    body = jinja2.Template(TEMPLATE.read_text(encoding="utf-8"), keep_trailing_newline=True).render(
        title=f"envforge {kind} dataset: {names}",
        summary=SUMMARIES[kind],
        usage=USAGE[kind] + SIGNALS,
        packages=described,
        files=listed,
        analysis=any(file.name == ANALYSIS for file in listed),
    )
    return f"---\n{yaml.safe_dump(front, sort_keys=False)}---\n\n{body}".encode()
