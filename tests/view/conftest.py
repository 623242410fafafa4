"""Chromium for the viewer's tests, and the three kinds of input the viewer shows, each made for real once."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from tests.browser import chromium, page  # noqa: F401  (pytest fixtures)
from tests.conftest import REPO, envforge_cli
from tests.rollouts.endpoint import free_port, oracle_agent, say, serve
from tests.rollouts.record import ARGS, RECORDED

SHOWCASE = REPO / "generated" / "showcase" / "retail"
TASKS = "retail-0001,retail-0002,retail-0003,retail-0008"
GIVE_UP = "I cannot do that for you."


def every_other_episode(package: EnvPackage) -> Callable[[list[dict[str, Any]]], dict[str, Any] | int]:
    """Plays the oracle in the first, third, ... episode of each task and gives up in the others, so that a task's
    pass@1 is neither 0 nor 1."""
    oracle = oracle_agent(package)
    begun: Counter[str] = Counter()

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        if any(message.get("content") == GIVE_UP for message in messages):
            return say(GIVE_UP)
        if not any(message["role"] == "assistant" for message in messages):
            begun[messages[1]["content"]] += 1
            if begun[messages[1]["content"]] % 2 == 0:
                return say(GIVE_UP)
        return oracle(messages)

    return agent


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two rollout runs on the showcase package: a scripted agent that passes half its episodes, and
    the recorded SmolLM2 responses replayed offline."""
    scratch = tmp_path_factory.mktemp("runs")
    folder = scratch / "runs"
    package = scratch / "retail"
    shutil.copytree(SHOWCASE, package)
    with serve(every_other_episode(load_package(open_package(SHOWCASE)))) as (url, _):
        scripted = envforge_cli(
            "rollout", str(package), "--base-url", url, "--model", "scripted", "-k", "2", "--tasks", TASKS,
            "--max-user-turns", "1", "--cache", str(scratch / "cache"), "-o", str(folder / "scripted.jsonl"),
        )  # fmt: skip
    assert scripted.returncode == 0, scripted.stderr
    dead = f"http://127.0.0.1:{free_port()}/v1"
    recorded = envforge_cli(
        "validate", str(package), "--base-url", dead, *ARGS, "--cache", str(RECORDED), "--offline",
        "-o", str(folder / "smollm2.jsonl"),
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    return folder


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A batch of one shipped blueprint and one broken blueprint file, as `envforge batch` writes it."""
    scratch = tmp_path_factory.mktemp("suite")
    broken = scratch / "broken.yaml"
    broken.write_text("domain: broken\ncolour: blue\n", encoding="utf-8")
    out = scratch / "suite"
    made = envforge_cli(
        "batch", "retail", str(broken), "--rows", "100", "--tasks", "4", "--workers", "1", "-o", str(out)
    )
    assert made.returncode == 2, made.stderr
    return out
