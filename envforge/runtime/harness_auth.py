"""The harness's bearer token: how a request proves it comes from the harness, not from an agent."""

from __future__ import annotations

import hashlib
import hmac

SCHEME = "Bearer "


def is_harness(authorization: str | None, token: str) -> bool:
    """Whether an `Authorization` header is exactly `Bearer <token>`.

    Digests are compared, in constant time, so neither the token's content nor its length shows in how long
    a refusal takes."""
    given = authorization or ""
    presented = given.removeprefix(SCHEME) if given.startswith(SCHEME) else ""
    expected = hashlib.sha256(token.encode()).digest()
    return bool(presented) and hmac.compare_digest(hashlib.sha256(presented.encode()).digest(), expected)
