"""What a question task's final answer must state, typed, so that a judge can tell an answer from a guess or a dump."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from envforge.ir.base import IRModel

AnswerType = Literal["number", "count", "money", "date", "boolean", "enum", "text"]


class AnswerSpec(IRModel):
    """What a question task's final answer must state."""

    type: AnswerType
    value: str
    """Canonical expected value: number/count as in '3' or '2.5', money as '45.20', date ISO '2026-03-12' (a datetime field's date part or full ISO), boolean 'true'/'false', enum the raw value ('partially_refunded'), text verbatim."""
    choices: list[str] = Field(default_factory=list)
    """enum: every value of the field; the others are competing candidates."""
    competitors: list[str] = Field(default_factory=list)
    """The same field of the person's other rows (values that differ from `value`): stating one is a wrong answer."""
    stated: list[str] = Field(default_factory=list)
    """Values the question itself states (how the user described the record); the answer may repeat them freely."""
    records: list[str] = Field(default_factory=list)
    """Other values from the person's records (record keys, names, text fields): an answer that repeats many of them is a dump."""
    field: str | None = None
    """The field asked about, as `entity.field`; None for a count."""
    key: str | None = None
    """The key of the row asked about; None for a count."""
    counted: str | None = None
    """A count: the entity counted, as `entity.owner_field`; a run grounds the count by listing the entity
    filtered by that field on the person."""
