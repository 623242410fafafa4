"""One harness over stdio too: `envforge serve --transport stdio --task ID --harness-port 0`, a real process spoken
to by a real MCP stdio client, creates its one client's default episode for the task, so another person's write is
refused, and answers the harness API over HTTP on that same episode, whose verdict is the one the package's
verifier gives in process for the same calls and messages. Stdout carries MCP's JSON-RPC and nothing else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import httpx2
import mcp
import mcp_types
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.errors import refusal_of
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import DEFAULT_EPISODE
from envforge.runtime.opened_package import open_package
from envforge.runtime.serve import TOKEN_VARIABLE
from envforge.runtime.session import Session
from tests.conftest import REPO, envforge_cli
from tests.runtime.test_harness import SHOWCASE, TASK, stranger
from tests.runtime.test_mcp_server import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}
SERVE = ["-m", "envforge.cli.app", "serve", str(SHOWCASE), "--transport", "stdio", "--harness-port", "0"]
EPISODE = f"/harness/episodes/{DEFAULT_EPISODE}"


@pytest.fixture(scope="module")
def package() -> EnvPackage:
    return load_package(open_package(SHOWCASE))


def harness_url(line: str) -> str:
    """The harness API's base URL in the server's announcement on stderr."""
    assert " harness API at http://" in line, line
    return line.split(" harness API at ", 1)[1].split(maxsplit=1)[0].removesuffix("/harness/episodes")


@asynccontextmanager
async def stdio_with_harness(*options: str) -> AsyncIterator[tuple[mcp.Client, str]]:
    """A real MCP stdio client of the server process, and the base URL of its harness API read off its stderr."""
    read_end, write_end = os.pipe()
    with os.fdopen(read_end) as errors, os.fdopen(write_end, "w") as errlog:
        params = StdioServerParameters(
            command=sys.executable, args=[*SERVE, *options], cwd=str(REPO), env={TOKEN_VARIABLE: TOKEN}
        )
        async with mcp.Client(stdio_client(params, errlog=errlog)) as client:
            errlog.close()  # the server holds its own copy: a server that dies ends the read below
            yield client, harness_url(await anyio.to_thread.run_sync(errors.readline))


def in_process_verdict(package: EnvPackage, task: TaskSpec, transcript: Transcript) -> Any:
    """The package's verifier on a session for the task's person that made the transcript's calls."""
    session = Session(package.env, task.scenario.person)
    for call in transcript.calls:
        session.call_tool(call.name, call.arguments)
    return package.verify(task.id, session.history(), transcript).model_dump(mode="json")


def test_over_stdio_a_tasks_episode_refuses_another_persons_write_and_its_verdict_over_http_equals_in_process(
    package: EnvPackage,
) -> None:
    task = package.task(TASK)
    trespass = ToolCall(name="update_email", arguments={"customer_id": stranger(package, task), "email": "x@ex.org"})
    messages = ["Let me find your order from mid March.", "Your order ORD-733386 is cancelled, with reason other."]

    async def run() -> None:
        async with stdio_with_harness("--task", TASK) as (client, base), httpx2.AsyncClient(base_url=base) as http:
            listed = (await http.get("/harness/episodes", headers=AUTH)).json()["episodes"]
            assert [(item["episode"], item["task"], item["free"], item["person"]) for item in listed] == [
                (DEFAULT_EPISODE, TASK, False, task.scenario.person)
            ]
            opened = (await http.get(EPISODE, headers=AUTH)).json()
            assert (opened["task"], opened["opening"], opened["policy"]) == (
                TASK,
                task.instruction,
                client.instructions,
            )
            refused = await client.call_tool(trespass.name, trespass.arguments)
            assert refused.is_error
            error = refusal_of(payload_of(refused))
            assert (error["code"], error["policy"], error["tool"]) == ("policy_violation", "ownership", "update_email")
            for call in task.oracle:
                assert not (await client.call_tool(call.name, call.arguments)).is_error

            body = {"messages": messages, "answer": messages[-1]}
            verdict = (await http.post(f"{EPISODE}/verdict", json=body, headers=AUTH)).json()
            trespassed = Transcript(calls=[trespass, *task.oracle], answer=messages[-1], messages=messages)
            assert verdict == in_process_verdict(package, task, trespassed)
            assert (await http.post(f"{EPISODE}/verdict", json=body)).status_code == 401

            reset = await http.post(f"{EPISODE}/reset", headers=AUTH)
            assert reset.json()["state_hash"] == Session(package.env).state_hash()
            assert (await http.get(f"{EPISODE}/diff", headers=AUTH)).json()["changes"] == []
            for call in task.oracle:
                await client.call_tool(call.name, call.arguments)
            clean = (await http.post(f"{EPISODE}/verdict", json=body, headers=AUTH)).json()
            assert clean["passed"] is True
            assert clean == in_process_verdict(package, task, trespassed.model_copy(update={"calls": task.oracle}))

            assert (await http.delete(EPISODE, headers=AUTH)).status_code == 200
            ended = await client.call_tool(task.oracle[0].name, task.oracle[0].arguments)
            assert refusal_of(payload_of(ended))["code"] == "episode_ended"

    anyio.run(run)


@contextmanager
def raw_stdio_server(*options: str) -> Iterator[subprocess.Popen[bytes]]:
    """The server process with its stdin, stdout and stderr as plain pipes, and no harness token chosen."""
    env = {name: value for name, value in os.environ.items() if name != TOKEN_VARIABLE}
    command = [sys.executable, *SERVE, *options]
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        yield process
    finally:
        process.kill()
        process.wait(timeout=30)


def test_without_a_task_the_default_episode_is_free_and_stdout_carries_only_json_rpc() -> None:
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_orders", "arguments": {}}},
    ]
    with raw_stdio_server() as process:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        token_line = process.stderr.readline().decode()
        assert token_line.startswith(f"harness token (set {TOKEN_VARIABLE} to choose it): "), token_line
        auth = {"Authorization": f"Bearer {token_line.rsplit(': ', 1)[1].strip()}"}
        announced = process.stderr.readline().decode()
        assert announced.endswith("(the client's episode: 'default', free)\n"), announced
        base = harness_url(announced)
        process.stdin.write(b"".join(json.dumps(request).encode() + b"\n" for request in requests))
        process.stdin.flush()
        answers = [process.stdout.readline() for _ in range(2)]
        called = json.loads(answers[1])
        assert called["id"] == 2 and not called["result"]["isError"]

        listed = httpx2.get(f"{base}/harness/episodes", headers=auth, timeout=30).json()["episodes"]
        assert [(item["episode"], item["task"], item["free"], item["calls"]) for item in listed] == [
            (DEFAULT_EPISODE, None, True, 1)
        ]
        judged = httpx2.post(f"{base}{EPISODE}/verdict", json={}, headers=auth, timeout=30)
        assert judged.status_code == 409 and "free" in judged.json()["error"]
        assert httpx2.get(f"{base}/harness/episodes", timeout=30).status_code == 401

        # Closing the pipe ends the process, the harness API with it.
        process.stdin.close()
        answers += process.stdout.read().splitlines(keepends=True)
        assert process.wait(timeout=30) == 0
    assert answers and all(answer.endswith(b"\n") for answer in answers)
    for answer in answers:
        mcp_types.jsonrpc_message_adapter.validate_json(answer, by_name=False)


def test_an_unknown_task_is_a_one_line_error_with_exit_code_2_before_serving() -> None:
    result = envforge_cli(
        "serve", str(SHOWCASE), "--transport", "stdio", "--task", "retail-9999", "--harness-port", "0"
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("envforge: error: --task: ") and "no task 'retail-9999'" in result.stderr
    assert result.stderr.count("\n") == 1
