"""What `generate --from-description` is asked for besides the description: the model and its cache, and the
writing's repair rounds, prices and JSON mode.

Light on purpose: the command line declares an option per field, with the field's default, as it starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from envforge.synthesis.calls import JsonMode

DEFAULT_REPAIR_ROUNDS = 3


@dataclass(frozen=True)
class DescriptionOptions:
    """The options of `generate --from-description`: each field is one of its command-line options."""

    base_url: str | None = None
    """The model's OpenAI-compatible endpoint; None only with `offline`."""
    model: str | None = None
    """The model name (part of the cache key); required."""
    cache: Path | None = None
    """Response cache folder (default $ENVFORGE_CACHE/llm or ~/.cache/envforge/llm)."""
    offline: bool = False
    """Serve every request from the cache; a miss is an error."""
    repair_rounds: int = DEFAULT_REPAIR_ROUNDS
    """Times a blueprint error is sent back to the model."""
    price_prompt: float = 0.0
    """Price per million prompt tokens, for the cost report."""
    price_completion: float = 0.0
    """Price per million completion tokens."""
    json_mode: JsonMode = "vllm"
    """How schemas reach the model: vllm (structured_outputs) or openai."""
