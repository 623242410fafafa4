"""Tasks read as the customer and the agent would, over every task of every shipped domain: no template
artefacts, a persona that says only what it knows, oracles whose every argument has a source, and policy
tasks that score only the run that keeps the policy."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from envforge.hashing import canonical_json
from envforge.ir.tasks import RunHistory, TaskSpec, ToolCall, Transcript
from envforge.ir.toolspec import ToolResult
from envforge.ir.verification import ValidationReport
from envforge.runtime.claims import environment_vocabulary, golden_transcript
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.provenance import provenance_violations
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_package_verifier, load_tasks
from envforge.stages.tasks.artefacts import ArtefactScan
from envforge.text import stated_in
from tests.conftest import BLUEPRINTS, DefaultPackages, slow_domains

DOMAINS = [path.stem for path in BLUEPRINTS]


def replay(session: Session, calls: list[ToolCall]) -> tuple[RunHistory, list[ToolResult]]:
    session.reset()
    results = [session.call_tool(call.name, call.arguments)[1] for call in calls]
    return session.history(), results


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_request_reads_like_a_template_or_names_a_row_by_its_key(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    scan = ArtefactScan(env.blueprint)
    tasks = load_tasks(open_package(packages[domain])).values()
    found = {task.id: problems for task in tasks if (problems := scan.scan(" ".join(task.told())))}
    assert not found, found


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_question_names_its_row_twice(packages: dict[str, Path], domain: str) -> None:
    """Not "what is the street address of my address": the noun's last word is already the row's."""
    # The row noun takes at most two words before it ("my billing address"); more run on into the rest of a request.
    twice = re.compile(r"\bthe (?:\w+ )+(\w+) of (?:my|the|their) (?:\w+ ){0,2}?\1\b", re.IGNORECASE)
    tasks = load_tasks(open_package(packages[domain])).values()
    found = {task.id: match.group(0) for task in tasks for match in [twice.search(task.instruction)] if match}
    assert not found, found


@pytest.mark.parametrize(
    ("request_text", "artefacts"),
    [
        (
            "Can you cancel my order (placed on: 2026-02-22) with reason: found_cheaper?",
            [
                "bracketed: (placed on: 2026-02-22)",
                "identifier: found_cheaper",
                "field label: placed on:",
                "field label: reason:",
            ],
        ),
        (
            "Please cancel my order. Use no longer needed as the reason.",
            ["use-as frame: Use no longer needed as the reason"],
        ),
        (
            "Please cancel my order. The reason should be not as described.",
            ["raw value in a field frame: The reason should be not as described"],
        ),
        ("Please cancel my order. The reason is damaged.", ["raw value in a field frame: The reason is damaged"]),
        ("Please change the quantity of item ITM-219263.", ["internal key: ITM-219263"]),
        ("My phone is 001-240-763-9302x4369.", ["phone extension: 001-240-763-9302x4369"]),
        ("Please cancel my order. It arrived damaged.", []),
        ("Please cancel order ORD-219263, placed on March 3.", []),
    ],
)
def test_the_artefact_scan_catches_template_forms_and_passes_a_customer_s_words(
    retail_env: Environment, request_text: str, artefacts: list[str]
) -> None:
    assert ArtefactScan(retail_env.blueprint).scan(request_text) == artefacts


def test_the_scan_flags_a_field_name_no_person_uses_as_a_noun(packages: dict[str, Path]) -> None:
    scan = ArtefactScan(load_environment(open_package(packages["airline"])).blueprint)
    assert scan.scan("Please add a bag. The weight kg is 50.") == ["field name as a noun: The weight kg"]
    assert scan.scan("Please add a bag. The bag weighs 50 kg.") == []


def test_a_detail_said_in_the_user_s_words_is_the_sentence_the_blueprint_gives_its_value(
    packages: dict[str, Path],
) -> None:
    said = 0
    for package in packages.values():
        env = load_environment(open_package(package))
        says: dict[tuple[str, str], set[str]] = {}
        for action in env.blueprint.actions:
            for param in action.params:
                for value, sentence in (param.says or {}).items():
                    says.setdefault((param.name, value), set()).add(sentence)
        for task in load_tasks(open_package(package)).values():
            for name, value in task.scenario.said.items():
                told = " ".join(task.told())
                assert any(sentence in told for sentence in says[(name, value)]), (task.id, name)
                said += 1
    assert said > 0, "no request says a detail in the user's own words"


def test_a_value_said_in_the_user_s_words_has_its_source_in_the_scenario(packages: dict[str, Path]) -> None:
    """A value the oracle passes that the user gave only in their own words (`I want to get rid of it` for
    `changed_mind`) is sourced by the scenario's `said`, and without it has no source. Played on the first task
    (domains in name order) that passes a value its `said` names: its request with those words taken out stands
    for one whose words are the user's own, since which words a seed draws varies."""
    for domain in sorted(packages):
        env = load_environment(open_package(packages[domain]))
        clock = env.blueprint.clock.date()
        for task in load_tasks(open_package(packages[domain])).values():
            passed = {value for call in task.oracle for value in call.arguments.values()}
            said = [v for v in task.scenario.said.values() if isinstance(v, str) and v in passed]
            # An accepted offer's values come from the policy and the script this takes out, not from the user.
            if not said or any(turn.offer for turn in task.scenario.script):
                continue
            words = re.compile("|".join(rf"\b{re.escape(part)}\b" for v in said for part in v.split("_")), re.I)
            scenario = task.scenario.model_copy(update={"script": []})
            own = task.model_copy(update={"instruction": words.sub("so", task.instruction), "scenario": scenario})
            session = Session(env)
            session.act_for(task.scenario.person)
            _, results = replay(session, task.oracle)
            assert provenance_violations(own, results, clock) == [], task.id
            unsaid = own.model_copy(update={"scenario": scenario.model_copy(update={"said": {}})})
            if provenance_violations(unsaid, results, clock):
                return
    raise AssertionError("no task passes a value said only in the user's words")


RULE_WORDS = re.compile(r"\b(polic(?:y|ies)|rules?|allow(?:ed|s)?|permit(?:s|ted)?|at most)\b", re.I)


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_offer_task_states_its_rule_and_the_user_takes_the_offer_only_once_proposed(
    packages: dict[str, Path], domain: str
) -> None:
    offers = [task for task in load_tasks(open_package(packages[domain])).values() if task.intent.startswith("offer:")]
    for task in offers:
        assert not RULE_WORDS.search(task.instruction), task.instruction
        assert [reaction.when for reaction in task.scenario.script] == ["offered"], task.id
        assert all(str(value) in task.scenario.script[0].cue for value in _changed(task)), task.id


def _changed(task: TaskSpec) -> list[object]:
    """The values in which the offered write differs from the one asked for."""
    offered, asked = task.oracle[-1], task.forbidden[0]
    return [value for name, value in offered.arguments.items() if asked.arguments.get(name) != value]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_user_states_only_what_their_persona_knows(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    personas = {persona.name: set(persona.knows) for persona in env.blueprint.personas}
    for task in load_tasks(open_package(packages[domain])).values():
        stated = set(task.scenario.known) - {"record_ids"}
        assert stated | set(task.scenario.hidden) <= personas[task.scenario.persona], task.id
        for value in task.scenario.hidden.values():
            assert not stated_in(task.instruction, value, env.blueprint.clock.date()), (task.id, value)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_oracle_argument_comes_from_the_user_an_earlier_result_or_a_policy(
    packages: dict[str, Path], domain: str
) -> None:
    env = load_environment(open_package(packages[domain]))
    session = Session(env)
    rules = [policy.text for policy in env.blueprint.policies]
    problems = []
    for task in load_tasks(open_package(packages[domain])).values():
        session.act_for(task.scenario.person)
        _, results = replay(session, task.oracle)
        problems += provenance_violations(task, results, env.blueprint.clock.date(), rules)
    assert problems == []


def test_a_value_from_nowhere_is_a_provenance_violation(retail_env: Environment, retail_package: Path) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "write")
    write = task.oracle[-1]
    key = next(name for name in write.arguments if name.endswith("_id"))
    forged = task.model_copy(
        update={
            "oracle": [*task.oracle[:-1], ToolCall(name=write.name, arguments={**write.arguments, key: "X-000001"})]
        }
    )
    session = Session(retail_env)
    session.act_for(task.scenario.person)
    _, results = replay(session, forged.oracle)
    problems = provenance_violations(forged, results, retail_env.blueprint.clock.date())
    assert len(problems) == 1 and "X-000001" in problems[0]


@pytest.mark.parametrize("domain", DOMAINS)
def test_what_the_user_holds_back_is_needed_and_not_said_up_front(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    clock = env.blueprint.clock.date()
    for task in load_tasks(open_package(packages[domain])).values():
        arguments = [str(value).replace("_", " ") for call in task.oracle for value in call.arguments.values()]
        sentences = re.split(r"(?<=[.?!])\s+", task.instruction)
        for name, value in task.scenario.details.items():
            assert str(value) in arguments, (task.id, name)
            # Said up front means said as that detail: "the reason is ..." (a "delayed bag" is no claim kind).
            label = name.removeprefix("new_").replace("_", " ")
            told = [sentence for sentence in sentences if label in sentence.lower()]
            assert not any(stated_in(sentence, value, clock) for sentence in told), (task.id, name)
        for entity, description in task.scenario.which.items():
            assert description not in task.instruction, (task.id, entity)
            assert "one of my " in task.instruction, task.id


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_policy_task_rewards_only_the_run_that_keeps_the_policy(packages: dict[str, Path], domain: str) -> None:
    """Doing only what is allowed (or what the policy offers) scores 1; doing the forbidden request as asked,
    alone or besides, scores 0; doing nothing scores 0. An allowance forbids nothing: its request is the
    allowed one."""
    package = packages[domain]
    env = load_environment(open_package(package))
    session = Session(env)
    policy_tasks = [task for task in load_tasks(open_package(package)).values() if task.policies]
    assert policy_tasks, f"no {domain} task hinges on a policy"
    for task in policy_tasks:
        assert bool(task.forbidden) != task.intent.startswith("allow:"), task.id
        assert set(task.policies) <= {policy.id for policy in env.blueprint.policies}
        verify = load_package_verifier(open_package(package), task.id).verify
        session.act_for(task.scenario.person)
        right, _ = replay(session, task.oracle)
        vocabulary = environment_vocabulary(env)
        told = golden_transcript(task, env.blueprint)
        assert verify(right, told, vocabulary).reward == 1, task.id
        assert verify(RunHistory(), Transcript(), vocabulary).reward == 0, task.id
        for forbidden in task.forbidden:
            runs = [[*task.oracle, forbidden], [*task.oracle[:-1], forbidden]]
            for calls in runs:
                history, _ = replay(session, calls)
                if history.writes == right.writes:
                    continue  # the runtime refused it: the back end keeps this policy itself
                assert verify(history, told.model_copy(update={"calls": calls}), vocabulary).reward == 0, (
                    task.id,
                    [c.name for c in calls],
                )


@pytest.mark.slow
@pytest.mark.parametrize("domain", slow_domains("task_quality"))
def test_a_default_package_teaches_policies_asking_and_varied_requests_and_reaches_every_action(
    default_packages: DefaultPackages, domain: str
) -> None:
    """The acceptance figures of a default package (150 tasks), as its report states them."""
    package = default_packages[domain]
    report = ValidationReport.model_validate_json((package / "report.json").read_text(encoding="utf-8"))
    env = load_environment(open_package(package))
    tasks = load_tasks(open_package(package))
    mix = report.mix
    assert mix is not None and len(tasks) == 150
    assert sum(mix.policy_tasks.values()) >= 0.2 * len(tasks), mix.policy_tasks
    assert mix.policy_tasks.get("refuse", 0) > 0 and mix.policy_tasks.get("offer", 0) > 0, mix.policy_tasks
    assert mix.asking_tasks >= 0.3 * len(tasks)
    assert mix.request_shapes >= 100
    writes = [action.name for action in env.blueprint.actions]
    assert all(mix.by_action[action] > 0 or mix.unreached.get(action) for action in writes), mix.unreached
    hinged = {policy for task in tasks.values() for policy in task.policies}
    requests = [policy.id for policy in env.blueprint.policies if policy.actions]
    assert all(policy in hinged or mix.unexercised.get(policy) for policy in requests), mix.unexercised
    assert not hinged & set(mix.unexercised), mix.unexercised
    assert mix.reacting_tasks >= 0.5 * len(tasks), mix.reactions
    assert {"follow_up", "question_after", "push_back", "offer_taken"} <= set(mix.reactions), mix.reactions
    # A fused world's multi-write share goes to requests across its domains first; a change of mind is in one.
    assert "change_of_mind" in mix.reactions or env.blueprint.composed_of, mix.reactions
    assert mix.scenario_words > mix.brief_words > 0
    asked = Counter(canonical_json(call.model_dump()) for task in tasks.values() for call in task.forbidden)
    assert max(asked.values()) <= 2, asked.most_common(1)
    reads = [tool.name for tool in env.toolgraph.tools if tool.kind == "read"]
    assert all(mix.by_tool[tool] > 0 or mix.idle_tools.get(tool) for tool in reads), mix.idle_tools
    scan = ArtefactScan(env.blueprint)
    found = {task.id: problems for task in tasks.values() if (problems := scan.scan(" ".join(task.told())))}
    assert not found, found
