"""The noise of a trainer's episodes (`envforge.ir.noise`): a fixed profile, or a curriculum that raises its level
as the episodes this process judged pass more often.

verl makes an agent loop per sample and TRL an environment per rollout, so the state lives here, one source per
(profile, levels) in each process: each rollout worker steps its own curriculum from the episodes it runs. An
episode's seed is its task and how many episodes of that task the source has started, so a worker that runs the
same episodes in the same order meets the same noise.
"""

from __future__ import annotations

from functools import cache

from envforge.ir.noise import EpisodeNoise, noise_profile
from envforge.runtime.curriculum import Curriculum, curriculum_levels


class NoiseSource:
    """Draws each new episode's noise and hears how each ended."""

    def __init__(self, noise: str, curriculum: str | None = None) -> None:
        profile = noise_profile(noise)
        self.curriculum = Curriculum(profile, levels=curriculum_levels(curriculum)) if curriculum else None
        self.profile = profile
        self.started: dict[str, int] = {}

    def draw(self, task_id: str) -> EpisodeNoise | None:
        count = self.started.get(task_id, 0)
        self.started[task_id] = count + 1
        profile = self.curriculum.current() if self.curriculum is not None else self.profile
        return profile.episode(f"{task_id}:{count}")

    def record(self, passed: bool) -> None:
        if self.curriculum is not None:
            self.curriculum.record(passed)


@cache
def noise_source(noise: str, curriculum: str | None = None) -> NoiseSource:
    """The process's source for this profile and these levels."""
    return NoiseSource(noise, curriculum)
