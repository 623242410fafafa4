"""Re-record the real SmolLM2 responses that the fast tests in tests/synthesis replay offline.

Run against a live server (`envforge serve-model --cpu --python VLLM_VENV/bin/python`) after any change that
alters what synthesis sends (prompts, step schemas, the menu, the pipeline's tasks, the paraphrase or barrier):

    python -m tests.synthesis.record http://127.0.0.1:8000/v1
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.synthesis.scenario import RECORDED, generate_args


def main(base_url: str) -> None:
    shutil.rmtree(RECORDED, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        command = [sys.executable, "-m", "envforge.cli.app", *generate_args(Path(scratch), RECORDED, base_url=base_url)]
        # Drafts of a rejected blueprint go to ./runs; keep them out of the repository.
        subprocess.run(command, check=True, cwd=scratch)


if __name__ == "__main__":
    main(sys.argv[1])
