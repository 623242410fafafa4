"""Simulated users: a scripted one for offline runs, a model-played persona, and the guard both must pass.

The persona needs `envforge.llm`, which the runtime wheel (what trainers install) does not hold, so it loads on
first use: the scripted user and `conversation` work there without it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from envforge.users.base import STOP_MARKERS, Turn, UserSimulator
from envforge.users.guard import CODES, check_reply
from envforge.users.scripted import ScriptedUser

if TYPE_CHECKING:
    from envforge.users.persona import GuardIntervention, PersonaUser, personas_of

_PERSONA = ("GuardIntervention", "PersonaUser", "personas_of")

__all__ = [
    "CODES",
    "STOP_MARKERS",
    "GuardIntervention",
    "PersonaUser",
    "ScriptedUser",
    "Turn",
    "UserSimulator",
    "check_reply",
    "personas_of",
]


def __getattr__(name: str) -> Any:
    if name in _PERSONA:
        return getattr(import_module("envforge.users.persona"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
