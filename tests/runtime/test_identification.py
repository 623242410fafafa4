"""The identification rule of a verifier: before the first write, a lookup by what the user said about
themselves returned that person (pure function over logged calls)."""

from __future__ import annotations

from typing import Any

from envforge.ir.tasks import CallRecord, IdentitySpec
from envforge.runtime.verify import identified_before_writes

IDENTITY = IdentitySpec(
    entity="customer", person="CUS-1", stated=["Ann", "Lee", "ann.lee@example.com", "(512)395-6932"]
)


def _read(seq: int, persons: list[str], **arguments: Any) -> CallRecord:
    return CallRecord(seq=seq, tool="lookup", kind="read", arguments=arguments, persons=persons)


def _write(seq: int) -> CallRecord:
    return CallRecord(seq=seq, tool="cancel_order", kind="write", arguments={"order_id": "ORD-1"})


def test_a_lookup_by_a_stated_value_that_returned_the_person_before_the_write_identifies_them() -> None:
    assert identified_before_writes(IDENTITY, [_read(1, ["CUS-1"], email="Ann.Lee@Example.com"), _write(2)])
    assert identified_before_writes(IDENTITY, [_read(1, ["CUS-9", "CUS-1"], last_name="lee"), _write(2)])
    # The same phone number written another way.
    assert identified_before_writes(IDENTITY, [_read(1, ["CUS-1"], phone="512.395.6932"), _write(2)])


def test_a_lookup_by_key_by_a_value_nobody_stated_or_after_the_write_does_not() -> None:
    assert not identified_before_writes(IDENTITY, [_read(1, ["CUS-1"], customer_id="CUS-1"), _write(2)])
    assert not identified_before_writes(IDENTITY, [_read(1, ["CUS-1"], last_name="Le"), _write(2)])
    assert not identified_before_writes(IDENTITY, [_read(1, ["CUS-2"], email="ann.lee@example.com"), _write(2)])
    assert not identified_before_writes(IDENTITY, [_write(1), _read(2, ["CUS-1"], email="ann.lee@example.com")])
