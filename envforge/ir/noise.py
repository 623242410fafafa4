"""Noise profiles: what goes wrong in an episode on purpose, and how often, so an agent learns to recover.

A profile names kinds of tool noise (failures the runtime injects around a call) and of user noise (how the
simulated user garbles what they say), a level (the chance that each chance for noise is taken) and a share (the
fraction of episodes that get any noise at all). Every draw is a hash of the episode's seed and the place it is
drawn for, so the same seed gives the same noise, and a draw taken at one level is taken at every higher level:
raising the level only adds noise to an episode, it never moves it.

Noise never changes what a verdict calls right. A failed call changed nothing and the same call again succeeds;
a cut-off list says where the rest starts; a stale read says so and a second read is fresh; the user says the
truth when asked and corrects a wrong detail at their next turn. A careful agent can always recover.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TypeVar, get_args

from pydantic import Field, ValidationError

from envforge.errors import EnvforgeError, UserInputError
from envforge.ir.base import IRModel
from envforge.ir.bounded_yaml import load_bounded

ToolNoiseKind = Literal["transient", "timeout", "paginated", "stale", "malformed"]
"""`transient`: a retryable `unavailable` error before the call runs; `timeout`: a retryable `timeout` error
before it runs; `paginated`: a list cut to a short page, with where the next page starts; `stale`: a read showing
rows as they were before this episode's writes, flagged as possibly out of date; `malformed`: a read's answer cut
off mid-JSON, as a retryable error."""
UserNoiseKind = Literal["typos", "vague", "chatter", "correction", "sidetrack"]
"""`typos`: misspelt words (never a name, number, email or any detail of the task); `vague`: a detail the opener
stated is only referred to, and given when asked; `chatter`: an irrelevant sentence; `correction`: a wrong detail
in the opener, put right at the user's next turn; `sidetrack`: the user answers a different question first."""

TOOL_KINDS: tuple[ToolNoiseKind, ...] = get_args(ToolNoiseKind)
USER_KINDS: tuple[UserNoiseKind, ...] = get_args(UserNoiseKind)
T = TypeVar("T")
EXTRA_USER_TURNS = 2
"""User turns a noisy user may cost a careful agent: one to confirm details, one to ask again after a sidetrack."""


class NoiseProfile(IRModel):
    """Which noise, how often, and in what share of episodes. Level 0 is a clean episode."""

    name: str = "custom"
    tool: list[ToolNoiseKind] = Field(default_factory=list)
    user: list[UserNoiseKind] = Field(default_factory=list)
    level: float = Field(default=0.0, ge=0.0, le=1.0)
    """The chance that each chance for noise is taken (per tool call, per user message)."""
    share: float = Field(default=1.0, ge=0.0, le=1.0)
    """The fraction of episodes that get noise; the others run clean."""

    def at(self, level: float) -> NoiseProfile:
        """This profile at another level (a curriculum's step)."""
        return self.model_copy(update={"level": level})

    def episode(self, seed: str) -> EpisodeNoise | None:
        """The noise of the episode with this seed; None when it runs clean (level 0, or outside the share)."""
        if self.level == 0 or not (self.tool or self.user):
            return None
        noise = EpisodeNoise(self, seed)
        return noise if noise.draw("episode", 0) < self.share else None


class EpisodeNoise:
    """The noise of one episode: a deterministic draw for every place noise may strike."""

    def __init__(self, profile: NoiseProfile, seed: str) -> None:
        self.profile = profile
        self.seed = seed

    def draw(self, stream: str, index: int) -> float:
        """A number in [0, 1) fixed by the profile's kinds, the episode seed, the stream and the index."""
        kinds = ",".join([*self.profile.tool, *self.profile.user])
        digest = hashlib.sha256(f"{kinds}|{self.seed}|{stream}|{index}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64

    def strikes(self, stream: str, index: int) -> bool:
        """Whether noise strikes here: the same draw at every level, so a higher level strikes a superset."""
        return self.draw(stream, index) < self.profile.level

    def pick(self, stream: str, index: int, choices: Sequence[T]) -> T:
        """One of `choices`, drawn independently of whether noise strikes."""
        return choices[int(self.draw(f"{stream}:pick", index) * len(choices))]


SHIPPED: dict[str, NoiseProfile] = {
    "tools": NoiseProfile(name="tools", tool=list(TOOL_KINDS), level=0.3),
    "user": NoiseProfile(name="user", user=list(USER_KINDS), level=0.3),
    "all": NoiseProfile(name="all", tool=list(TOOL_KINDS), user=list(USER_KINDS), level=0.3),
}
"""The profiles `--noise` names; `NAME@LEVEL` sets the level, a YAML file declares a profile of its own."""


def noise_profile(spec: str) -> NoiseProfile:
    """`tools`, `user`, `all` (optionally `@LEVEL`, e.g. `all@0.5`) or a YAML file of `NoiseProfile` fields."""
    name, _, level_text = spec.partition("@")
    if name in SHIPPED:
        profile = SHIPPED[name]
    elif Path(name).is_file():
        profile = _load(Path(name))
    else:
        raise UserInputError(
            f"unknown noise profile '{name}': name one of {', '.join(SHIPPED)} (e.g. all@0.5) or a YAML file "
            f"with the fields {', '.join(NoiseProfile.model_fields)}"
        )
    if not level_text:
        return profile
    try:
        level = float(level_text)
    except ValueError:
        level = -1.0
    if not 0.0 <= level <= 1.0:
        raise UserInputError(f"noise level '{level_text}' in '{spec}' is not a number from 0 to 1: write e.g. all@0.5")
    return profile.at(level)


def _load(path: Path) -> NoiseProfile:
    try:
        data = load_bounded(path.read_text(encoding="utf-8"), str(path))
        return NoiseProfile.model_validate(data)
    except (OSError, UnicodeDecodeError) as exc:
        raise UserInputError(f"cannot read noise profile {path}: {exc}") from exc
    except EnvforgeError as exc:
        raise UserInputError(f"noise profile {path}: {exc}") from exc
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "the file"
        raise UserInputError(
            f"{path}: {where}: {problem['msg']} (kinds: tool {', '.join(TOOL_KINDS)}; user {', '.join(USER_KINDS)})"
        ) from exc
