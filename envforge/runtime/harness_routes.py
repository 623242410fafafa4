"""HTTP routes for the harness (reset, state hash, close) beside the MCP endpoint, behind a token.

They live on a separate path from `/mcp`, are not MCP tools, and refuse any request without the
bearer token, so an agent talking MCP can neither see nor call them.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from envforge.runtime.harness_auth import is_harness
from envforge.runtime.mcp_server import EnvServer


def harness_routes(server: EnvServer, token: str) -> list[Route]:
    def authorized(request: Request) -> bool:
        return is_harness(request.headers.get("authorization"), token)

    async def reset(request: Request) -> Response:
        if not authorized(request):
            return JSONResponse({"error": "missing or wrong harness token"}, status_code=401)
        episode = request.path_params["episode"]
        server.reset(episode)
        return JSONResponse({"episode": episode, "state_hash": server.session(episode).state_hash()})

    async def state(request: Request) -> Response:
        if not authorized(request):
            return JSONResponse({"error": "missing or wrong harness token"}, status_code=401)
        episode = request.path_params["episode"]
        return JSONResponse({"episode": episode, "state_hash": server.session(episode).state_hash()})

    async def close(request: Request) -> Response:
        if not authorized(request):
            return JSONResponse({"error": "missing or wrong harness token"}, status_code=401)
        server.close(request.path_params["episode"])
        return JSONResponse({"closed": request.path_params["episode"]})

    return [
        Route("/harness/episodes/{episode}/reset", reset, methods=["POST"]),
        Route("/harness/episodes/{episode}/state", state, methods=["GET"]),
        Route("/harness/episodes/{episode}", close, methods=["DELETE"]),
    ]
