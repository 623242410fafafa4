"""A domain described in a sentence or two, as `generate --from-description` takes it: its options, checked."""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path

from envforge.errors import UserInputError
from envforge.llm.cache import default_cache_dir
from envforge.synthesis.options import DescriptionOptions
from envforge.synthesis.run import SynthesisConfig

OFFLINE_URL = "http://offline.invalid/v1"
"""Never contacted: with --offline every answer comes from the cache."""
DRAFTS = Path("runs") / "synthesis"


def build_synthesis_config(description: str, options: DescriptionOptions) -> SynthesisConfig:
    """The options of `generate --from-description`, checked."""
    model, base_url = options.model, options.base_url
    if not description.strip():
        raise UserInputError("--from-description: the description is empty; describe the domain in a sentence or two")
    if not model:
        raise UserInputError("--from-description needs --model: the name the endpoint serves (part of the cache key)")
    if not base_url and not options.offline:
        raise UserInputError("--from-description needs --base-url (e.g. http://127.0.0.1:8000/v1), or --offline")
    return SynthesisConfig(
        **asdict(options)
        | {
            "description": " ".join(description.split()),
            "model": model,
            "base_url": base_url or OFFLINE_URL,
            "api_key": os.environ.get("OPENAI_API_KEY", "EMPTY"),
            "cache": options.cache or default_cache_dir() / "llm",
            "drafts": DRAFTS,
        }
    )
