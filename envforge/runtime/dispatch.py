"""Tool dispatch: validate arguments, then serve a READ query or run a domain action."""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable, Mapping

from jsonschema import ValidationError
from jsonschema.exceptions import best_match

from envforge.errors import did_you_mean
from envforge.ir.toolspec import JsonObject, ToolArguments, ToolResult
from envforge.runtime.actions import ActionRunner, compile_actions
from envforge.runtime.environment import EntityRuntime, Environment
from envforge.runtime.errors import ToolError
from envforge.runtime.history import log_attempt, log_read
from envforge.runtime.statements import like_pattern

Handler = Callable[[ToolArguments], ToolResult]
LIST_LIMIT_DEFAULT = 20


def row_dict(runtime: EntityRuntime, row: sqlite3.Row) -> JsonObject:
    result = dict(row)
    for name in runtime.boolean_fields:
        if result[name] is not None:
            result[name] = bool(result[name])
    return result


def _argument_error(tool: str, error: ValidationError) -> ToolError:
    path = ".".join(str(part) for part in error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    properties = schema.get("properties", {})
    if error.validator == "additionalProperties":
        given = error.instance if isinstance(error.instance, dict) else {}
        extra = sorted(set(given) - set(properties))
        allowed = ", ".join(properties) or "none"
        return ToolError(
            "invalid_arguments",
            f"unknown argument(s) {', '.join(extra)}; allowed: {allowed}",
            tool=tool,
            field=extra[0] if extra else None,
        )
    if error.validator == "required":
        return ToolError(
            "invalid_arguments",
            f"missing argument: {error.message.split(chr(39))[1]}",
            tool=tool,
            field=error.message.split("'")[1],
        )
    where = f"argument '{path}'" if path else "arguments"
    return ToolError("invalid_arguments", f"{where}: {error.message}", tool=tool, field=path or None)


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
TEXT_MAX = 10_000
"""Longest text argument, whatever the schema says: SQLite refuses LIKE patterns over 50,000 bytes, and no
field of a generated environment holds more than a few thousand characters."""
NAME_SHOWN = 64
"""Longest tool name an error repeats back."""
SURROGATE = re.compile("[\ud800-\udfff]")


def shown_name(name: str) -> str:
    """A tool name as an error repeats it: a huge one is cut, so a refusal stays small."""
    return name if len(name) <= NAME_SHOWN else f"{name[: NAME_SHOWN - 3]}..."


def _unstorable(value: object, path: str = "") -> str | None:
    """Values JSON allows but a database cannot hold faithfully: huge integers, NaN, infinities,
    lone surrogates and NUL characters."""
    where = f"argument '{path}'" if path else "arguments"
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        return f"{where}: integer out of range"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{where}: numbers must be finite"
    if isinstance(value, float) and value.is_integer() and not INT64_MIN <= value <= INT64_MAX:
        # JSON Schema counts 1e19 as an integer; SQLite cannot bind it as one.
        return f"{where}: integer out of range"
    if isinstance(value, str):
        if len(value) > TEXT_MAX:
            return f"{where}: text of {len(value):,} characters is over the limit of {TEXT_MAX:,}"
        if "\x00" in value:
            return f"{where}: text must not contain NUL characters"
        if SURROGATE.search(value):
            return f"{where}: text must be valid Unicode (a lone surrogate was found)"
    if isinstance(value, dict):
        return next(
            (p for key, item in value.items() if (p := _unstorable(item, f"{path}.{key}" if path else str(key)))), None
        )
    if isinstance(value, list):
        return next((p for index, item in enumerate(value) if (p := _unstorable(item, f"{path}[{index}]"))), None)
    return None


def _rows(result: ToolResult) -> list[Mapping[str, object]]:
    """The rows a READ call returned: each row of its page, or its one row."""
    page = result.get("items")
    return [row for row in (page if isinstance(page, list) else [result]) if isinstance(row, Mapping)]


def _column(result: ToolResult, column: str) -> list[str]:
    return [str(row[column]) for row in _rows(result)]


def _others(result: ToolResult, person: str, fields: tuple[str, ...], served: str) -> dict[str, dict[str, str]]:
    """The personal fields a lookup showed of each person but the one served."""
    return {
        str(row[person]): {name: str(row[name]) for name in fields if row.get(name) not in (None, "")}
        for row in _rows(result)
        if str(row[person]) != served
    }


def refusal_kind(error: ToolError) -> str:
    """How the history names a refused attempt: `ownership` for another person's row, else the error code."""
    return "ownership" if error.policy == "ownership" else error.code


class Dispatcher:
    """Serves every tool of an environment against one connection."""

    def __init__(self, env: Environment, connection: sqlite3.Connection) -> None:
        self.env = env
        self.connection = connection
        self.actions = ActionRunner(env, connection, compile_actions(env))
        self.handlers: dict[str, Handler] = {}
        blueprint = env.blueprint
        columns = {blueprint.person: env.entities[blueprint.person].key}
        # In a fused world the user's record in another domain names them too, through its link to the person.
        columns |= {
            relation.child: relation.field
            for relation in blueprint.relations
            if relation.child in blueprint.linked_persons and relation.parent == blueprint.person
        }
        personal = blueprint.personal_fields()
        self.reads = {
            tool.name: (tool.entity, env.entities[tool.entity].key, columns.get(tool.entity))
            for tool in env.toolgraph.tools
            if tool.kind == "read"
        }
        """READ tools -> (their entity, its key column, and for reads of the person entity or its linked records the
        column holding the person's key): what the history logs of each read."""
        self.personal = {
            entity: tuple(name for name in personal if name in env.entities[entity].statements.table.columns)
            for entity in columns
        }
        """Person entities (and linked records) -> their columns that tell who someone is."""
        for tool in env.toolgraph.tools:
            runtime = env.entities[tool.entity]
            if tool.operation == "get":
                self.handlers[tool.name] = self._get(tool.name, runtime)
            elif tool.operation == "find":
                self.handlers[tool.name] = self._find(tool.name, runtime, tool.filters[0])
            elif tool.operation == "list":
                self.handlers[tool.name] = self._list(runtime, tool.shown_fields())
            else:
                self.handlers[tool.name] = self.actions.handler(tool.name)

    def call(self, name: str, arguments: ToolArguments) -> ToolResult:
        handler = self._handler_for(name, arguments)
        read = self.reads.get(name)
        try:
            result = handler(arguments)
        except ToolError as error:
            error.tool = name
            if read is None and self.actions.logging:
                log_attempt(self.connection, name, self.actions.stored_arguments(name, arguments), refusal_kind(error))
            raise
        if read is not None and self.actions.logging:
            entity, key, person = read
            persons = _column(result, person) if person is not None else None
            served = self.actions.person
            others = _others(result, person, self.personal[entity], served) if person and served else None
            log_read(self.connection, name, arguments, {entity: _column(result, key)}, persons, others)
        return result

    def refusal(self, name: str, arguments: ToolArguments) -> ToolError | None:
        """The error a call of the WRITE tool `name` would be refused with on the current state before its effects
        (its arguments, an owner, a row to bind, a precondition, a policy), as `call` would raise it; None when the
        call would go on to its effects, which may still refuse it (a constraint, an invariant). Of a READ tool,
        only the arguments are checked. Writes and logs nothing."""
        try:
            self._handler_for(name, arguments)
        except ToolError as error:
            return error
        action = self.actions.actions.get(name)
        if action is None:
            return None
        try:
            self.actions.admit(action, arguments)
        except ToolError as error:
            error.tool = name
            return error
        return None

    def _handler_for(self, name: str, arguments: ToolArguments) -> Handler:
        """The tool's handler, once the call's arguments are valid for it; raises the ToolError refusing them."""
        handler = self.handlers.get(name)
        if handler is None:
            shown = shown_name(name)
            hint = did_you_mean(name, self.handlers) if len(name) <= NAME_SHOWN else ""
            raise ToolError("unknown_tool", f"no tool named '{shown}'{hint}", tool=shown)
        if not isinstance(arguments, dict):
            raise ToolError("invalid_arguments", "arguments must be a JSON object", tool=name)
        problem = _unstorable(arguments)
        if problem is not None:
            raise ToolError("invalid_arguments", problem, tool=name)
        validator = self.env.validators[name]
        if not validator.is_valid(arguments):
            error = best_match(validator.iter_errors(arguments))
            raise (
                _argument_error(name, error)
                if error is not None
                else ToolError("invalid_arguments", "invalid arguments", tool=name)
            )
        return handler

    def _get(self, tool: str, runtime: EntityRuntime) -> Handler:
        statement = runtime.statements.select_by_key

        def get(arguments: ToolArguments) -> ToolResult:
            row = self.connection.execute(statement, arguments).fetchone()
            if row is None:
                raise ToolError(
                    "not_found",
                    f"no {runtime.name} with {runtime.key} '{arguments[runtime.key]}'",
                    field=runtime.key,
                )
            return row_dict(runtime, row)

        return get

    def _find(self, tool: str, runtime: EntityRuntime, field: str) -> Handler:
        statement = runtime.statements.find(field)

        def find(arguments: ToolArguments) -> ToolResult:
            row = self.connection.execute(statement, arguments).fetchone()
            if row is None:
                raise ToolError("not_found", f"no {runtime.name} with {field} '{arguments[field]}'", field=field)
            return row_dict(runtime, row)

        return find

    def _list(self, runtime: EntityRuntime, shown: list[str]) -> Handler:
        """A page of rows, each as the listing's summary (`shown`): the details are the get tool's."""
        text = runtime.statements.text_fields

        def listing(arguments: ToolArguments) -> ToolResult:
            filters = tuple(sorted(name for name in arguments if name not in ("limit", "offset")))
            count_sql, page_sql = runtime.statements.listing(filters)
            # A text filter's schema admits only strings.
            params = {name: like_pattern(str(arguments[name])) if name in text else arguments[name] for name in filters}
            limit, offset = arguments.get("limit", LIST_LIMIT_DEFAULT), arguments.get("offset", 0)
            rows = [
                row_dict(runtime, row)
                for row in self.connection.execute(page_sql, {**params, "limit": limit, "offset": offset})
            ]
            items = [{name: row[name] for name in shown} for row in rows]
            # A short page that starts at or before the last match ends the matches: its end is their count, and
            # a text filter's count is a second scan of the table.
            if isinstance(limit, int) and isinstance(offset, int) and len(rows) < limit and (rows or not offset):
                return {"items": items, "total": offset + len(rows)}
            return {"items": items, "total": self.connection.execute(count_sql, params).fetchone()[0]}

        return listing
