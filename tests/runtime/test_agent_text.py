"""Reading model text as actions: the forms real models emit, and the malformed ones."""

from __future__ import annotations

import pytest

from envforge.runtime.agent_text import AnswerAction, CallAction, MalformedAction, parse_action, parse_calls


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "get_order", "arguments": {"order_id": "ORD-1"}}',
        '  <tool_call>\n{"name": "get_order", "arguments": {"order_id": "ORD-1"}}\n</tool_call>',
        '{"name": "get_order", "arguments": "{\\"order_id\\": \\"ORD-1\\"}"}',
        'Let me look.<tool_call>{"name": "get_order", "parameters": {"order_id": "ORD-1"}}',
    ],
)
def test_tool_calls_in_every_form_read_the_same(text: str) -> None:
    assert parse_action(text) == CallAction("get_order", {"order_id": "ORD-1"})


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"name": "get_order", "arguments": {', "not valid JSON"),
        ("<tool_call>[1, 2]</tool_call>", "must be a JSON object"),
        ('{"arguments": {}}', 'no "name"'),
        ('{"name": "x", "arguments": "{oops"}', '"arguments" is not valid JSON'),
        ('{"name": "x", "arguments": [1]}', '"arguments" must be a JSON object'),
    ],
)
def test_malformed_calls_say_what_is_wrong(text: str, problem: str) -> None:
    action = parse_action(text)
    assert isinstance(action, MalformedAction) and problem in action.problem


def test_plain_text_and_answer_objects_are_final_answers() -> None:
    assert parse_action("  It is 42.\n") == AnswerAction("It is 42.")
    assert parse_action('{"answer": 42}') == AnswerAction("42")


def test_every_call_of_a_decoded_rollout_in_order() -> None:
    text = 'a<tool_call>{"name": "a", "arguments": {}}</tool_call> b <tool_call>{"name": "b"}</tool_call> c <tool_call>nope</tool_call>'
    actions = parse_calls(text)
    assert actions[:2] == [CallAction("a", {}), CallAction("b", {})]
    assert isinstance(actions[2], MalformedAction)
