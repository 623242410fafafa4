"""Outcomes of the verifier gate and the package's validation report."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from envforge.ir.base import IRModel

LEGITIMATE = "legitimate"
"""The kind of the gate's runs that do the task right in another way than the golden run
(`envforge.stages.verifiers.legitimate`): the verifier must give each reward 1."""


class MutantResult(IRModel):
    """One run the gate played beside the golden one (a cheating mutant or a legitimate variation) and the reward
    the verifier gave it."""

    name: str
    kind: str = ""
    """The class of cheat it plays (`envforge.stages.verifiers.gate`), or `legitimate`."""
    equivalent: bool
    """Rewarding it is right: a mutant that ends in the golden state with the golden answer, or a legitimate
    variation (which must be rewarded)."""
    reward: float

    @property
    def variation(self) -> str | None:
        """The legitimate variation it plays (`legitimate:<variation>:<detail>`); None for a mutant."""
        return self.name.split(":")[1] if self.kind == LEGITIMATE else None


class GateResult(IRModel):
    """The gate's verdict on one task."""

    task_id: str
    accepted: bool
    reason: str = ""
    """`code: explanation` of the first failed check, empty when accepted."""
    golden_reward: float
    mutants: list[MutantResult]
    discrimination: float
    """Share of non-equivalent mutants the verifier rejected (1.0 is perfect)."""


class MutantClassRate(IRModel):
    """The verifiers against one class of cheat."""

    mutants: int
    false_positives: int
    false_positive_rate: float


class VariationRate(IRModel):
    """The verifiers against one legitimate variation: every run must be rewarded."""

    played: int
    accepted: int
    acceptance_rate: float


class GateSummary(IRModel):
    """Suite-level error rates of the verifiers."""

    golden_runs: int
    golden_false_negatives: int
    golden_false_negative_rate: float
    mutants: int
    equivalent_mutants: int
    mutant_false_positives: int
    mutant_false_positive_rate: float
    by_class: dict[str, MutantClassRate] = Field(default_factory=dict)
    """Mutant class -> how many of its mutants every verifier met and how many it wrongly rewarded."""
    legitimate: dict[str, VariationRate] = Field(default_factory=dict)
    """Legitimate variation -> how many of its runs every verifier met and how many it rewarded."""


class ExcludedTool(IRModel):
    tool: str
    reason: str
    failing_example: dict[str, Any] | None = None


Pool = Literal["train", "hard", "easy", "below_band", "unjudged"]


class TaskRollouts(IRModel):
    """How one model fared on one task over k episodes."""

    task_id: str
    episodes: int
    """Judged episodes; infrastructure failures are not among them."""
    passed: int
    pass_at_1: float
    pass_at_k: float
    """Chance that at least one of k episodes passes (unbiased estimate from `episodes` samples)."""
    pass_hat_k: float
    """Chance that all k episodes pass (pass^k, a consistency measure)."""
    infrastructure: int = 0
    """Episodes lost to the endpoint after every retry; excluded from the rates."""
    failures: dict[str, int] = Field(default_factory=dict)
    """`class:reason` -> episodes, e.g. `model:wrong_answer`, `format:unparseable_calls`."""
    pool: Pool
    """train: pass rate inside the kept band; hard: no episode passed though the oracle does; easy: above the
    band; below_band: under the band but solved at least once; unjudged: only infrastructure failures."""

    def cells(self) -> tuple[str, ...]:
        """task, passed, pass@k, pass^k, pool, failures."""
        failures = ", ".join(f"{name} {count}" for name, count in self.failures.items())
        return (
            self.task_id,
            f"{self.passed}/{self.episodes}",
            f"{self.pass_at_k:.2f}",
            f"{self.pass_hat_k:.2f}",
            self.pool,
            failures,
        )


class RolloutSummary(IRModel):
    """Solvability by a real model: `envforge validate` writes it into report.json."""

    model: str
    simulator: str
    k: int
    keep_pass_rate: tuple[float, float]
    episodes: int
    judged: int
    passed: int
    mean_pass_at_1: float
    mean_pass_at_k: float
    mean_pass_hat_k: float
    failures_by_class: dict[str, int]
    """model / format / infrastructure -> episodes."""
    failures_by_reason: dict[str, int]
    pools: dict[str, list[str]]
    """Pool name -> task ids."""
    prompt_tokens: int
    completion_tokens: int
    cached_requests: int
    requests: int
    tasks: list[TaskRollouts]


class UIAppSummary(IRModel):
    """The tasks posed in one app when the package was generated (their paths proved over HTTP)."""

    posed: int
    dropped: dict[str, int] = Field(default_factory=dict)
    """Reason -> tasks not posed in this app."""
    median_steps: float = 0


class UIReplayApp(IRModel):
    """Golden UI paths of one app replayed in headless Chromium by `envforge verify-ui`."""

    replayed: int
    passed: int
    """The verifier passed after the golden run and failed on the initial state and after a no-op run."""
    failed: dict[str, int] = Field(default_factory=dict)
    """Reason -> tasks dropped from the app for it."""
    median_replay_s: float
    page_problems: int = 0
    """Console errors, uncaught exceptions and failed requests over all golden runs."""
    toasts_without_writes: int = 0
    """Success messages shown after a step that changed no state."""

    def cells(self, app: str) -> tuple[str, ...]:
        """app, replayed, passed, median s, dropped, page problems, toasts w/o write."""
        dropped = ", ".join(f"{reason} {count}" for reason, count in self.failed.items()) or "none"
        return (
            app,
            str(self.replayed),
            str(self.passed),
            f"{self.median_replay_s:.2f}",
            dropped,
            str(self.page_problems),
            str(self.toasts_without_writes),
        )


class UIReplaySummary(IRModel):
    """What `envforge verify-ui` found: per app, and the screenshots of the main screens it saved."""

    chromium: str
    apps: dict[str, UIReplayApp]
    screenshots: list[str] = Field(default_factory=list)
    """Package paths of the PNGs (`report/screenshots/<app>-<screen>.png`)."""
    problems: list[str] = Field(default_factory=list)
    """The first page problems and failures, one line each."""


def weighing_share(conditions_per_policy_task: dict[int, int]) -> float:
    """The share of policy tasks whose verdict turns on two or more conditions of their policies."""
    tasks = sum(conditions_per_policy_task.values())
    weighing = sum(count for conditions, count in conditions_per_policy_task.items() if conditions >= 2)
    return weighing / tasks if tasks else 0.0


class TaskMix(IRModel):
    """What the accepted tasks ask for: coverage of actions and tools, and how varied the requests are."""

    by_action: dict[str, int]
    """WRITE action -> accepted tasks whose oracle makes it (0 for an action no task reaches)."""
    by_tool: dict[str, int]
    """Tool -> accepted tasks whose oracle calls it."""
    unreached: dict[str, str] = Field(default_factory=dict)
    """WRITE action no accepted task makes -> why (its attempts' most common refusal, or the gate's drops)."""
    unexercised: dict[str, str] = Field(default_factory=dict)
    """Policy on requests (`actions:`) no accepted task hinges on -> why (no drafted request breaks it, the mix
    left it out, or the gate's drops)."""
    invariants: list[str] = Field(default_factory=list)
    """Policies on the data (`entity:`): the runtime keeps them on every write, and no request asks to break one,
    so no task hinges on them."""
    idle_tools: dict[str, str] = Field(default_factory=dict)
    """READ tool no accepted task calls -> why (what the tasks use instead, or what no request starts from). The
    tool stays offered: an agent may still use it."""
    intents: dict[str, int]
    """What a task asks (`cancel_order`, `ask:order.status`, `refuse:return_window+add_address`) -> tasks."""
    request_shapes: int
    """Distinct requests once greetings, the user's identity and every value are masked."""
    policy_tasks: dict[str, int]
    """`refuse` (a forbidden request next to an allowed one), `offer` (a policy changes the action), `decline` (the
    user turns down what the policy offers, next to an allowed request) and `allow` (a policy allows the request
    only on two or more conditions at once) -> tasks."""
    conditions_per_policy_task: dict[int, int] = Field(default_factory=dict)
    """How many conditions of its policies a policy task's verdict turns on (`TaskSpec.conditions`, counted as
    one where the request breaks two at once and so turns on neither alone) -> policy tasks."""
    asking_tasks: int
    """Tasks the agent can only do by asking the user: a detail, or which row they mean, held back."""
    brief_words: float = 0.0
    """The median length of the user's opening request, in words."""
    scenario_words: float = 0.0
    """The median length of the user's whole brief, in words: who they are, the request, each fact they may give and
    what they say when they react (`envforge.package.mix.brief_of`)."""
    reactions: dict[str, int] = Field(default_factory=dict)
    """How the users react later in the conversation (`follow_up`: a second request once the first is done,
    `question_after`: a question once it is done, `push_back`: on a refusal, `offer_taken` / `offer_declined`: once the
    agent proposes what the policy allows, `change_of_mind`: a value of the request changed once the agent names
    it or reports it done) -> tasks."""
    reacting_tasks: int = 0
    """Tasks with at least one conditional user turn (a reaction of the user's script)."""


class ValidationReport(IRModel):
    """`report.json`: what was checked about a package and what came of it."""

    schema_version: Literal[1] = 1
    env_id: str
    tools_admitted: int
    tools_excluded: list[ExcludedTool]
    tasks_requested: int
    tasks_generated: int
    tasks_accepted: int
    tasks_dropped: dict[str, int]
    """Gate failure code -> how many tasks it dropped."""
    accepted_by_kind: dict[str, int]
    difficulty_bands: dict[str, int]
    chain_lengths: dict[str, int]
    """Oracle length -> accepted tasks."""
    gate: GateSummary
    shortfall: str = ""
    """Why fewer tasks than requested were accepted, if so."""
    tasks: list[GateResult] = Field(default_factory=list)
    rollouts: RolloutSummary | None = None
    """Set by `envforge validate`: pass@k per task of a served model."""
    ui: dict[str, UIAppSummary] = Field(default_factory=dict)
    """App (web, phone) -> the tasks posed in it."""
    ui_replay: UIReplaySummary | None = None
    """Set by `envforge verify-ui`: the golden UI paths replayed in Chromium."""
    mix: TaskMix | None = None
    """What the accepted tasks ask for (coverage and diversity)."""
