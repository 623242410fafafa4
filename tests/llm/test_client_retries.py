"""The LLM client retries through the OpenAI SDK: a 429's Retry-After is honoured, and a failure that outlasts the
retries is the endpoint's, never the model's. A scripted endpoint over real local HTTP stands in for the server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from envforge.llm import InfrastructureError, LLMClient
from tests.rollouts.endpoint import RETRY_AFTER_S, ScriptedEndpoint, say, serve

HELLO = [{"role": "user", "content": "hello"}]


def chat_through(endpoint_agent: Any, max_retries: int) -> tuple[str | Exception, ScriptedEndpoint]:
    async def go(url: str) -> str | Exception:
        client = LLMClient(url, "scripted", max_retries=max_retries)
        try:
            return (await client.chat(HELLO)).content
        except InfrastructureError as error:
            return error
        finally:
            await client.close()

    with serve(endpoint_agent) as (url, endpoint):
        return asyncio.run(go(url)), endpoint


def test_a_rate_limited_request_waits_what_retry_after_asks_then_succeeds() -> None:
    answers = iter([429, say("hi there")])
    answer, endpoint = chat_through(lambda messages: next(answers), max_retries=2)
    assert answer == "hi there"
    assert endpoint.requests == 2
    # The SDK's own first backoff is at most half a second (and the old hand loop's a second), so this wait is the
    # header's.
    assert endpoint.arrivals[1] - endpoint.arrivals[0] >= RETRY_AFTER_S


@pytest.mark.parametrize("status", [429, 503])
def test_a_failure_that_outlasts_the_retries_is_an_infrastructure_error(status: int) -> None:
    answer, endpoint = chat_through(lambda messages: status, max_retries=1)
    assert isinstance(answer, InfrastructureError) and answer.kind == "http_error"
    assert "no answer after 2 attempts" in str(answer)
    assert endpoint.requests == 2
