"""Structured tool errors: what a bad call gets back instead of a crash."""

from __future__ import annotations

import sqlite3
from typing import Any, Literal

from envforge.errors import EnvforgeError, clip_message

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

    def to_dict(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message, "tool": self.tool}
        if self.field is not None:
            error["field"] = self.field
        if self.policy is not None:
            error["policy"] = self.policy
        return {"error": error}


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
