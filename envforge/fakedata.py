"""Which Faker generator fits a field or argument, judged by its name (shared by stages)."""

from __future__ import annotations

# (substring of the name, Faker method), first match wins.
NAME_HINTS: tuple[tuple[str, str], ...] = (
    ("email", "email"),
    # Ten digits as people give them: `phone_number` also makes `001-240-763-9302x4369`, which nobody says.
    ("phone", "basic_phone_number"),
    ("first_name", "first_name"),
    ("last_name", "last_name"),
    ("full_name", "name"),
    ("company", "company"),
    ("street", "street_address"),
    ("address", "street_address"),
    ("city", "city"),
    ("country", "country"),
    ("postal", "postcode"),
    ("zip", "postcode"),
    ("iban", "iban"),
    ("url", "url"),
    ("title", "catch_phrase"),
    ("note", "sentence"),
    ("description", "sentence"),
    ("reason", "sentence"),
    ("name", "name"),
)


def faker_method_for(name: str, *, long_text: bool = False) -> str:
    """The Faker method for a string field or argument called `name`."""
    return next((method for hint, method in NAME_HINTS if hint in name), "sentence" if long_text else "word")
