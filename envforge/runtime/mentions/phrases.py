"""Mentions read as words: yes/no (a negated "true" states no), enum choices and text phrases."""

from __future__ import annotations

import re

from envforge.runtime.mentions.mention import Mention, clause_start

_TRUTH_WORD = re.compile(
    r"\b(?P<yes>yes|yeah|yep|true|correct)\b|\b(?P<no>no|nope|false|incorrect)\b"
    r"|\b(?P<cue>not|never|neither|nor)\b|(?P<nt>n['\u2019]t)\b",
    re.IGNORECASE,
)


def boolean_mentions(text: str) -> list[Mention]:
    """Yes/true and no/false/negations; a negated "true" or "yes" states no."""
    found: list[Mention] = []
    cue: tuple[int, int] | None = None
    for match in _TRUTH_WORD.finditer(text):
        if match["cue"] or match["nt"]:
            if cue is not None:
                found.append(Mention(False, *cue))
            cue = match.span()
            continue
        word_says_yes = match["yes"] is not None
        if cue is not None and clause_start(text, match.start()) <= cue[0]:
            found.append(Mention(not word_says_yes, cue[0], match.end()))
        else:
            if cue is not None:
                found.append(Mention(False, *cue))
            found.append(Mention(word_says_yes, *match.span()))
        cue = None
    if cue is not None:
        found.append(Mention(False, *cue))
    return found


def parse_boolean(value: str) -> bool | None:
    """A canonical yes/no (`true`, `yes`, `1`; `false`, `no`, `0`)."""
    return {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}.get(value.strip().lower())


def fold(value: str) -> str:
    """Text compares case- and spacing-insensitively."""
    return " ".join(value.lower().split())


def fold_choice(value: str) -> str:
    """An enum value reads the same with spaces, underscores or hyphens between its words."""
    return fold(value.replace("_", " ").replace("-", " "))


def phrase_pattern(phrases: list[str], loose: bool) -> re.Pattern[str] | None:
    """One alternation of whole phrases, longest first so a longer phrase is one match, not also its parts.

    `loose` (enum choices) lets words be joined by spaces, underscores or hyphens; text keeps its punctuation.
    """
    if not phrases:
        return None
    joiner = r"[\s_-]+" if loose else r"\s+"
    bodies = [joiner.join(re.escape(word) for word in value.split()) for value in phrases]
    alternatives = "|".join(f"({body})" for body in bodies)
    return re.compile(
        rf"(?<!\w)(?<!\w[-/])(?:{alternatives})(?!\w)(?![-/]\w)(?!\.\d)",
        re.IGNORECASE,
    )


def phrase_mentions(text: str, pattern: re.Pattern[str] | None, values: list[str]) -> list[Mention]:
    """Where `pattern` (a `phrase_pattern` of `values`) matches, each as the phrase of `values` it matched."""
    if pattern is None:
        return []
    return [Mention(values[match.lastindex - 1], *match.span()) for match in pattern.finditer(text) if match.lastindex]
