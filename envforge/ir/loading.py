"""Load a blueprint from YAML into the IR, turning every problem into one located line."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from envforge.errors import BlueprintError, did_you_mean
from envforge.ir.blueprint import Blueprint
from envforge.ir.checks import check_blueprint
from envforge.ir.locations import Locations, Path_, format_path


def _construct(node: yaml.Node, path: Path_, lines: dict[Path_, int], constructor: yaml.SafeLoader) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = constructor.construct_object(key_node)
            if key in result:
                raise BlueprintError(
                    f"duplicate key '{key}'; remove one of them",
                    line=key_node.start_mark.line + 1,
                    path=format_path(path),
                )
            result[key] = _construct(value_node, (*path, key), lines, constructor)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, (*path, index), lines, constructor) for index, item in enumerate(node.value)]
    return constructor.construct_object(node)


def parse_yaml(text: str, file: str) -> tuple[Any, Locations]:
    """Parse YAML, keeping the line of every key and item."""
    lines: dict[Path_, int] = {}
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise BlueprintError(f"broken YAML: {problem}; fix the syntax", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise BlueprintError(f"broken YAML: {exc}; fix the syntax", file=file) from None
    if node is None:
        raise BlueprintError("the file is empty; start from blueprints/retail.yaml", file=file, line=1)
    constructor = yaml.SafeLoader("")
    try:
        data = _construct(node, (), lines, constructor)
    except BlueprintError as exc:
        raise BlueprintError(exc.detail, file=file, line=exc.line, path=exc.path) from None
    return data, Locations(file, lines)


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The pydantic model whose fields are valid keys at `loc` inside a Blueprint."""
    annotation: Any = Blueprint
    for part in loc:
        model = _as_model(annotation)
        if isinstance(part, int):
            args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            annotation = args[0] if args else None
        elif model is not None and part in model.model_fields:
            annotation = model.model_fields[part].annotation
        else:
            return None
    return _as_model(annotation)


def _as_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        models = [arg for arg in typing.get_args(annotation) if _as_model(arg) is not None]
        return _as_model(models[0]) if len(models) == 1 else None
    return None


def _describe(error: ErrorDetails) -> tuple[tuple[int | str, ...], str]:
    loc = tuple(part for part in error["loc"] if not (isinstance(part, str) and part[:1].isupper()))
    kind = error["type"]
    given = error.get("input")
    if kind == "extra_forbidden":
        key = str(loc[-1])
        model = _model_at(loc[:-1])
        allowed = list(model.model_fields) if model else []
        hint = did_you_mean(key, allowed) or (f"; allowed keys: {', '.join(allowed)}" if allowed else "")
        return loc, f"unknown key '{key}'{hint}"
    if kind == "missing":
        return loc, f"required key '{loc[-1]}' is missing; add it"
    if kind == "literal_error":
        expected = str(error.get("ctx", {}).get("expected", ""))
        choices = [part.strip(" '") for part in expected.replace(" or ", ",").split(",") if part.strip(" '")]
        hint = did_you_mean(str(given), choices) if isinstance(given, str) else ""
        return loc, f"'{given}' is not one of {', '.join(choices)}{hint}"
    if kind == "string_pattern_mismatch" and isinstance(given, str):
        return loc, f"'{given}' is not a valid name here; use lower_snake_case (e.g. '{_snake(given)}')"
    message = error["msg"]
    return loc, f"{message[:1].lower()}{message[1:]} (got {given!r}); fix the value"


def _snake(word: str) -> str:
    out = "".join(char.lower() if char.isalnum() else "_" for char in word).strip("_")
    return out if out[:1].isalpha() else f"x_{out}"


def load_blueprint_text(text: str, file: str) -> Blueprint:
    """Parse, validate and check a blueprint given as YAML text."""
    data, locations = parse_yaml(text, file)
    if not isinstance(data, dict):
        raise BlueprintError("a blueprint is a mapping of keys (domain, entities, ...)", file=file, line=1)
    try:
        blueprint = Blueprint.model_validate(data)
    except ValidationError as exc:
        loc, message = _describe(exc.errors()[0])
        raise BlueprintError(message, file=file, line=locations.line(loc), path=format_path(loc)) from None
    check_blueprint(blueprint, locations)
    return blueprint


def load_blueprint(path: Path) -> Blueprint:
    """Load a blueprint file; every problem becomes a BlueprintError naming file, line and field."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BlueprintError(
            "no such file; pass a path to a blueprint YAML or a shipped name such as 'retail'", file=str(path)
        ) from None
    except (IsADirectoryError, PermissionError) as exc:
        raise BlueprintError(f"cannot read the blueprint: {exc.strerror}", file=str(path)) from None
    except UnicodeDecodeError:
        raise BlueprintError("not UTF-8 text; save the blueprint as UTF-8", file=str(path)) from None
    return load_blueprint_text(text, str(path))
