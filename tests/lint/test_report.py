"""The lint report: which stages the dry run runs, and what counts as a warning."""

from __future__ import annotations

from envforge.ir.verification import TaskMix
from envforge.lint.coverage import LAST_STAGE, Coverage, stages_up_to
from envforge.lint.report import LintReport
from envforge.pipeline.dag import GenerateConfig
from envforge.stages.registry import STAGES


def _report(coverage: Coverage | None) -> LintReport:
    return LintReport(
        blueprint="shop.yaml", env_id="envforge/shop-v0", counts={"actions": 2}, coverage=coverage, seconds=1
    )


def _coverage(**changes: object) -> Coverage:
    mix = TaskMix(
        by_action={"cancel_order": 3, "refund_order": 0},
        by_tool={},
        unreached={"refund_order": "precondition_failed: Only paid orders can be refunded."},
        intents={},
        request_shapes=3,
        policy_tasks={"refuse": 1},
        asking_tasks=0,
    )
    fields: dict[str, object] = {
        "config": GenerateConfig(rows=300, tasks=4),
        "tasks_accepted": 3,
        "excluded_tools": {"refund_order": "crashed on a generated call"},
        "dropped": {"provenance": 1},
        "mix": mix,
        "shortfall": "3 of 4 requested tasks accepted; 4 candidates, dropped: provenance x1",
        "seconds": 2.5,
        **changes,
    }
    return Coverage.model_validate(fields)


def test_the_dry_run_runs_the_stages_the_verifier_gate_needs_and_none_after_it() -> None:
    names = [stage.name for stage in stages_up_to(STAGES, LAST_STAGE)]
    assert names == ["ontology", "toolgraph", "state", "tooltests", "tasks", "verifiers"]


def test_excluded_tools_unreached_actions_and_a_shortfall_are_warnings_each_on_one_line() -> None:
    report = _report(_coverage())
    assert report.warnings == [
        "refund_order: the tool tests exclude it: crashed on a generated call",
        "refund_order: no task makes it: precondition_failed: Only paid orders can be refunded.",
        "3 of 4 requested tasks accepted; 4 candidates, dropped: provenance x1",
    ]
    lines = report.lines()
    assert lines[:3] == [
        "shop.yaml: envforge/shop-v0: static checks passed (actions 2)",
        "dry run (300 rows, seed 0, 2.5 s): 3 of 4 tasks accepted; hinging on a policy: refuse 1; "
        "dropped by the gate: provenance 1",
        "  cancel_order: 3 tasks",
    ]
    assert lines[-1] == "3 warnings in 1.0 s"


def test_a_clean_dry_run_and_a_static_only_lint_have_no_warnings() -> None:
    clean = _coverage(excluded_tools={}, shortfall="", mix=_coverage().mix.model_copy(update={"unreached": {}}))
    assert _report(clean).warnings == []
    assert _report(None).warnings == []
    assert _report(None).lines() == [
        "shop.yaml: envforge/shop-v0: static checks passed (actions 2)",
        "0 warnings in 1.0 s",
    ]
