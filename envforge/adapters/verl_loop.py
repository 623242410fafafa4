"""One multi-turn episode in token space, as verl's agent loops run it (without importing verl).

The model's tokens are kept exactly as generated (mask 1); tool results are rendered with the
tokenizer's own chat template and appended (mask 0). The episode owns one session, so the state
carries from call to call, and the task's verifier gives the reward when the model stops calling tools.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from envforge.ir.tasks import Verdict
from envforge.runtime.agent_text import CallAction, parse_calls
from envforge.runtime.episode import EnvPackage, Episode, render_result

Generate = Callable[[list[int]], Awaitable[list[int]]]
"""Prompt token ids -> the model's new token ids."""


class ChatTokenizer(Protocol):
    """The part of a Hugging Face tokenizer the loop uses."""

    def apply_chat_template(
        self, conversation: Any, *, tools: Any = ..., add_generation_prompt: bool = ..., tokenize: bool = ...
    ) -> Any: ...

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]: ...

    def decode(self, token_ids: list[int], skip_special_tokens: bool = ...) -> str: ...


@dataclass(frozen=True)
class TokenEpisode:
    prompt_ids: list[int]
    response_ids: list[int]
    response_mask: list[int]
    """1 for the model's tokens, 0 for tool results and turn headers the environment added."""
    num_turns: int
    tool_calls: int
    verdict: Verdict


def _render(tokenizer: ChatTokenizer, messages: list[dict[str, Any]], tools: list[dict[str, Any]], prompt: bool) -> str:
    text = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=prompt, tokenize=False)
    return str(text)


async def run_token_episode(
    package: EnvPackage,
    task_id: str,
    tokenizer: ChatTokenizer,
    generate: Generate,
    *,
    max_turns: int = 8,
    max_response_tokens: int = 4096,
) -> TokenEpisode:
    """Run the model on the task until it answers without a tool call, or a limit is hit; then judge it."""
    episode = Episode(package, task_id)
    tools = package.env.tool_list()
    messages: list[dict[str, Any]] = list(package.prompt(task_id))
    prompt_ids = tokenizer.encode(_render(tokenizer, messages, tools, prompt=True), add_special_tokens=False)
    response_ids: list[int] = []
    mask: list[int] = []
    answer: str | None = None
    turns = 0
    while turns < max_turns and len(response_ids) < max_response_tokens:
        turns += 1
        output = await generate(prompt_ids + response_ids)
        response_ids += output
        mask += [1] * len(output)
        text = tokenizer.decode(output, skip_special_tokens=True)
        calls = parse_calls(text)
        assistant = {"role": "assistant", "content": text}
        if not calls:
            answer = text.strip()
            break
        results = []
        for call in calls:
            if isinstance(call, CallAction):
                _, result = episode.call(call.name, call.arguments)
            else:
                result = {"error": {"code": "malformed_call", "message": call.problem}}
            results.append({"role": "tool", "content": render_result(result)})
        before = _render(tokenizer, [*messages, assistant], tools, prompt=False)
        after = _render(tokenizer, [*messages, assistant, *results], tools, prompt=True)
        # Templates render a conversation as a growing prefix; if one does not, render the new turns alone.
        added = after[len(before) :] if after.startswith(before) else _render(tokenizer, results, [], prompt=True)
        added_ids = tokenizer.encode(added, add_special_tokens=False)
        response_ids += added_ids
        mask += [0] * len(added_ids)
        messages += [assistant, *results]
    verdict = episode.finish(answer)
    return TokenEpisode(
        prompt_ids=prompt_ids,
        response_ids=response_ids[:max_response_tokens],
        response_mask=mask[:max_response_tokens],
        num_turns=turns,
        tool_calls=len(episode.calls),
        verdict=verdict,
    )
