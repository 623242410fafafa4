"""The verl, TRL and SFT exports of every shipped domain, read back with pyarrow and `datasets`."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml
from datasets import load_dataset

from envforge.exporters.run import FORMATS, export
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.gym_env import ToolUseEnv, action_for_call
from envforge.runtime.opened_package import open_package
from tests.conftest import BLUEPRINTS

DOMAINS = sorted(path.stem for path in BLUEPRINTS)
KEY = re.compile(r"^[A-Z]{3}-\d+$")


@cache
def _package(path: Path) -> EnvPackage:
    """A package loaded once per test process: the row-by-row checks below ask for one task at a time."""
    return load_package(open_package(path))


def _rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


def test_a_rerun_writes_identical_files(packages: dict[str, Path], exports: Path, tmp_path: Path) -> None:
    export(list(packages.values()), tmp_path, list(FORMATS))
    first = {p.relative_to(exports): p.read_bytes() for p in sorted(exports.rglob("*")) if p.is_file()}
    again = {p.relative_to(tmp_path): p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()}
    assert first.keys() == again.keys() and len(first) > 40
    assert [name for name in first if first[name] != again[name]] == []


@pytest.mark.parametrize("domain", [*DOMAINS, "suite"])
def test_verl_rows_have_every_field_verl_reads(packages: dict[str, Path], exports: Path, domain: str) -> None:
    folder = exports / "verl" / domain
    train, test = _rows(folder / "train.parquet"), _rows(folder / "test.parquet")
    assert train and test
    expected = sum(len(load_package(open_package(p)).tasks) for d, p in packages.items() if domain in ("suite", d))
    assert len(train) + len(test) == expected
    assert not {row["extra_info"]["task_id"] for row in train} & {row["extra_info"]["task_id"] for row in test}
    for split, rows in (("train", train), ("test", test)):
        assert [row["extra_info"]["index"] for row in rows] == list(range(len(rows)))
        for row in rows:
            assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
            assert row["data_source"].startswith("envforge/") and row["ability"] == "tool_use"
            # The request, then (when the task holds something back) the agent's question and the user's answer.
            assert [message["role"] for message in row["prompt"]] in (
                ["system", "user"],
                ["system", "user", "assistant", "user"],
            )
            assert row["reward_model"] == {"style": "rule", "ground_truth": row["extra_info"]["task_id"]}
            assert row["extra_info"]["split"] == split and row["extra_info"]["env_module"].startswith("envforge_env_")
            if domain != "suite":
                tools_kwargs = row["extra_info"]["tools_kwargs"]
                assert all(value is not None for value in tools_kwargs.values())
                assert {kwargs["create_kwargs"]["task_id"] for kwargs in tools_kwargs.values()} == {
                    row["reward_model"]["ground_truth"]
                }
    loops = yaml.safe_load((folder / "agent_loop.yaml").read_text())
    target = "envforge.adapters.verl_agent.EnvforgeAgentLoop"
    assert loops == [
        {"name": "envforge_agent", "_target_": target, "max_turns": 16, "user": "scripted", "max_user_turns": 4},
        {"name": "envforge_agent_single_turn", "_target_": target, "max_turns": 16, "user": "none"},
        {
            "name": "envforge_agent_noisy",
            "_target_": target,
            "max_turns": 16,
            "user": "scripted",
            "max_user_turns": 4,
            "noise": "all",
            "curriculum": "0,0.1,0.2,0.3,0.5,0.7,1",
        },
    ]
    configs = {domain: folder / "tool_config.yaml"}
    if domain == "suite":
        configs = {name: folder / "tool_config" / f"{name}.yaml" for name in packages}
        assert sorted(path.name for path in (folder / "tool_config").iterdir()) == sorted(
            f"{name}.yaml" for name in packages
        )
    for name, path in configs.items():
        config = yaml.safe_load(path.read_text())
        names = [tool["tool_schema"]["function"]["name"] for tool in config["tools"]]
        assert names == [tool.name for tool in load_package(open_package(packages[name])).env.toolgraph.tools]
        for tool in config["tools"]:
            assert tool["class_name"] == "envforge.adapters.verl_agent.EnvforgeTool"
            assert tool["config"]["type"] == "native" and tool["tool_schema"]["function"]["description"]
            for schema in tool["tool_schema"]["function"]["parameters"]["properties"].values():
                assert "type" in schema and not {"items", "properties"} & set(schema)
                # verl drops every keyword but type, description and enum: the description says the rest.
                if "maxLength" in schema:
                    assert f"at most {schema['maxLength']} characters" in schema["description"]
                if "format" in schema:
                    assert f"format {schema['format']}" in schema["description"]


@pytest.mark.parametrize("fmt", ["verl", "trl"])
def test_prompts_show_the_agent_no_answer_and_no_verifier(packages: dict[str, Path], exports: Path, fmt: str) -> None:
    for domain, path in packages.items():
        package = load_package(open_package(path))
        for split in ("train", "test"):
            for row in _rows(exports / fmt / domain / f"{split}.parquet"):
                task_id = row.get("task_id") or row["extra_info"]["task_id"]
                task = package.task(task_id)
                assert row["prompt"] == package.trainer_prompt(task_id)
                # The policy and the tool names are the same for every task; what could leak is in the rest.
                # The teacher-only context and the difficulty are for the trainer (tests/exporters/test_signals.py).
                teacher = ("privileged_context", "difficulty")
                visible = {**{k: v for k, v in row.items() if k not in teacher}, "prompt": row["prompt"][1:]}
                if "opening" in row:
                    assert row["opening"] == package.prompt(task_id)
                    visible["opening"] = row["opening"][1:]
                if "extra_info" in row:
                    visible["extra_info"] = {
                        k: v for k, v in row["extra_info"].items() if k not in ("tools_kwargs", *teacher)
                    }
                text = json.dumps(visible, default=str)
                assert "verifier" not in text and "expected_changes" not in text and "oracle" not in text
                answer = task.expected_answer
                if answer is not None and len(answer) >= 3 and answer not in " ".join(task.told()):
                    assert answer not in text, (task_id, answer)
                keys = {
                    v for call in task.oracle for v in call.arguments.values() if isinstance(v, str) and KEY.match(v)
                }
                said = " ".join(message["content"] for message in row["prompt"] if message["role"] == "user")
                assert {key for key in keys if key in text} <= {key for key in keys if key in said}


def test_trl_rows_select_their_environment(exports: Path) -> None:
    suite = _rows(exports / "trl" / "suite" / "train.parquet")
    assert {row["environment"] for row in suite} == set(DOMAINS)
    for row in suite:
        assert row["env_id"] == f"envforge/{row['environment']}-v0" and row["task_id"].startswith(row["environment"])
        # `opening` (for the environment with the user in the loop) is the policy and the request alone.
        assert [message["role"] for message in row["opening"]] == ["system", "user"]
        assert row["opening"][0] == row["prompt"][0]
        assert row["prompt"][1]["content"].startswith(row["opening"][1]["content"])


@pytest.mark.parametrize("domain", [*DOMAINS, "suite"])
def test_sft_exports_load_with_datasets_and_keep_arguments_intact(
    packages: dict[str, Path], exports: Path, domain: str
) -> None:
    folder = exports / "sft" / domain
    chat = load_dataset("json", data_files=str(folder / "train.jsonl"), split="train")
    table = load_dataset("parquet", data_files=str(folder / "messages.parquet"), split="train")
    assert len(table) == len(chat) + sum(1 for _ in (folder / "test.jsonl").open())
    for line in (folder / "train.jsonl").read_text().splitlines():
        row = json.loads(line)
        assert row["parallel_tool_calls"] is False and row["tools"][0]["type"] == "function"
        ids = set()
        for message in row["messages"]:
            for call in message.get("tool_calls", []):
                assert isinstance(json.loads(call["function"]["arguments"]), dict)
                ids.add(call["id"])
            if message["role"] == "tool":
                assert message["tool_call_id"] in ids
        assert row["messages"][-1]["role"] == "assistant" and row["messages"][-1]["content"]
    for row in table:
        assert json.loads(row["tools"])[0]["type"] == "function" and row["reward"] == 1.0
        task = _package(packages[row["task_id"].rsplit("-", 1)[0]]).task(row["task_id"])
        calls = [call for message in row["messages"] for call in (message["tool_calls"] or [])]
        assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
            (call.name, call.arguments) for call in task.oracle
        ]


def test_sft_closings_vary_their_frame_and_still_state_the_answer(packages: dict[str, Path], exports: Path) -> None:
    """A model fine-tuned on the demonstrations should not learn one frame for every answer and every report; each
    demonstration still passed its verifier with its varied words (the export judges it, `reward` is 1)."""
    table = load_dataset("parquet", data_files=str(exports / "sft" / "suite" / "messages.parquet"), split="train")
    frames: set[str] = set()
    sign_offs: set[str] = set()
    for row in table:
        task = _package(packages[row["task_id"].rsplit("-", 1)[0]]).task(row["task_id"])
        last = row["messages"][-1]["content"]
        assert row["reward"] == 1.0
        sign_offs.add(last.rsplit(".", 1)[-1].strip())
        if task.expected_answer is not None:
            assert task.expected_answer in last, (task.id, last)
            frames.add(last.split(task.expected_answer)[0].split(".")[-1].strip())
    assert len(frames) >= 4, frames
    assert len(sign_offs) >= 4, sign_offs


@pytest.mark.parametrize("domain", DOMAINS)
def test_exported_oracle_trajectories_replayed_through_the_gym_env_score_one(
    packages: dict[str, Path], exports: Path, domain: str
) -> None:
    env = ToolUseEnv(packages[domain])
    rows = [
        json.loads(line) for split in ("train", "test") for line in (exports / "sft" / domain / f"{split}.jsonl").open()
    ]
    assert len(rows) == len(env.package.tasks)
    for row in rows:
        user = row["messages"][1]["content"]
        task_id = next(task_id for task_id, task in env.package.tasks.items() if task.instruction == user)
        env.reset(options={"task_id": task_id})
        for message in row["messages"][2:]:
            if message["role"] != "assistant":
                continue
            for call in message.get("tool_calls", []):
                function = call["function"]
                env.step(action_for_call(function["name"], json.loads(function["arguments"])))
        _, reward, terminated, _, info = env.step(row["messages"][-1]["content"])
        assert (reward, terminated) == (1.0, True), (task_id, info.get("verdict"))


@pytest.mark.parametrize("kind", ["sft", "verl", "trl"])
def test_each_dataset_folder_loads_by_its_card_and_the_card_names_its_environments(
    packages: dict[str, Path], exports: Path, kind: str
) -> None:
    """`datasets` reads the folder with its card, as the Hub would, in one shared cache: folders of one name in
    several formats (`verl/retail`, `trl/retail`) each load their own rows."""
    for domain in ("retail", "suite"):
        folder = exports / kind / domain
        card = (folder / "README.md").read_text(encoding="utf-8")
        front = yaml.safe_load(card.split("---\n")[1])
        assert front["pretty_name"].startswith("envforge ") and kind in front["tags"]
        loaded = load_dataset(str(folder))
        shown = [p for d, p in packages.items() if domain in ("suite", d)]
        tasks = sum(len(load_package(open_package(path)).tasks) for path in shown)
        assert loaded["train"].num_rows + loaded["test"].num_rows == tasks
        for path in shown:
            env = load_package(open_package(path)).env
            assert f"## {env.blueprint.title} (`{env.env_id}`)" in card
        for listed in ("train", "test"):
            columns = loaded[listed].column_names
            assert f"split `{listed}`): columns\n  {', '.join(columns)}." in card
    if kind == "sft":
        table = str(exports / "sft" / "retail" / "messages.parquet")
        analysis = load_dataset("parquet", data_files=table, split="train")
        assert set(analysis["split"]) == {"train", "test"} and len(set(analysis["task_id"])) == analysis.num_rows
