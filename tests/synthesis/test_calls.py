"""How synthesis asks for JSON: the schema travels in the server's own form, and every answer is checked again."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from envforge.llm import LLMClient
from envforge.synthesis.calls import JsonAnswer, ask_json, constraint
from tests.conftest import envforge_cli

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}},
    "required": ["name"],
    "additionalProperties": False,
}


def test_vllm_mode_sends_structured_outputs_without_free_whitespace() -> None:
    assert constraint("step", SCHEMA, "vllm") == {
        "structured_outputs": {"json": SCHEMA, "disable_any_whitespace": True}
    }


def test_openai_mode_sends_a_strict_json_schema_response_format() -> None:
    assert constraint("step", SCHEMA, "openai") == {
        "response_format": {"type": "json_schema", "json_schema": {"name": "step", "schema": SCHEMA, "strict": True}}
    }


@dataclass
class Canned(LLMClient):
    """An endpoint with one constructed reply."""

    content: str = ""
    finish_reason: str = "stop"

    async def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.sent = request
        return {"message": {"role": "assistant", "content": self.content}, "finish_reason": self.finish_reason}


@pytest.mark.parametrize(
    ("content", "finish_reason", "expected"),
    [
        ('{"name": "pet"}', "stop", JsonAnswer('{"name": "pet"}', {"name": "pet"})),
        (
            '{"name": "pe',
            "length",
            JsonAnswer(
                '{"name": "pe',
                failure="the answer is not valid JSON: Unterminated string starting at at character 9 "
                "(the answer was cut off; answer shorter)",
            ),
        ),
        ('{"name": "Pet"}', "stop", JsonAnswer('{"name": "Pet"}', failure="name: 'Pet' does not match '^[a-z]+$'")),
    ],
    ids=["valid", "cut_off", "off_schema"],
)
def test_an_answer_is_parsed_and_checked_against_the_schema_it_was_asked_with(
    content: str, finish_reason: str, expected: JsonAnswer
) -> None:
    client = Canned("http://canned.invalid/v1", "m", content=content, finish_reason=finish_reason)
    answer = asyncio.run(
        ask_json(client, [{"role": "user", "content": "?"}], SCHEMA, name="s", mode="openai", max_tokens=9)
    )
    assert answer == expected
    assert client.sent["temperature"] == 0.0 and "seed" not in client.sent


def test_an_unknown_json_mode_is_refused_in_one_line() -> None:
    result = envforge_cli("generate", "--from-description", "a shop", "--model", "m", "--offline", "--json-mode", "xml")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("envforge: error: Invalid value for '--json-mode'")
    assert "'xml' is not one of 'vllm', 'openai'" in lines[0]


def test_step_names_are_the_ir_identifier_pattern_with_a_shorter_length() -> None:
    import re

    from envforge.ir.blueprint import FieldSpec
    from envforge.synthesis.schemas import ACTION_NAME, NAME

    ir = FieldSpec.model_json_schema()["properties"]["name"]["pattern"]
    assert NAME == ir.replace("{0,62}", "{1,23}") != ir
    for candidate in ("pet", "pet_owner_2", "a" * 24, "cancel_order", "update_pet_name"):
        assert re.fullmatch(NAME, candidate) or re.fullmatch(ACTION_NAME, candidate)
        assert re.fullmatch(ir, candidate)
    assert not re.fullmatch(NAME, "a" * 25)
    assert not re.fullmatch(ACTION_NAME, "get_pet")
