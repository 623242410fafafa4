"""Where in a blueprint file a field path lives."""

from __future__ import annotations

from dataclasses import dataclass, field

Path_ = tuple[int | str, ...]


def format_path(path: Path_) -> str:
    """`("entities", 2, "fields", 0, "type")` -> `entities[2].fields[0].type`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@dataclass(frozen=True)
class Locations:
    """Line numbers of keys and items of one parsed YAML file."""

    file: str = ""
    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Path_) -> int | None:
        """The line of `path`, or of its closest parent that has one."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(tuple(path[:end]))
            if line is not None:
                return line
        return None
