"""MCP and memory rows: in-process serving beside a fresh server process per episode."""

from __future__ import annotations

import gc
import os
import statistics
import sys
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter_ns
from typing import TYPE_CHECKING, cast

import anyio
import psutil

from envforge.bench.calls import Probe
from envforge.bench.report import BenchRow, Timing, summarize, timed_row
from envforge.errors import EnvforgeError
from envforge.runtime.environment import Environment
from envforge.runtime.episode_store import EpisodeStore
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer

if TYPE_CHECKING:
    from mcp_types import RequestParamsMeta

MB = 1_000_000
RSS_GOAL_MB = 1000.0
RSS_GOAL_SESSIONS = 1000
"""The memory goal is stated for this many live sessions; other counts are reported without one."""


@dataclass(frozen=True)
class Episodes:
    """Fresh-server-process episodes: each one's start + call time and the server's RSS after it."""

    times_ns: list[int]
    rss_bytes: list[int]


def serve_command(package: Path) -> list[str]:
    """`envforge serve PACKAGE --transport stdio` in this interpreter."""
    return [sys.executable, "-m", "envforge.cli.app", "serve", str(package), "--transport", "stdio"]


async def stdio_episodes(package: Path, probe: Probe, count: int) -> Episodes:
    """Start a server process per episode, call the probe once, and record time and the server's RSS."""
    times: list[int] = []
    rss: list[int] = []
    for _ in range(count):
        elapsed, resident = await _stdio_episode(package, probe)
        times.append(elapsed)
        rss.append(resident)
    return Episodes(times, rss)


async def _stdio_episode(package: Path, probe: Probe) -> tuple[int, int]:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    command = serve_command(package)
    # The SDK passes only a safe subset of the environment; keep a source checkout importable.
    extra = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
    parameters = StdioServerParameters(command=command[0], args=command[1:], env=extra)
    known = {child.pid for child in psutil.Process().children(recursive=True)}
    async with AsyncExitStack() as stack:
        start = perf_counter_ns()
        client = await stack.enter_async_context(Client(parameters))
        result = await client.call_tool(probe.tool, probe.arguments)
        elapsed = perf_counter_ns() - start
        resident = _new_children_rss(known)
    if result.is_error:
        raise EnvforgeError(f"{package}: the stdio server refused {probe.tool}: {payload_of(result)}")
    return elapsed, resident


def _new_children_rss(known: set[int]) -> int:
    total = 0
    for child in psutil.Process().children(recursive=True):
        if child.pid not in known:
            try:
                total += child.memory_info().rss
            except psutil.NoSuchProcess:
                continue
    return total


async def mcp_inprocess(env: Environment, probe: Probe, repeat: int, warmup: int) -> Timing:
    """One long-lived in-process client calling the probe in an explicit episode."""
    from mcp.client import Client

    server = EnvServer(env)
    meta = cast("RequestParamsMeta", {EPISODE_META_KEY: server.episodes.open_free("bench").id})
    samples: list[int] = []
    async with Client(server.server) as client:
        for index in range(warmup + repeat):
            start = perf_counter_ns()
            result = await client.call_tool(probe.tool, probe.arguments, meta=meta)
            elapsed = perf_counter_ns() - start
            if result.is_error:
                raise EnvforgeError(f"the in-process MCP server refused {probe.tool}: {payload_of(result)}")
            if index >= warmup:
                samples.append(elapsed)
    server.episodes.close("bench")
    return summarize(samples)


def bench_mcp(env: Environment, probe: Probe, episodes: Episodes, *, repeat: int, warmup: int) -> BenchRow:
    ours = anyio.run(mcp_inprocess, env, probe, repeat, warmup)
    return timed_row(
        "mcp",
        f"MCP {probe.tool}",
        ours,
        "process per episode",
        summarize(episodes.times_ns),
        goal=None,
        note=(
            "one in-process mcp.Client, episode in _meta; baseline starts `envforge serve --transport stdio`, "
            "connects, calls once (timed to the answer, shutdown untimed)"
        ),
    )


def process_rss() -> int:
    return int(psutil.Process().memory_info().rss)


def live_sessions_rss(env: Environment, probe: Probe, count: int) -> tuple[int, int]:
    """(RSS before, RSS after) opening `count` episodes in a server's store that have each served the probe once."""
    gc.collect()
    before = process_rss()
    store = EpisodeStore(env, max_episodes=count)
    live = [store.open_free() for _ in range(count)]
    for served in live:
        served.call(probe.tool, probe.arguments)
    after = process_rss()
    for served in live:
        store.close(served.id)
    return before, after


def bench_memory(env: Environment, probe: Probe, sessions: int, episodes: Episodes) -> BenchRow:
    before, after = live_sessions_rss(env, probe, sessions)
    per_process = statistics.median(episodes.rss_bytes)
    per_session = (after - before) / sessions
    return BenchRow(
        key="rss",
        measure=f"RSS {sessions:,} sessions",
        unit="MB",
        median=after / MB,
        p95=None,
        baseline=f"1 process x{sessions:,} (extrapolated)",
        baseline_median=per_process * sessions / MB,
        baseline_p95=None,
        samples=1,
        baseline_samples=len(episodes.rss_bytes),
        goal=RSS_GOAL_MB if sessions == RSS_GOAL_SESSIONS else None,
        note=(
            f"whole process: {before / MB:,.1f} MB before the sessions, {per_session / 1e3:,.1f} kB per session "
            f"(episodes of one server's store) after one {probe.tool} call each; one fresh server process: "
            f"{per_process / MB:,.1f} MB"
        ),
    )
