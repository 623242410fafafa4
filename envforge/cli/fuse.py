"""`envforge fuse`: the composition of 2-3 blueprints, written out as a `compose:` blueprint and generated."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from envforge.errors import UserInputError
from envforge.ir.blueprint import Blueprint
from envforge.ir.compose import MAX_DOMAINS, Composition, CompositionError, fuse, shared_identity
from envforge.ir.loading import load_blueprint


def _prefixes(values: list[str], members: list[Blueprint]) -> dict[str, str]:
    """`--prefix banking=bank` options -> {domain: prefix}."""
    domains = [member.domain for member in members]
    found: dict[str, str] = {}
    for value in values:
        domain, sep, prefix = value.partition("=")
        if not sep or domain not in domains or not prefix:
            raise UserInputError(
                f"--prefix '{value}': write DOMAIN=PREFIX with DOMAIN one of {', '.join(domains)} (e.g. banking=bank)"
            )
        found[domain] = prefix
    return found


def _identity(members: list[Blueprint], wanted: str | None) -> str:
    if wanted is not None:
        return wanted
    shared = shared_identity(members)
    if not shared:
        persons = ", ".join(f"{member.domain}.{member.person}" for member in members)
        raise UserInputError(
            f"no shared person identity: the person entities {persons} have no unique text field in common; add one "
            "(e.g. email, unique: true) to each, or pass --identity FIELD"
        )
    return shared[0]


def composition_data(
    paths: list[Path], *, domain: str | None, identity: str | None, prefixes: list[str], folder: Path
) -> dict[str, Any]:
    """The `compose:` blueprint fusing `paths`, its member paths relative to `folder`; a one-line
    UserInputError when the blueprints cannot be fused."""
    if not 2 <= len(paths) <= MAX_DOMAINS:
        raise UserInputError(f"fuse takes 2 to {MAX_DOMAINS} blueprints, got {len(paths)}")
    members = [load_blueprint(path) for path in paths]
    chosen = _prefixes(prefixes, members)
    data: dict[str, Any] = {
        "schema_version": 1,
        "domain": domain or "_".join(member.domain for member in members),
        "version": 0,
        "title": " and ".join(member.title for member in members),
        "description": " ".join(" ".join(member.description.split()) for member in members),
        "agent_instructions": (
            "Each person you help is known to every one of these services: identify them once by what they tell "
            "you, then find their record in each with the same details, and follow each service's rules below."
        ),
        "compose": {
            "identity": _identity(members, identity),
            "domains": [
                {"blueprint": os.path.relpath(path.resolve(), folder.resolve())}
                | ({"prefix": chosen[member.domain]} if member.domain in chosen else {})
                for path, member in zip(paths, members, strict=True)
            ],
        },
    }
    try:
        fuse(Composition.model_validate(data), members)
    except CompositionError as exc:
        raise UserInputError(str(exc)) from None
    except ValueError as exc:
        raise UserInputError(f"cannot fuse these blueprints: {exc}") from None
    return data


def composition_yaml(data: dict[str, Any]) -> bytes:
    header = "# A fused blueprint written by `envforge fuse`; add bridges and their policies under compose:.\n"
    return (header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)).encode()
