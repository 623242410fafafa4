"""Base model of every IR declaration and artifact."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class IRModel(BaseModel):
    """Frozen, strict about unknown keys, documented by field docstrings."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
