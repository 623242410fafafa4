"""In-process model endpoints for synthesis tests: recorded real answers, with constructed ones where a test says."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envforge.llm import LLMClient, ResponseCache
from tests.synthesis.scenario import MODEL, RECORDED

Request = dict[str, Any]
Script = Callable[[Request], str | None]
"""Constructed content for a request, or None to answer it from the recording."""

REPAIR = "That answer makes the domain invalid"


def user_turns(request: Request) -> list[str]:
    return [str(message["content"]) for message in request["messages"] if message["role"] == "user"]


def question(request: Request) -> str:
    """The step's own question (for a repair request: the one asked before the error was sent back)."""
    turns = [turn for turn in user_turns(request) if not turn.startswith(REPAIR)]
    return turns[-1]


def is_repair(request: Request) -> bool:
    return user_turns(request)[-1].startswith(REPAIR)


def answer(value: Any) -> str:
    return json.dumps(value)


@dataclass
class ScriptedEndpoint(LLMClient):
    """An `LLMClient` whose endpoint is this object: `script` first, then the recorded real responses.

    A request neither answers fails the test with the request's question, rather than reaching a network."""

    script: Script | None = None
    recorded: Path | None = RECORDED
    asked: list[Request] = field(default_factory=list)

    async def _ask(self, request: Request) -> dict[str, Any]:
        self.asked.append(request)
        content = self.script(request) if self.script is not None else None
        if content is not None:
            usage = {"prompt_tokens": 100, "completion_tokens": len(content) // 4}
            return {"message": {"role": "assistant", "content": content}, "finish_reason": "stop", "usage": usage}
        if self.recorded is not None:
            response = ResponseCache(self.recorded, "use").get(request)
            if response is not None:
                return response
        raise AssertionError(f"no recorded or constructed answer for: {question(request)[:300]}")


def endpoint(
    script: Script | None = None, cache: Path | None = None, recorded: Path | None = RECORDED
) -> ScriptedEndpoint:
    """A scripted endpoint named like the recorded model, with its own response cache when `cache` is given."""
    return ScriptedEndpoint(
        "http://scripted.invalid/v1",
        MODEL,
        cache=ResponseCache(cache, "use") if cache is not None else None,
        script=script,
        recorded=recorded,
    )


def recorded_answer(request: Request) -> str:
    """The recorded real answer to the request a repair request repairs (its question, without the repair)."""
    messages = request["messages"]
    original = {**request, "messages": messages[:-2], "sample": 0, "temperature": 0.0}
    response = ResponseCache(RECORDED, "replay").get(original)
    assert response is not None
    return str(response["message"]["content"])
