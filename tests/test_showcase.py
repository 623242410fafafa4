"""The committed showcase package regenerates byte for byte."""

from __future__ import annotations

from pathlib import Path

import yaml

from envforge.files import read_files
from envforge.pipeline.dag import GenerateConfig
from envforge.stages.generate import run_pipeline
from tests.conftest import REPO

SHOWCASE = REPO / "generated" / "showcase" / "retail"


def test_the_showcase_regenerates_byte_identically(tmp_path: Path) -> None:
    manifest = yaml.safe_load((SHOWCASE / "envforge.yaml").read_text(encoding="utf-8"))
    config = GenerateConfig(seed=manifest["seed"], rows=manifest["rows"], tasks=manifest["tasks_requested"])
    run = run_pipeline(REPO / "blueprints" / "retail.yaml", tmp_path, config)
    regenerated, committed = read_files(run.package), read_files(SHOWCASE)
    assert sorted(regenerated) == sorted(committed)
    changed = [name for name in committed if committed[name] != regenerated[name]]
    assert changed == [], (
        f"{changed} differ; if the change is intended, run "
        f"`envforge generate retail -o generated/showcase --rows {config.rows} --tasks {config.tasks}` and commit the result"
    )
