"""Run in a venv with inspect_ai: score a package's tasks through `inspect_ai.eval` with a scripted model.

The model is inspect's own `mockllm`, given a function of the conversation: it finds the task by the user's request
and plays its oracle calls, then says the golden closing message (`golden`), or plays all but the last call and
then gives up (`wrong`). A real model cannot be made to play either on demand. Each output carries its usage,
since mockllm otherwise counts tokens with tiktoken, which downloads its encoding. Prints one JSON line: per run, the
eval's status and each sample's score and `passed`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, ChatMessageTool, ChatMessageUser, ModelOutput, ModelUsage, get_model

from envforge.adapters.inspect_task import envforge_task
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package

GIVE_UP = "I'm sorry, I could not complete your request."
USAGE = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)


def scripted(package: EnvPackage, golden: bool) -> Any:

    def output(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        request = next(message.text for message in messages if isinstance(message, ChatMessageUser))
        # The trainer prompt may add to the request what the user would say later, so it starts with the request.
        task = next(task for task in package.tasks.values() if request.startswith(task.instruction))
        calls = task.oracle if golden else task.oracle[:-1]
        done = sum(1 for message in messages if isinstance(message, ChatMessageTool))
        if done < len(calls):
            call = calls[done]
            output = ModelOutput.for_tool_call(
                "mockllm/model", call.name, dict(call.arguments), tool_call_id=f"c{done}"
            )
        else:
            output = ModelOutput.from_content("mockllm/model", package.golden_message(task.id) if golden else GIVE_UP)
        output.usage = USAGE
        return output

    return output


def main(package_path: str, log_dir: str) -> None:
    package = load_package(open_package(Path(package_path)))
    runs = {}
    for run, golden in (("golden", True), ("wrong", False)):
        model = get_model("mockllm/model", custom_outputs=scripted(package, golden))
        (log,) = inspect_eval(envforge_task(package), model=model, log_dir=f"{log_dir}/{run}", display="none")
        samples = log.samples or []
        runs[run] = {
            "status": log.status,
            "scores": {
                str(sample.id): {
                    "value": score.value,
                    "passed": (score.metadata or {}).get("passed"),
                    "explanation": score.explanation,
                }
                for sample in samples
                for score in (sample.scores or {}).values()
            },
        }
    print(json.dumps(runs))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
