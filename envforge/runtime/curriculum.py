"""A noise curriculum: the level of a noise profile rises a step each time the agent's recent pass rate reaches a
mark, so a policy meets harder episodes only once it handles the easier ones.

The scheduler is plain state that a trainer's loop (the Gym env, the verl and TRL adapters, `envforge rollout`)
advances with each finished episode's outcome. It is deterministic: the same outcomes in the same order give the
same levels, and every episode records the level it ran at (`state`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from envforge.errors import UserInputError
from envforge.ir.noise import EpisodeNoise, NoiseProfile

LEVELS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
PROMOTE_AT = 0.7
"""The pass rate over the last `window` episodes at which the level steps up."""
WINDOW = 16


@dataclass
class Curriculum:
    """Steps `profile` through `levels`, one step up when the last `window` episodes passed at `promote_at` or more
    (the window then starts afresh, so each step is earned at its own level)."""

    profile: NoiseProfile
    levels: tuple[float, ...] = LEVELS
    promote_at: float = PROMOTE_AT
    window: int = WINDOW
    step: int = 0
    recent: deque[bool] = field(default_factory=deque)
    promotions: list[int] = field(default_factory=list)
    """How many episodes had finished at each promotion."""
    finished: int = 0

    def __post_init__(self) -> None:
        if (
            not self.levels
            or list(self.levels) != sorted(self.levels)
            or not 0 <= self.levels[0] <= self.levels[-1] <= 1
        ):
            raise UserInputError(
                f"curriculum levels {list(self.levels)} must rise from 0 to at most 1, e.g. 0,0.3,0.6,1"
            )
        if not 0 < self.promote_at <= 1 or self.window < 1:
            raise UserInputError("a curriculum needs a pass-rate mark in (0, 1] and a window of at least 1 episode")

    @property
    def level(self) -> float:
        return self.levels[self.step]

    def current(self) -> NoiseProfile:
        """The profile at the current level."""
        return self.profile.at(self.level)

    def noise(self, seed: str) -> EpisodeNoise | None:
        """The noise of an episode starting now."""
        return self.current().episode(seed)

    def record(self, passed: bool) -> None:
        """One finished episode's outcome; the level steps up when the window's pass rate reaches the mark."""
        self.finished += 1
        self.recent.append(passed)
        if len(self.recent) > self.window:
            self.recent.popleft()
        full = len(self.recent) == self.window
        if full and sum(self.recent) / self.window >= self.promote_at and self.step + 1 < len(self.levels):
            self.step += 1
            self.recent.clear()
            self.promotions.append(self.finished)

    def state(self) -> dict[str, object]:
        """What an episode records of the curriculum it ran under."""
        rate = sum(self.recent) / len(self.recent) if self.recent else None
        return {"level": self.level, "step": self.step, "finished": self.finished, "window_pass_rate": rate}


def curriculum_levels(spec: str) -> tuple[float, ...]:
    """`0,0.2,0.5,1` as levels; one line naming the fix when it is not."""
    try:
        return tuple(float(part) for part in spec.split(",") if part.strip())
    except ValueError as exc:
        raise UserInputError(
            f"curriculum levels '{spec}' are not comma-separated numbers: write e.g. 0,0.3,0.6,1"
        ) from exc
