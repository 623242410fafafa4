"""The validation report (`report.json`), and `report.md` rendered from every section of it and of `synthesis.json`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from statistics import median

from envforge.ir.synthesis import SynthesisReport
from envforge.ir.tasks import TaskSpec
from envforge.ir.tooltests import ToolTestReport
from envforge.ir.uitasks import UIDrop, UITask
from envforge.ir.verification import (
    ExcludedTool,
    GateResult,
    GateSummary,
    MutantClassRate,
    MutantResult,
    RolloutSummary,
    TaskMix,
    UIAppSummary,
    UIReplaySummary,
    ValidationReport,
    VariationRate,
    weighing_share,
)


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _tally(
    results: list[GateResult],
    shipped: set[str],
    group: Callable[[MutantResult], str | None],
    hit: Callable[[float], bool],
) -> dict[str, tuple[int, int]]:
    """Group -> (runs, runs whose reward is a hit) over the shipped tasks' gate runs; a run of no group is left
    out."""
    runs: Counter[str] = Counter()
    rewarded: Counter[str] = Counter()
    for result in results:
        if result.task_id in shipped:
            for run in result.mutants:
                name = group(run)
                if name is not None:
                    runs[name] += 1
                    rewarded[name] += hit(run.reward)
    return {name: (runs[name], rewarded[name]) for name in sorted(runs)}


def _by_class(results: list[GateResult], shipped: set[str]) -> dict[str, MutantClassRate]:
    """Per class of cheat: how the shipped verifiers fared against the gate's non-equivalent mutants."""
    tally = _tally(results, shipped, lambda run: None if run.equivalent else run.kind, lambda reward: reward != 0)
    return {
        kind: MutantClassRate(mutants=met, false_positives=wrong, false_positive_rate=_rate(wrong, met))
        for kind, (met, wrong) in tally.items()
    }


def _by_variation(results: list[GateResult], shipped: set[str]) -> dict[str, VariationRate]:
    """Per legitimate variation: how many runs the shipped verifiers met and how many they rewarded in full."""
    tally = _tally(results, shipped, lambda run: run.variation, lambda reward: reward == 1)
    return {
        name: VariationRate(played=played, accepted=accepted, acceptance_rate=_rate(accepted, played))
        for name, (played, accepted) in tally.items()
    }


def build_report(
    env_id: str, requested: int, tools: ToolTestReport, results: list[GateResult], accepted: list[TaskSpec]
) -> ValidationReport:
    mutants = [mutant for result in results for mutant in result.mutants if mutant.variation is None]
    real = [mutant for mutant in mutants if not mutant.equivalent]
    false_positives = sum(mutant.reward != 0 for mutant in real)
    false_negatives = sum(result.golden_reward != 1 for result in results)
    dropped = Counter(result.reason.split(":", 1)[0] for result in results if not result.accepted)
    shortfall = ""
    if len(accepted) < requested:
        reasons = ", ".join(f"{code} x{count}" for code, count in sorted(dropped.items())) or "too few candidate tasks"
        shortfall = (
            f"{len(accepted)} of {requested} requested tasks accepted; {len(results)} candidates, dropped: {reasons}"
        )
    return ValidationReport(
        env_id=env_id,
        tools_admitted=len(tools.admitted()),
        tools_excluded=[
            ExcludedTool(tool=r.tool, reason=r.reason, failing_example=r.failing_example) for r in tools.excluded()
        ],
        tasks_requested=requested,
        tasks_generated=len(results),
        tasks_accepted=len(accepted),
        tasks_dropped=dict(sorted(dropped.items())),
        accepted_by_kind=dict(sorted(Counter(task.kind for task in accepted).items())),
        difficulty_bands=dict(sorted(Counter(task.difficulty.band for task in accepted).items())),
        chain_lengths={
            str(k): v for k, v in sorted(Counter(task.difficulty.chain_length for task in accepted).items())
        },
        gate=GateSummary(
            golden_runs=len(results),
            golden_false_negatives=false_negatives,
            golden_false_negative_rate=_rate(false_negatives, len(results)),
            mutants=len(mutants),
            equivalent_mutants=len(mutants) - len(real),
            mutant_false_positives=false_positives,
            mutant_false_positive_rate=_rate(false_positives, len(real)),
            by_class=_by_class(results, {task.id for task in accepted}),
            legitimate=_by_variation(results, {task.id for task in accepted}),
        ),
        shortfall=shortfall,
        tasks=results,
    )


def ui_summary(tasks: list[UITask], dropped: list[UIDrop]) -> dict[str, UIAppSummary]:
    summary: dict[str, UIAppSummary] = {}
    for app in sorted({task.app for task in tasks} | {drop.app for drop in dropped}):
        steps = sorted(len(task.steps) for task in tasks if task.app == app)
        reasons = Counter(drop.reason for drop in dropped if drop.app == app)
        summary[app] = UIAppSummary(
            posed=len(steps),
            dropped=dict(sorted(reasons.items())),
            median_steps=median(steps) if steps else 0,
        )
    return summary


def render_report(report: ValidationReport, synthesis: SynthesisReport | None) -> str:
    """`report.md`: the validation report's sections in order, then the LLM synthesis section if any."""
    text = _render_validation(report)
    return text if synthesis is None else text + _render_synthesis(synthesis)


def _render_validation(report: ValidationReport) -> str:
    gate = report.gate
    lines = [
        f"# Validation report: {report.env_id}",
        "",
        f"- Tools: {report.tools_admitted} admitted, {len(report.tools_excluded)} excluded",
        *[f"  - excluded `{tool.tool}`: {tool.reason}" for tool in report.tools_excluded],
        f"- Tasks: {report.tasks_accepted} accepted of {report.tasks_requested} requested ({report.tasks_generated} gated)",
        f"- Accepted by kind: {', '.join(f'{k} {v}' for k, v in report.accepted_by_kind.items())}",
        f"- Difficulty bands: {', '.join(f'{k} {v}' for k, v in report.difficulty_bands.items())}",
        f"- Oracle lengths: {', '.join(f'{k} calls: {v}' for k, v in report.chain_lengths.items())}",
        f"- Dropped: {', '.join(f'{k} {v}' for k, v in report.tasks_dropped.items()) or 'none'}",
        f"- Golden runs rejected (false negatives): {gate.golden_false_negatives} of {gate.golden_runs} "
        f"(rate {gate.golden_false_negative_rate:.3f})",
        f"- Mutants accepted (false positives): {gate.mutant_false_positives} of {gate.mutants - gate.equivalent_mutants} "
        f"non-equivalent mutants (rate {gate.mutant_false_positive_rate:.3f}; {gate.equivalent_mutants} equivalent mutants set aside)",
    ]
    if report.shortfall:
        lines.append(f"- Shortfall: {report.shortfall}")
    if gate.by_class:
        lines += [
            "",
            "## The shipped verifiers against each class of cheat",
            "",
            "| class | mutants | rewarded | false-positive rate |",
            "|---|---:|---:|---:|",
            *[
                f"| {kind} | {rate.mutants} | {rate.false_positives} | {rate.false_positive_rate:.3f} |"
                for kind, rate in gate.by_class.items()
            ],
        ]
    if gate.legitimate:
        lines += [
            "",
            "## The shipped verifiers against each legitimate variation",
            "",
            "| variation | runs | rewarded | acceptance rate |",
            "|---|---:|---:|---:|",
            *[
                f"| {name} | {rate.played} | {rate.accepted} | {rate.acceptance_rate:.3f} |"
                for name, rate in gate.legitimate.items()
            ],
        ]
    if report.mix is not None:
        lines += ["", *_render_mix(report.mix, report.tasks_accepted)]
    if report.ui:
        lines += ["", "## UI tasks (golden paths proved over HTTP)", ""]
        for app, ui in report.ui.items():
            dropped = ", ".join(f"{reason} {count}" for reason, count in ui.dropped.items()) or "none"
            lines.append(f"- {app}: {ui.posed} posed, median {ui.median_steps:g} steps; dropped: {dropped}")
    if report.ui_replay is not None:
        lines += ["", *_render_ui_replay(report.ui_replay)]
    if report.rollouts is not None:
        lines += ["", *_render_rollouts(report.rollouts)]
    return "\n".join(lines) + "\n"


def _render_mix(mix: TaskMix, accepted: int) -> list[str]:
    policy = sum(mix.policy_tasks.values())
    lines = [
        "## What the tasks ask",
        "",
        f"- Request shapes: {mix.request_shapes} distinct of {accepted} tasks; {len(mix.intents)} intents",
        f"- Hinging on a policy: {policy} ({_percent(policy, accepted)}): "
        + (", ".join(f"{kind} {count}" for kind, count in mix.policy_tasks.items()) or "none"),
        "- Conditions per policy task (how many of its policies' conditions the verdict turns on): "
        + (
            ", ".join(f"{conditions}: {count}" for conditions, count in mix.conditions_per_policy_task.items())
            or "none"
        )
        + (
            f" ({weighing_share(mix.conditions_per_policy_task):.0%} turn on two or more)"
            if mix.conditions_per_policy_task
            else ""
        ),
        f"- The agent must ask the user: {mix.asking_tasks} ({_percent(mix.asking_tasks, accepted)})",
        f"- The user's opening request: {mix.brief_words:g} words (median); their whole brief (who they are, the "
        f"request, the facts they give when asked, what they say when they react): {mix.scenario_words:g} words",
        f"- The user reacts later (a conditional turn): {mix.reacting_tasks} ({_percent(mix.reacting_tasks, accepted)})"
        + (
            ": " + ", ".join(f"{name.replace('_', ' ')} {count}" for name, count in mix.reactions.items())
            if mix.reactions
            else ""
        ),
        *[f"- warning: no task makes `{action}`: {reason}" for action, reason in mix.unreached.items()],
        *[f"- warning: no task hinges on policy `{policy}`: {why}" for policy, why in mix.unexercised.items()],
        *[f"- warning: no task calls `{tool}`: {why}" for tool, why in mix.idle_tools.items()],
        *(
            [
                f"- Invariants of the data (kept on every write; no request asks to break one): {', '.join(mix.invariants)}"
            ]
            if mix.invariants
            else []
        ),
        "",
        "| tool | tasks |",
        "|---|---:|",
        *[f"| {tool} | {count} |" for tool, count in mix.by_tool.items()],
        "",
        "| intent | tasks | share |",
        "|---|---:|---:|",
        *[f"| {intent} | {count} | {_percent(count, accepted)} |" for intent, count in mix.intents.items()],
    ]
    return lines


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def _render_ui_replay(replay: UIReplaySummary) -> list[str]:
    lines = [f"## UI replay in Chromium ({replay.chromium})", ""]
    for app, result in replay.apps.items():
        failed = ", ".join(f"{reason} {count}" for reason, count in result.failed.items()) or "none"
        lines.append(
            f"- {app}: {result.passed} of {result.replayed} pass after the golden run and fail on initial and no-op; "
            f"median replay {result.median_replay_s:.2f} s; dropped: {failed}; page problems {result.page_problems}; "
            f"success messages without a write {result.toasts_without_writes}"
        )
    lines += [f"- screenshot: {path}" for path in replay.screenshots]
    lines += [f"- problem: {problem}" for problem in replay.problems]
    return lines


def _render_rollouts(summary: RolloutSummary) -> list[str]:
    low, high = summary.keep_pass_rate
    lines = [
        f"## Rollouts: {summary.model}, k={summary.k}, user {summary.simulator}",
        "",
        f"- Episodes: {summary.episodes} ({summary.judged} judged, {summary.passed} passed)",
        f"- Mean pass@1 {summary.mean_pass_at_1:.3f}, pass@{summary.k} {summary.mean_pass_at_k:.3f}, "
        f"pass^{summary.k} {summary.mean_pass_hat_k:.3f}",
        f"- Failures by class: {', '.join(f'{k} {v}' for k, v in summary.failures_by_class.items()) or 'none'}",
        f"- Failures by reason: {', '.join(f'{k} {v}' for k, v in summary.failures_by_reason.items()) or 'none'}",
        f"- Pools (kept pass rate {low:g}..{high:g}): "
        + ", ".join(f"{name} {len(ids)}" for name, ids in summary.pools.items()),
        f"- Tokens: {summary.prompt_tokens} prompt, {summary.completion_tokens} completion; "
        f"{summary.cached_requests} of {summary.requests} requests from the cache",
        "",
        f"| task | episodes | passed | pass@1 | pass@{summary.k} | pass^{summary.k} | pool | failures |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for task in summary.tasks:
        failures = ", ".join(f"{k} {v}" for k, v in task.failures.items())
        lines.append(
            f"| {task.task_id} | {task.episodes} | {task.passed} | {task.pass_at_1:.2f} | {task.pass_at_k:.2f} "
            f"| {task.pass_hat_k:.2f} | {task.pool} | {failures} |"
        )
    return lines


def _render_synthesis(report: SynthesisReport) -> str:
    usage = report.usage
    lines = [
        "",
        f"## LLM synthesis: {report.model}",
        "",
        f"- Description: {report.description}",
        f"- Blueprint: {report.blueprint.questions} questions, {report.blueprint.repair_rounds} repair rounds",
        *[f"  - repaired {repair}" for repair in report.blueprint.repairs],
        f"- Tasks reviewed: {report.tasks_reviewed}; paraphrased {report.paraphrased}, "
        f"procedural wording kept {report.kept_procedural}",
        f"- Information barrier: {report.barrier_agreed} agreed, {report.barrier_dropped} dropped",
        f"- Tokens: {usage.prompt_tokens} prompt, {usage.completion_tokens} completion in {usage.requests} requests; "
        f"cost {usage.cost:.4f}",
    ]
    return "\n".join(lines) + "\n"
