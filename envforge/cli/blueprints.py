"""The BLUEPRINT of `generate` and `batch`: a YAML file, or the name of a shipped blueprint."""

from __future__ import annotations

from pathlib import Path

from envforge.errors import UserInputError, did_you_mean

SHIPPED = Path(__file__).resolve().parents[2] / "blueprints"


def resolve_blueprint(value: str) -> Path:
    """A path to a YAML file, or the name of a shipped blueprint (`retail` -> blueprints/retail.yaml, and the
    fused ones: `clinic_banking` -> blueprints/fused/clinic_banking.yaml)."""
    path = Path(value)
    if path.suffix in (".yaml", ".yml") or path.exists() or "/" in value:
        return path
    folders = (Path("blueprints"), SHIPPED, SHIPPED / "fused")
    for folder in folders:
        if (folder / f"{value}.yaml").is_file():
            return folder / f"{value}.yaml"
    names = sorted({p.stem for folder in folders for p in folder.glob("*.yaml")})
    hint = did_you_mean(value, names) or (f"; shipped: {', '.join(names)}" if names else "")
    raise UserInputError(f"{value}: no such blueprint file or shipped blueprint{hint}")
