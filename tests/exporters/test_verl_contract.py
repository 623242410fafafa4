"""The verl export against verl 0.9.1 itself: its config, dataset, tool loader, agent loops and reward loop."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import PIP_INSTALL
from tests.exporters.verl_venv import constraints

HERE = Path(__file__).parent
RUN_KWARGS = {"raw_prompt", "extra_info", "tools_kwargs", "reward_model", "data_source", "index", "uid"}


@pytest.mark.slow
def test_verl_runs_the_exported_loop_tools_and_reward(
    verl_python: Path, exports: Path, packages: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Installs the exported wheels into verl 0.9.1's own venv (`verl_venv.py`), then runs verl_drive.py there.

    No GPU or vLLM runs here, so the LLM server is scripted: it returns each task's oracle as Hermes
    tool-call turns (token ids in, token ids out). Everything between the server and the envforge
    adapters is verl's code: the trainer config, RLHFDataset, the tool loader, hydra-built agent loops,
    AgentLoopWorker's batching and reward loop.
    """
    python = str(verl_python)
    pip = [python, *PIP_INSTALL, "-c", str(constraints())]
    wheels = exports / "wheels"
    clock = time.perf_counter()
    # What the wheels need comes from the index; the wheels themselves are installed again, as the venv may hold
    # an earlier run's build of the same version.
    subprocess.run([*pip, "--find-links", str(wheels), "envforge-env-retail"], check=True, timeout=600)
    exported = [*wheels.glob("envforge_runtime-*.whl"), *wheels.glob("envforge_env_retail-*.whl")]
    assert len(exported) == 2, sorted(path.name for path in wheels.iterdir())
    subprocess.run([*pip, "--force-reinstall", "--no-deps", *map(str, exported)], check=True, timeout=600)
    install_s = time.perf_counter() - clock

    clock = time.perf_counter()
    result = subprocess.run(
        [python, str(HERE / "verl_drive.py"), str(exports), str(tmp_path / "work")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=tmp_path,
    )
    run_s = time.perf_counter() - clock
    assert result.returncode == 0, result.stderr[-4000:]
    summary: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    with capsys.disabled():
        print(f"\nverl contract: install {install_s:.0f} s, run {run_s:.0f} s, driver {summary['timings']}")

    assert summary["verl"] == "0.9.1" and summary["torch"].endswith("+cpu")
    assert summary["envforge_installed"], "the driver must use the exported envforge-runtime wheel"

    # Tools: verl's loader builds an EnvforgeTool per exported tool; names, descriptions, required
    # parameters, types and enums survive verl's schema model (it drops other JSON-Schema keywords).
    tool_count = len(load_package(open_package(packages["retail"])).env.toolgraph.tools)
    tools = summary["tools"]
    assert tools["count"] == tools["declared"] == tools["names"] == tool_count
    assert tools["mismatches"] == []
    assert summary["worker_tools"] == {"count": tool_count, "classes": ["EnvforgeTool"]}
    assert {"envforge_agent", "envforge_agent_single_turn", "tool_agent"} <= set(summary["registry"])
    assert set(summary["run_kwargs"]) >= RUN_KWARGS and summary["tools_kwargs_complete"]

    # The exported single-turn loop, built by hydra from agent_loop.yaml: the oracle earns 1, answering at once 0.
    custom = summary["custom"]
    kinds = {row["kind"] for row in custom}
    assert len(custom) >= 5 and {"read", "write"} <= kinds
    for row in custom:
        assert row["reward"] == row["acc"] == 1.0, row
        assert row["tool_calls"] == row["oracle_calls"], row
        assert row["response_tokens"] == row["mask_tokens"] and row["model_tokens"] > 0 and row["env_tokens"] > 0
        assert row["model_text_is_script"] and row["prefix_ok"] and not row["overrun"] and row["prompt_has_tools"], row
        # The model stopped at <|im_end|>; the environment's turn continues exactly as the chat template does.
        assert row["env_turn_start"].startswith("\n<|im_start|>user"), row
        assert row["idle_reward"] == 0.0 and row["idle_tokens_match"], row

    _check_conversation(summary["conversation"], len(custom))

    # verl's stock tool_agent loop with the exported tools: one session per trajectory across its
    # create/execute/release per call; the decoded response scores 1 with verl_reward.compute_score.
    for row in summary["stock"]:
        assert row["score"] == 1.0 and row["replayed_calls"] == row["oracle_calls"], row
        assert row["tool_responses"] == row["episode_calls"] == row["oracle_calls"], row
        assert row["tool_errors"] == row["episode_failed_calls"] == 0, row
        assert row["episode_reward"] == 1.0 and row["episode_changed"] == (row["kind"] != "read"), row
        assert row["response_tokens"] == row["mask_tokens"] and row["model_tokens"] > 0 and row["env_tokens"] > 0
        assert (
            row["env_turn_start"].startswith("\n<|im_start|>user") and row["prefix_ok"] and row["prompt_has_tools"]
        ), row
    assert summary["read_back"]["status_after"] == "cancelled" != summary["read_back"]["status_before"]

    # Whole batches through AgentLoopWorker.generate_sequences: the reward reaches rm_scores, for
    # tool_agent through verl's reward loop loading verl_reward.py by path.
    for loop, script, reward in (
        ("envforge_agent", "golden", 1.0),
        ("envforge_agent", "idle", 0.0),
        ("tool_agent", "oracle", 1.0),
        ("tool_agent", "idle", 0.0),
    ):
        batch = summary["batches"][f"{loop}/{script}"]
        assert batch["rm_scores"] == batch["acc"] == [reward] * len(custom), (loop, script, batch)
        assert batch["trajectories"] == len(custom) and batch["prefix_ok"] and batch["mask_within_attention"]


def _check_conversation(conversation: list[dict[str, Any]], tasks: int) -> None:
    """The default loop plays the scripted user: the prompt is the user's opener, the model's side of the golden
    conversation earns 1 (every turn used, none beyond), and the user's replies are in the response as environment
    turns; a task that holds something back is answered only once asked."""
    assert len(conversation) == tasks and any(row["holds_back"] for row in conversation)
    for row in conversation:
        assert row["reward"] == row["acc"] == 1.0 and row["prompt_is_opener"] and row["prefix_ok"], row
        assert row["generations"] == row["golden_turns"] and row["response_tokens"] == row["mask_tokens"], row
        assert row["user_messages"] == row["user_turns"] and (row["user_turns"] >= 1) >= row["holds_back"], row
        # "Done." answers a question (wrongly) at once; on a write task the user pushes until out of turns.
        assert row["idle_reward"] == 0.0 and row["idle_user_turns"] == (0 if row["kind"] == "read" else 4), row
