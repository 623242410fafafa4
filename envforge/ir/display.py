"""How an outcome shows itself to people: tables and lines of plain strings, which the command line draws.

The library decides what a result says (its titles, columns, rows and sentences); `envforge.cli.output` only
draws it, or the outcome's JSON (`as_dict()`), in the same way for every command.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

SHOWN = 20
"""How many items of a long list (problems, tasks, changed verdicts) a display names before counting the rest."""


@dataclass(frozen=True)
class Table:
    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]


@dataclass(frozen=True)
class Display:
    """What an outcome shows: on stdout a bold heading, its tables and the lines below them (each one line,
    however long, so that a log can be searched for it); on stderr its warnings and alarms, also beside JSON."""

    heading: str = ""
    tables: Sequence[Table] = ()
    lines: Sequence[str] = ()
    warnings: Sequence[str] = ()
    alarms: Sequence[str] = ()
    """Failures that must not be missed, drawn in bold red."""


class Outcome(Protocol):
    """What a command prints: the outcome's display for people, or its JSON for machines."""

    def as_dict(self) -> dict[str, Any]: ...

    def display(self) -> Display: ...
