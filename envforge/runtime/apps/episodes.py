"""Episodes of the app server: one isolated session each, reached by an unguessable page token.

The harness knows an episode by its id; the agent's browser knows it only by the token in its URL. The
two are different secrets, so a page can never name the harness handle of its own episode.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from envforge.ir.tasks import ToolCall, Transcript
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session


@dataclass
class AppEpisode:
    """One person's (or agent's) run of the app: a private session and the state it started from."""

    id: str
    token: str
    session: Session
    initial: bytes
    task_id: str | None = None
    calls: list[tuple[str, dict[str, object], bool]] = field(default_factory=list)
    """Every tool call the pages made: (tool, arguments, ok)."""
    flash: str | None = None
    """The success line the next page shows, set only after a WRITE call returned ok."""

    def transcript(self, answer: str | None = None) -> Transcript:
        """The run as a verifier reads it: the tool calls the pages made, and the answer given."""
        calls = [ToolCall(name=name, arguments=dict(arguments)) for name, arguments, _ in self.calls]
        return Transcript(calls=calls, answer=answer)

    def take_flash(self) -> str | None:
        flash, self.flash = self.flash, None
        return flash

    def reset(self) -> None:
        self.session.reset(self.initial)
        self.calls.clear()
        self.flash = None


class EpisodeRegistry:
    """Live episodes of one environment."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self._by_id: dict[str, AppEpisode] = {}
        self._by_token: dict[str, AppEpisode] = {}

    def create(self, task_id: str | None = None, state: bytes | None = None, person: str | None = None) -> AppEpisode:
        """A new episode; `person` is the key of the person its calls act for (a task's `scenario.person`)."""
        session = Session(self.env, person)
        if state is not None:
            session.reset(state)
        episode = AppEpisode(
            id=secrets.token_hex(8),
            token=secrets.token_urlsafe(16),
            session=session,
            initial=session.snapshot(),
            task_id=task_id,
        )
        self._by_id[episode.id] = episode
        self._by_token[episode.token] = episode
        return episode

    def by_id(self, episode_id: str) -> AppEpisode | None:
        return self._by_id.get(episode_id)

    def by_token(self, token: str) -> AppEpisode | None:
        return self._by_token.get(token)

    def close(self, episode_id: str) -> bool:
        episode = self._by_id.pop(episode_id, None)
        if episode is None:
            return False
        self._by_token.pop(episode.token, None)
        episode.session.close()
        return True

    def __len__(self) -> int:
        return len(self._by_id)
