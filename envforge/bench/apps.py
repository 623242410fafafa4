"""`envforge bench PACKAGE --app web|phone`: the app server's cold start and reset, and memory per browser context.

Baselines are measured in the same run:
- cold start: a browser-hosted instance (launch a fresh Chromium and load the app's first page), which is what
  environments that host each app instance in its own browser pay per episode;
- reset: restarting the server process (the cold start again), against one call to the state API;
- reset on a kept-alive connection: the same call, each on a new connection (what `urllib` does);
- golden UI replay: the same tasks' oracle tool calls made in process, without any UI;
- memory: one Chromium per episode, against one more context in a shared Chromium.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter_ns
from typing import Any

import psutil

from envforge.bench.report import BenchRow, Timing, summarize, timed_row
from envforge.errors import UserInputError
from envforge.ir.uitasks import AppKind
from envforge.runtime.apps.chromium import CHROMIUM_ARGS, INSTALL_HINT, find_chromium
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import EnvPackage
from envforge.runtime.session import Session
from envforge.validators.ui_replay import replay_ui_tasks, spread

TOKEN = "envforge-bench"
_ANNOUNCED = re.compile(r"at (http://[0-9.]+:\d+);")
COLD_START_GOAL_MS = 1000.0
RESET_GOAL_MS = 20.0
MB = 1_000_000
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _harness(url: str, method: str = "POST", body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body or {}).encode() if method == "POST" else None
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    with _OPENER.open(urllib.request.Request(url, data=data, method=method, headers=headers), timeout=30) as answer:
        return json.load(answer)


@contextmanager
def _served(package: Path, app: str) -> Iterator[tuple[str, int]]:
    """`envforge serve PACKAGE --app APP --port 0` in a fresh interpreter: (base URL, ns from spawn to first page)."""
    environment = {**os.environ, "ENVFORGE_HARNESS_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "envforge.cli.app", "serve", str(package), "--app", app, "--port", "0"]
    started = perf_counter_ns()
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=environment, text=True)
    try:
        line = process.stderr.readline() if process.stderr is not None else ""
        found = _ANNOUNCED.search(line)
        if found is None:
            raise UserInputError(f"{package}: `envforge serve --app {app}` did not start: {line.strip()}")
        base = found.group(1)
        episode = _harness(f"{base}/harness/episodes", body={"free": True})
        with _OPENER.open(base + episode["url"], timeout=30) as page:
            page.read()
        yield base, perf_counter_ns() - started
    finally:
        process.terminate()
        process.wait(timeout=30)


def _kept_alive_resets(base: str, episode: str, count: int) -> list[int]:
    """Resets through the state API over one HTTP/1.1 connection, as a harness with a connection pool makes them.

    A server that leaves Nagle's algorithm on answers these about 40 ms late (the client's delayed ACK),
    which a new connection per request never shows."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    samples: list[int] = []
    try:
        for _ in range(count):
            started = perf_counter_ns()
            connection.request("POST", f"/harness/episodes/{episode}/reset", headers=headers)
            answer = connection.getresponse()
            answer.read()
            samples.append(perf_counter_ns() - started)
            if answer.status != 200:
                raise UserInputError(f"{base}: the harness refused a reset with HTTP {answer.status}")
    finally:
        connection.close()
    return samples


def _pss(pids: set[int]) -> int:
    """Proportional set size of these processes: shared pages are split between sharers, not counted twice."""
    total = 0
    for pid in pids:
        try:
            total += int(psutil.Process(pid).memory_full_info().pss)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


def _descendants(known: set[int]) -> set[int]:
    return {child.pid for child in psutil.Process().children(recursive=True)} - known


def _browser_rows(base: str, app: str, contexts: int, repeat: int) -> tuple[BenchRow, Timing]:
    """Memory per extra context in one browser beside a browser per episode, and that browser's launch time."""
    try:
        from playwright.sync_api import ViewportSize, sync_playwright
    except ImportError:
        raise UserInputError(f"bench --app needs playwright: {INSTALL_HINT}") from None
    executable = find_chromium()
    if executable is None:
        raise UserInputError(f"bench --app needs Chromium: {INSTALL_HINT}")
    viewport: ViewportSize = {"width": 390, "height": 844} if app == "phone" else {"width": 1280, "height": 800}

    def open_episode(page: Any) -> None:
        page.goto(base + _harness(f"{base}/harness/episodes", body={"free": True})["url"])

    with sync_playwright() as playwright:
        driver = _descendants(set()) | {os.getpid()}
        launches: list[int] = []
        fresh: list[int] = []
        for _ in range(repeat):
            started = perf_counter_ns()
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            open_episode(browser.new_page(viewport=viewport))
            launches.append(perf_counter_ns() - started)
            fresh.append(_pss(_descendants(driver)))
            browser.close()
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        open_episode(browser.new_context(viewport=viewport).new_page())
        before = _pss(_descendants(driver))
        for _ in range(contexts):
            open_episode(browser.new_context(viewport=viewport).new_page())
        per_context = (_pss(_descendants(driver)) - before) / contexts
        browser.close()
    memory = BenchRow(
        key="app_context_memory",
        measure=f"memory per concurrent browser context ({contexts} more contexts, app page open)",
        unit="MB",
        median=per_context / MB,
        p95=None,
        baseline="one Chromium per episode (its process tree with the page open)",
        baseline_median=statistics.median(fresh) / MB,
        baseline_p95=None,
        samples=contexts,
        baseline_samples=len(fresh),
        note="proportional set size (PSS); browser-hosted phone environments report about 400 MB per instance",
    )
    return memory, summarize(launches)


def _golden_row(package: EnvPackage, app: AppKind, count: int) -> BenchRow:
    """Golden UI paths clicked through in Chromium, beside the same tasks' oracles called in process."""
    chosen = spread([task for task in load_ui_tasks(package.files) if task.app == app], count)
    if not chosen:
        raise UserInputError(f"{package.path}: no UI tasks in the {app} app to replay")
    outcomes, _ = replay_ui_tasks(package, chosen, (app,))
    failed = [outcome for outcome in outcomes if not outcome.passed]
    if failed:
        first = failed[0]
        raise UserInputError(f"{package.path}: golden UI path of {first.task.task_id} failed: {first.detail}")
    oracles: list[int] = []
    for task in chosen:
        started = perf_counter_ns()
        session = Session(package.env)
        for call in package.task(task.task_id).oracle:
            session.call_tool(call.name, call.arguments)
        oracles.append(perf_counter_ns() - started)
        session.close()
    steps = statistics.median(len(task.steps) for task in chosen)
    return timed_row(
        "app_golden_replay",
        f"golden UI task replay in headless Chromium ({app}, median {steps:g} steps)",
        summarize([int(outcome.seconds * 1e9) for outcome in outcomes]),
        "the same tasks' oracle tool calls in process (no UI)",
        summarize(oracles),
        goal=None,
        note=f"{len(chosen)} tasks; home page load, then every click, fill and select, waiting for each page load",
    )


def bench_apps(package: EnvPackage, app: AppKind, *, repeat: int = 5, contexts: int = 8) -> list[BenchRow]:
    """Cold start, reset through the state API, golden UI replay, and memory per browser context, with baselines."""
    starts: list[int] = []
    for _ in range(repeat):
        with _served(package.path, app) as (_, elapsed):
            starts.append(elapsed)
    cold = summarize(starts)
    with _served(package.path, app) as (base, _):
        episode = _harness(f"{base}/harness/episodes", body={"free": True})
        resets: list[int] = []
        for _ in range(max(repeat * 10, 50)):
            started = perf_counter_ns()
            _harness(f"{base}/harness/episodes/{episode['episode']}/reset")
            resets.append(perf_counter_ns() - started)
        kept_alive = _kept_alive_resets(base, episode["episode"], max(repeat * 10, 50))
        memory, browser_start = _browser_rows(base, app, contexts, repeat)
    golden = _golden_row(package, app, max(repeat * 2, 10))
    return [
        timed_row(
            "app_cold_start",
            f"{app} app server cold start (process start to first page)",
            cold,
            "browser-hosted instance (Chromium launch + first page)",
            browser_start,
            goal=COLD_START_GOAL_MS,
            note="`envforge serve --app` in a fresh interpreter, an episode created through the harness API, "
            "its home page fetched",
        ),
        timed_row(
            "app_reset",
            "session reset through the state API (HTTP)",
            summarize(resets),
            "restart the server (cold start)",
            cold,
            goal=RESET_GOAL_MS,
            note="POST /harness/episodes/{id}/reset, over real HTTP",
        ),
        timed_row(
            "app_reset_kept_alive",
            "session reset through the state API on one kept-alive connection",
            summarize(kept_alive),
            "a new connection per reset",
            summarize(resets),
            goal=RESET_GOAL_MS,
            note="POST /harness/episodes/{id}/reset over one HTTP/1.1 connection, as pooled harness clients send it",
        ),
        golden,
        memory,
    ]
