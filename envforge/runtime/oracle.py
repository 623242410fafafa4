"""A task's oracle replayed in a session, through an MCP client, or clicked through an app, and the verdict of
the package's own verifier (`envforge run-task`)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import anyio
from mcp.types import RequestParamsMeta

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript, Verdict
from envforge.ir.uitasks import AppKind
from envforge.runtime.apps.uitasks import find_ui_task
from envforge.runtime.claims import environment_vocabulary
from envforge.runtime.environment import load_environment
from envforge.runtime.episode import load_package
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_package_verifier, load_tasks, pick_task


def _through_mcp(server: EnvServer, calls: list[ToolCall], episode: str) -> list[tuple[str, bool]]:
    import mcp

    async def run() -> list[tuple[str, bool]]:
        outcomes = []
        meta = cast(RequestParamsMeta, {EPISODE_META_KEY: episode})
        async with mcp.Client(server.server) as client:
            for call in calls:
                result = await client.call_tool(call.name, call.arguments, meta=meta)
                outcomes.append((call.name, not result.is_error))
        return outcomes

    return anyio.run(run)


def run_task(package: Path, task_id: str, *, via: str) -> tuple[TaskSpec, Verdict, list[tuple[str, bool]]]:
    """Replay the oracle; returns the task, the shipped verifier's verdict, and (tool, ok) per call."""
    opened = open_package(package)
    env = load_environment(opened)
    task = pick_task(package, load_tasks(opened), task_id)
    if via == "mcp":
        server = EnvServer(env)
        episode = server.episodes.open_task(task, "run-task")
        outcomes = _through_mcp(server, task.oracle, episode.id)
        history = episode.session.history()
    else:
        session = Session(env, task.scenario.person)
        outcomes = [(call.name, session.call_tool(call.name, call.arguments)[0]) for call in task.oracle]
        history = session.history()
    transcript = Transcript(calls=task.oracle, answer=task.expected_answer)
    verdict = load_package_verifier(opened, task_id).verify(history, transcript, environment_vocabulary(env))
    return task, verdict, outcomes


def run_ui_task(package: Path, task_id: str, app: AppKind) -> tuple[TaskSpec, Verdict, list[tuple[str, bool]]]:
    """Click through the task's golden UI path in headless Chromium; returns what `run_task` does."""
    from envforge.runtime.apps.browser_env import BrowserEnv

    loaded = load_package(open_package(package))
    task = loaded.task(task_id)  # one-line errors before any browser starts
    posed = find_ui_task(loaded.files, task_id, app)
    env = BrowserEnv(loaded, app, task_id=task_id)
    try:
        env.reset(options={"task_id": task_id})
        verdict, _ = env.replay_golden()
        assert env.episode is not None
        outcomes = [(name, ok) for name, _, ok in env.episode.calls if env.package.env.tools[name].kind == "write"]
        return task.model_copy(update={"instruction": posed.instruction}), verdict, outcomes
    finally:
        env.close()
