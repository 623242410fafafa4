"""What serving a package is asked for (`envforge serve`): MCP or an app, where, and how many episodes it keeps.

Light on purpose: the command line declares an option per field, with the field's default, as it starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from envforge.ir.uitasks import AppKind

DEFAULT_MAX_EPISODES = 2000


@dataclass(frozen=True)
class ServeOptions:
    """The options of `envforge serve`: each field is one of its command-line options."""

    transport: Literal["stdio", "http"] = "stdio"
    """MCP over stdio, or over streamable HTTP at /mcp."""
    host: str = "127.0.0.1"
    port: int = 8765
    """0: any free port."""
    app: AppKind | None = None
    """Serve the web or phone app instead of MCP (over HTTP)."""
    max_episodes: int = DEFAULT_MAX_EPISODES
    """Live episodes kept (MCP or app); past it the least recent is dropped."""
    idle_timeout: float | None = None
    """Seconds after which an episode left unused is dropped; None keeps it."""
    free_episodes: bool = False
    """MCP: an episode id the harness never created starts a free episode (no task, no person) instead of being
    refused; always so over stdio without `task`."""
    task: str | None = None
    """MCP over stdio: the task the default episode is created for (it acts for the task's person); None: a free
    default episode."""
    harness_port: int | None = None
    """MCP over stdio: also serve the harness API over HTTP on this port of `host` (0: any free port)."""
