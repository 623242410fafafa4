"""verl datasets and configs: Parquet rows verl's RLHFDataset reads, the tool config, the agent loop.

Rows carry no answer and no verifier: `reward_model.ground_truth` is the task id, which the reward side resolves
against the installed environment wheel. Rows have no `agent_name`: choose the loop with
`rollout.agent.default_agent_loop`. `envforge_agent` owns one session per trajectory and plays the scripted user:
the model sees the user's opener and must ask for what the user holds back, and the user answers, confirms, adds a
follow-up or pushes back as in `envforge rollout`. verl 0.9 has no interaction hook in its stock loop (0.9 removed
`verl.interactions`), so the user lives in this loop. `envforge_agent_single_turn` and verl's stock `tool_agent`
have no user: they read the row's `prompt`, the request with everything the user would say folded in
(`EnvPackage.trainer_prompt`). `envforge_agent_noisy` is `envforge_agent` under every kind of noise
(`envforge.ir.noise`), each rollout worker raising the level by its own curriculum as its episodes pass.
"""

from __future__ import annotations

from typing import Any

import yaml

from envforge.adapters.verl_loop import MAX_TURNS
from envforge.exporters.signals import TaskSignals
from envforge.exporters.split import Split
from envforge.exporters.tables import parquet_bytes
from envforge.exporters.wheels_names import module_name
from envforge.runtime.curriculum import LEVELS
from envforge.runtime.episode import EnvPackage
from envforge.users.conversation import MAX_USER_TURNS

AGENT_LOOP_NAME = "envforge_agent"
SINGLE_TURN_LOOP_NAME = "envforge_agent_single_turn"
NOISY_LOOP_NAME = "envforge_agent_noisy"
"""`envforge_agent` under every kind of noise, its level raised by each rollout worker's curriculum."""
AGENT_LOOP_TARGET = "envforge.adapters.verl_agent.EnvforgeAgentLoop"
TOOL_CLASS = "envforge.adapters.verl_agent.EnvforgeTool"


def verl_row(
    package: EnvPackage, task_id: str, split: Split, index: int, with_tools_kwargs: bool, signals: TaskSignals
) -> dict[str, Any]:
    env_module = module_name(package.env.blueprint.domain)
    extra_info: dict[str, Any] = {"split": split, "index": index, "env_module": env_module, "task_id": task_id}
    extra_info |= signals.columns(package, package.task(task_id))
    if with_tools_kwargs:
        # Every row of one environment names the same tools, so Parquet's merged struct has no holes.
        create = {"create_kwargs": {"env_module": env_module, "task_id": task_id}}
        extra_info["tools_kwargs"] = {tool.name: create for tool in package.env.toolgraph.tools}
    return {
        "data_source": package.env_id,
        "prompt": package.trainer_prompt(task_id),
        "ability": "tool_use",
        "reward_model": {"style": "rule", "ground_truth": task_id},
        "extra_info": extra_info,
    }


_HINTS = {
    "format": "format {}",
    "pattern": "matching {}",
    "minimum": "at least {}",
    "maximum": "at most {}",
    "minLength": "at least {} characters",
    "maxLength": "at most {} characters",
    "default": "default {}",
}


def verl_parameters(parameters: dict[str, Any]) -> dict[str, Any]:
    """verl keeps only `type`, `description` and `enum` of each argument: say the other constraints in words."""
    properties = {}
    for name, schema in parameters.get("properties", {}).items():
        hints = [template.format(schema[key]) for key, template in _HINTS.items() if key in schema]
        description = str(schema.get("description") or f"The {name}.")
        if hints:
            description = f"{description.rstrip('.')} ({'; '.join(hints)})."
        properties[name] = {**schema, "description": description}
    return {**parameters, "properties": properties}


def tool_config(package: EnvPackage) -> dict[str, Any]:
    """verl's tool YAML for the stock tool agent loop (one environment: tool names are per environment)."""
    env_module = module_name(package.env.blueprint.domain)
    return {
        "tools": [
            {
                "class_name": TOOL_CLASS,
                "config": {"type": "native", "env_module": env_module},
                "tool_schema": {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": verl_parameters(tool.parameters),
                    },
                },
            }
            for tool in package.env.toolgraph.tools
        ]
    }


def agent_loop_config() -> list[dict[str, Any]]:
    return [
        {
            "name": AGENT_LOOP_NAME,
            "_target_": AGENT_LOOP_TARGET,
            "max_turns": MAX_TURNS,
            "user": "scripted",
            "max_user_turns": MAX_USER_TURNS,
        },
        {"name": SINGLE_TURN_LOOP_NAME, "_target_": AGENT_LOOP_TARGET, "max_turns": MAX_TURNS, "user": "none"},
        {
            "name": NOISY_LOOP_NAME,
            "_target_": AGENT_LOOP_TARGET,
            "max_turns": MAX_TURNS,
            "user": "scripted",
            "max_user_turns": MAX_USER_TURNS,
            "noise": "all",
            "curriculum": ",".join(f"{level:g}" for level in LEVELS),
        },
    ]


def _yaml(value: object) -> bytes:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=120).encode()


def render_verl(
    packages: list[EnvPackage], splits: dict[str, dict[str, Split]], signals: TaskSignals
) -> dict[str, bytes]:
    """train.parquet, test.parquet and agent_loop.yaml; the tool config of each environment: `tool_config.yaml` for
    one, `tool_config/<domain>.yaml` for a suite (tool names are per environment, so verl's stock loop, which reads
    one tool config, runs a suite's rows of one domain at a time; the envforge loop needs none)."""
    single = len(packages) == 1
    rows: dict[Split, list[dict[str, Any]]] = {"train": [], "test": []}
    for package in packages:
        for task_id in package.task_ids:
            split = splits[package.env_id][task_id]
            rows[split].append(verl_row(package, task_id, split, len(rows[split]), single, signals))
    files = {f"{split}.parquet": parquet_bytes(split_rows) for split, split_rows in rows.items()}
    files["agent_loop.yaml"] = _yaml(agent_loop_config())
    if single:
        files["tool_config.yaml"] = _yaml(tool_config(packages[0]))
    else:
        files |= {
            f"tool_config/{package.env.blueprint.domain}.yaml": _yaml(tool_config(package)) for package in packages
        }
    return files
