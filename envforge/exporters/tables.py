"""Rows to Parquet and JSONL bytes, identical on every run."""

from __future__ import annotations

import io
import json
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq


def parquet_bytes(rows: list[dict[str, Any]]) -> bytes:
    """A Parquet file of `rows` (column types inferred; nested dicts become structs, lists become lists)."""
    table = pa.Table.from_pylist(rows)
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd", use_dictionary=True)
    return buffer.getvalue()


def jsonl_bytes(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows).encode()
