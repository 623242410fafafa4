"""What every package of a batch is generated with, and where the work runs (light on purpose: the command line
declares an option per field, with the field's default, as it starts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envforge.ir.row_budget import DEFAULT_MAX_ROWS

if TYPE_CHECKING:
    from envforge.executors import ExecutorKind


@dataclass(frozen=True)
class BatchSettings:
    """What every package of a batch is generated with, and where the work runs; each field is an option of
    `envforge batch`."""

    seed: int = 0
    rows: int = 1000
    tasks: int = 150
    """Accepted tasks wanted per package."""
    workers: int = 2
    """Processes of the local pool; Ray schedules by its cluster's CPUs instead."""
    executor: ExecutorKind = "local"
    address: str | None = None
    """The Ray cluster to join; None starts Ray here."""
    max_rows: int = DEFAULT_MAX_ROWS
    """The most rows one package seeds; a blueprint asking for more fails alone, as it loads."""
