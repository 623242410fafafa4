"""The snippets of docs/blueprint-guide.md (and of another guide, given by path), and the edit the guide tells a
reader to make with them.

Tests take the snippets from the guide itself, so the guide cannot drift from what they prove."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO

GUIDE = REPO / "docs" / "blueprint-guide.md"


def yaml_blocks(guide: Path = GUIDE, language: str = "yaml") -> list[tuple[str | None, str]]:
    """Every block of `language` in a guide with its anchor (`<!-- snippet: NAME -->` on the line before), or
    None."""
    text = guide.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(rf"```{language}\n(.*?)```", text, re.DOTALL):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        anchor = re.fullmatch(r"<!-- snippet: ([a-z-]+) -->", before)
        blocks.append((anchor.group(1) if anchor else None, match.group(1)))
    return blocks


def guide_snippet(name: str, guide: Path = GUIDE, language: str = "yaml") -> str:
    found = [body for anchor, body in yaml_blocks(guide, language) if anchor == name]
    assert len(found) == 1, f"the guide must have one block anchored '{name}'"
    return found[0]


def add_items(blueprint: str, snippet: str) -> str:
    """What the guide says to do with a snippet of top-level lists: paste each list's items at the end of the
    blueprint's list of the same name (before the comments that open the next section)."""
    lines = blueprint.splitlines()
    for section in re.split(r"^(?=[a-z_]+:)", snippet, flags=re.MULTILINE):
        if not section.strip():
            continue
        key, _, items = section.partition("\n")
        end = lines.index(key) + 1
        while end < len(lines) and (not lines[end] or lines[end].startswith(" ")):
            end += 1
        while not lines[end - 1]:
            end -= 1
        lines[end:end] = ["", *items.rstrip().splitlines()]
    return "\n".join(lines) + "\n"
