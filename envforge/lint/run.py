"""Lint one blueprint: load it (every static check the loader runs), then the coverage dry run."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from envforge.ir.loading import load_blueprint, load_run_blueprint

if TYPE_CHECKING:
    from envforge.lint.report import LintReport
    from envforge.pipeline.dag import GenerateConfig


def lint_blueprint(path: Path, config: GenerateConfig | None, *, shown: str | None = None) -> LintReport:
    """`config` sets the dry run's counts; None skips the dry run. `shown`: the name the user gave the file."""
    started = time.perf_counter()
    blueprint = load_blueprint(path) if config is None else load_run_blueprint(path, config.rows, config.max_rows)
    # The dry run's stages load once the blueprint is known good: a bad one is refused in a fraction of a second.
    from envforge.lint.coverage import run_coverage
    from envforge.lint.report import LintReport, count_sections

    coverage = run_coverage(blueprint, config) if config is not None else None
    return LintReport(
        blueprint=shown or str(path),
        env_id=blueprint.env_id,
        counts=count_sections(blueprint),
        coverage=coverage,
        seconds=time.perf_counter() - started,
    )
