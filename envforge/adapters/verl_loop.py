"""One multi-turn episode in token space, as verl's agent loops run it (without importing verl).

The model's tokens are kept exactly as generated (mask 1); tool results, and the simulated user's replies when a
user is in the loop, are rendered with the tokenizer's own chat template and appended (mask 0). The episode owns one
session, so the state carries from call to call. Without a user the prompt holds everything the user would say
(`EnvPackage.trainer_prompt`) and the first message without a tool call ends the episode; with one, the prompt is
the user's opener and the conversation ends as in `envforge rollout` (`envforge.users.conversation`). The task's
verifier gives the reward, judging every message the model sent the user.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from envforge.errors import UserInputError
from envforge.ir.noise import EpisodeNoise
from envforge.ir.tasks import Verdict
from envforge.runtime.agent_text import CallAction, parse_calls
from envforge.runtime.episode import EnvPackage, Episode, render_result
from envforge.users.base import UserSimulator
from envforge.users.conversation import MAX_USER_TURNS, Conversation

MAX_TURNS = 16
"""Model turns an episode may take: the longest golden chain of the shipped domains (12 calls, then the answer)
with room for an agent that asks or retries."""


@dataclass(frozen=True)
class Generation:
    token_ids: list[int]
    log_probs: list[float] | None = None


Generate = Callable[[list[int]], Awaitable[Generation]]
"""Prompt token ids -> the model's new tokens (and their log-probabilities when the server sends them)."""


class ChatTokenizer(Protocol):
    """The part of a Hugging Face tokenizer the loop uses."""

    def apply_chat_template(self, conversation: Any, **kwargs: Any) -> Any: ...

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]: ...

    def decode(self, token_ids: list[int], skip_special_tokens: bool = ...) -> str: ...


@dataclass(frozen=True)
class TokenEpisode:
    prompt_ids: list[int]
    response_ids: list[int]
    response_mask: list[int]
    """1 for the model's tokens, 0 for tool results and turn headers the environment added."""
    response_logprobs: list[float] | None
    """The model's log-probabilities (0 for added tokens), when every generation had them."""
    num_turns: int
    """The model's turns."""
    user_turns: int
    """The simulated user's replies after the opener (0 without a user in the loop)."""
    tool_calls: int
    verdict: Verdict


class PromptTooLongError(UserInputError, ValueError):
    """The task's first prompt does not fit the trainer's prompt length."""


@dataclass
class _Renderer:
    tokenizer: ChatTokenizer
    tools: list[dict[str, Any]]
    template_kwargs: dict[str, Any]

    def text(self, messages: list[dict[str, Any]], prompt: bool) -> str:
        rendered = self.tokenizer.apply_chat_template(
            messages, tools=self.tools, add_generation_prompt=prompt, tokenize=False, **self.template_kwargs
        )
        return str(rendered)

    def added(self, head: str, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> str:
        """What the template puts after the model's own text (`head`) to continue the conversation."""
        full = self.text(after, prompt=True)
        if full.startswith(head):
            return full[len(head) :]
        # The template re-renders the model's turn differently (e.g. strips whitespace): diff whole renders.
        previous = self.text(before, prompt=False)
        if full.startswith(previous):
            return full[len(previous) :]
        return self.text(after[len(before) :], prompt=True)


async def run_token_episode(
    package: EnvPackage,
    task_id: str,
    tokenizer: ChatTokenizer,
    generate: Generate,
    *,
    user: UserSimulator | None = None,
    max_user_turns: int = MAX_USER_TURNS,
    max_turns: int = MAX_TURNS,
    max_prompt_tokens: int | None = None,
    max_response_tokens: int = 4096,
    template_kwargs: dict[str, Any] | None = None,
    noise: EpisodeNoise | None = None,
) -> TokenEpisode:
    """Run the model on the task until the conversation ends (without a user: its first message without a tool
    call), or a limit is hit; then judge it. `noise` garbles the tools' answers and the user's words."""
    episode = Episode(package, task_id, noise=noise)
    conversation = Conversation(episode, user, max_user_turns=max_user_turns) if user is not None else None
    render = _Renderer(tokenizer, package.env.tool_list(), dict(template_kwargs or {}))
    messages: list[dict[str, Any]] = (
        conversation.opening() if conversation is not None else list(package.trainer_prompt(task_id))
    )
    head = render.text(messages, prompt=True)
    prompt_ids = tokenizer.encode(head, add_special_tokens=False)
    if max_prompt_tokens is not None and len(prompt_ids) > max_prompt_tokens:
        raise PromptTooLongError(
            f"task {task_id}: the prompt (policy, tools and request) is {len(prompt_ids)} tokens, over the limit "
            f"of {max_prompt_tokens}; raise data.max_prompt_length to at least {len(prompt_ids)}"
        )
    response_ids: list[int] = []
    mask: list[int] = []
    logprobs: list[float] | None = []
    answer: str | None = None
    turns = 0
    # Noise makes work, never lost room: one more turn for each call it struck and each extra user turn it gives.
    noise_turns = conversation.max_user_turns - max_user_turns if conversation is not None else 0
    while turns < max_turns + noise_turns + len(episode.tools.events) and len(response_ids) < max_response_tokens:
        turns += 1
        output = await generate(prompt_ids + response_ids)
        response_ids += output.token_ids
        mask += [1] * len(output.token_ids)
        logprobs = logprobs + output.log_probs if logprobs is not None and output.log_probs is not None else None
        text = tokenizer.decode(output.token_ids, skip_special_tokens=True)
        head += tokenizer.decode(output.token_ids, skip_special_tokens=False)
        calls = parse_calls(text)
        results: list[dict[str, Any]] = []
        if not calls:
            answer = text.strip()
            reply = await conversation.say(answer) if conversation is not None else None
            if reply is None:
                break
            results.append({"role": "user", "content": reply})
        for call in calls:
            if isinstance(call, CallAction):
                _, result = episode.call(call.name, call.arguments)
            else:
                result = {"error": {"code": "malformed_call", "message": call.problem}}
            results.append({"role": "tool", "content": render_result(result)})
        before = [*messages, {"role": "assistant", "content": text}]
        added = render.added(head, before, [*before, *results])
        added_ids = tokenizer.encode(added, add_special_tokens=False)
        head += added
        response_ids += added_ids
        mask += [0] * len(added_ids)
        if logprobs is not None:
            logprobs += [0.0] * len(added_ids)
        messages = [*before, *results]
    verdict = conversation.finish() if conversation is not None else episode.finish(answer)
    return TokenEpisode(
        prompt_ids=prompt_ids,
        response_ids=response_ids[:max_response_tokens],
        response_mask=mask[:max_response_tokens],
        response_logprobs=logprobs[:max_response_tokens] if logprobs is not None else None,
        num_turns=turns,
        user_turns=conversation.user_turns if conversation is not None else 0,
        tool_calls=len(episode.calls),
        verdict=verdict,
    )
