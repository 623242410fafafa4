"""A package made from a description keeps its LLM synthesis section through every command that changes it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from envforge.rollouts.solvability import summarize_rollouts, write_rollout_report
from envforge.runtime.opened_package import open_package
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity
from envforge.validators.ui_replay import record_replay

SECTION = "## LLM synthesis: smollm2"


def test_validate_verify_ui_and_reverify_keep_the_synthesis_section_of_report_md(
    tmp_path: Path, replayed: tuple[Path, dict[str, Any]]
) -> None:
    package = tmp_path / "package"
    shutil.copytree(replayed[0], package)
    synthesis = (package / "synthesis.json").read_bytes()
    assert SECTION in (package / "report.md").read_text(encoding="utf-8")
    # `validate` and `reverify --report` write the rollout section; `verify-ui` the UI replay section.
    write_rollout_report(package, summarize_rollouts([], k=1))
    record_replay(open_package(package), [], [], "Chromium (none replayed)", None)
    report = (package / "report.md").read_text(encoding="utf-8")
    assert report.count(SECTION) == 1
    assert report.index("## UI replay in Chromium") < report.index("## Rollouts:") < report.index(SECTION)
    assert report.rstrip().splitlines()[-1].startswith("- Tokens: ")
    assert (package / "synthesis.json").read_bytes() == synthesis
    assert check_package_integrity(open_for_check(package)) == []
