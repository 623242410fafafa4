"""An on-disk cache of model responses keyed by a hash of the request.

One JSON file per request (`<dir>/<key[:2]>/<key>.json`, written atomically), so concurrent episodes
never contend for one file, reruns are free, and a folder of recorded real responses can be committed
and replayed offline in CI.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Literal

from envforge.hashing import canonical_json
from envforge.llm.errors import CacheMissError

CacheMode = Literal["use", "replay", "refresh", "off"]
"""`use`: read, and record misses; `replay`: read only, a miss is an error; `refresh`: call and overwrite;
`off`: neither read nor write."""

CACHE_FORMAT = 1


def default_cache_dir() -> Path:
    """`$ENVFORGE_CACHE`, else `~/.cache/envforge`: converted models, server logs, and `llm/` responses."""
    return Path(os.environ.get("ENVFORGE_CACHE") or Path.home() / ".cache" / "envforge")


def request_key(request: dict[str, Any]) -> str:
    """The cache key of a request: every field that changes what the model may answer, and nothing else."""
    return hashlib.sha256(canonical_json({"format": CACHE_FORMAT, **request}).encode()).hexdigest()


class ResponseCache:
    """Recorded responses in a folder. The endpoint's address is not part of the key, so recordings move."""

    def __init__(self, folder: Path, mode: CacheMode = "use") -> None:
        self.folder = folder
        self.mode = mode

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The recorded response to this request, or None when it must be asked for."""
        if self.mode in ("off", "refresh"):
            return None
        key = request_key(request)
        path = self._path(key)
        if not path.is_file():
            if self.mode == "replay":
                raise CacheMissError(
                    f"{self.folder}: no recorded response for request {key[:12]} (model {request.get('model')!r}); "
                    "record it by running once against a live endpoint, or drop --offline"
                )
            return None
        response: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["response"]
        return response

    def put(self, request: dict[str, Any], response: dict[str, Any]) -> None:
        if self.mode in ("off", "replay"):
            return
        path = self._path(request_key(request))
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(
            {"request": _summary(request), "response": response}, ensure_ascii=False, sort_keys=True, indent=1
        )
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        os.replace(temporary, path)


def _summary(request: dict[str, Any]) -> dict[str, Any]:
    """What a reader of a recording needs to recognise the request; the key already pins the rest."""
    summary = {key: value for key, value in request.items() if key not in ("messages", "tools")}
    messages = request.get("messages") or []
    summary["messages"] = len(messages)
    summary["tools"] = len(request.get("tools") or [])
    if messages:
        summary["last_message"] = messages[-1]
    return summary
