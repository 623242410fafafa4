"""Changes of mind: one request with a value the user gives (a quantity, a new email), which they change once the
agent proposes it or reports it done ("Actually, make it 12."). The right run ends on the new value; the write of
the first one may be made or not, since an agent that confirms before writing never makes it."""

from __future__ import annotations

from dataclasses import replace

from envforge.ir.checks import NUMERIC_TYPES
from envforge.ir.tasks import RowChange, ToolCall
from envforge.runtime.changes import fold_history
from envforge.stages.tasks.arguments import plain_values
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, Part
from envforge.stages.tasks.kinds.kind import CombiningKind, Drafted
from envforge.stages.tasks.phrasing import Detail


class ChangesOfMind(CombiningKind):
    share = "multi_write"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        drafts = []
        for single in drafted[self.allowed]:
            changed = _changed(context, single)
            if changed is not None:
                drafts.append(changed)
            if len(drafts) >= wanted:
                break
        return drafts


def _end(context: SynthesisContext, calls: list[ToolCall], person: str) -> list[RowChange] | None:
    ok, _ = context.run(calls, person)
    history = context.session.history()
    return fold_history(history.writes, history.keys) if ok else None


def _changeable(detail: Detail) -> bool:
    """A value a user could give another of in one breath: a number, or a new value that replaces a stored one.
    A reason or a choice said in the user's own words ("It arrived damaged.") is no mind to change."""
    return detail.says is None and (detail.kind in NUMERIC_TYPES or (detail.new and detail.kind == "string"))


def _changed(context: SynthesisContext, single: Draft) -> Draft | None:
    """The single write `single` with its first changeable detail changed once it is named or done, where the
    second value is one the request could have asked (its write succeeds after the first and keeps every rule)
    and the two writes leave a change."""
    if single.policies or single.offered or len(single.parts) != 1:
        return None
    part, write = single.parts[0], single.oracle[-1]
    tool = context.world.tools[write.name]
    for index, detail in enumerate(part.details):
        if not _changeable(detail) or write.arguments.get(detail.name) != detail.value:
            continue
        rng = context.rng("change", single.person, write.name, detail.name)
        values = plain_values(context.blueprint, context.world, context.faker, tool, detail.name, rng)
        for value in values:
            if value == detail.value:
                continue
            second = ToolCall(name=write.name, arguments={**write.arguments, detail.name: value})
            if not context.run(single.oracle, single.person)[0] or context.session.breaches(
                second.name, second.arguments
            ):
                continue
            ok, _ = context.run([*single.oracle, second], single.person)
            history = context.session.history()
            end = fold_history(history.writes, history.keys)
            if not ok or not end or _end(context, [*single.oracle[:-1], second], single.person) != end:
                continue  # the second write must replace the first (a credit added twice is two credits)
            details = [*part.details[:index], replace(detail, value=value), *part.details[index + 1 :]]
            again = Part(
                part.action,
                second.arguments,
                part.target,
                part.owned,
                part.others,
                details,
                False,
                False,
                part.lookups,
                part.target_param,
            )
            return Draft(
                "multi_write",
                single.person,
                single.persona,
                single.identity,
                [*single.oracle, second],
                2,
                [part, again],
                follow_from=len(single.oracle),
                changed=detail.name,
                touched=single.touched,
                family=f"change:{single.family}",
            )
    return None
