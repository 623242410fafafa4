"""The description, model and sizes the recorded SmolLM2 responses were made with (shared with record.py)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded"
"""Real SmolLM2-135M responses for the run below, re-recorded by `python -m tests.synthesis.record URL`."""
DESCRIPTION = "a veterinary clinic where pet owners book appointments for their pets, and the clinic bills visits"
MODEL = "smollm2"
DOMAIN = "vet_clinic"
"""The domain SmolLM2 named it (the package folder's name)."""
ROWS = 80
TASKS = 4


def generate_args(out: Path, cache: Path, *, base_url: str | None = None, description: str = DESCRIPTION) -> list[str]:
    """`envforge generate --from-description ...` arguments; without `base_url`, replay only (--offline)."""
    args = ["generate", "--from-description", description, "--model", MODEL, "--cache", str(cache)]
    args += ["--rows", str(ROWS), "--tasks", str(TASKS), "-o", str(out), "--json"]
    return [*args, "--base-url", base_url] if base_url else [*args, "--offline"]
