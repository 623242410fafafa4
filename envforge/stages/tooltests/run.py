"""Test every tool with generated calls; a tool that misbehaves once is excluded, with that call recorded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from envforge.errors import EnvforgeError
from envforge.ir.expressions import CompiledExpression, ExpressionError, compile_expression
from envforge.ir.toolspec import ToolSpec
from envforge.ir.tooltests import ToolTestReport, ToolTestResult
from envforge.runtime.dispatch import LIST_LIMIT_DEFAULT
from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.session import Session
from envforge.stages.tooltests.arguments import Known, draw_examples, invalid_arguments, valid_arguments
from envforge.stages.tooltests.satisfiable import Verdict, action_rules, never_holds, refusing_rules

Phase = Literal["valid", "invalid"]
UNIQUE_MARK = "must be unique"
"""Constraint messages with this are a legitimate refusal (a taken value); any other constraint breach is a bug."""
WRITE_REFUSALS = frozenset({"not_found", "precondition_failed", "policy_violation", "constraint_violation"})
REASON_MAX = 300
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Expectation:
    """What a call may do: whether it must, may or must not succeed, and which refusals are acceptable."""

    success: Literal["must", "may", "never"]
    refusals: frozenset[str]


class BrokenToolError(EnvforgeError):
    """A call broke one of the rules; the message is the report's one-line reason."""


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= REASON_MAX else flat[: REASON_MAX - 1] + "…"


def _sqlite_lower(text: str) -> str:
    """SQLite's lower() and LIKE fold ASCII letters only."""
    return text.translate(_ASCII_LOWER)


def _with_booleans(row: dict[str, Any], booleans: frozenset[str]) -> dict[str, Any]:
    return {name: bool(value) if name in booleans and value is not None else value for name, value in row.items()}


def _owned(env: Environment, rows: dict[str, dict[Any, dict[str, Any]]]) -> dict[str, dict[str, list[str]]]:
    """Entity -> person key -> keys of the rows that reach that person through foreign keys."""
    person = env.blueprint.person
    owner: dict[str, dict[Any, Any]] = {person: {key: key for key in rows[person]}}
    grew = True
    while grew:
        grew = False
        for relation in env.blueprint.relations:
            if relation.child not in owner and relation.parent in owner:
                parents = owner[relation.parent]
                owner[relation.child] = {
                    key: parents[row[relation.field]]
                    for key, row in rows[relation.child].items()
                    if row[relation.field] in parents
                }
                grew = True
    owned: dict[str, dict[str, list[str]]] = {}
    for entity, by_key in owner.items():
        for key, person_key in sorted(by_key.items()):
            owned.setdefault(entity, {}).setdefault(person_key, []).append(key)
    return owned


class ToolTester:
    """Calls tools of one environment against a session reset before every call."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.session = Session(env)
        self.rows = {
            name: {row[runtime.key]: row for row in self.session.rows(name)} for name, runtime in env.entities.items()
        }
        strings: dict[tuple[str, str], list[str]] = {}
        for name, rows in self.rows.items():
            for field in env.blueprint.entity(name).fields:
                found = {row[field.name] for row in rows.values() if isinstance(row[field.name], str)}
                if found:
                    strings[name, field.name] = sorted(found)
        self.known = Known(
            keys={name: sorted(rows) for name, rows in self.rows.items()},
            strings=strings,
            clock=env.blueprint.clock,
            owned=_owned(env, self.rows),
        )
        # Judged by the declared schemas, not by the engine's own validators, which are under test.
        self.parameters = {tool.name: Draft202012Validator(tool.parameters) for tool in env.toolgraph.tools}
        self.returns = {tool.name: Draft202012Validator(tool.returns) for tool in env.toolgraph.tools}
        self.row_validators = {
            tool.entity: Draft202012Validator(tool.returns) for tool in env.toolgraph.tools if tool.operation == "get"
        }
        self.invariants: dict[str, list[tuple[str, str, CompiledExpression]]] = {}
        for policy in env.blueprint.policies:
            if policy.entity is not None:
                check = (policy.id, policy.error, compile_expression(policy.require))
                self.invariants.setdefault(policy.entity, []).append(check)
        self.scope = {"now": env.blueprint.clock.isoformat(), "today": env.blueprint.clock.date().isoformat()}

    def close(self) -> None:
        self.session.close()

    def test(self, tool: ToolSpec, *, seed: int, examples: int) -> ToolTestResult:
        """Run the tool's valid calls, then its invalid ones; stop at the first misbehaviour."""
        calls: list[tuple[Phase, dict[str, Any]]] = [
            *(
                ("valid", args)
                for args in draw_examples(valid_arguments(tool, self.known), count=examples, seed_value=seed)
            ),
            *(("invalid", args) for args in invalid_arguments(tool, self.known)),
        ]
        counts = {"valid": 0, "invalid": 0}
        successes = 0
        refusals: list[dict[str, Any]] = []

        def result(reason: str, example: dict[str, Any] | None = None, *, admitted: bool = False) -> ToolTestResult:
            return ToolTestResult(
                tool=tool.name,
                kind=tool.kind,
                admitted=admitted,
                reason=_one_line(reason),
                failing_example=example,
                valid_calls=counts["valid"],
                valid_successes=successes,
                invalid_calls=counts["invalid"],
            )

        for phase, args in calls:
            counts[phase] += 1
            try:
                refusal = self._call(tool, args, phase)
            except BrokenToolError as failure:
                return result(str(failure), args)
            if phase == "valid":
                successes += refusal is None
                refusals += [] if refusal is None else [refusal]
        if tool.kind != "write" or successes > 0:
            return result("", admitted=True)
        # A tool whose every valid call was refused stays in unless a rule that refused it can never hold.
        valid = [args for phase, args in calls if phase == "valid"]
        doomed = self.doomed(tool, refusals, valid)
        if doomed is not None:
            return result(f"none of {counts['valid']} valid calls succeeded: {doomed.describe()}", valid[0])
        return result(f"admitted; no successful call found in {counts['valid']} tries", admitted=True)

    def doomed(self, tool: ToolSpec, refusals: list[dict[str, Any]], valid: list[dict[str, Any]]) -> Verdict | None:
        """The first rule that refused the tool's valid calls and holds for no value at all, if one does."""
        blueprint = self.env.blueprint
        action = next((action for action in blueprint.actions if action.name == tool.name), None)
        if action is None:
            return None
        for rule in refusing_rules(action_rules(blueprint, action), refusals):
            verdict = never_holds(rule, action, blueprint, self.rows, valid)
            if verdict is not None:
                return verdict
        return None

    def expect(self, tool: ToolSpec, args: dict[str, Any]) -> Expectation:
        """What the call may do, judged from the schema and the initial state alone."""
        if not self.parameters[tool.name].is_valid(args):
            return Expectation("never", frozenset({"invalid_arguments"}))
        if tool.operation == "list":
            return Expectation("must", frozenset())
        unknown = [
            name for name, entity in tool.param_refs.items() if name in args and args[name] not in self.rows[entity]
        ]
        if unknown:
            return Expectation("never", WRITE_REFUSALS if tool.kind == "write" else frozenset({"not_found"}))
        if tool.operation == "get":
            return Expectation("must", frozenset())
        if tool.operation == "find":
            field = tool.filters[0]
            existing = {_sqlite_lower(value) for value in self.known.existing(tool.entity, field)}
            found = _sqlite_lower(args[field]) in existing
            return Expectation("must", frozenset()) if found else Expectation("never", frozenset({"not_found"}))
        return Expectation("may", WRITE_REFUSALS)

    def _call(self, tool: ToolSpec, args: dict[str, Any], phase: Phase) -> dict[str, Any] | None:
        """Make one call: None when it succeeded, its error when it was rightly refused; raises BrokenToolError."""
        expectation = self.expect(tool, args)
        self.session.reset()
        try:
            ok, result = self.session.call_tool(tool.name, args)
        except Exception as exc:  # call_tool promises never to raise; a tool that makes it is broken
            raise BrokenToolError(f"{phase} call raised {type(exc).__name__}: {exc}") from None
        if not ok:
            error = refusal_of(result)
            code, message = error["code"], error["message"]
            if code not in expectation.refusals or (code == "constraint_violation" and UNIQUE_MARK not in message):
                raise BrokenToolError(f"{phase} call returned {code}: {message}")
            if self.session.history().writes:  # the store logs every row write, whoever issued it
                raise BrokenToolError(f"{phase} call was refused with {code} but changed the state")
            return dict(error)
        if expectation.success == "never":
            raise BrokenToolError(f"{phase} call succeeded but should have been refused")
        self._check_result(tool, args, result)
        if tool.kind == "read":
            if self.session.history().writes:
                raise BrokenToolError("READ call changed the state")
        else:
            self._check_state(tool)
        return None

    def _check_result(self, tool: ToolSpec, args: dict[str, Any], result: dict[str, Any]) -> None:
        error = best_match(self.returns[tool.name].iter_errors(result))
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path)
            raise BrokenToolError(f"result does not match the return schema at '{where}': {error.message}")
        if tool.operation in ("get", "find"):
            field = tool.filters[0]
            if _sqlite_lower(str(result[field])) != _sqlite_lower(args[field]):
                raise BrokenToolError(f"asked for {field} '{args[field]}', got '{result[field]}'")
        elif tool.operation == "list":
            self._check_listing(tool, args, result)

    def _check_listing(self, tool: ToolSpec, args: dict[str, Any], result: dict[str, Any]) -> None:
        items, limit = result["items"], args.get("limit", LIST_LIMIT_DEFAULT)
        if len(items) > limit or result["total"] < len(items):
            raise BrokenToolError(f"returned {len(items)} items of total {result['total']} for limit {limit}")
        text = self.env.entities[tool.entity].statements.text_fields
        for name in tool.filters:
            if name not in args:
                continue
            wanted = args[name]
            for item in items:
                value = item[name]
                matches = (
                    isinstance(value, str) and _sqlite_lower(wanted) in _sqlite_lower(value)
                    if name in text
                    else value == wanted
                )
                if not matches:
                    raise BrokenToolError(f"filter {name}={wanted!r} returned an item with {name}={value!r}")

    def _check_state(self, tool: ToolSpec) -> None:
        connection = self.session.connection
        dangling = connection.execute("PRAGMA foreign_key_check").fetchone()
        if dangling is not None:
            raise BrokenToolError(f"after the call a {dangling[0]} row refers to a {dangling[2]} that does not exist")
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if integrity != "ok":
            raise BrokenToolError(f"after the call PRAGMA integrity_check reports: {integrity}")
        for name in tool.writes:
            runtime = self.env.entities[name]
            before = self.rows[name]
            for row in self.session.rows(name):
                if before.get(row[runtime.key]) != row:
                    self._check_row(name, row[runtime.key], row)

    def _check_row(self, entity: str, key: Any, row: dict[str, Any]) -> None:
        validator = self.row_validators.get(entity)
        if validator is not None:
            error = best_match(validator.iter_errors(_with_booleans(row, self.env.entities[entity].boolean_fields)))
            if error is not None:
                field = "/".join(str(part) for part in error.absolute_path)
                raise BrokenToolError(f"after the call {entity} '{key}' has an invalid {field}: {error.message}")
        for policy, error, require in self.invariants.get(entity, []):
            try:
                holds, message = bool(require({entity: row, **self.scope})), error
            except ExpressionError as exc:
                holds, message = False, str(exc)
            if not holds:
                raise BrokenToolError(f"after the call {entity} '{key}' breaks policy '{policy}': {message}")


def run_tool_tests(
    env: Environment, *, seed: int, examples: int = 60, share: tuple[int, int] = (0, 1)
) -> ToolTestReport:
    """Test every tool of `env`; same environment and seed give the same report. With `share=(index, count)`, only
    every count-th tool from the index-th: a tool's result depends on no other tool's test (its draws are seeded on
    their own and every call starts from a reset session), so the shares' results, interleaved, are the report."""
    index, count = share
    tester = ToolTester(env)
    try:
        tools = env.toolgraph.tools[index::count]
        return ToolTestReport(results=[tester.test(tool, seed=seed, examples=examples) for tool in tools])
    finally:
        tester.close()
