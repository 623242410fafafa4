"""`rollout` and `validate` declare their shared options once, as the fields of `RolloutOptions`."""

from __future__ import annotations

from dataclasses import fields

import pytest
import typer.main

from envforge.cli.app import app
from envforge.rollouts.options import RolloutOptions


@pytest.mark.parametrize(("command", "samples"), [("rollout", 1), ("validate", 4)])
def test_each_field_is_an_option_of_both_commands_and_k_defaults_per_command(command: str, samples: int) -> None:
    click_command = typer.main.get_group(app).commands[command]
    params = {param.name: param for param in click_command.params}
    assert {field.name for field in fields(RolloutOptions)} <= params.keys()
    assert "options" not in params
    assert params["k"].default == samples
    assert params["base_url"].required and params["model"].required
