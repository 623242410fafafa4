"""`envforge bench`: the runtime's figures, each beside a naive baseline measured in the same run.

Ours: in-memory sessions reset from the template's bytes, tools served in-process, MCP through an
in-process client. Baselines: what a per-episode setup does without them - copy the database file,
open a fresh connection per call on that on-disk copy, start a fresh server process per episode.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import anyio

from envforge.bench.baselines import bench_read, bench_reset, bench_write
from envforge.bench.calls import Probe, capture_statements, find_read_probe, find_write_probe
from envforge.bench.episodes import bench_mcp, bench_memory, stdio_episodes
from envforge.bench.long_run import bench_long_run
from envforge.bench.report import BenchReport, BenchRow, warmup_runs
from envforge.bench.scaled import bench_at_scale
from envforge.bench.sizes import SCALE_TASKS
from envforge.bench.tasks import bench_synthesis, bench_verify
from envforge.pipeline.progress import step
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import OpenedPackage

STDIO_EPISODES = 5
"""Fresh-process episodes timed for the MCP baseline; each costs about a second."""


def bench_state(env: Environment, package: Path, *, repeat: int, warmup: int) -> tuple[Probe, list[BenchRow]]:
    """The reset, READ and WRITE rows (WRITE also late in a long episode), and the READ call they timed (the MCP and
    memory rows repeat it)."""
    read = capture_statements(env, find_read_probe(env))
    write = find_write_probe(env)
    rows: list[BenchRow] = []
    with tempfile.TemporaryDirectory(prefix="envforge-bench-") as scratch:
        database = Path(scratch) / "state.sqlite"
        template = package / "state.sqlite"
        rows.append(bench_reset(env, template, database, repeat=repeat, warmup=warmup))
        rows.append(bench_read(env, read, template, database, repeat=repeat, warmup=warmup))
        if write is not None:
            write = capture_statements(env, write)
            rows.append(bench_write(env, write, template, database, repeat=repeat, warmup=warmup))
            rows.append(bench_long_run(env, read, write, repeat=repeat, warmup=warmup))
    return read, rows


def run_bench(
    package: OpenedPackage, *, sessions: int, repeat: int, sizes: Sequence[int] = (), scale_tasks: int = SCALE_TASKS
) -> BenchReport:
    """Measure reset, READ and WRITE calls, an MCP call, RSS with `sessions` live sessions, verification
    and task synthesis (of at most `scale_tasks` tasks); then verify and the gate at each of `sizes` total rows
    (`scale_tasks` tasks each)."""
    env = load_environment(package)
    warmup = warmup_runs(repeat)
    with step("reset, read, write"):
        read, rows = bench_state(env, package.path, repeat=repeat, warmup=warmup)
    with step("mcp, memory"):
        episodes = anyio.run(stdio_episodes, package.path, read, STDIO_EPISODES)
        rows.append(bench_mcp(env, read, episodes, repeat=repeat, warmup=warmup))
        rows.append(bench_memory(env, read, sessions, episodes))
    manifest = package.manifest
    with step("verify, synthesis"):
        verify = bench_verify(package, env, repeat=repeat, warmup=warmup)
        if verify is not None:
            rows.append(verify)
        rows.append(bench_synthesis(env, count=min(manifest.tasks_requested, scale_tasks), seed=manifest.seed))
    rows.extend(bench_at_scale(env.blueprint, list(sizes), seed=manifest.seed, repeat=repeat, tasks=scale_tasks))
    return BenchReport(env.env_id, str(package.path), repeat, sessions, rows)
