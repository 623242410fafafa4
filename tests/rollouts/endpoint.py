"""A scripted OpenAI-compatible chat endpoint served over real HTTP, for testing the rollout engine.

A real model cannot be made to emit a given failure (broken JSON, an unknown tool, a 500) on demand, so
these tests put a scripted agent behind a real uvicorn server and the real `openai` client. The agent is
a function of the request's messages, so concurrent episodes stay independent.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from envforge.runtime.episode import EnvPackage

RETRY_AFTER_S = 2
"""The seconds a 429 answer asks the client to wait."""
Agent = Callable[[list[dict[str, Any]]], dict[str, Any] | int]
"""Messages -> an assistant message, or an HTTP status code to fail with."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def completion(message: dict[str, Any]) -> dict[str, Any]:
    calls = message.get("tool_calls")
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": message.get("content"), "tool_calls": calls or None},
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


class ScriptedEndpoint:
    """Serves `agent` at /v1/chat/completions; `requests` counts what reached it."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        self.arrivals: list[float] = []
        """`time.monotonic()` when each request reached it."""

    async def chat(self, request: Request) -> JSONResponse:
        body = await request.json()
        self.arrivals.append(time.monotonic())
        self.requests += 1
        self.bodies.append(body)
        answer = self.agent(body["messages"])
        if isinstance(answer, int):
            detail = "This model's maximum context length is 2048 tokens" if answer == 400 else "server error"
            # A rate-limited server says when to come back.
            headers = {"Retry-After": str(RETRY_AFTER_S)} if answer == 429 else None
            error = {"error": {"message": detail, "type": "error", "code": answer}}
            return JSONResponse(error, status_code=answer, headers=headers)
        return JSONResponse(completion(answer))


@contextmanager
def serve(agent: Agent) -> Iterator[tuple[str, ScriptedEndpoint]]:
    """Run the endpoint on a free port for the block; yields its base URL."""
    endpoint = ScriptedEndpoint(agent)
    port = free_port()
    app = Starlette(routes=[Route("/v1/chat/completions", endpoint.chat, methods=["POST"])])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}/v1", endpoint
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def tool_call(name: str, arguments: dict[str, Any] | str, call_id: str = "c1") -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}],
    }


def say(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def tool_results(messages: list[dict[str, Any]]) -> int:
    return sum(1 for message in messages if message["role"] == "tool")


def oracle_agent(package: EnvPackage, solves: Callable[[str], bool] = lambda task_id: True) -> Agent:
    """Plays each task's oracle (found by its opener) when `solves(task id)`, and gives up otherwise."""

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        task = next(t for t in package.tasks.values() if t.instruction == messages[1]["content"])
        if not solves(task.id):
            return say("I cannot help with that.")
        done = tool_results(messages)
        if done < len(task.oracle):
            return tool_call(task.oracle[done].name, task.oracle[done].arguments, call_id=f"o{done}")
        return say(package.golden_message(task.id))

    return agent


def odd_tasks(task_id: str) -> bool:
    """Tasks whose id ends in an odd digit: a fixed half to solve."""
    return int(task_id[-1]) % 2 == 1
