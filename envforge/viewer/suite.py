"""A suite's pages: a row per blueprint of `envforge batch` (tasks, acceptance, gate figures, time), summary
charts, and each package's own pages in a folder named for it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envforge.ir.verification import ValidationReport
from envforge.suite.report import SUITE_JSON
from envforge.viewer.charts import bar_chart
from envforge.viewer.package import package_site
from envforge.viewer.pages import Site, render


@dataclass(frozen=True)
class SuiteRow:
    """One blueprint of the batch, with its package's report when it made one."""

    blueprint: str
    env_id: str
    ok: bool
    package: str
    seconds: float
    error: str
    report: ValidationReport | None

    @property
    def name(self) -> str:
        return Path(self.blueprint).stem


def suite_site(folder: Path) -> Site:
    suite: dict[str, Any] = json.loads((folder / SUITE_JSON).read_text(encoding="utf-8"))
    rows = []
    site: Site = {}
    for entry in suite["blueprints"]:
        report = None
        if entry["ok"]:
            package = folder / entry["package"]
            report = ValidationReport.model_validate_json((package / "report.json").read_bytes())
            for name, data in package_site(package, parent="../index.html").items():
                site[f"{entry['package']}/{name}"] = data
        rows.append(
            SuiteRow(
                entry["blueprint"],
                entry["env_id"],
                entry["ok"],
                entry["package"],
                entry["timing"]["seconds"],
                entry["error"],
                report,
            )
        )
    made = [row for row in rows if row.report is not None]
    charts = [
        bar_chart("tasks accepted", {row.name: row.report.tasks_accepted for row in made if row.report}),
        bar_chart("seconds to generate", {row.name: row.seconds for row in rows}, unit=" s"),
        bar_chart(
            "mutants passing the verifier (lower is better)",
            {row.name: row.report.gate.mutant_false_positive_rate * 100 for row in made if row.report},
            unit="%",
            colour="fail",
        ),
    ]
    site["index.html"] = render(
        "suite.html.jinja", suite=suite, rows=rows, charts=charts, folder=folder.name, parent=""
    )
    return site
