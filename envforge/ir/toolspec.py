"""Tool declarations and the tool-dependency graph."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, TypeAlias

from pydantic import Field

from envforge.ir.base import IRModel

JSONSchema = dict[str, Any]
JsonValue: TypeAlias = "str | int | float | bool | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
"""A value JSON carries, what tool arguments and results are made of. Read-only containers, so a `list[str]` or a
row's `dict[str, int | None]` is one too."""
JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object, such as a row a tool returns."""
ToolArguments: TypeAlias = JsonObject
"""The arguments of one tool call, a JSON object that `ToolSpec.parameters` describes."""
ToolResult: TypeAlias = JsonObject
"""What one tool call returns, a JSON object: a row (get, find), a page of rows (`items`, `total`), the rows an
action returns by alias, or `{"error": {...}}` for a refused call."""


class ToolSpec(IRModel):
    """One tool an agent can call, in the form every front end (MCP, Gym, UIs) derives from."""

    name: str
    """`verb_noun` tool name."""
    description: str
    """What the tool does, for the agent."""
    kind: Literal["read", "write"]
    """READ tools never change state; WRITE tools apply a domain action."""
    operation: Literal["get", "list", "find", "action"]
    """How the runtime serves it: get by key, list with filters, find by a unique field, or an action."""
    entity: str
    """Entity the tool is about."""
    parameters: JSONSchema
    """JSON Schema of the arguments (an object schema; unknown arguments are refused)."""
    returns: JSONSchema
    """JSON Schema of a successful result."""
    reads: list[str] = Field(default_factory=list)
    """Entities the tool reads."""
    writes: list[str] = Field(default_factory=list)
    """Entities the tool may change."""
    preconditions: list[str] = Field(default_factory=list)
    """What must hold for the call to succeed, in words."""
    policies: list[str] = Field(default_factory=list)
    """Ids of policies the runtime enforces on this tool."""
    filters: list[str] = Field(default_factory=list)
    """For `list` and `find`: the fields the tool filters on."""
    param_refs: dict[str, str] = Field(default_factory=dict)
    """Argument -> entity whose key it holds."""
    output_refs: dict[str, str] = Field(default_factory=dict)
    """Output field path (e.g. `items[].order_id`) -> entity whose key it holds."""

    def shown_fields(self) -> list[str]:
        """The fields a READ tool shows of each row: its row's, or its listing's items' (a list shows a summary)."""
        items = self.returns.get("properties", {}).get("items", {}).get("items")
        return list((items if isinstance(items, dict) else self.returns).get("properties", {}))

    def openai_tool(self) -> dict[str, Any]:
        """The tool in OpenAI function-calling form."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


class ToolEdge(IRModel):
    """An output of `source` can supply the argument `param` of `target`."""

    source: str
    target: str
    param: str
    """Argument of the target tool."""
    output: str
    """Output field path of the source tool."""
    entity: str
    """Entity whose key flows along the edge."""


class ToolGraph(IRModel):
    """All tools of an environment and their dependency edges."""

    schema_version: Literal[1] = 1
    domain: str
    tools: list[ToolSpec]
    edges: list[ToolEdge]

    def tool(self, name: str) -> ToolSpec:
        for tool in self.tools:
            if tool.name == name:
                return tool
        raise KeyError(name)


def scalars(value: Any) -> Iterator[Any]:
    """The leaf values of a JSON-like value (arguments, results, a dumped model), None left out."""
    if isinstance(value, dict):
        for item in value.values():
            yield from scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from scalars(item)
    elif value is not None:
        yield value
