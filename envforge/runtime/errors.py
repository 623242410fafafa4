"""Structured tool errors: what a bad call gets back instead of a crash."""

from __future__ import annotations

import sqlite3
from typing import Literal, NotRequired, TypedDict, cast

from envforge.errors import EnvforgeError, clip_message
from envforge.ir.toolspec import JsonObject, ToolResult

ErrorCode = Literal[
    "unknown_tool",
    "invalid_arguments",
    "not_found",
    "precondition_failed",
    "policy_violation",
    "constraint_violation",
    "internal_error",
    "episode_required",
    "invalid_episode",
    "episode_ended",
    "episode_unknown",
    "episode_live",
]


class ToolError(EnvforgeError):
    """A refused tool call. The state is exactly as it was before the call."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        tool: str = "",
        field: str | None = None,
        policy: str | None = None,
    ) -> None:
        message = clip_message(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.tool = tool
        self.field = field
        self.policy = policy

    def to_dict(self) -> ToolResult:
        """The refused call's result, `{"error": {...}}` (read it back with `refusal_of`)."""
        error: JsonObject = {"code": self.code, "message": self.message, "tool": self.tool}
        if self.field is not None:
            error["field"] = self.field
        if self.policy is not None:
            error["policy"] = self.policy
        return {"error": error}


class Refusal(TypedDict):
    """The `error` object of a refused call's result."""

    code: str
    """An `ErrorCode`, or `malformed_call` where a front end could not read the call at all."""
    message: str
    tool: NotRequired[str]
    field: NotRequired[str]
    policy: NotRequired[str]


def refusal_of(result: ToolResult) -> Refusal:
    """The error of a refused call's result (`Session.call_tool` answered not ok)."""
    return cast(Refusal, result["error"])


def constraint_error(exc: sqlite3.IntegrityError, tool: str) -> ToolError:
    """Turn SQLite's constraint messages into ones an agent can act on."""
    text = str(exc)
    kind, _, target = text.partition(" constraint failed: ")
    if kind == "UNIQUE":
        message = f"{target} must be unique and that value is already taken"
    elif kind == "NOT NULL":
        message = f"{target} cannot be empty"
    elif kind == "CHECK":
        message = f"a value is out of range ({target.removeprefix('ck_')})"
    elif text.startswith("FOREIGN KEY"):
        message = "the change would leave a reference to a record that does not exist"
    else:
        message = text
    return ToolError("constraint_violation", message, tool=tool)
