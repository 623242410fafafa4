"""The `--sizes` and `--scale-tasks` of `envforge bench`: how many rows the verify and gate rows rebuild the
domain at, and how many tasks they gate at each size (light, so the CLI can import it up front)."""

from __future__ import annotations

from envforge.errors import UserInputError

DEFAULT_SIZES = "1000"
"""One size by default, so that a default `envforge bench` ends within a minute: 100,000 rows alone take more."""
FULL_SIZES = "1000,10000,100000"
"""The sizes of the full sweep, which shows the costs stay flat as the state grows."""
SCALE_TASKS = 30
"""Tasks synthesized and gated for the synthesis row and per size: enough for a median, few enough that a
default run of a large domain ends within a minute."""


def parse_sizes(text: str) -> list[int]:
    """`1000,10000` -> [1000, 10000]; a one-line error for anything that is not a list of allowed row counts."""
    from envforge.pipeline.dag import MAX_ROWS, GenerateConfig  # the pipeline's IR is heavy for CLI start-up

    minimum: int = GenerateConfig.model_fields["rows"].metadata[0].ge
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        sizes = []
    if not sizes or any(not minimum <= size <= MAX_ROWS for size in sizes):
        raise UserInputError(
            f"--sizes: '{text}' is not a comma-separated list of row counts from {minimum} to {MAX_ROWS:,}"
        )
    return sizes
