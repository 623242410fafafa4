"""The one error tree. Every message says what failed, where, and how to fix it."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

_LONG_WORD = re.compile(r"\S{120,}")
MESSAGE_MAX = 1000


def clip_message(message: str) -> str:
    """An error message that quotes what it refuses, kept short: a huge quoted value would bury what is wrong
    and how to fix it, and repeat megabytes back to the sender."""
    clipped = _LONG_WORD.sub(lambda match: f"{match.group()[:57]}...", message)
    return clipped if len(clipped) <= MESSAGE_MAX else f"{clipped[: MESSAGE_MAX - 3]}..."


class EnvforgeError(Exception):
    """Base of every error envforge raises on purpose."""


class UserInputError(EnvforgeError):
    """Bad input from a user (a blueprint, a flag, a package path). The CLI exits 2 on it."""


class BlueprintError(UserInputError):
    """A blueprint that cannot be loaded or is inconsistent.

    The message is one line: ``FILE:LINE: FIELD.PATH: what is wrong; how to fix it``.
    """

    def __init__(self, message: str, *, file: str = "", line: int | None = None, path: str = "") -> None:
        message = " ".join(message.split()) if "\n" in message or "\r" in message else message
        message = clip_message(message)
        self.file = file
        self.line = line
        self.path = path
        self.detail = message
        where = file
        if file and line is not None:
            where = f"{file}:{line}"
        prefix = ": ".join(part for part in (where, path) if part)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class PackageError(UserInputError):
    """An environment package that is missing, incomplete or corrupt."""


class PipelineError(EnvforgeError):
    """A pipeline definition or run that cannot proceed (a bug or a broken run directory)."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest choice, or an empty string."""
    matches = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f"; did you mean '{matches[0]}'?" if matches else ""
