"""The `state` stage's output: the initial SQLite database."""

from __future__ import annotations

import json
from typing import Self

from envforge.files import dump_json
from envforge.pipeline.artifacts import Artifact


class StateArtifact(Artifact):
    """The initial SQLite database, its DDL and row counts."""

    database: bytes
    ddl: str
    rows: dict[str, int]

    def to_files(self) -> dict[str, bytes]:
        return {
            "state.sqlite": self.database,
            "schema.sql": self.ddl.encode(),
            "state.json": dump_json({"rows": self.rows}),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(
            database=files["state.sqlite"],
            ddl=files["schema.sql"].decode(),
            rows=json.loads(files["state.json"])["rows"],
        )
