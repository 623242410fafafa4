"""A task's oracle replayed in a session, through an MCP client, or clicked through an app, and the verdict of
the package's own verifier (`envforge run-task`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import anyio
from mcp.types import RequestParamsMeta

from envforge.ir.display import Display
from envforge.ir.tasks import TaskSpec, ToolCall, Verdict
from envforge.ir.uitasks import AppKind
from envforge.runtime.apps.uitasks import find_ui_task
from envforge.runtime.claims import environment_vocabulary, golden_transcript
from envforge.runtime.environment import load_environment
from envforge.runtime.episode import load_package
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_package_verifier, load_tasks, pick_task


@dataclass(frozen=True)
class TaskReplay:
    """A task's oracle or golden UI path replayed: the task (worded as posed), each call and whether it was done,
    and the verdict of the package's verifier."""

    task: TaskSpec
    verdict: Verdict
    calls: list[tuple[str, bool]]
    """(tool, ok) per call, in order."""

    def as_dict(self) -> dict[str, Any]:
        calls = [{"tool": name, "ok": ok} for name, ok in self.calls]
        return {"task": self.task.id, "instruction": self.task.instruction, "calls": calls, **self.verdict.model_dump()}

    def display(self) -> Display:
        task, verdict = self.task, self.verdict
        lines = [
            f"  {index}. {tool} {'ok' if ok else 'refused'}" for index, (tool, ok) in enumerate(self.calls, start=1)
        ]
        if task.expected_answer is not None:
            lines.append(f"  answer: {task.expected_answer}")
        components = ", ".join(f"{name}={'yes' if value else 'no'}" for name, value in verdict.components.items())
        lines.append(f"verdict: reward {verdict.reward:g} ({'passed' if verdict.passed else 'FAILED'}); {components}")
        lines += [f"  - {reason}" for reason in verdict.reasons]
        return Display(heading=f"{task.id} ({task.kind}): {task.instruction}", lines=lines)


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


def run_task(package: Path, task_id: str, *, via: str) -> TaskReplay:
    """Replay the oracle through a session or (`via="mcp"`) an MCP client, and judge it with the shipped verifier."""
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
    transcript = golden_transcript(task, env.blueprint)
    verdict = load_package_verifier(opened, task_id).verify(history, transcript, environment_vocabulary(env))
    return TaskReplay(task, verdict, outcomes)


def run_ui_task(package: Path, task_id: str, app: AppKind) -> TaskReplay:
    """Click through the task's golden UI path in headless Chromium; its calls are the writes the app made."""
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
        return TaskReplay(task.model_copy(update={"instruction": posed.instruction}), verdict, outcomes)
    finally:
        env.close()
