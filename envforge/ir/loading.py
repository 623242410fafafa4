"""Load a blueprint from YAML into the IR, turning every problem into one located line."""

from __future__ import annotations

import json
import re
import types
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, Tag, ValidationError
from pydantic_core import ErrorDetails

from envforge.errors import BlueprintError, did_you_mean
from envforge.ir.blueprint import EFFECT_KINDS, Blueprint
from envforge.ir.bounded_yaml import MAX_BYTES, check_size, compose_bounded
from envforge.ir.checks import check_blueprint
from envforge.ir.invariants import INVARIANT_KINDS
from envforge.ir.locations import Locations, Path_, format_path
from envforge.ir.row_budget import check_row_budget
from envforge.ir.shipped import SHIPPED

if TYPE_CHECKING:
    from envforge.ir.compose import Composition

Model = typing.TypeVar("Model", bound=BaseModel)
SYNTAX_HINT = "fix the YAML syntax (indentation with spaces, matching brackets and quotes)"
START_HINT = "start from blueprints/retail.yaml"
_PROSE = re.compile(r"\s|[.,;:!?)]$")
"""A key with a space or ending in punctuation is a piece of a sentence, not a name."""


def _construct(node: yaml.Node, path: Path_, lines: dict[Path_, int], constructor: yaml.SafeLoader) -> Any:
    # Walks aliases in full: compose_bounded has refused recursive aliases and bounded what they expand to.
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            key = constructor.construct_object(key_node)
            if not isinstance(key, str):
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else key
                raise BlueprintError(
                    f"the key {shown!r} is read as {type(key).__name__}, not as a name; quote it or rename it",
                    line=key_line,
                    path=format_path(path),
                )
            if key in result:
                first = lines.get((*path, key))
                raise BlueprintError(
                    f"duplicate key '{key}' (first on line {first}); remove one of them",
                    line=key_line,
                    path=format_path((*path, key)),
                )
            result[key] = _construct(value_node, (*path, key), lines, constructor)
            lines[(*path, key)] = key_line
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, (*path, index), lines, constructor) for index, item in enumerate(node.value)]
    try:
        return constructor.construct_object(node)
    except ValueError:
        # Only a scalar that looks like a date can fail to construct: 2026-02-30 has the form but is no day.
        raise BlueprintError(
            f"'{node.value}' reads as a date, but no such date exists; fix it, or quote it to keep it as text",
            line=lines[path],
            path=format_path(path),
        ) from None


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> BlueprintError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "invalid YAML"
    where = f" at column {mark.column + 1}" if mark else ""
    context = ""
    if exc.context and exc.context_mark and exc.problem and (not mark or exc.context_mark.line != mark.line):
        context = f" ({exc.context} that starts on line {exc.context_mark.line + 1})"
    tab = "\\t" in problem or "\t" in problem or "tab character" in problem
    hint = "indent with spaces, not tabs" if tab else SYNTAX_HINT
    return BlueprintError(
        f"broken YAML{where}: {problem}{context}; {hint}", file=file, line=mark.line + 1 if mark else None
    )


def parse_yaml(text: str, file: str) -> tuple[Any, Locations]:
    """Parse YAML, keeping the line of every key and item."""
    lines: dict[Path_, int] = {}
    surrogate = next((index for index, char in enumerate(text) if "\ud800" <= char <= "\udfff"), None)
    if surrogate is not None:
        # Only a model's text can hold one (a file on disk decodes strictly); libyaml cannot encode it.
        raise BlueprintError(
            "the text contains a lone surrogate (broken Unicode), which YAML cannot hold; remove it",
            file=file,
            line=text.count("\n", 0, surrogate) + 1,
        )
    try:
        node = compose_bounded(text, file)
        if node is None:
            raise BlueprintError(f"the file is empty; {START_HINT}", file=file, line=1)
        data = _construct(node, (), lines, yaml.SafeLoader(""))
    except BlueprintError as exc:
        raise BlueprintError(exc.detail, file=file, line=exc.line, path=exc.path) from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise BlueprintError(
            f"the file contains the character #x{code:04x}, which YAML does not allow; remove it",
            file=file,
            line=line,
        ) from None
    except yaml.YAMLError as exc:
        raise BlueprintError(f"broken YAML: {exc}; {SYNTAX_HINT}", file=file) from None
    return data, Locations(file, lines)


# --- mapping pydantic errors to one located line ---------------------------------------------

_EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping of keys",
    "model_type": "a mapping of keys",
    "model_attributes_type": "a mapping of keys",
    "datetime_type": "a date and time such as 2026-03-16T10:00:00",
    "datetime_parsing": "a date and time such as 2026-03-16T10:00:00",
    "datetime_from_date_parsing": "a date and time such as 2026-03-16T10:00:00",
    "literal_error": "",
}


_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "effect_kind": ("effect", EFFECT_KINDS),
    "invariant_kind": ("invariant", INVARIANT_KINDS),
}
"""Error type of a tagged union -> what its members are called and the keys that name them."""


def _unwrap(annotation: Any) -> Any:
    """Strip `Annotated[...]` and `X | None` down to the type that pydantic validates."""
    while True:
        if typing.get_origin(annotation) is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        members = _union_members(annotation)
        if members is not None and len(members) == 1:
            annotation = members[0]
            continue
        return annotation


def _union_members(annotation: Any) -> list[Any] | None:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    return None


def _union_member(members: list[Any], tag: str) -> Any:
    """The member of a union that pydantic names `tag` in an error location."""
    for member in members:
        tags = [meta.tag for meta in getattr(member, "__metadata__", ()) if isinstance(meta, Tag)]
        if tag in tags:
            return typing.get_args(member)[0]
        inner = typing.get_args(member)[0] if typing.get_origin(member) is typing.Annotated else member
        if getattr(inner, "__name__", None) == tag:
            return inner
    return None


def _walk(loc: tuple[int | str, ...], root: type[BaseModel] = Blueprint) -> tuple[Path_, Any]:
    """Drop the union tags pydantic puts into `loc`; return the YAML path and the type found there."""
    annotation: Any = root
    path: list[int | str] = []
    for part in loc:
        annotation = _unwrap(annotation)
        members = _union_members(annotation)
        if members is not None and isinstance(part, str):
            annotation = _union_member(members, part)
            continue
        if part == "[key]":
            continue
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(part) if isinstance(part, str) else None
            annotation = field.annotation if field else None
        elif origin in (list, tuple) and isinstance(part, int) and args:
            annotation = args[0] if origin is list or len(args) <= part or args[-1] is Ellipsis else args[part]
        elif origin is dict and args:
            annotation = args[1]
        else:
            annotation = None
            if isinstance(part, str) and part[:1].isupper():
                continue
        path.append(part)
    return tuple(path), _unwrap(annotation)


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _pick(errors: list[ErrorDetails], locations: Locations, root: type[BaseModel] = Blueprint) -> ErrorDetails:
    """The error to report: the first in the file, but a mistyped key before the required key it hides."""
    paths = [_walk(error["loc"], root)[0] for error in errors]
    first = min(range(len(errors)), key=lambda index: locations.line(paths[index]) or 0)
    chosen = errors[first]
    if chosen["type"] == "missing":
        for error, path in zip(errors, paths, strict=True):
            if error["type"] == "extra_forbidden" and path[:-1] == paths[first][:-1]:
                return error
    return chosen


def _describe(
    error: ErrorDetails, errors: list[ErrorDetails], data: Any, root: type[BaseModel] = Blueprint
) -> tuple[Path_, str]:
    loc, _ = _walk(error["loc"], root)
    kind = error["type"]
    given = error.get("input")
    if kind == "extra_forbidden":
        key = str(loc[-1])
        cut = _cut_text(key, data, loc)
        if cut is not None:
            return loc, f"unknown key '{key}' — this looks like text cut at a comma; {cut}"
        model = _walk(error["loc"][:-1], root)[1]
        allowed = list(model.model_fields) if isinstance(model, type) and issubclass(model, BaseModel) else []
        hint = did_you_mean(key, allowed) or (f"; allowed keys: {', '.join(allowed)}" if allowed else "; remove it")
        return loc, f"unknown key '{key}'{hint}"
    if kind == "missing":
        return loc, f"required key '{loc[-1]}' is missing; add it"
    if kind in _KINDS and isinstance(given, dict):
        what, kinds = _KINDS[kind]
        keys = [str(key) for key in given]
        for key in keys:
            hint = did_you_mean(key, kinds)
            if hint:
                return (*loc, key), f"unknown {what} kind '{key}'{hint}"
        return loc, f"an {what} needs one of the keys {', '.join(kinds)}; it has {', '.join(keys) or 'none'}"
    if kind == "literal_error":
        expected = str(error.get("ctx", {}).get("expected", ""))
        choices = [part.strip(" '") for part in expected.replace(" or ", ",").split(",") if part.strip(" '")]
        hint = did_you_mean(str(given), choices) if isinstance(given, str) else ""
        return loc, f"{_shown(given)} is not one of {', '.join(choices)}{hint or '; use one of them'}"
    if kind == "string_pattern_mismatch" and isinstance(given, str) and "[key]" in error["loc"]:
        return loc, f"the key '{given}' is not a valid name; use lower_snake_case (e.g. '{_snake(given)}')"
    if kind == "string_pattern_mismatch" and isinstance(given, str):
        pattern = str(error.get("ctx", {}).get("pattern", ""))
        if pattern.startswith("^[a-z][a-z0-9_]*\\."):
            return loc, f"'{given}' is not of the form 'name.field' (lower_snake_case); fix the value"
        if pattern == "^[A-Z]{1,5}$":
            return loc, f"'{given}' is not 1 to 5 upper-case letters; use e.g. '{_prefix(given)}'"
        return loc, f"'{given}' is not a valid name here; use lower_snake_case (e.g. '{_snake(given)}')"
    if kind in _EXPECTED:
        found = [_EXPECTED[e["type"]] for e in errors if _walk(e["loc"], root)[0] == loc and e["type"] in _EXPECTED]
        wanted = [word for index, word in enumerate(found) if word and word not in found[:index]]
        if "a number" in wanted and "a whole number" in wanted:
            wanted.remove("a whole number")
        if len(wanted) > 1 and "true or false" in wanted:
            wanted[wanted.index("true or false")] = "true/false"
        if wanted:
            listed = wanted[0] if len(wanted) == 1 else f"{', '.join(wanted[:-1])} or {wanted[-1]}"
            return loc, f"expected {listed}, got {_shown(given)}; fix the value"
    message = error["msg"]
    return loc, f"{message[:1].lower()}{message[1:]} (got {_shown(given)}); fix the value"


def _cut_text(key: str, data: Any, loc: Path_) -> str | None:
    """The fix for text that a comma cut in a flow mapping, or None when `key` does not look like such a piece.

    `{description: Held, counting today.}` gives the keys `description` ("Held") and `counting today.` (no
    value): the pieces with no value after a text value are read back into one quoted value."""
    mapping = data
    for part in loc[:-1]:
        if isinstance(mapping, dict):
            mapping = mapping.get(part)
        else:
            inside = isinstance(mapping, list) and isinstance(part, int) and 0 <= part < len(mapping)
            mapping = mapping[part] if inside else None
    if not isinstance(mapping, dict) or key not in mapping:
        return None
    keys = list(mapping)
    start = keys.index(key)
    while start > 0 and mapping[keys[start]] is None:
        start -= 1
    end = start + 1
    while end < len(keys) and mapping[keys[end]] is None:
        end += 1
    pieces = keys[start + 1 : end]
    if key not in pieces or not any(_PROSE.search(piece) for piece in pieces):
        return None
    if not isinstance(mapping[keys[start]], str):
        return "quote the whole text"
    whole = json.dumps(", ".join([mapping[keys[start]], *pieces]), ensure_ascii=False)
    return f"quote the whole {keys[start]}: {keys[start]}: {whole}"


def _snake(word: str) -> str:
    out = "".join(char.lower() if char.isalnum() else "_" for char in word).strip("_")
    return out if out[:1].isalpha() else f"x_{out}"


def _prefix(word: str) -> str:
    letters = "".join(char for char in word.upper() if "A" <= char <= "Z")[:5]
    return letters or "KEY"


def load_blueprint_text(text: str, file: str) -> Blueprint:
    """Parse, validate and check a blueprint given as YAML text."""
    data, locations = _parsed(text, file)
    if "compose" in data:
        return _load_composition(data, locations, file)
    return _checked(data, locations, file)


def _parsed(text: str, file: str) -> tuple[dict[str, Any], Locations]:
    data, locations = parse_yaml(text, file)
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a single value ({_shown(data)})"
        raise BlueprintError(
            f"the top level is {kind}, but a blueprint is a mapping of keys (domain, entities, ...); {START_HINT}",
            file=file,
            line=locations.line(()),
        )
    return data, locations


def _checked(data: dict[str, Any], locations: Locations, file: str) -> Blueprint:
    blueprint = _validated(Blueprint, data, locations, file)
    check_blueprint(blueprint, locations)
    return blueprint


def _validated(model: type[Model], data: dict[str, Any], locations: Locations, file: str) -> Model:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        loc, message = _describe(_pick(errors, locations, model), errors, data, model)
        raise BlueprintError(message, file=file, line=locations.line(loc), path=format_path(loc)) from None


def _member_path(value: str, folder: Path) -> Path:
    """A member of a composition: a file relative to the composition's folder, or a shipped blueprint's name."""
    path = folder / value
    if Path(value).suffix in (".yaml", ".yml") or "/" in value or path.exists():
        return path
    for candidate in (folder / f"{value}.yaml", SHIPPED / f"{value}.yaml"):
        if candidate.is_file():
            return candidate
    return folder / f"{value}.yaml"


def _load_composition(data: dict[str, Any], locations: Locations, file: str) -> Blueprint:
    """A `compose:` blueprint: its members loaded (each error names the member's own file), then fused."""
    # Imported here: fusing needs the task models, which a single domain's blueprint loads without.
    from envforge.ir.compose import MAX_DOMAINS, Composition, CompositionError, fuse

    composition = _validated(Composition, data, locations, file)
    folder = Path(file).parent
    members = []
    for index, member in enumerate(composition.compose.domains):
        path = _member_path(member.blueprint, folder)
        where = ("compose", "domains", index, "blueprint")
        problem = (
            f"no blueprint '{member.blueprint}' (looked for {path}); give a file relative to this one, "
            "or a shipped name such as clinic"
            if not path.is_file()
            else f"'{member.blueprint}' is this composition itself; list the domains' own blueprints"
            if path.resolve() == Path(file).resolve()
            else None
        )
        if problem:
            raise BlueprintError(problem, file=file, line=locations.line(where), path=format_path(where))
        data, member_locations = _parsed(_read_text(path), str(path))
        if "compose" in data:
            # Refused before its own members load, so compositions that list each other end here too.
            raise BlueprintError(
                f"'{member.blueprint}' is itself fused; list its domains here instead (at most {MAX_DOMAINS})",
                file=file,
                line=locations.line(where),
                path=format_path(where),
            )
        members.append(_checked(data, member_locations, str(path)))
    try:
        blueprint = fuse(composition, members)
    except CompositionError as exc:
        raise BlueprintError(str(exc), file=file, line=locations.line(exc.path), path=format_path(exc.path)) from None
    try:
        check_blueprint(blueprint)
    except BlueprintError as exc:
        raise _in_composition(exc, blueprint, composition, locations, file) from None
    return blueprint


_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def _in_composition(
    exc: BlueprintError, blueprint: Blueprint, composition: Composition, locations: Locations, file: str
) -> BlueprintError:
    """A check's error on the fused blueprint, located in the composition: a bridge's or a bridge policy's at its
    line there (they come last in the fused lists), any other at the composition as a whole."""
    path: Path_ = tuple(int(index) if index else str(key) for index, key in _PATH_PART.findall(exc.path))
    for key, declared in (("actions", composition.compose.bridges), ("policies", composition.compose.policies)):
        first = len(getattr(blueprint, key)) - len(declared)
        if len(path) > 1 and path[0] == key and isinstance(path[1], int) and path[1] >= first:
            where = ("compose", "bridges" if key == "actions" else "policies", path[1] - first, *path[2:])
            return BlueprintError(exc.detail, file=file, line=locations.line(where), path=format_path(where))
    return BlueprintError(exc.detail, file=file, path=exc.path)


def load_blueprint(path: Path) -> Blueprint:
    """Load a blueprint file; every problem becomes a BlueprintError naming file, line and field."""
    return load_blueprint_text(_read_text(path), str(path))


def load_run_blueprint(path: Path, rows: int, max_rows: int) -> Blueprint:
    """Load a blueprint file to seed `rows` rows of, refused like a bad blueprint when that would seed more than
    `max_rows` rows: a run checks its blueprint whole before it loads the stages or makes a folder."""
    blueprint = load_blueprint(path)
    check_row_budget(blueprint, rows, max_rows, str(path))
    return blueprint


def _read_text(path: Path) -> str:
    """A blueprint file's text; a BlueprintError naming the file when it cannot be read as UTF-8."""
    try:
        with path.open("rb") as handle:
            # Read one byte past the limit, never the whole of an arbitrarily large file.
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise BlueprintError(
            "no such file; pass a path to a blueprint YAML or a shipped name such as 'retail'", file=str(path)
        ) from None
    except IsADirectoryError:
        raise BlueprintError("this is a folder, not a file; pass the blueprint's .yaml file", file=str(path)) from None
    except PermissionError:
        raise BlueprintError("permission denied; make the file readable", file=str(path)) from None
    except OSError as exc:
        raise BlueprintError(f"cannot read the file: {exc.strerror}", file=str(path)) from None
    if len(data) > MAX_BYTES:
        check_size(path.stat().st_size if path.is_file() else len(data), str(path))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BlueprintError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x}); save the blueprint as UTF-8", file=str(path), line=line
        ) from None
    return text
