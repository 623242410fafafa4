"""Re-record the real SmolLM2 responses that tests/rollouts/test_recorded.py replays offline.

Run against a live server (`envforge serve-model --cpu --python VLLM_VENV/bin/python`), after any change that
alters what an episode sends (the showcase package, the policy, tool schemas, the user simulator, the engine):

    python -m tests.rollouts.record http://127.0.0.1:8000/v1
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded"
SHOWCASE = HERE.parent.parent / "generated" / "showcase" / "retail"
TASKS = "retail-0001,retail-0003,retail-0008,retail-0020"
ARGS = (
    "--model",
    "smollm2",
    "-k",
    "2",
    "--tasks",
    TASKS,
    "--max-turns",
    "5",
    "--max-user-turns",
    "1",
    "--max-tokens",
    "160",
)


def main(base_url: str) -> None:
    shutil.rmtree(RECORDED, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        package = Path(scratch) / "retail"
        shutil.copytree(SHOWCASE, package)
        command = [sys.executable, "-m", "envforge.cli.app", "validate", str(package), "--base-url", base_url, *ARGS]
        command += ["--cache", str(RECORDED), "-o", str(Path(scratch) / "t.jsonl")]
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main(sys.argv[1])
