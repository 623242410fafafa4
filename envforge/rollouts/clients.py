"""The model clients, user simulator and episode limits a rollout's options make, the same wherever an episode
runs (here, or in a Ray actor)."""

from __future__ import annotations

import os
from pathlib import Path

from envforge.ir.noise import noise_profile
from envforge.llm import CacheMode, LLMClient, ResponseCache
from envforge.llm.cache import default_cache_dir
from envforge.rollouts.episode import RolloutConfig
from envforge.rollouts.options import RolloutOptions
from envforge.runtime.episode import EnvPackage
from envforge.users.base import UserSimulator
from envforge.users.persona import PersonaUser, personas_of
from envforge.users.scripted import ScriptedUser


def api_key() -> str:
    """The endpoint's key: `$OPENAI_API_KEY`, else the placeholder a vLLM server accepts."""
    return os.environ.get("OPENAI_API_KEY", "EMPTY")


def cache_folder(options: RolloutOptions) -> Path:
    return options.cache or default_cache_dir() / "llm"


def build_clients(
    options: RolloutOptions, package: EnvPackage, *, key: str
) -> tuple[LLMClient, UserSimulator, list[LLMClient]]:
    """The agent's client and the user simulator (with its own client when a model plays the user)."""
    mode: CacheMode = "replay" if options.offline else "use"
    cache = ResponseCache(cache_folder(options), mode)
    agent = LLMClient(options.base_url, options.model, api_key=key, cache=cache)
    if options.user == "scripted":
        return agent, ScriptedUser(), [agent]
    user_client = LLMClient(
        options.user_base_url or options.base_url,
        options.user_model or options.model,
        api_key=key,
        cache=cache,
    )
    return agent, PersonaUser(user_client, personas_of(package.env.blueprint)), [agent, user_client]


def rollout_config(options: RolloutOptions) -> RolloutConfig:
    return RolloutConfig(
        max_turns=options.max_turns,
        max_user_turns=options.max_user_turns,
        max_tokens=options.max_tokens,
        temperature=options.temperature,
        seed=options.seed,
        noise=noise_profile(options.noise) if options.noise is not None else None,
    )
