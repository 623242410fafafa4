"""The harness API over HTTP, the same on every server (MCP over streamable HTTP, the web and phone apps):

    GET    /harness/episodes                 live episodes (task, free or not) and the latest evictions
    POST   /harness/episodes                 {"task": id} or {"free": true}, optional "episode": 201, the episode
                                             with the policy, the opening message and the tools (and its page URL)
    GET    /harness/episodes/{id}            the episode as created: with the policy, the opening and the tools
    POST   /harness/episodes/{id}/reset      back to the initial state (a dropped episode starts again)
    POST   /harness/episodes/{id}/verdict    a transcript ({"answer": ..., "calls": [...]}) -> the task's Verdict
    GET    /harness/episodes/{id}/state      its tables;  GET .../diff  its changes;  GET|PUT .../snapshot  its bytes
    DELETE /harness/episodes/{id}            close it

They live beside `/mcp` and the pages, are not MCP tools, and refuse any request without the bearer token
(`harness_auth.py`), so an agent can neither see nor call them. Refusals are one line of JSON with a status:
401 token, 400 bad body or unknown task, 404 unknown or ended episode (with why it ended), 409 conflict; a
refusal about an episode also has its `code` (`episode_unknown`, `episode_ended`, `episode_live`, ...).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from envforge.runtime.bodies import JSON_LIMIT, BodyTooLargeError, client_error, read_body
from envforge.runtime.harness import CreateRequest, Harness, HarnessError
from envforge.runtime.harness_auth import is_harness

SNAPSHOT_LIMIT = 64 * 1024 * 1024
Handler = Callable[[Request], Awaitable[Response]]


async def json_body(request: Request, example: str) -> dict[str, Any]:
    """The request's JSON object (an empty body is `{}`), or a HarnessError naming what to send."""
    try:
        raw = await read_body(request, JSON_LIMIT)
    except BodyTooLargeError as error:
        raise HarnessError(413, str(error)) from None
    try:
        body = json.loads(raw) if raw.strip() else {}
    except ValueError:
        raise HarnessError(400, f"the body is not JSON; send a JSON object such as {example}") from None
    if not isinstance(body, dict):
        raise HarnessError(400, f"the body must be a JSON object such as {example}")
    return body


def harness_routes(harness: Harness, token: str) -> list[Route]:
    # A snapshot holds the state and its write history: room for the template many times over.
    snapshot_limit = SNAPSHOT_LIMIT + 8 * len(harness.package.env.template)

    def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Handler:
        async def route(request: Request) -> Response:
            if not is_harness(request.headers.get("authorization"), token):
                return client_error(401, "missing or wrong harness token; send Authorization: Bearer <token>")
            try:
                return await handler(request)
            except HarnessError as error:
                refused = {"error": str(error)} | ({"code": error.code} if error.code else {})
                return JSONResponse(refused, status_code=error.status)

        return route

    def episode_id(request: Request) -> str:
        episode: str = request.path_params["episode"]
        return episode

    async def listing(request: Request) -> Response:
        return JSONResponse(harness.episodes.report())

    async def create(request: Request) -> Response:
        body = await json_body(request, '{"task": "<a task id of the package>"}')
        try:
            asked = CreateRequest.model_validate(body)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the body"
            raise HarnessError(
                400, f'{where}: {first["msg"]}; send {{"task": "<task id>"}} or {{"free": true}}'
            ) from None
        return JSONResponse(harness.opening(harness.create(asked)), status_code=201)

    async def opened(request: Request) -> Response:
        # What create answered, for an episode the harness did not create itself (a stdio server's default).
        return JSONResponse(harness.opening(harness.episode(episode_id(request))))

    async def reset(request: Request) -> Response:
        return JSONResponse(harness.described(harness.reset(episode_id(request))))

    async def verdict(request: Request) -> Response:
        body = await json_body(request, '{"answer": "<the final answer>"}')
        return JSONResponse(harness.verdict(episode_id(request), body).model_dump(mode="json"))

    async def state(request: Request) -> Response:
        return JSONResponse(harness.state(episode_id(request)))

    async def diff(request: Request) -> Response:
        return JSONResponse({"episode": episode_id(request), "changes": harness.diff(episode_id(request))})

    async def snapshot(request: Request) -> Response:
        episode = episode_id(request)
        if request.method == "PUT":
            try:
                state = await read_body(request, snapshot_limit)
            except BodyTooLargeError as error:
                raise HarnessError(413, str(error)) from None
            return JSONResponse(harness.described(harness.put_snapshot(episode, state)))
        return Response(harness.episode(episode).session.snapshot(), media_type="application/vnd.sqlite3")

    async def close(request: Request) -> Response:
        harness.close(episode_id(request))
        return JSONResponse({"closed": episode_id(request)})

    return [
        Route("/harness/episodes", guarded(listing), methods=["GET"]),
        Route("/harness/episodes", guarded(create), methods=["POST"]),
        Route("/harness/episodes/{episode}/reset", guarded(reset), methods=["POST"]),
        Route("/harness/episodes/{episode}/verdict", guarded(verdict), methods=["POST"]),
        Route("/harness/episodes/{episode}/state", guarded(state), methods=["GET"]),
        Route("/harness/episodes/{episode}/diff", guarded(diff), methods=["GET"]),
        Route("/harness/episodes/{episode}/snapshot", guarded(snapshot), methods=["GET", "PUT"]),
        Route("/harness/episodes/{episode}", guarded(opened), methods=["GET"]),
        Route("/harness/episodes/{episode}", guarded(close), methods=["DELETE"]),
    ]
