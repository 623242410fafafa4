"""HTTP routes for the harness (episodes and evictions, reset, state hash, close) beside the MCP endpoint, behind a token.

They live on a separate path from `/mcp`, are not MCP tools, and refuse any request without the
bearer token, so an agent talking MCP can neither see nor call them.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from envforge.runtime.harness_auth import is_harness
from envforge.runtime.mcp_server import EPISODE_ID, EPISODE_ID_MAX, EnvServer


def harness_routes(server: EnvServer, token: str) -> list[Route]:
    def authorized(request: Request) -> bool:
        return is_harness(request.headers.get("authorization"), token)

    def refused() -> Response:
        return JSONResponse({"error": "missing or wrong harness token"}, status_code=401)

    def episode_id(request: Request) -> str | None:
        episode: str = request.path_params["episode"]
        return episode if EPISODE_ID.fullmatch(episode) else None

    def bad_id() -> Response:
        return JSONResponse(
            {"error": f"an episode id is 1 to {EPISODE_ID_MAX} letters, digits or _.:@+- characters"}, status_code=400
        )

    async def episodes(request: Request) -> Response:
        if not authorized(request):
            return refused()
        return JSONResponse(server.report())

    async def reset(request: Request) -> Response:
        if not authorized(request):
            return refused()
        episode = episode_id(request)
        if episode is None:
            return bad_id()
        server.reset(episode)
        return JSONResponse({"episode": episode, "state_hash": server.session(episode).state_hash()})

    async def state(request: Request) -> Response:
        if not authorized(request):
            return refused()
        episode = episode_id(request)
        if episode is None:
            return bad_id()
        if episode not in server.episodes:
            dropped = server.dropped.get(episode)
            message = dropped.message(server.max_episodes, server.idle_timeout) if dropped else "no live episode"
            return JSONResponse({"episode": episode, "error": message}, status_code=404)
        return JSONResponse({"episode": episode, "state_hash": server.session(episode).state_hash()})

    async def close(request: Request) -> Response:
        if not authorized(request):
            return refused()
        episode = episode_id(request)
        if episode is None:
            return bad_id()
        server.close(episode)
        return JSONResponse({"closed": episode})

    return [
        Route("/harness/episodes", episodes, methods=["GET"]),
        Route("/harness/episodes/{episode}/reset", reset, methods=["POST"]),
        Route("/harness/episodes/{episode}/state", state, methods=["GET"]),
        Route("/harness/episodes/{episode}", close, methods=["DELETE"]),
    ]
