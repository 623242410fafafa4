"""The authentication rule of a verifier (pure function over logged calls): the first lookup that returns the
person must take one full credential of theirs and return only them, before any write is tried."""

from __future__ import annotations

from typing import Any

from envforge.ir.tasks import CallRecord, IdentitySpec
from envforge.runtime.verify import authenticate

IDENTITY = IdentitySpec(
    entity="customer",
    person="CUS-1",
    stated=["Ann", "Lee", "ann.lee@example.com", "(512)395-6932"],
    credentials=[
        {"email": "ann.lee@example.com"},
        {"first_name": "Ann", "last_name": "Lee", "phone": "(512)395-6932"},
    ],
)


def _read(seq: int, persons: list[str], **arguments: Any) -> CallRecord:
    return CallRecord(seq=seq, tool="lookup", kind="read", arguments=arguments, persons=persons)


def _write(seq: int, refusal: str | None = None) -> CallRecord:
    return CallRecord(seq=seq, tool="cancel_order", kind="write", arguments={"order_id": "ORD-1"}, refusal=refusal)


def test_a_full_credential_that_returned_only_the_person_before_any_write_authenticates_them() -> None:
    assert authenticate(IDENTITY, [_read(1, ["CUS-1"], email="Ann.Lee@Example.com"), _write(2)]) == 1
    # The same phone number written another way, with the name it goes with.
    by_phone = _read(3, ["CUS-1"], first_name="ann", last_name="LEE", phone="512.395.6932", limit=10)
    assert authenticate(IDENTITY, [_read(1, ["CUS-7"], email="x@example.com"), by_phone, _write(4)]) == 3


def test_a_name_alone_a_key_a_part_of_a_credential_or_namesakes_do_not() -> None:
    rejected = {
        "name only": [_read(1, ["CUS-1"], first_name="Ann", last_name="Lee"), _write(2)],
        "namesakes": [_read(1, ["CUS-9", "CUS-1"], last_name="lee", email="ann.lee@example.com"), _write(2)],
        "by key": [_read(1, ["CUS-1"], customer_id="CUS-1"), _write(2)],
        "half a credential": [_read(1, ["CUS-1"], last_name="Lee", phone="(512)395-6932"), _write(2)],
        "another person": [_read(1, ["CUS-2"], email="ann.lee@example.com"), _write(2)],
        "write first": [_write(1), _read(2, ["CUS-1"], email="ann.lee@example.com")],
        "refused write first": [_write(1, "precondition_failed"), _read(2, ["CUS-1"], email="ann.lee@example.com")],
        # Reading the email off a listing by name, then finding by it: the first lookup that returned them decides.
        "credential read off a listing": [
            _read(1, ["CUS-1", "CUS-4"], last_name="Lee"),
            _read(2, ["CUS-1"], email="ann.lee@example.com"),
            _write(3),
        ],
        "never": [_read(1, [], email="nobody@example.com")],
    }
    for name, calls in rejected.items():
        assert isinstance(authenticate(IDENTITY, calls), str), name


def test_a_task_without_credentials_says_to_generate_the_package_again() -> None:
    old = IDENTITY.model_copy(update={"credentials": []})
    reason = authenticate(old, [_read(1, ["CUS-9"], email="x@example.com")])
    assert isinstance(reason, str) and "generate the package again" in reason
