"""The `toolgraph` stage's output: tool specs, dependency edges and a picture of them."""

from __future__ import annotations

from typing import Self

from envforge.files import dump_json
from envforge.ir.toolspec import ToolGraph
from envforge.pipeline.artifacts import Artifact


class ToolGraphArtifact(Artifact):
    """Tool specs and dependency edges, the tools in OpenAI/MCP form, and a picture of the graph."""

    toolgraph: ToolGraph
    picture: str
    """The graph rendered as SVG."""

    def to_files(self) -> dict[str, bytes]:
        tools = [
            {
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.parameters,
                "output_schema": tool.returns,
            }
            for tool in self.toolgraph.tools
        ]
        return {
            "toolgraph.json": dump_json(self.toolgraph.model_dump(mode="json")),
            "tools.json": dump_json({"tools": tools, "openai": [tool.openai_tool() for tool in self.toolgraph.tools]}),
            "toolgraph.svg": self.picture.encode(),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(
            toolgraph=ToolGraph.model_validate_json(files["toolgraph.json"]),
            picture=files["toolgraph.svg"].decode(),
        )
