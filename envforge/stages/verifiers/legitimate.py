"""Legitimate variations: the task done right in ways the golden run does not, which a verifier must reward.

The gate plays them next to its cheating mutants (`envforge.stages.verifiers.gate`); a verifier that gives one a
reward below 1 would punish a legitimate agent, and the gate drops its task (`legitimate_rejected`). Each is a run,
its calls and the agent's messages to the user, in a variation:

- `other_credential`: the user authenticated by each credential they hold through a lookup the golden run does not
  make (another tool for the golden credential; another credential, through another tool where there is one);
- `extra_read`: a catalog listed first (`catalog`), or the user's own record looked up again at the end
  (`own_record`);
- `refused_first`: an attempt at the first write that the runtime refuses on its own terms (a precondition, a policy,
  a mistyped key; never another person's row), then the golden run;
- `write_order`: the writes in reverse order, where they are independent (each does what it did, to the same end);
- `respelled`: each argument its action folds to one case written in the other case (`envforge.ir.stored_forms`);
- `confirm_first`: a message asking the user to confirm the writes, then the golden run and its closing message;
- `confirmed_first`: where the user changes their mind once the agent names a value, the golden run without the
  write of the value taken back (the agent confirmed it first, and the user changed it before any write);
- questions: `other_format`, the value in another number, date or money format, and `full_sentence`, the answer in
  a sentence that restates what was asked (`envforge.stages.verifiers.phrasings`).

Each carries the golden closing message last (a question's variations carry their phrasing of it). A variation is
played only where the task allows it: probes on the session find a lookup that singles the user out, an attempt the
runtime refuses, an order the writes allow; a run the runtime itself refuses is no legitimate run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from envforge.hashing import canonical_json
from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import RunHistory, TaskSpec, ToolCall
from envforge.ir.toolspec import ToolSpec
from envforge.ir.verification import LEGITIMATE
from envforge.runtime.actions import compile_actions
from envforge.runtime.changes import fold_history
from envforge.runtime.claims import action_terms, closing_message
from envforge.runtime.claims.report import report_message
from envforge.runtime.ownership import compile_owner_queries
from envforge.runtime.session import Session
from envforge.stages.verifiers.phrasings import answer_formats, restatements

CATALOG_PAGE = 5
MISTYPED = "0"
"""Appended to a row key for an attempt the runtime refuses as naming no row."""


@dataclass(frozen=True)
class LegitimateRun:
    """One legitimate way to do the task: its calls and every message to the user, the final one last."""

    variation: str
    detail: str
    """What sets this run apart within its variation (the lookup tool, the refusal, the answer's format)."""
    calls: list[ToolCall]
    messages: tuple[str, ...]

    @property
    def name(self) -> str:
        """`legitimate:<variation>` and its detail, as the gate's results name it."""
        return ":".join(part for part in (LEGITIMATE, self.variation, self.detail) if part)

    @property
    def answer(self) -> str | None:
        return self.messages[-1] if self.messages else None


def _golden_message(task: TaskSpec, blueprint: Blueprint) -> str:
    """What the golden run tells the user last."""
    return closing_message(task, blueprint)


def _with(call: ToolCall, name: str, value: Any) -> ToolCall:
    return call.model_copy(update={"arguments": {**call.arguments, name: value}})


class _Variations:
    def __init__(self, task: TaskSpec, session: Session) -> None:
        self.task = task
        self.session = session
        self.env = session.env
        self.oracle = task.oracle
        self.writes = [i for i, call in enumerate(self.oracle) if self.env.tools[call.name].kind == "write"]
        self.said = (_golden_message(task, self.env.blueprint),)
        session.act_for(task.scenario.person)
        history, self.golden_oks = self.play(self.oracle)
        self.golden_end = canonical_json(fold_history(history.writes, history.keys))

    def play(self, calls: list[ToolCall]) -> tuple[RunHistory, list[bool]]:
        self.session.reset()
        oks = [self.session.call_tool(call.name, call.arguments)[0] for call in calls]
        return self.session.history(), oks

    def runs(self) -> Iterator[LegitimateRun]:
        yield from self.other_credentials()
        yield from self.extra_reads()
        if self.writes:
            yield from self.refused_first()
            yield from self.write_order()
            yield from self.taken_back_unmade()
            yield from self.respelled()
            yield LegitimateRun("confirm_first", "", self.oracle, (self.confirmation(), *self.said))
        yield from self.answers()

    def authentication(self) -> int | None:
        """Where the golden run looks the user up by a credential of theirs."""
        identity = self.task.verifier.identity
        if identity is None:
            return None
        for index, call in enumerate(self.oracle):
            tool = self.env.tools[call.name]
            held = any(all(call.arguments.get(k) == v for k, v in c.items()) for c in identity.credentials)
            if tool.kind == "read" and tool.entity == identity.entity and held:
                return index
        return None

    def lookups(self, entity: str, credential: dict[str, str], golden: str) -> list[ToolSpec]:
        """The READ tools of `entity` that take the whole credential, those other than the golden one first."""
        fields = set(credential)
        tools = [
            tool
            for tool in self.env.toolgraph.tools
            if tool.kind == "read"
            and tool.entity == entity
            and (
                (tool.operation == "find" and set(tool.filters) == fields)
                or (tool.operation == "list" and fields <= set(tool.filters))
            )
        ]
        return sorted(tools, key=lambda tool: (tool.name == golden, tool.operation != "find"))

    def other_credentials(self) -> Iterator[LegitimateRun]:
        identity, at = self.task.verifier.identity, self.authentication()
        if identity is None or at is None:
            return
        golden = self.oracle[at]
        for credential in identity.credentials:
            for tool in self.lookups(identity.entity, credential, golden.name):
                lookup = ToolCall(name=tool.name, arguments=dict(credential))
                if tool.name == golden.name and credential.items() <= golden.arguments.items():
                    continue  # the golden route itself
                calls = [*self.oracle[:at], lookup, *self.oracle[at + 1 :]]
                history, _ = self.play(calls[: at + 1])
                if history.calls and history.calls[-1].persons == [identity.person]:
                    yield LegitimateRun("other_credential", f"{tool.name}.{'+'.join(credential)}", calls, self.said)
                    break

    def extra_reads(self) -> Iterator[LegitimateRun]:
        owned = compile_owner_queries(self.env)
        catalog = next(
            (t for t in self.env.toolgraph.tools if t.operation == "list" and t.entity not in owned),
            None,
        )
        if catalog is not None:
            listing = ToolCall(name=catalog.name, arguments={"limit": CATALOG_PAGE})
            yield LegitimateRun("extra_read", "catalog", [listing, *self.oracle], self.said)
        identity = self.task.verifier.identity
        if identity is None:
            return
        getter = next(
            (t for t in self.env.toolgraph.tools if t.operation == "get" and t.entity == identity.entity), None
        )
        if getter is not None:
            own = ToolCall(name=getter.name, arguments={self.env.entities[identity.entity].key: identity.person})
            yield LegitimateRun("extra_read", "own_record", [*self.oracle, own], self.said)

    def attempts(self, call: ToolCall) -> Iterator[ToolCall]:
        """The call with a stated argument mistaken (an enum's other values, the other truth value, a thousand times
        the amount or none, an email address without its `@`), then with a row key mistyped."""
        tool = self.env.tools[call.name]
        schema = tool.parameters["properties"]
        for name, value in sorted(call.arguments.items()):
            if name in tool.param_refs:
                continue
            if schema[name].get("enum"):
                yield from (_with(call, name, other) for other in schema[name]["enum"] if other != value)
            elif isinstance(value, bool):
                yield _with(call, name, not value)
            elif isinstance(value, int | float):
                yield from (_with(call, name, wrong) for wrong in (value * 1000, 0) if wrong != value)
            elif isinstance(value, str) and "@" in value:
                yield _with(call, name, value.replace("@", ""))
        for name in sorted(tool.param_refs):
            yield _with(call, name, f"{call.arguments[name]}{MISTYPED}")

    def refused_first(self) -> Iterator[LegitimateRun]:
        """The first write tried with an argument the runtime refuses, the refusal logged (the verifier sees it)."""
        index = self.writes[0]
        for attempt in self.attempts(self.oracle[index]):
            history, _ = self.play([*self.oracle[:index], attempt])
            last = history.calls[-1] if history.calls else None
            if last is not None and last.kind == "write" and last.refusal not in (None, "ownership"):
                calls = [*self.oracle[:index], attempt, *self.oracle[index:]]
                yield LegitimateRun("refused_first", str(last.refusal), calls, self.said)
                return

    def write_order(self) -> Iterator[LegitimateRun]:
        if len(self.writes) < 2:
            return
        reads = [call for i, call in enumerate(self.oracle) if i not in self.writes]
        writes = [self.oracle[i] for i in reversed(self.writes)]
        history, oks = self.play([*reads, *writes])
        done = [self.golden_oks[i] for i in reversed(self.writes)]
        if oks[len(reads) :] == done and canonical_json(fold_history(history.writes, history.keys)) == self.golden_end:
            yield LegitimateRun("write_order", "reversed", [*reads, *writes], self.said)

    def taken_back_unmade(self) -> Iterator[LegitimateRun]:
        """Where the user changes their mind once the agent names a value, the run of an agent that confirmed it
        first: the write of the value taken back is never made."""
        if any(call.optional for call in self.task.verifier.expected_calls):
            first = self.writes[0]
            yield LegitimateRun(
                "confirmed_first", "taken_back", [*self.oracle[:first], *self.oracle[first + 1 :]], self.said
            )

    def respelled(self) -> Iterator[LegitimateRun]:
        actions = compile_actions(self.env)
        calls = []
        for call in self.oracle:
            forms = actions[call.name].forms if call.name in actions else {}
            folded = {
                name: value.swapcase()
                for name, value in call.arguments.items()
                if name in forms and isinstance(value, str)
            }
            calls.append(call.model_copy(update={"arguments": {**call.arguments, **folded}}))
        if calls != self.oracle and self.play(calls)[1] == self.golden_oks:
            yield LegitimateRun("respelled", "swapped_case", calls, self.said)

    def confirmation(self) -> str:
        """Asking the user to confirm the writes about to be made, in the domain's words."""
        terms = {term.name: term for term in action_terms(self.env.blueprint)}
        asked = dict.fromkeys(self.oracle[i].name for i in self.writes)
        acts = [f"{terms[name].verb} your {max(terms[name].objects, key=len)}" for name in asked if terms[name].objects]
        if not acts:
            return "Before I go ahead, can you confirm that this is what you want?"
        return f"Before I go ahead, can you confirm you want me to {' and '.join(acts)}?"

    def answers(self) -> Iterator[LegitimateRun]:
        spec = self.task.verifier.answer
        if spec is None:
            return
        requests = self.task.scenario.requests
        # A question asked after a write is the last request (`tell me ...`); the write is reported before it.
        question = requests[-1].removeprefix("tell me ") if requests else None
        report = report_message(self.task, self.env.blueprint)
        before = (report,) if report else ()
        for label, text in answer_formats(spec).items():
            if text not in self.said:
                yield LegitimateRun("other_format", label, self.oracle, (*before, text))
        for label, text in restatements(spec, question).items():
            yield LegitimateRun("full_sentence", label, self.oracle, (*before, text))


def legitimate_runs(task: TaskSpec, session: Session) -> Iterator[LegitimateRun]:
    """Every legitimate variation the task allows, probed on `session` (which then acts for the task's user)."""
    yield from _Variations(task, session).runs()
