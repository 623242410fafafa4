"""verl classes: the agent loop that owns one session per trajectory, and a tool for the stock loop.

Import this only where verl is installed (verl's rollout workers). Select the loop with the exported
`agent_loop.yaml`; the tool with the exported `tool_config.yaml`.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput
from verl.tools.base_tool import BaseTool
from verl.tools.schemas import ToolResponse

from envforge.adapters.noise import noise_source
from envforge.adapters.packages import installed_package
from envforge.adapters.verl_loop import MAX_TURNS, Generation, run_token_episode
from envforge.adapters.verl_reward import CALLS_FIELD
from envforge.errors import UserInputError
from envforge.runtime.episode import Episode, render_result
from envforge.users.base import UserSimulator
from envforge.users.conversation import MAX_USER_TURNS
from envforge.users.scripted import ScriptedUser

_EPISODE_ATTRIBUTE = "_envforge_episode"


USERS = ("scripted", "none")
"""`user:` of an agent loop entry: the scripted user in the loop, or none (the prompt says everything at once)."""


def user_simulator(name: str) -> UserSimulator | None:
    if name not in USERS:
        raise UserInputError(f"agent_loop.yaml: user: {name!r} is not one of {', '.join(USERS)}; set user: scripted")
    return ScriptedUser() if name == "scripted" else None


class EnvforgeAgentLoop(AgentLoopBase):
    """Multi-turn tool use on one envforge task, with the simulated user in the loop unless `user: none`;
    `reward_score` is the task verifier's reward."""

    def __init__(
        self,
        *args: Any,
        max_turns: int = MAX_TURNS,
        user: str = "scripted",
        max_user_turns: int = MAX_USER_TURNS,
        noise: str | None = None,
        curriculum: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.max_turns = max_turns
        self.user = user_simulator(user)
        self.max_user_turns = max_user_turns
        self.noise = noise_source(noise, curriculum) if noise else None

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        extra_info = kwargs.get("extra_info") or {}
        package = installed_package(str(extra_info["env_module"]))
        request_id = uuid4().hex

        async def generate(prompt_ids: list[int]) -> Generation:
            output = await self.server_manager.generate(
                request_id, prompt_ids=prompt_ids, sampling_params=sampling_params
            )
            log_probs = list(output.log_probs) if output.log_probs is not None else None
            return Generation(list(output.token_ids), log_probs)

        task_id = str(extra_info["task_id"])
        noise = self.noise.draw(task_id) if self.noise is not None else None
        episode = await run_token_episode(
            package,
            task_id,
            self.tokenizer,
            generate,
            user=self.user,
            max_user_turns=self.max_user_turns,
            max_turns=self.max_turns,
            max_prompt_tokens=int(self.rollout_config.prompt_length),
            max_response_tokens=int(self.rollout_config.response_length),
            template_kwargs=dict(getattr(self, "apply_chat_template_kwargs", None) or {}),
            noise=noise,
        )
        if self.noise is not None:
            self.noise.record(episode.verdict.passed)
        return AgentLoopOutput(
            prompt_ids=episode.prompt_ids,
            response_ids=episode.response_ids,
            response_mask=episode.response_mask,
            response_logprobs=episode.response_logprobs if sampling_params.get("logprobs") else None,
            reward_score=episode.verdict.reward,
            num_turns=episode.num_turns,
            metrics={},
            extra_fields={
                "reward_extra_info": {
                    "acc": float(episode.verdict.passed),
                    "tool_calls": float(episode.tool_calls),
                    "user_turns": float(episode.user_turns),
                    "noise_level": noise.profile.level if noise is not None else 0.0,
                }
            },
        )


class EnvforgeTool(BaseTool):
    """One environment tool for verl's stock tool agent loop.

    That loop creates and releases a tool instance on every call, so the episode lives on the
    trajectory's own `agent_data` (freed with it), and the calls it really ran are recorded in
    `agent_data.extra_fields`, where `verl_reward.compute_score` replays them.
    """

    def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
        super().__init__(config, tool_schema)
        self._instances: dict[str, dict[str, Any]] = {}

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, ToolResponse]:
        instance_id = instance_id or uuid4().hex
        self._instances[instance_id] = dict(kwargs.get("create_kwargs") or {})
        return instance_id, ToolResponse()

    async def execute(
        self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
    ) -> tuple[ToolResponse, float, dict[str, Any]]:
        options = {**self.config, **self._instances.get(instance_id, {})}
        agent_data = kwargs.get("agent_data")
        episode: Episode | None = getattr(agent_data, _EPISODE_ATTRIBUTE, None)
        if episode is None:
            episode = Episode(installed_package(str(options["env_module"])), str(options["task_id"]))
            if agent_data is not None:
                setattr(agent_data, _EPISODE_ATTRIBUTE, episode)
        ok, result = episode.call(self.name, parameters)
        extra_fields = getattr(agent_data, "extra_fields", None)
        if isinstance(extra_fields, dict):
            extra_fields[CALLS_FIELD] = json.dumps([call.model_dump(mode="json") for call in episode.calls])
        return ToolResponse(text=render_result(result)), 0.0, {"ok": ok}

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self._instances.pop(instance_id, None)
