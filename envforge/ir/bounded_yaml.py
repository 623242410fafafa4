"""YAML composed under hard limits, so no blueprint can make loading take unbounded time or memory.

PyYAML composes an alias as a reference to the anchored node, so a 1 KB file of nested aliases (an
"alias bomb") is a small graph that expands to billions of nodes when walked as a tree, which is what
recording a line for every key does. The composer here counts every node as it would be expanded,
aliases included, and stops at the first limit crossed: rejection costs what the file costs to read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from envforge.errors import BlueprintError

MAX_BYTES = 256 * 1024
"""The largest blueprint file: the shipped ones are under 40 KB resolved."""
MAX_NODES = 20_000
"""Keys, values and items, each alias counted as everything it stands for; the shipped ones have ~2,000."""
MAX_DEPTH = 32
"""Levels of nesting, aliases expanded; the shipped ones nest 7 deep."""
MAX_TEXT = 1024 * 1024
"""Characters of all scalars together, aliases expanded, so a repeated alias of a long text stays small."""


@dataclass(frozen=True)
class YamlLimits:
    """How far one YAML document may expand, aliases counted in full."""

    bytes: int = MAX_BYTES
    nodes: int = MAX_NODES
    depth: int = MAX_DEPTH
    text: int = MAX_TEXT


BLUEPRINT_LIMITS = YamlLimits()


def check_size(size: int, file: str, limit: int = MAX_BYTES) -> None:
    """Refuse a YAML file of more than `limit` bytes before reading or parsing it."""
    if size > limit:
        raise BlueprintError(
            f"the file has {size:,} bytes, over the limit of {limit:,}; split long texts or remove repeated parts",
            file=file,
        )


class _PythonEvents(Reader, Scanner, Parser):
    """PyYAML's own reader, scanner and parser: the fallback where libyaml is missing or refuses a depth."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)


class _BoundedComposer(Composer):
    """PyYAML's composer, counting every node as it would be expanded and stopping at the first limit crossed."""

    peek_event: Callable[[], yaml.Event]
    """From the parser this composer is mixed with (libyaml's or PyYAML's own)."""

    def __init__(self, limits: YamlLimits) -> None:
        Composer.__init__(self)
        self._limits = limits
        self._measured: dict[int, tuple[int, int, int]] = {}
        """id(node) -> (nodes, height, characters) of a finished node as it expands."""
        self._nodes = 0
        self._text = 0
        self._depth = 0
        self._reach = 0
        """The deepest level reached inside the node being composed."""

    def _grow(self, nodes: int, reach: int, text: int, line: int | None) -> None:
        self._nodes += nodes
        self._text += text
        self._reach = max(self._reach, reach)
        if self._nodes > self._limits.nodes:
            raise BlueprintError(
                f"the YAML expands to more than {self._limits.nodes:,} keys and items (aliases counted in full); "
                "write the repeated parts out or shorten the blueprint",
                line=line,
            )
        if self._reach > self._limits.depth:
            raise BlueprintError(_depth_message(self._limits), line=line)
        if self._text > self._limits.text:
            raise BlueprintError(
                f"the YAML's texts add up to more than {self._limits.text:,} characters (aliases counted in full); shorten them",
                line=line,
            )

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        line = event.start_mark.line + 1 if event.start_mark else None
        if isinstance(event, yaml.AliasEvent):
            anchored = super().compose_node(parent, index)
            measured = self._measured.get(id(anchored))
            if measured is None:
                raise BlueprintError("a YAML alias refers to a node that contains it; remove the recursion", line=line)
            nodes, height, text = measured
            self._grow(nodes, self._depth + height, text, line)
            return anchored
        self._depth += 1
        outer_reach, self._reach = self._reach, self._depth
        nodes_before, text_before = self._nodes, self._text
        text = len(event.value) if isinstance(event, yaml.ScalarEvent) else 0
        self._grow(1, self._depth, text, line)
        node = super().compose_node(parent, index)
        self._measured[id(node)] = (
            self._nodes - nodes_before,
            self._reach - self._depth + 1,
            self._text - text_before,
        )
        self._reach = max(outer_reach, self._reach)
        self._depth -= 1
        return node


def _depth_message(limits: YamlLimits) -> str:
    return f"the YAML nests more than {limits.depth} levels deep (aliases counted in full); flatten it"


class _BoundedSafeLoading(_BoundedComposer, SafeConstructor, Resolver):
    """Everything of a bounded safe loader but its parser, which a loader mixes in after it and starts first."""

    def __init__(self, limits: YamlLimits) -> None:
        _BoundedComposer.__init__(self, limits)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)


class PythonBoundedLoader(_BoundedSafeLoading, _PythonEvents):
    """A safe loader on PyYAML's pure-Python parser, refusing documents that expand past the limits."""

    def __init__(self, stream: str, limits: YamlLimits = BLUEPRINT_LIMITS) -> None:
        _PythonEvents.__init__(self, stream)
        _BoundedSafeLoading.__init__(self, limits)


# libyaml's parser with the bounded composer: the events come 7x faster, and the composer is the one counted here.
BoundedLoader: Any = PythonBoundedLoader
if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _LibyamlBoundedLoader(_BoundedSafeLoading, CParser):
        """A safe loader on libyaml's parser, refusing documents that expand past the limits."""

        def __init__(self, stream: str, limits: YamlLimits = BLUEPRINT_LIMITS) -> None:
            CParser.__init__(self, stream)
            _BoundedSafeLoading.__init__(self, limits)

    BoundedLoader = _LibyamlBoundedLoader

_PARSER_DEPTH_LIMIT = "nesting depth"
"""What libyaml (bundled since PyYAML 6.0.4) says when its own nesting limit stops the scan."""


def _refused_for_depth(exc: yaml.YAMLError) -> bool:
    return isinstance(exc, yaml.MarkedYAMLError) and _PARSER_DEPTH_LIMIT in (exc.problem or "")


def _run_bounded(text: str, limits: YamlLimits, loader_type: type[Any] | None, read: Callable[[Any], Any]) -> Any:
    loader = (loader_type or BoundedLoader)(text, limits)
    try:
        return read(loader)
    except yaml.YAMLError as exc:
        # libyaml scans about 1,000 characters ahead and may reach its own depth limit before the composer
        # reaches ours; that document nests past ours too, so the pure-Python parser (which scans without a
        # limit) composes it again for our message and the line where our limit is crossed.
        if isinstance(loader, PythonBoundedLoader) or not _refused_for_depth(exc):
            raise
    finally:
        loader.dispose()
    return _run_bounded(text, limits, PythonBoundedLoader, read)


def _check_text_size(text: str, file: str, limit: int) -> None:
    check_size(len(text) if len(text) > limit else len(text.encode("utf-8", errors="surrogatepass")), file, limit)


def compose_bounded(
    text: str, file: str, limits: YamlLimits = BLUEPRINT_LIMITS, loader_type: type[Any] | None = None
) -> yaml.Node | None:
    """The YAML document's node graph, or a BlueprintError naming the limit it crosses.

    `loader_type` picks the parser (BoundedLoader, libyaml's where installed, or PythonBoundedLoader)."""
    _check_text_size(text, file, limits.bytes)
    node: yaml.Node | None = _run_bounded(text, limits, loader_type, lambda loader: loader.get_single_node())
    return node


def load_bounded(
    text: str, file: str, limits: YamlLimits = BLUEPRINT_LIMITS, loader_type: type[Any] | None = None
) -> Any:
    """The YAML document's value (safe types only), or a BlueprintError naming the limit it crosses."""
    _check_text_size(text, file, limits.bytes)
    return _run_bounded(text, limits, loader_type, lambda loader: loader.get_single_data())
