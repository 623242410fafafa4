"""verl's reward function for the stock tool agent loop: replay the rollout's calls, then verify.

Point verl at it with `reward.custom_reward_function.path=<this file>` and `.name=compute_score`.
The row's `reward_model.ground_truth` is the task id and `extra_info.env_module` the installed
environment; the reward is the task's verifier run on the state the rollout's tool calls produce.
The calls are those `EnvforgeTool` recorded as run (`extra_info.envforge_calls`); only without
that record are they read from the decoded text, where a call the loop skipped would also count.
"""

from __future__ import annotations

import json
import re
from typing import Any

from envforge.adapters.packages import installed_package
from envforge.ir.tasks import ToolCall
from envforge.runtime.agent_text import CallAction, parse_calls
from envforge.runtime.episode import Episode

CALLS_FIELD = "envforge_calls"

_LAST_TOOL_BLOCK = re.compile(r"</tool_call>|</tool_response>")
_ROLE_HEADER = re.compile(r"^\s*(assistant|user|tool)\s*\n")


def final_answer(solution: str) -> str:
    """The text after the last tool call or tool response: what the agent finally told the user."""
    ends = [match.end() for match in _LAST_TOOL_BLOCK.finditer(solution)]
    tail = solution[ends[-1] :] if ends else solution
    return _ROLE_HEADER.sub("", tail).strip()


def compute_score(
    data_source: str, solution_str: str, ground_truth: str, extra_info: dict[str, Any] | None = None, **kwargs: Any
) -> dict[str, Any]:
    """verl's reward-function signature; returns the verifier's reward as `score` and its components."""
    info = extra_info or {}
    package = installed_package(str(info["env_module"]))
    episode = Episode(package, ground_truth)
    for call in _calls_run(solution_str, info):
        episode.call(call.name, call.arguments)
    verdict = episode.finish(final_answer(solution_str))
    return {
        "score": verdict.reward,
        "acc": float(verdict.passed),
        "tool_calls": float(len(episode.calls)),
        "failed_calls": float(episode.failed_calls),
    }


def _calls_run(solution: str, info: dict[str, Any]) -> list[ToolCall]:
    recorded = info.get(CALLS_FIELD)
    if recorded:
        return [ToolCall.model_validate(call) for call in json.loads(str(recorded))]
    return [
        ToolCall(name=action.name, arguments=action.arguments)
        for action in parse_calls(solution)
        if isinstance(action, CallAction)
    ]
