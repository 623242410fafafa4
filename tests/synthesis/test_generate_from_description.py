"""`envforge generate --from-description`, replaying real SmolLM2-135M responses recorded from vLLM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envforge.files import read_files
from envforge.pipeline.dag import GenerateConfig
from envforge.synthesis.run import SynthesisConfig, synthesize_environment
from envforge.validators.checks import run_checks
from envforge.validators.loaded_package import open_for_check
from tests.conftest import envforge_cli
from tests.synthesis.endpoints import endpoint
from tests.synthesis.scenario import DESCRIPTION, DOMAIN, MODEL, RECORDED, ROWS, TASKS, generate_args


def recorded_usage() -> tuple[int, int, int]:
    """Requests and tokens of every recorded response: each is used exactly once by the run."""
    responses = [json.loads(path.read_text())["response"] for path in RECORDED.glob("*/*.json")]
    return (
        len(responses),
        sum(response["usage"]["prompt_tokens"] for response in responses),
        sum(response["usage"]["completion_tokens"] for response in responses),
    )


def test_recorded_real_responses_produce_a_package_that_passes_envforge_check(
    replayed: tuple[Path, dict[str, Any]],
) -> None:
    package, printed = replayed
    results = run_checks(open_for_check(package))
    assert [result.name for result in results if not result.passed] == []
    tasks = [json.loads(line) for line in (package / "tasks.jsonl").read_text().splitlines()]
    # The recorded checker disagrees with five of the eight candidates: three tasks ship, and the shortfall is reported.
    assert len(tasks) == TASKS - 1 == json.loads((package / "report.json").read_text())["tasks_accepted"]
    manifest = (package / "envforge.yaml").read_text()
    assert "synthesis.json:" in manifest
    assert printed["env_id"] == f"envforge/{DOMAIN}-v0"
    assert printed["cache_hits"] == printed["synthesis"]["usage"]["requests"]


def test_the_package_reports_requests_tokens_and_cost_of_the_recorded_calls(
    replayed: tuple[Path, dict[str, Any]],
) -> None:
    package, _ = replayed
    synthesis = json.loads((package / "synthesis.json").read_text())
    requests, prompt, completion = recorded_usage()
    assert synthesis["usage"] == {
        "requests": requests,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "price_prompt": 0.0,
        "price_completion": 0.0,
        "cost": 0.0,
    }
    assert synthesis["description"] == DESCRIPTION
    assert f"{prompt} prompt, {completion} completion in {requests} requests" in (package / "report.md").read_text()


def test_prices_turn_the_recorded_tokens_into_a_cost(tmp_path: Path) -> None:
    result = envforge_cli(
        *generate_args(tmp_path / "out", RECORDED), "--price-prompt", "0.5", "--price-completion", "2", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    _, prompt, completion = recorded_usage()
    usage = json.loads(result.stdout)["synthesis"]["usage"]
    assert usage["cost"] == round((prompt * 0.5 + completion * 2) / 1e6, 6)


def test_a_rerun_asks_the_model_nothing_and_writes_a_byte_identical_package(tmp_path: Path) -> None:
    config = SynthesisConfig(description=DESCRIPTION, model=MODEL, base_url="unused", drafts=tmp_path / "drafts")
    generate = GenerateConfig(rows=ROWS, tasks=TASKS)
    first_endpoint = endpoint(cache=tmp_path / "cache")
    first = synthesize_environment(config, tmp_path / "first", generate, client=first_endpoint)
    again = endpoint(cache=tmp_path / "cache")
    second = synthesize_environment(config, tmp_path / "second", generate, client=again)
    assert len(first_endpoint.asked) == first.usage.requests > 0
    assert again.asked == []
    assert second.usage.cached == second.usage.requests == first.usage.requests
    assert read_files(first.run.package) == read_files(second.run.package)
    assert [stage.status for stage in second.run.stages] == ["built"] * len(second.run.stages)


def test_a_rerun_into_the_same_folder_reuses_every_stage_and_changes_no_byte(
    tmp_path: Path, replayed: tuple[Path, dict[str, Any]]
) -> None:
    out = tmp_path / "out"
    first = envforge_cli(*generate_args(out, RECORDED), cwd=tmp_path)
    before = read_files(out / DOMAIN)
    second = envforge_cli(*generate_args(out, RECORDED), cwd=tmp_path)
    assert first.returncode == second.returncode == 0, second.stderr
    assert {stage["status"] for stage in json.loads(second.stdout)["stages"]} == {"cached"}
    assert read_files(out / DOMAIN) == before == read_files(replayed[0])


def test_generate_without_a_description_still_needs_a_blueprint(tmp_path: Path) -> None:
    result = envforge_cli("generate", "-o", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "envforge: error: generate needs a BLUEPRINT (a YAML file or a shipped name such as 'retail') "
        "or --from-description"
    ]


def test_from_description_without_a_model_or_endpoint_says_what_is_missing(tmp_path: Path) -> None:
    no_model = envforge_cli("generate", "--from-description", DESCRIPTION, "--base-url", "http://x/v1", cwd=tmp_path)
    no_url = envforge_cli("generate", "--from-description", DESCRIPTION, "--model", MODEL, cwd=tmp_path)
    assert (no_model.returncode, no_url.returncode) == (2, 2)
    assert "needs --model" in no_model.stderr
    assert "needs --base-url" in no_url.stderr


def test_offline_with_an_unrecorded_description_fails_on_the_first_request_and_writes_nothing(tmp_path: Path) -> None:
    result = envforge_cli(*generate_args(tmp_path / "out", RECORDED, description="a bakery"), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no recorded response for request" in lines[0]
    assert not (tmp_path / "out").exists()
