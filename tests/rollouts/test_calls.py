"""Reading model turns in the shapes real models produce them (several taken from SmolLM2-135M's output)."""

from __future__ import annotations

from envforge.rollouts.calls import UNREADABLE_NAME, read_turn


def test_structured_calls_with_valid_json_are_readable() -> None:
    turn = read_turn(
        {
            "content": None,
            "tool_calls": [{"id": "a", "function": {"name": "get_order", "arguments": '{"order_id": "O-1"}'}}],
        },
        0,
    )
    assert [(c.call_id, c.name, c.arguments) for c in turn.calls] == [("a", "get_order", {"order_id": "O-1"})]


def test_structured_calls_with_broken_json_keep_their_id_and_empty_arguments_in_history() -> None:
    turn = read_turn(
        {"content": "", "tool_calls": [{"id": "b", "function": {"name": "get_order", "arguments": '{"order'}}]}, 3
    )
    assert not turn.calls[0].readable and "not valid JSON" in turn.calls[0].problem
    history = turn.history_message()
    assert history["tool_calls"][0]["function"] == {"name": "get_order", "arguments": "{}"}


def test_tagged_calls_left_in_text_are_read_with_the_prose_kept() -> None:
    turn = read_turn(
        {"content": 'Sure.\n<tool_call>\n{"name": "get_order", "arguments": {"order_id": "O-1"}}\n</tool_call>'}, 1
    )
    assert turn.text == "Sure."
    assert turn.calls[0].arguments == {"order_id": "O-1"} and turn.calls[0].call_id == "call_1_0"


def test_a_fenced_json_call_with_list_parameters_is_an_unreadable_call() -> None:
    content = (
        "Here's a JSON file with a list of function calls and their arguments:\n\n```json\n{\n"
        '  "type": "function-name",\n  "name": "list_functions_to_delete_order_items_with_reason",\n'
        '  "parameters": [\n    {"reason": "other"}\n  ]\n}\n```'
    )
    turn = read_turn({"content": content}, 0)
    assert turn.text.startswith("Here's a JSON file")
    assert len(turn.calls) == 1 and not turn.calls[0].readable
    assert turn.calls[0].problem == '"arguments" must be a JSON object'


def test_a_fenced_json_call_with_object_arguments_is_run() -> None:
    turn = read_turn(
        {"content": '```json\n{"name": "find_customer_by_email", "arguments": {"email": "a@b.c"}}\n```'}, 0
    )
    assert turn.calls[0].name == "find_customer_by_email" and turn.calls[0].arguments == {"email": "a@b.c"}


def test_json_shown_to_the_user_without_call_keys_is_text() -> None:
    content = 'Here is your address:\n```json\n{"street": "1 Main St", "name": "home"}\n```'
    turn = read_turn({"content": content}, 0)
    assert turn.calls == [] and turn.text == content


def test_an_unreadable_call_without_a_legible_name_gets_a_placeholder_name() -> None:
    turn = read_turn({"content": "<tool_call>{oops}</tool_call>"}, 0)
    assert turn.calls[0].name == UNREADABLE_NAME and not turn.calls[0].readable
