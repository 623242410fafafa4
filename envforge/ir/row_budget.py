"""How many rows a run seeds, known as soon as its blueprint loads, and the cap on them.

An entity's `rows:` is a weight: the run's row count (`--rows`) is split over the entities by it, each getting
at least one, and a `catalogue` adds its own rows on top. The count is then fixed before any row is made, so a run
that would seed more than the cap is refused at once, before it makes a folder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from envforge.errors import UserInputError

if TYPE_CHECKING:
    from envforge.ir.blueprint import Blueprint

DEFAULT_MAX_ROWS = 1_000_000
"""Rows a run may seed, all entities together, unless `--max-rows` allows more."""
NAMED_ENTITIES = 3
"""The biggest entities a refusal names."""


def planned_rows(blueprint: Blueprint, rows: int) -> dict[str, int]:
    """Each catalogue's own length, and `rows` split over the other entities by their relative `rows` weights
    (at least one each)."""
    fixed = {entity.name: len(entity.catalogue) for entity in blueprint.entities if entity.catalogue}
    weights = {entity.name: entity.rows for entity in blueprint.entities if entity.name not in fixed}
    scale = rows / (sum(weights.values()) or 1)
    return {name: max(1, round(weight * scale)) for name, weight in weights.items()} | fixed


def check_row_budget(blueprint: Blueprint, rows: int, max_rows: int, source: str) -> None:
    """Raise when a run of `rows` rows of this blueprint (the file `source`) would seed more than `max_rows`."""
    counts = planned_rows(blueprint, rows)
    total = sum(counts.values())
    if total <= max_rows:
        return
    biggest = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:NAMED_ENTITIES]
    named = ", ".join(f"{name} {count:,}" for name, count in biggest)
    more = ", ..." if len(counts) > NAMED_ENTITIES else ""
    raise UserInputError(
        f"{source}: seeding {total:,} rows ({named}{more}) is above the cap of {max_rows:,} rows; lower --rows "
        f"(now {rows:,}), or pass --max-rows {total} to allow it"
    )
