"""Reading an agent's text turn as an action: a tool call, a final answer, or a malformed call.

Accepted tool-call forms, the ones chat models emit: a JSON object `{"name": ..., "arguments": {...}}`
(arguments may also be a JSON string), optionally wrapped in Hermes-style `<tool_call>...</tool_call>`
tags. `{"answer": "..."}` or any text that does not look like a call is the final answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from envforge.ir.toolspec import ToolArguments

_TOOL_CALL_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


@dataclass(frozen=True)
class CallAction:
    name: str
    arguments: ToolArguments


@dataclass(frozen=True)
class AnswerAction:
    answer: str


@dataclass(frozen=True)
class MalformedAction:
    """Text that tries to call a tool but cannot be read as a call; `problem` says why, for the agent."""

    text: str
    problem: str


AgentAction = CallAction | AnswerAction | MalformedAction


def parse_action(text: str) -> AgentAction:
    """Read one agent turn. Never raises: unreadable calls come back as `MalformedAction`."""
    stripped = text.strip()
    tagged = _TOOL_CALL_TAG.search(stripped)
    if tagged is not None:
        return _parse_call(tagged.group(1), stripped)
    if stripped.startswith("{"):
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError as exc:
            return MalformedAction(stripped, f"the tool call is not valid JSON ({exc.msg} at character {exc.pos})")
        if isinstance(value, dict) and set(value) == {"answer"}:
            return AnswerAction(str(value["answer"]))
        return _call_from_value(value, stripped)
    return AnswerAction(stripped)


def parse_calls(text: str) -> list[CallAction | MalformedAction]:
    """Every `<tool_call>` block of a longer completion, in order (for replaying a decoded rollout)."""
    return [_parse_call(match.group(1), match.group(0)) for match in _TOOL_CALL_TAG.finditer(text)]


def _parse_call(body: str, text: str) -> CallAction | MalformedAction:
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        return MalformedAction(text, f"the tool call is not valid JSON ({exc.msg} at character {exc.pos})")
    return _call_from_value(value, text)


def _call_from_value(value: object, text: str) -> CallAction | MalformedAction:
    if not isinstance(value, dict):
        return MalformedAction(text, 'a tool call must be a JSON object {"name": ..., "arguments": {...}}')
    name = value.get("name")
    if not isinstance(name, str) or not name:
        return MalformedAction(text, 'the tool call has no "name"')
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return MalformedAction(text, f'"arguments" is not valid JSON ({exc.msg})')
    if not isinstance(arguments, dict):
        return MalformedAction(text, '"arguments" must be a JSON object')
    return CallAction(name, arguments)
