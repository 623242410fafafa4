"""Option groups: `rollout` and `validate` declare their shared options once, as the fields of `RolloutOptions`, and
`generate` those of `--from-description` as the fields of `DescriptionOptions`."""

from __future__ import annotations

from dataclasses import fields

import pytest
import typer.main

from envforge.cli.app import app
from envforge.rollouts.options import RolloutOptions
from envforge.synthesis.options import DescriptionOptions


@pytest.mark.parametrize(("command", "samples"), [("rollout", 1), ("validate", 4)])
def test_each_field_is_an_option_of_both_commands_and_k_defaults_per_command(command: str, samples: int) -> None:
    click_command = typer.main.get_group(app).commands[command]
    params = {param.name: param for param in click_command.params}
    assert {field.name for field in fields(RolloutOptions)} <= params.keys()
    assert "options" not in params
    assert params["k"].default == samples
    assert params["base_url"].required and params["model"].required


def test_generate_takes_an_option_per_field_of_the_description_options_with_their_defaults() -> None:
    params = {param.name: param for param in typer.main.get_group(app).commands["generate"].params}
    assert {field.name: field.default for field in fields(DescriptionOptions)} == {
        name: params[name].default for name in (field.name for field in fields(DescriptionOptions))
    }
    assert "llm" not in params
