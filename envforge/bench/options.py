"""What `envforge bench` is asked to measure (light on purpose: the command line declares an option per field, with
the field's default, as it starts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envforge.bench.sizes import DEFAULT_SIZES, SCALE_TASKS

if TYPE_CHECKING:
    from envforge.ir.uitasks import AppKind


@dataclass(frozen=True)
class BenchOptions:
    """The options of `envforge bench`: the runtime against naive baselines, unless `app` or `base_url` is given."""

    sessions: int = 1000
    """Live sessions for the memory figure."""
    repeat: int = 300
    """Samples per timing."""
    generation: bool = False
    """Also time generating the package (three cold builds: part of the full sweep, not of the default minute)."""
    base_url: str | None = None
    """Measure rollouts against this served model instead (see `model`)."""
    model: str | None = None
    """Model name for `base_url`."""
    concurrency: str = "1,8,32"
    """Rollout concurrency levels, comma-separated; the first is the baseline."""
    episodes: int = 8
    """Rollout episodes per level (at least the level)."""
    app: AppKind | None = None
    """Measure the web or phone app instead: cold start, reset, memory."""
    sizes: str = DEFAULT_SIZES
    """Total rows of the domains the verify and gate rows rebuild in memory, comma-separated."""
    scale_tasks: int = SCALE_TASKS
    """Tasks synthesized and gated for the synthesis row and at each of `sizes`."""
