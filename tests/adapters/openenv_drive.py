"""Run in a venv with openenv-core: serve a package with `python -m envforge.adapters.openenv_env` on a free port
and play each of its tasks through OpenEnv's own clients over the server's WebSocket.

`golden` plays each task's oracle calls and then says the golden closing message, through `EnvforgeClient` in
four sessions at once; `wrong` calls a tool the environment lacks (refused), plays all but the last oracle call
and then gives up, through OpenEnv's `GenericEnvClient` with plain dicts (as a client without envforge would) in
one session. A session resets for each task of its share in turn. Prints one JSON line: per run and task, each
step's reward and done, the last observation's verdict, the refusal and the state at the end; then the error each
golden session got for a step after its end, and the action's fields as the server's `/schema` names them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from openenv.core import GenericEnvClient

from envforge.adapters.openenv_env import EnvforgeAction, EnvforgeClient
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package

GIVE_UP = "I'm sorry, I could not complete your request."
SESSIONS = 4
"""Sessions the golden run plays its tasks in at once, each resetting for its share of them."""
LISTENING = re.compile(r"Uvicorn running on (http://\S+)")


def start_server(package_path: str) -> tuple[subprocess.Popen[str], str]:
    """The server and its base URL, read from uvicorn's start-up line (port 0 lets the system pick a free one)."""
    command = [sys.executable, "-m", "envforge.adapters.openenv_env", package_path, "--port", "0"]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    seen = []
    for line in server.stderr:
        seen.append(line)
        if found := LISTENING.search(line):
            # Keep reading what it logs, so that a full pipe never blocks it.
            threading.Thread(target=seen.extend, args=(server.stderr,), daemon=True).start()
            return server, found.group(1)
    raise RuntimeError(f"the server exited ({server.wait()}) before listening:\n{''.join(seen)}")


def golden(package: EnvPackage, base_url: str, task_ids: list[str]) -> dict[str, Any]:
    outcomes = {}
    with EnvforgeClient(base_url=base_url).sync() as env:
        for task_id in task_ids:
            task = package.task(task_id)
            first = env.reset(task_id=task_id)
            steps = [
                env.step(EnvforgeAction(tool_name=call.name, arguments=dict(call.arguments))) for call in task.oracle
            ]
            steps.append(env.step(EnvforgeAction(message=package.golden_message(task_id))))
            state = env.state()
            outcomes[task_id] = {
                "reset_task": first.observation.task_id,
                "prompt": first.observation.messages == package.trainer_prompt(task_id),
                "tools": len(first.observation.tools),
                "refused": [step.observation.error for step in steps[:-1]],
                "rewards": [step.reward for step in steps],
                "done": [step.done for step in steps],
                "verdict": steps[-1].observation.verdict,
                "state": {"task_id": state.task_id, "calls": state.calls, "step_count": state.step_count},
            }
        try:
            env.step(EnvforgeAction(message=GIVE_UP))
            after_end = None
        except Exception as exc:  # the client raises whatever the server's error message says
            after_end = str(exc)
    return {"tasks": outcomes, "after_end": after_end}


def wrong(package: EnvPackage, base_url: str) -> dict[str, Any]:
    outcomes = {}
    with GenericEnvClient(base_url=base_url).sync() as env:
        for task_id in package.task_ids:
            env.reset(task_id=task_id)
            oracle = package.task(task_id).oracle
            refused = env.step({"tool_name": "no_such_tool", "arguments": {}}).observation
            steps = [env.step({"tool_name": call.name, "arguments": dict(call.arguments)}) for call in oracle[:-1]]
            steps.append(env.step({"message": GIVE_UP}))
            outcomes[task_id] = {
                "refused": {"error": refused["error"], "code": refused["result"]["error"]["code"]},
                "rewards": [step.reward for step in steps],
                "done": [step.done for step in steps],
                "verdict": steps[-1].observation["verdict"],
            }
    return {"tasks": outcomes}


def main(package_path: str) -> None:
    package = load_package(open_package(Path(package_path)))
    server, base_url = start_server(package_path)
    try:
        with urllib.request.urlopen(f"{base_url}/schema") as response:
            schema = json.load(response)
        with ThreadPoolExecutor(SESSIONS) as pool:
            slices = [package.task_ids[start::SESSIONS] for start in range(SESSIONS)]
            played = list(pool.map(lambda task_ids: golden(package, base_url, task_ids), slices))
        runs = {
            "golden": {
                "tasks": {task_id: run for one in played for task_id, run in one["tasks"].items()},
                "after_end": [one["after_end"] for one in played],
            },
            "wrong": wrong(package, base_url),
            "action_fields": sorted(schema["action"]["properties"]),
        }
    finally:
        server.terminate()
        server.wait()
    print(json.dumps(runs))


if __name__ == "__main__":
    main(sys.argv[1])
