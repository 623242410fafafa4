"""Request bodies read under a cap, and the one-line JSON errors the servers answer bad HTTP requests with.

A body is streamed and counted, never read whole first: one that declares or sends more than its route's
limit is refused with 413 before anything is parsed or written.
"""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import JSONResponse

from envforge.errors import EnvforgeError

FORM_LIMIT = 64 * 1024
"""An app form post: the forms have a handful of fields of at most a few thousand characters."""
JSON_LIMIT = 64 * 1024
"""A harness request with a JSON body (`POST /harness/episodes`)."""
_DIGITS = re.compile(r"[0-9]{1,19}")


class BodyTooLargeError(EnvforgeError):
    """A request body over its route's limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is over the limit of {limit:,} bytes for this route; send less")
        self.limit = limit


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, or BodyTooLargeError as soon as it declares or sends more than `limit` bytes."""
    declared = request.headers.get("content-length", "")
    if (_DIGITS.fullmatch(declared) and int(declared) > limit) or len(declared) > 19:
        raise BodyTooLargeError(limit)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLargeError(limit)
    return bytes(body)


def client_error(status: int, message: str) -> JSONResponse:
    """A refused request: its status and one line saying what is wrong and how to send it right."""
    return JSONResponse({"error": message}, status_code=status)
