"""Tool noise (`envforge.ir.noise`) around a session's calls: what a flaky service does to an agent's calls.

A failure strikes before the call runs, so nothing changed and nothing was logged; a noisy read runs and is logged
with what it returned (a cut-off page logs only the page). Noise never strikes the same call twice in a row: the
retry a careful agent makes always gets the clean answer, which is why noise never changes what a verdict calls
right, at any level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from envforge.hashing import canonical_json
from envforge.ir.noise import EpisodeNoise, ToolNoiseKind
from envforge.ir.toolspec import JsonObject, ToolArguments, ToolResult, ToolSpec
from envforge.runtime.session import Session

PAGE = 2
"""Items on a page when `paginated` cuts a list."""
_FAILURE_MESSAGES = {
    "unavailable": "the service is briefly unavailable; nothing was changed. Try the same call again.",
    "timeout": "the call timed out before it reached the service; nothing was changed. Try the same call again.",
}
STALE_WARNING = "served from a replica that may be behind; read again for the latest data"
MALFORMED_MESSAGE = "the response was cut off in transit. Try the same call again."
WRITE_KINDS = frozenset({"transient", "timeout"})
"""Noise a write can meet: only failures before it runs, so an agent never has to wonder whether it went through."""


@dataclass(frozen=True)
class NoiseEvent:
    """One place noise struck: the agent's call (by position in the episode), the tool and the kind."""

    call: int
    tool: str
    kind: ToolNoiseKind


@dataclass
class NoisyTools:
    """`call_tool` as the session's, with the episode's tool noise; `events` lists where it struck."""

    session: Session
    noise: EpisodeNoise | None
    events: list[NoiseEvent] = field(default_factory=list)
    _calls: int = 0
    _last_struck: tuple[str, str] | None = None
    _seen: dict[tuple[str, str], int] = field(default_factory=dict)

    def call_tool(self, name: str, arguments: ToolArguments) -> tuple[bool, ToolResult]:
        index = self._calls
        self._calls += 1
        if self.noise is None:
            return self.session.call_tool(name, arguments)
        spec = self.session.env.tools.get(name)
        call = (name, canonical_json(arguments))
        # Drawn per call (its tool and arguments) and per repeat of it, not per position, so a retry the noise
        # forced does not move the draws of the calls after it: a higher level strikes where a lower one did.
        stream, repeat = f"tool|{call[0]}|{call[1]}", self._seen.get(call, 0)
        self._seen[call] = repeat + 1
        retry, self._last_struck = call == self._last_struck, None
        if spec is None or retry or not self.noise.strikes(stream, repeat):
            return self.session.call_tool(name, arguments)
        kinds = _kinds(spec, self.noise.profile.tool)
        if not kinds:
            return self.session.call_tool(name, arguments)
        kind = self.noise.pick(stream, repeat, kinds)
        ok, result, struck = _NOISE[kind](self.session, spec, arguments)
        if struck:
            self._last_struck = call
            self.events.append(NoiseEvent(call=index, tool=name, kind=kind))
        return ok, result


def _kinds(spec: ToolSpec, enabled: list[ToolNoiseKind]) -> list[ToolNoiseKind]:
    """The enabled kinds this tool can meet: failures for every tool, the rest for reads; pages for lists."""
    if spec.kind == "write":
        return [kind for kind in enabled if kind in WRITE_KINDS]
    pageable = spec.operation == "list" and "limit" in spec.parameters.get("properties", {})
    return [kind for kind in enabled if kind != "paginated" or pageable]


Outcome = tuple[bool, ToolResult, bool]
"""(ok, what the agent gets, whether noise changed anything)."""


def _fail(code: str) -> Callable[[Session, ToolSpec, ToolArguments], Outcome]:
    def fail(session: Session, spec: ToolSpec, arguments: ToolArguments) -> Outcome:
        error: JsonObject = {"code": code, "message": _FAILURE_MESSAGES[code], "tool": spec.name, "retryable": True}
        return False, {"error": error}, True

    return fail


def _paginated(session: Session, spec: ToolSpec, arguments: ToolArguments) -> Outcome:
    limit = arguments.get("limit")
    if isinstance(limit, int) and limit <= PAGE:
        return (*session.call_tool(spec.name, arguments), False)
    ok, result = session.call_tool(spec.name, {**arguments, "limit": PAGE})
    items, total = result.get("items"), result.get("total")
    offset = arguments.get("offset", 0)
    if not ok or not isinstance(items, list) or not isinstance(total, int) or not isinstance(offset, int):
        return ok, result, False
    after = offset + len(items)
    if total <= after:
        return ok, result, False
    note = f"showing {len(items)} of {total}; call again with offset {after} for the next page"
    return ok, {**result, "next_offset": after, "note": note}, True


def _stale(session: Session, spec: ToolSpec, arguments: ToolArguments) -> Outcome:
    """The rows this episode wrote, as they were before its first write to each."""
    ok, result = session.call_tool(spec.name, arguments)
    if not ok:
        return ok, result, False
    before: dict[str, dict[str, Any] | None] = {}
    for write in session.history().writes:
        if write.entity == spec.entity:
            before.setdefault(write.key, write.before)
    key = session.env.keys[spec.entity]
    items = result.get("items")
    rows: list[Any] = items if isinstance(items, list) else [result]
    old = [_as_before(row, key, before) for row in rows]
    if old == rows or any(row is None for row in old):
        return ok, result, False
    shown: ToolResult = {**result, "items": old} if isinstance(items, list) else dict(old[0] or {})
    return ok, {**shown, "warning": STALE_WARNING}, True


def _as_before(row: Any, key: str, before: dict[str, dict[str, Any] | None]) -> Any:
    if not isinstance(row, dict) or str(row.get(key)) not in before:
        return row
    image = before[str(row.get(key))]
    return None if image is None else {name: image.get(name, value) for name, value in row.items()}


def _malformed(session: Session, spec: ToolSpec, arguments: ToolArguments) -> Outcome:
    ok, result = session.call_tool(spec.name, arguments)
    if not ok:
        return ok, result, False
    text = canonical_json(result)
    error: JsonObject = {
        "code": "malformed_response",
        "message": MALFORMED_MESSAGE,
        "tool": spec.name,
        "retryable": True,
        "partial": text[: len(text) // 2],
    }
    return False, {"error": error}, True


_NOISE: dict[ToolNoiseKind, Callable[[Session, ToolSpec, ToolArguments], Outcome]] = {
    "transient": _fail("unavailable"),
    "timeout": _fail("timeout"),
    "paginated": _paginated,
    "stale": _stale,
    "malformed": _malformed,
}
