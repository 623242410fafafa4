"""The harness's state API: episodes, reset, snapshot, state, diff and verdict, behind a bearer token.

Nothing here is reachable from a page: every route checks the token first, and pages know only their
own page token, which is not this one.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from envforge.errors import PackageError, UserInputError
from envforge.runtime.apps.bodies import JSON_LIMIT, BodyTooLargeError, client_error, read_body
from envforge.runtime.apps.episodes import AppEpisode, EpisodeRegistry
from envforge.runtime.diff import diff_states
from envforge.runtime.episode import EnvPackage
from envforge.runtime.harness_auth import is_harness
from envforge.runtime.session import snapshot_problem

SNAPSHOT_LIMIT = 64 * 1024 * 1024
Handler = Callable[[Request], Awaitable[Response]]


def harness_routes(package: EnvPackage, episodes: EpisodeRegistry, token: str) -> list[Route]:
    # A snapshot holds the state and its write history: room for the template many times over.
    snapshot_limit = SNAPSHOT_LIMIT + 8 * len(package.env.template)

    def authorized(request: Request) -> bool:
        return is_harness(request.headers.get("authorization"), token)

    def refused() -> Response:
        return JSONResponse({"error": "missing or wrong harness token"}, status_code=401)

    def guarded(handler: Callable[[Request, AppEpisode], Awaitable[Response]]) -> Handler:
        async def route(request: Request) -> Response:
            if not authorized(request):
                return refused()
            episode = episodes.by_id(request.path_params["episode"])
            if episode is None:
                return JSONResponse({"error": "no such episode"}, status_code=404)
            return await handler(request, episode)

        return route

    def described(episode: AppEpisode) -> dict[str, object]:
        return {
            "episode": episode.id,
            "url": f"/e/{episode.token}/",
            "task_id": episode.task_id,
            "state_hash": episode.session.state_hash(),
        }

    async def create(request: Request) -> Response:
        if not authorized(request):
            return refused()
        try:
            raw = await read_body(request, JSON_LIMIT)
        except BodyTooLargeError as error:
            return client_error(413, str(error))
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            return client_error(400, 'the body is not JSON; send {} or {"task_id": "<a task id of the package>"}')
        task_id = body.get("task_id") if isinstance(body, dict) else None
        if not isinstance(body, dict) or not isinstance(task_id, str | None):
            return client_error(400, 'the body must be a JSON object such as {"task_id": "<a task id>"}')
        person = None
        if task_id is not None:
            try:
                person = package.task(str(task_id)).scenario.person
            except UserInputError as error:
                return JSONResponse({"error": str(error)}, status_code=404)
        return JSONResponse(described(episodes.create(task_id=task_id, person=person)), status_code=201)

    async def reset(request: Request, episode: AppEpisode) -> Response:
        episode.reset()
        return JSONResponse(described(episode))

    async def snapshot(request: Request, episode: AppEpisode) -> Response:
        if request.method == "PUT":
            try:
                state = await read_body(request, snapshot_limit)
            except BodyTooLargeError as error:
                return client_error(413, str(error))
            problem = snapshot_problem(episode.session.env, state)
            if problem is not None:
                return client_error(400, f"{problem}; send bytes from GET .../snapshot of this environment")
            episode.session.reset(state)
            return JSONResponse(described(episode))
        return Response(episode.session.snapshot(), media_type="application/vnd.sqlite3")

    async def state(request: Request, episode: AppEpisode) -> Response:
        session = episode.session
        tables = {name: session.rows(name) for name in sorted(session.env.entities)}
        return JSONResponse({**described(episode), "tables": tables})

    async def diff(request: Request, episode: AppEpisode) -> Response:
        changes = diff_states(episode.initial, episode.session.snapshot())
        return JSONResponse({"episode": episode.id, "changes": [change.model_dump(mode="json") for change in changes]})

    async def verdict(request: Request, episode: AppEpisode) -> Response:
        if episode.task_id is None:
            return JSONResponse({"error": "the episode was created without a task_id"}, status_code=409)
        answer = request.query_params.get("answer")
        try:
            result = package.verify(episode.task_id, episode.session.history(), episode.transcript(answer))
        except PackageError as error:
            # The package is broken, not the request; 409 says the episode cannot be judged as the package stands.
            return client_error(409, str(error))
        return JSONResponse(result.model_dump(mode="json"))

    async def close(request: Request, episode: AppEpisode) -> Response:
        episodes.close(episode.id)
        return JSONResponse({"closed": episode.id})

    return [
        Route("/harness/episodes", create, methods=["POST"]),
        Route("/harness/episodes/{episode}/reset", guarded(reset), methods=["POST"]),
        Route("/harness/episodes/{episode}/snapshot", guarded(snapshot), methods=["GET", "PUT"]),
        Route("/harness/episodes/{episode}/state", guarded(state), methods=["GET"]),
        Route("/harness/episodes/{episode}/diff", guarded(diff), methods=["GET"]),
        Route("/harness/episodes/{episode}/verdict", guarded(verdict), methods=["GET"]),
        Route("/harness/episodes/{episode}", guarded(close), methods=["DELETE"]),
    ]
