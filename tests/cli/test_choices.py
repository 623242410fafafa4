"""The CLI restates a few library types as its choices, so that it starts without importing them; they agree."""

from __future__ import annotations

from typing import get_args

from envforge.cli.options import ROLLOUT_OPTIONS, AppKind, Executor, JsonMode
from envforge.executors import ExecutorKind
from envforge.ir import uitasks
from envforge.runtime.apps.server import APPS
from envforge.synthesis import calls


def test_the_app_choices_are_the_apps_of_a_package() -> None:
    assert get_args(AppKind) == get_args(uitasks.AppKind) == APPS


def test_the_json_mode_choices_are_the_modes_synthesis_knows() -> None:
    assert get_args(JsonMode) == get_args(calls.JsonMode) == calls.JSON_MODES


def test_the_executor_choices_are_the_executors_there_are() -> None:
    assert get_args(Executor) == get_args(get_args(ROLLOUT_OPTIONS["executor"])[0]) == get_args(ExecutorKind)
