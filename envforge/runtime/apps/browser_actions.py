"""The actions of the browser environment: JSON objects (or dicts) read into one checked form."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from envforge.errors import EnvforgeError, did_you_mean

ACTIONS = ("click", "type", "select", "check", "uncheck", "scroll", "navigate", "back", "answer", "done")
EXAMPLE_ACTION = '{"action": "click", "element": 3}'


class ActionError(EnvforgeError):
    """An action that cannot be done; the step reports it in `info["error"]` and the episode goes on."""


@dataclass(frozen=True)
class BrowserAction:
    """One parsed action; which fields are set depends on `kind`."""

    kind: str
    element: int | None = None
    x: float | None = None
    y: float | None = None
    dx: float = 0.0
    dy: float = 0.0
    text: str | None = None


def parse_browser_action(action: str | Mapping[str, Any]) -> BrowserAction:
    """Read an action (JSON text or a dict), or raise `ActionError` with a one-line reason."""
    if isinstance(action, str):
        try:
            data = json.loads(action)
        except json.JSONDecodeError as error:
            raise ActionError(
                f"the action is not JSON ({error.msg}); send an object such as {EXAMPLE_ACTION}"
            ) from None
    else:
        data = action
    if not isinstance(data, Mapping):
        raise ActionError(f"the action must be a JSON object such as {EXAMPLE_ACTION}")
    kind = data.get("action")
    if kind not in ACTIONS:
        hint = did_you_mean(kind, ACTIONS) if isinstance(kind, str) else ""
        raise ActionError(f"unknown action {kind!r}{hint}; one of {', '.join(ACTIONS)}")
    element = _element(data) if "element" in data else None
    point = (_number(data, "x"), _number(data, "y")) if "x" in data or "y" in data else (None, None)
    if kind in ("type", "select", "check", "uncheck") and element is None:
        raise ActionError(f'{kind}: give the element\'s number from the axtree, e.g. "element": 5')
    if kind == "click" and element is None and point[0] is None:
        raise ActionError('click: give "element" (its number in the axtree) or "x" and "y" (screenshot pixels)')
    text: str | None = None
    if kind in ("type", "select", "navigate", "answer"):
        field = {"type": "text", "select": "value", "navigate": "url", "answer": "text"}[kind]
        value = data.get(field)
        if not isinstance(value, str):
            raise ActionError(f'{kind}: "{field}" must be a string')
        text = value
    dx = _number(data, "dx") if "dx" in data else 0.0
    dy = _number(data, "dy") if "dy" in data else 0.0
    if kind == "scroll" and dx == 0 and dy == 0:
        raise ActionError('scroll: give "dy" (pixels down, negative for up) or "dx"')
    return BrowserAction(kind=kind, element=element, x=point[0], y=point[1], dx=dx, dy=dy, text=text)


def _element(data: Mapping[str, Any]) -> int:
    value = data["element"]
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f'"element" must be the number of an element in the axtree, not {value!r}')
    return value


def _number(data: Mapping[str, Any], name: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ActionError(f'"{name}" must be a number of pixels, not {value!r}')
    return float(value)
