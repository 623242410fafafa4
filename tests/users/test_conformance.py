"""Both simulators, real tasks of every shipped domain, scripted agents: every reply conforms.

PersonaUser runs against a model whose answers the test writes into a replay cache turn by turn, cycling
through the failures real models produce (empty, the opener again, leaked hidden info, stop markers, early
goodbyes, breaking character) and an ordinary answer. They are constructed because a real model cannot be
made to emit a given failure on demand; the guard has to turn every one of them into a conforming reply.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import values
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.users import PersonaUser, ScriptedUser, Turn, check_reply, personas_of
from envforge.users.fields import humanize, mentions_value
from envforge.users.guard import normalize
from envforge.users.persona import clean_reply
from tests.conftest import BLUEPRINTS
from tests.users.scenarios import Step, conversations, record, replay_client

DOMAINS = [path.stem for path in BLUEPRINTS]
CONVERSATIONS = ["asks_hidden", "unrelated", "claims_done_early", "says_goodbye", "repeats_itself"]


@pytest.fixture(scope="module")
def domain_tasks(packages: dict[str, Path]) -> dict[str, tuple[list[TaskSpec], dict[str, str]]]:
    """Domain -> every task of its generated package, and its personas."""
    loaded = {domain: load_package(open_package(path)) for domain, path in packages.items()}
    return {
        domain: ([package.tasks[task_id] for task_id in package.task_ids], personas_of(package.env.blueprint))
        for domain, package in loaded.items()
    }


def model_output(task: TaskSpec, index: int) -> str | None:
    """What the constructed model says at the index-th turn."""
    hidden = " and ".join(f"my {humanize(field)} is {value}" for field, value in task.scenario.hidden.items())
    outputs = [
        "",
        task.instruction,
        f"Sure, {hidden}." if hidden else "Sure, ask me anything you need.",
        "###STOP###",
        "Thanks, bye!",
        None,
        "<think>The agent is asking me something.</think>",
        "As an AI language model, I can't share personal details.",
        "Okay, that sounds right to me.",
    ]
    return outputs[index % len(outputs)]


def revealed(task: TaskSpec, text: str) -> set[str]:
    return {
        field
        for field, value in task.scenario.hidden.items()
        if any(mentions_value(text, piece) for piece in values(value))
    }


async def converse(
    user: ScriptedUser | PersonaUser, task: TaskSpec, steps: list[Step], folder: Path
) -> list[tuple[list[Turn], Step, bool, str, str | None]]:
    """Run the agent's steps; each entry: the turns the reply answered, the step, writes_done, the reply and
    what the model said (None for the scripted user)."""
    turns = [Turn("user", user.opener(task))]
    played = []
    for index, current in enumerate(steps):
        turns.append(Turn("agent", current.agent))
        writes_done = current.writes_done or task.kind == "read"
        said = None
        if isinstance(user, PersonaUser):
            said = model_output(task, index)
            record(folder, user, task, turns, said, writes_done=writes_done)
        reply = await user.reply(task, turns, writes_done=writes_done)
        played.append((list(turns), current, writes_done, reply, said))
        turns.append(Turn("user", reply))
    return played


@pytest.mark.parametrize("conversation", CONVERSATIONS)
@pytest.mark.parametrize("simulator", ["scripted", "persona"])
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_reply_conforms_and_reveals_hidden_info_only_when_asked(
    domain_tasks: dict[str, tuple[list[TaskSpec], dict[str, str]]],
    tmp_path: Path,
    domain: str,
    simulator: str,
    conversation: str,
) -> None:
    tasks, personas = domain_tasks[domain]
    for task in tasks:
        user = ScriptedUser() if simulator == "scripted" else PersonaUser(replay_client(tmp_path), personas)
        assert user.opener(task) == task.instruction
        played = asyncio.run(converse(user, task, conversations(task)[conversation], tmp_path))
        previous = task.instruction
        rejected = 0
        for turns, current, writes_done, reply, said in played:
            assert check_reply(task, turns, reply, writes_done=writes_done) == [], (task.id, current.agent, reply)
            assert normalize(reply) != normalize(previous), (task.id, reply)
            shown = revealed(task, reply)
            public = revealed(task, "\n".join(turn.content for turn in turns))
            if simulator == "scripted":
                assert shown == current.asks & set(task.scenario.hidden), (task.id, current.agent, reply)
            else:
                assert shown <= current.asks | public, (task.id, current.agent, reply)
                if check_reply(task, turns, clean_reply(said or ""), writes_done=writes_done):
                    rejected += 1
                else:
                    assert reply == clean_reply(said or "")
            previous = reply
        if isinstance(user, PersonaUser):
            assert len(user.interventions_for(task.id)) == rejected
            assert all(item.codes for item in user.interventions)
