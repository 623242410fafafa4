"""`LLMClient`: chat completions from any OpenAI-compatible endpoint, cached, retried (by the SDK), and counted."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import openai
from openai import AsyncOpenAI

from envforge.llm.cache import ResponseCache
from envforge.llm.errors import ContextLimitError, InfrastructureError

# Arguments `chat.completions.create` takes itself; anything else goes to the server in `extra_body`.
OPENAI_PARAMS = frozenset(
    {
        "temperature",
        "top_p",
        "max_tokens",
        "seed",
        "stop",
        "response_format",
        "tool_choice",
        "parallel_tool_calls",
        "presence_penalty",
        "frequency_penalty",
    }
)
# What the SDK retries (with 408 and 409); raised after its last retry, it is the endpoint's failure.
RETRIED = (openai.APIConnectionError, openai.APITimeoutError, openai.InternalServerError, openai.RateLimitError)
CONTEXT_MARKERS = ("context length", "context window", "maximum model length", "too long", "max_model_len")


@dataclass
class Usage:
    """Token counts and requests, summed over calls."""

    requests: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.requests += other.requests
        self.cached += other.cached
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens

    def cost(self, prompt_per_million: float, completion_per_million: float) -> float:
        """What these tokens cost at the given prices (currency units per million tokens)."""
        return (self.prompt_tokens * prompt_per_million + self.completion_tokens * completion_per_million) / 1e6


@dataclass(frozen=True)
class ChatResult:
    """One assistant message and what producing it took."""

    message: dict[str, Any]
    """`{"role": "assistant", "content": str | None, "tool_calls": [...]}` as the endpoint sent it."""
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    """Wall time of the request that produced it, its retries included (for a cached result, of the original
    request)."""
    cached: bool

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        calls: list[dict[str, Any]] = self.message.get("tool_calls") or []
        return calls


@dataclass
class LLMClient:
    """Talks to one model behind an OpenAI-compatible endpoint (vLLM first).

    Every request goes through the on-disk cache first. `sample` tells apart repeated draws of the same
    request (pass@k), so the cache keeps k answers rather than one.
    """

    base_url: str
    model: str
    api_key: str = "EMPTY"
    cache: ResponseCache | None = None
    timeout_s: float = 300.0
    max_retries: int = 3
    """Retries of a request that failed to connect, timed out, or was answered 408, 409, 429 or 5xx: the OpenAI SDK's,
    which waits what the server's `Retry-After` asks (up to two minutes), else backs off exponentially with jitter."""
    usage: Usage = field(default_factory=Usage)
    _client: AsyncOpenAI | None = field(default=None, repr=False)

    def request(
        self,
        messages: Sequence[dict[str, Any]],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        sample: int = 0,
        **params: Any,
    ) -> dict[str, Any]:
        """The request as cached: model, messages, tools, sampling parameters and the sample index."""
        request: dict[str, Any] = {"model": self.model, "messages": list(messages), "sample": sample}
        if tools:
            request["tools"] = list(tools)
        request.update({name: value for name, value in params.items() if value is not None})
        return request

    async def chat(
        self,
        messages: Sequence[dict[str, Any]],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        sample: int = 0,
        **params: Any,
    ) -> ChatResult:
        """One completion. Raises `InfrastructureError` or `ContextLimitError`, never a raw HTTP error."""
        request = self.request(messages, tools=tools, sample=sample, **params)
        recorded = self.cache.get(request) if self.cache is not None else None
        if recorded is None:
            recorded = await self._ask(request)
            if self.cache is not None:
                self.cache.put(request, recorded)
            cached = False
        else:
            cached = True
        usage = recorded.get("usage") or {}
        result = ChatResult(
            message=recorded["message"],
            finish_reason=str(recorded.get("finish_reason") or ""),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_s=float(recorded.get("latency_s") or 0.0),
            cached=cached,
        )
        self.usage.add(
            Usage(
                requests=1,
                cached=int(cached),
                prompt_tokens=result.prompt_tokens,
                completion_tokens=result.completion_tokens,
            )
        )
        return result

    def _openai(self) -> AsyncOpenAI:
        if self._client is None:
            self._client = AsyncOpenAI(
                base_url=self.base_url, api_key=self.api_key, timeout=self.timeout_s, max_retries=self.max_retries
            )
        return self._client

    async def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        arguments = {key: value for key, value in request.items() if key in OPENAI_PARAMS}
        extra = {
            key: value
            for key, value in request.items()
            if key not in OPENAI_PARAMS and key not in ("model", "messages", "tools", "sample")
        }
        if "tools" in request:
            arguments["tools"] = request["tools"]
        started = time.perf_counter()
        try:
            response = await self._openai().chat.completions.create(
                model=request["model"], messages=request["messages"], extra_body=extra or None, **arguments
            )
        except RETRIED as exc:
            raise InfrastructureError(
                f"{self.base_url}: no answer after {self.max_retries + 1} attempts ({type(exc).__name__}: {exc}); "
                "is the model server running? (envforge serve-model)",
                _kind(exc),
            ) from exc
        except openai.BadRequestError as exc:
            text = str(exc).lower()
            if any(marker in text for marker in CONTEXT_MARKERS):
                raise ContextLimitError(f"{self.model}: the conversation exceeds the context window: {exc}") from exc
            raise InfrastructureError(
                f"{self.base_url}: the endpoint rejected the request: {exc}", "bad_request"
            ) from exc
        except openai.APIStatusError as exc:
            raise InfrastructureError(f"{self.base_url}: HTTP {exc.status_code}: {exc}", "http_error") from exc
        return _recorded(response, time.perf_counter() - started)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None


def _kind(error: Exception) -> str:
    if isinstance(error, openai.APITimeoutError):
        return "timeout"
    if isinstance(error, openai.APIStatusError):
        return "http_error"
    return "connection"


def _recorded(response: Any, latency_s: float) -> dict[str, Any]:
    """The parts of a completion worth keeping, as plain JSON."""
    if not response.choices:
        raise InfrastructureError("the endpoint answered with no choices", "http_error")
    choice = response.choices[0]
    message: dict[str, Any] = {"role": "assistant", "content": choice.message.content}
    if choice.message.tool_calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.function.name, "arguments": call.function.arguments},
            }
            for call in choice.message.tool_calls
            if getattr(call, "function", None) is not None
        ]
    usage = response.usage
    return {
        "message": message,
        "finish_reason": choice.finish_reason,
        "usage": {
            "prompt_tokens": usage.prompt_tokens if usage else 0,
            "completion_tokens": usage.completion_tokens if usage else 0,
        },
        "latency_s": round(latency_s, 4),
    }
