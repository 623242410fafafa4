"""The BLUEPRINT of `generate` and `batch`: a YAML file, or the name of a shipped blueprint; for `batch` also a
folder of blueprints or a list file naming them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envforge.errors import EnvforgeError, UserInputError, did_you_mean
from envforge.ir.shipped import SHIPPED

BLUEPRINT_SUFFIXES = (".yaml", ".yml")
LIST_SUFFIX = ".txt"
LIST_HINT = "a list file names one blueprint file, folder or shipped name per line"


@dataclass(frozen=True)
class SuiteEntry:
    """One blueprint of a batch, and where the user named it (for the errors that point back there)."""

    path: Path
    origin: str
    """The argument, the folder member, or `NAME (LIST:LINE)`."""


def resolve_blueprint(value: str) -> Path:
    """A path to a YAML file, or the name of a shipped blueprint (`retail` -> blueprints/retail.yaml, and the
    fused ones: `clinic_banking` -> blueprints/fused/clinic_banking.yaml)."""
    path = Path(value)
    if path.suffix in BLUEPRINT_SUFFIXES or path.exists() or "/" in value:
        return path
    return _shipped(value, "no such blueprint file or shipped blueprint")


def _shipped(name: str, missing: str, where: str = "") -> Path:
    folders = (Path("blueprints"), SHIPPED, SHIPPED / "fused")
    for folder in folders:
        if (folder / f"{name}.yaml").is_file():
            return folder / f"{name}.yaml"
    names = sorted({p.stem for folder in folders for p in folder.glob("*.yaml")})
    hint = did_you_mean(name, names) or (f"; shipped: {', '.join(names)}" if names else "")
    raise UserInputError(f"{where}{name}: {missing}{hint}")


def resolve_suite(values: Sequence[str]) -> list[SuiteEntry]:
    """The blueprints `batch` arguments name, in order: files, shipped names, the `*.yaml`/`*.yml` of folders
    (sorted, not recursive) and the entries of list files (`@suite.txt` or `suite.txt`)."""
    entries: list[SuiteEntry] = []
    for value in values:
        if value.startswith("@") or value.endswith(LIST_SUFFIX):
            entries.extend(_read_list(value))
        else:
            entries.extend(_resolve_entry(value, Path(), value, ""))
    return entries


def _resolve_entry(text: str, base: Path, origin: str, where: str) -> list[SuiteEntry]:
    """A blueprint file, a folder of them, or a shipped name; relative paths start at `base`."""
    path = Path(os.path.normpath(base / text))
    if not (Path(text).suffix in BLUEPRINT_SUFFIXES or "/" in text or path.exists()):
        return [SuiteEntry(_shipped(text, "no such blueprint file, folder or shipped blueprint", where), origin)]
    if path.is_dir():
        members = sorted(
            member
            for member in path.iterdir()
            if member.suffix in BLUEPRINT_SUFFIXES and member.is_file() and not member.name.startswith(".")
        )
        if not members:
            raise UserInputError(
                f"{where}{text}: no blueprint (*.yaml, *.yml) in this folder; name a folder that holds blueprints"
            )
        return [SuiteEntry(member, str(member)) for member in members]
    if not path.exists():
        looked = f" (looked for {path})" if base != Path() else ""
        fix = "relative paths start at the list file's folder" if where else "check the path"
        raise UserInputError(f"{where}{text}: no such file or folder{looked}; {fix}")
    return [SuiteEntry(path, origin)]


def _read_list(value: str) -> list[SuiteEntry]:
    listing = Path(value.removeprefix("@"))
    try:
        text = listing.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserInputError(f"{value}: no such list file; check the path ({LIST_HINT})") from None
    except IsADirectoryError:
        raise UserInputError(f"{value}: is a folder, not a list file; drop the @ to take its blueprints") from None
    except UnicodeDecodeError:
        raise UserInputError(f"{value}: not UTF-8 text; {LIST_HINT}") from None
    entries: list[SuiteEntry] = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        where = f"{listing}:{number}: "
        if entry.startswith("@") or entry.endswith(LIST_SUFFIX):
            raise UserInputError(f"{where}{entry}: a list file cannot name another; name its blueprints here")
        entries.extend(_resolve_entry(entry, listing.parent, f"{entry} ({listing}:{number})", where))
    if not entries:
        raise UserInputError(f"{value}: lists no blueprint; {LIST_HINT} (# starts a comment)")
    return entries


def check_distinct(entries: Sequence[SuiteEntry], out: Path) -> None:
    """A user error when two entries would write the same package folder (`out/<domain>`): the same file twice,
    or two blueprints of one domain. A blueprint that does not load is left to fail in its own row."""
    from envforge.ir.loading import load_blueprint

    files: dict[str, SuiteEntry] = {}
    domains: dict[str, SuiteEntry] = {}
    for entry in entries:
        same_file = files.setdefault(os.path.abspath(entry.path), entry)
        if same_file is not entry:
            raise UserInputError(f"{same_file.origin} and {entry.origin} are the same blueprint; name it once")
        try:
            domain = load_blueprint(entry.path).domain
        except EnvforgeError:
            continue
        same_domain = domains.setdefault(domain, entry)
        if same_domain is not entry:
            raise UserInputError(
                f"{same_domain.origin} and {entry.origin} would both write {out / domain} (domain '{domain}'); "
                "drop one, or give one another domain"
            )
