"""Simulated users: a scripted one for offline runs, a model-played persona, and the guard both must pass."""

from envforge.users.base import STOP_MARKERS, Turn, UserSimulator
from envforge.users.guard import CODES, check_reply
from envforge.users.persona import GuardIntervention, PersonaUser, personas_of
from envforge.users.scripted import ScriptedUser

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
