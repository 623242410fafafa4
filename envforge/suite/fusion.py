"""`envforge fuse`: the composition of 2-3 blueprints, written out as the `compose:` blueprint that `fuse` generates."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from envforge.errors import UserInputError
from envforge.ir.blueprint import Blueprint
from envforge.ir.compose import MAX_DOMAINS, Composition, CompositionError, fuse, shared_identity
from envforge.ir.loading import load_blueprint
from envforge.ir.shipped import SHIPPED

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
"""What --domain, --identity and the PREFIX of --prefix must be: a name as blueprints write them."""


def _checked(name: str, given: str, example: str) -> str:
    """`name`, or a UserInputError quoting the option as `given` when it is not a lower_snake_case name."""
    if not _NAME.match(name):
        raise UserInputError(f"{given}: '{name}' is not a lower_snake_case name; write e.g. {example}")
    return name


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
        found[domain] = _checked(prefix, f"--prefix '{value}'", f"{domain}={_snake(prefix)}")
    return found


def _snake(word: str) -> str:
    out = re.sub(r"[^a-z0-9_]+", "_", word.lower()).strip("_")[:63]
    return out if out[:1].isalpha() else f"x_{out}"[:63]


def _identity(members: list[Blueprint], wanted: str | None) -> str:
    if wanted is not None:
        return _checked(wanted, "--identity", "--identity email")
    shared = shared_identity(members)
    if not shared:
        persons = ", ".join(f"{member.domain}.{member.person}" for member in members)
        raise UserInputError(
            f"no shared person identity: the person entities {persons} have no unique text field in common; give "
            "each the same one (e.g. email with unique: true)"
        )
    return shared[0]


def _member(path: Path, folder: Path) -> str:
    """A shipped blueprint by its name, which reads the same on every machine; any other by its path relative to
    the composition's folder."""
    if path.resolve() == (SHIPPED / f"{path.stem}.yaml").resolve():
        return path.stem
    return os.path.relpath(path.resolve(), folder.resolve())


def composition_data(
    paths: list[Path], *, domain: str | None, identity: str | None, prefixes: list[str], folder: Path
) -> dict[str, Any]:
    """The `compose:` blueprint fusing `paths`, its member paths relative to `folder`; a one-line
    UserInputError when the blueprints cannot be fused."""
    if not 2 <= len(paths) <= MAX_DOMAINS:
        raise UserInputError(
            f"fuse takes 2 to {MAX_DOMAINS} blueprints, got {len(paths)}; name 2 or 3 (e.g. envforge fuse clinic banking)"
        )
    members = [load_blueprint(path) for path in paths]
    domains = [member.domain for member in members]
    twice = next((name for index, name in enumerate(domains) if name in domains[:index]), None)
    if twice is not None:
        raise UserInputError(
            f"the domain '{twice}' is given twice; fuse different domains (a compose: blueprint can fuse one twice, "
            "with a prefix for each)"
        )
    chosen = _prefixes(prefixes, members)
    fused = domain or "_".join(domains)
    data: dict[str, Any] = {
        "schema_version": 1,
        "domain": _checked(fused, "--domain" if domain else "the fused domain id", "--domain clinic_banking"),
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
                {"blueprint": _member(path, folder)}
                | ({"prefix": chosen[member.domain]} if member.domain in chosen else {})
                for path, member in zip(paths, members, strict=True)
            ],
        },
    }
    try:
        fuse(Composition.model_validate(data), members)
    except CompositionError as exc:
        # The fix a composition names in its `prefix:` keys is --prefix here.
        hint = " (--prefix DOMAIN=PREFIX)" if exc.path[-1:] == ("prefix",) else ""
        raise UserInputError(f"{exc}{hint}") from None
    except ValidationError as exc:
        # Only a fused expression that the prefixes made longer than its limit gets here.
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise UserInputError(
            f"cannot fuse these blueprints: {where}: {error['msg']}; choose shorter prefixes"
        ) from None
    return data


def composition_yaml(data: dict[str, Any]) -> bytes:
    header = "# A fused blueprint written by `envforge fuse`; add bridges and their policies under compose:.\n"
    return (header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)).encode()
