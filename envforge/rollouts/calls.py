"""Reading a model's turn: the tool calls it made, the ones that could not be read, or plain text.

Real models emit calls three ways: structured `tool_calls` (the server's parser understood them),
`<tool_call>` blocks or bare call JSON left in the text (the parser did not), and broken JSON in
either. Readable calls run; unreadable ones go back to the model as tool errors, and the history keeps
them with empty arguments, because servers reject re-rendering the broken original.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from envforge.runtime.agent_text import AnswerAction, CallAction, MalformedAction, parse_action, parse_calls

# Small models often write a call as a fenced JSON block instead of the template's tags.
_FENCED = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)
_CALL_KEYS = ('"arguments"', '"parameters"')

UNREADABLE_NAME = "unreadable_call"


@dataclass(frozen=True)
class ModelCall:
    """One call as the model made it: readable (`arguments` set) or not (`problem` set)."""

    call_id: str
    name: str
    arguments: dict[str, Any] | None
    problem: str = ""

    @property
    def readable(self) -> bool:
        return self.arguments is not None


@dataclass(frozen=True)
class ModelTurn:
    """A model turn: calls to run, or text for the user when there are none."""

    text: str
    calls: list[ModelCall]

    def history_message(self) -> dict[str, Any]:
        """The assistant message to keep in the conversation (unreadable arguments replaced by `{}`)."""
        message: dict[str, Any] = {"role": "assistant", "content": self.text}
        if self.calls:
            message["tool_calls"] = [
                {
                    "id": call.call_id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
                        if call.arguments is not None
                        else "{}",
                    },
                }
                for call in self.calls
            ]
        return message


def read_turn(message: dict[str, Any], turn: int) -> ModelTurn:
    """Read an assistant message from the endpoint into calls and text."""
    content = str(message.get("content") or "")
    structured = message.get("tool_calls") or []
    if structured:
        calls = [_structured(call, f"call_{turn}_{index}") for index, call in enumerate(structured)]
        return ModelTurn(text=content.strip(), calls=calls)
    if "<tool_call>" in content:
        prose = content.split("<tool_call>", 1)[0].strip()
        found = parse_calls(content)
        return ModelTurn(text=prose, calls=[_textual(action, f"call_{turn}_{i}") for i, action in enumerate(found)])
    fenced = _FENCED.search(content)
    if fenced is not None and _looks_like_call(fenced.group(1)):
        block = parse_action(fenced.group(1))
        if not isinstance(block, AnswerAction):
            return ModelTurn(text=content[: fenced.start()].strip(), calls=[_textual(block, f"call_{turn}_0")])
    action = parse_action(content)
    if isinstance(action, AnswerAction):
        return ModelTurn(text=action.answer, calls=[])
    return ModelTurn(text="", calls=[_textual(action, f"call_{turn}_0")])


def _looks_like_call(block: str) -> bool:
    """A JSON block with a name and arguments: a tool call, not data shown to the user."""
    return '"name"' in block and any(key in block for key in _CALL_KEYS)


def _structured(call: dict[str, Any], fallback_id: str) -> ModelCall:
    function = call.get("function") or {}
    call_id = str(call.get("id") or fallback_id)
    name = str(function.get("name") or "")
    raw = function.get("arguments")
    if not name:
        return ModelCall(call_id, UNREADABLE_NAME, None, "the tool call has no function name")
    if isinstance(raw, dict):
        return ModelCall(call_id, name, raw)
    raw_text = raw if isinstance(raw, str) else json.dumps(raw)
    try:
        arguments = json.loads(raw_text) if raw_text and raw_text.strip() else {}
    except json.JSONDecodeError as exc:
        return ModelCall(call_id, name, None, f"the arguments are not valid JSON ({exc.msg} at {exc.pos})")
    if not isinstance(arguments, dict):
        return ModelCall(call_id, name, None, "the arguments must be a JSON object")
    return ModelCall(call_id, name, arguments)


def _textual(action: CallAction | MalformedAction, call_id: str) -> ModelCall:
    if isinstance(action, CallAction):
        return ModelCall(call_id, action.name, action.arguments)
    return ModelCall(call_id, _guess_name(action.text), None, action.problem)


def _guess_name(text: str) -> str:
    """The tool name of an unreadable call when it is still legible, so the error can name it."""
    marker = '"name"'
    if marker not in text:
        return UNREADABLE_NAME
    rest = text.split(marker, 1)[1].lstrip(" :")
    if rest.startswith('"') and '"' in rest[1:]:
        name = rest[1:].split('"', 1)[0]
        if name.replace("_", "").isalnum():
            return name
    return UNREADABLE_NAME


def unreadable_error(call: ModelCall) -> dict[str, Any]:
    """The tool result an unreadable call gets."""
    return {
        "error": {
            "code": "malformed_call",
            "message": f"{call.problem}; call the tool again with a JSON object of arguments",
            "tool": call.name,
        }
    }
