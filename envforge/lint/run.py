"""Lint one blueprint: load it (every static check the loader runs), then the coverage dry run."""

from __future__ import annotations

import time
from pathlib import Path

from envforge.ir.loading import load_blueprint
from envforge.lint.coverage import run_coverage
from envforge.lint.report import LintReport, count_sections
from envforge.pipeline.dag import GenerateConfig


def lint_blueprint(path: Path, config: GenerateConfig | None, *, shown: str | None = None) -> LintReport:
    """`config` sets the dry run's counts; None skips the dry run. `shown`: the name the user gave the file."""
    started = time.perf_counter()
    blueprint = load_blueprint(path)
    coverage = run_coverage(blueprint, config) if config is not None else None
    return LintReport(
        blueprint=shown or str(path),
        env_id=blueprint.env_id,
        counts=count_sections(blueprint),
        coverage=coverage,
        seconds=time.perf_counter() - started,
    )
