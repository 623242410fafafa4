"""What `envforge new` writes: the shipped starting blueprint, rendered for a domain name."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from envforge.errors import UserInputError

TEMPLATE = Path(__file__).resolve().parent / "templates" / "blueprint.yaml"


def check_domain(domain: str) -> None:
    """Refuse a name the blueprint schema would refuse as `domain`, before anything is written."""
    from pydantic import TypeAdapter, ValidationError

    from envforge.ir.syntax import Identifier

    try:
        TypeAdapter(Identifier).validate_python(domain)
    except ValidationError:
        words = re.sub(r"[^a-z0-9]+", "_", domain.lower()).strip("_") or "domain"
        suggestion = (words if words[0].isalpha() else f"my_{words}")[:63]
        raise UserInputError(
            f"'{domain}' is not a valid domain name: use lower_snake_case, a letter first, at most 63 characters "
            f"(e.g. '{suggestion}')"
        ) from None


def render_blueprint(domain: str, path: Path) -> str:
    """The starting blueprint for `domain`; its header names `path` in the commands to run next."""
    title = domain.replace("_", " ").capitalize()
    return Template(TEMPLATE.read_text(encoding="utf-8")).substitute(domain=domain, title=title, path=path.as_posix())


def write_blueprint(domain: str, path: Path, *, force: bool) -> None:
    check_domain(domain)
    if path.is_dir():
        raise UserInputError(f"{path} is a folder; pass a file path such as {path / f'{domain}.yaml'}")
    if path.exists() and not force:
        raise UserInputError(f"{path} already exists; pass --force to overwrite it, or -o to write elsewhere")
    from envforge.files import write_file_atomic

    write_file_atomic(path, render_blueprint(domain, path).encode())
