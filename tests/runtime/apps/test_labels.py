"""A row in words, as a picker lists it: named by its name or the rows it belongs to, then when, its state and
amount, its key last; never an email, a phone number or another unique identifier."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from envforge.runtime.apps.labels import RowLabeler, day_text
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session


def _labeler(package: Path) -> tuple[RowLabeler, Session]:
    env = load_environment(open_package(package))
    session = Session(env)
    return RowLabeler(env, session.connection), session


def _row(session: Session, sql: str) -> dict[str, Any]:
    return dict(session.connection.execute(sql).fetchone())


def test_a_slot_reads_as_its_doctor_day_time_and_status(packages: dict[str, Path]) -> None:
    labeler, session = _labeler(packages["clinic"])
    slot = _row(session, "SELECT s.*, d.first_name, d.last_name FROM slot s JOIN doctor d USING (doctor_id) LIMIT 1")
    label = labeler.label("slot", slot)
    doctor = f"{slot['first_name']} {slot['last_name']}"
    status = slot["status"].replace("_", " ").capitalize()
    assert label.text == f"{doctor} — {day_text(slot['date'])} — {slot['start_time']} — {status} ({slot['slot_id']})"
    assert label.matches(f"{slot['last_name'].upper()}  {slot['start_time']}") and not label.matches("nobody")


def test_a_row_with_no_name_of_its_own_reads_as_the_rows_it_belongs_to(packages: dict[str, Path]) -> None:
    labeler, session = _labeler(packages["airline"])
    fare = _row(
        session, "SELECT fare.*, f.flight_number, f.departure_date FROM fare JOIN flight f USING (flight_id) LIMIT 1"
    )
    assert labeler.label("fare", fare).title == f"Flight {fare['flight_number']} on {day_text(fare['departure_date'])}"
    retail, session = _labeler(packages["retail"])
    item = _row(session, 'SELECT i.*, p.name, o.placed_on FROM order_item i JOIN product p USING (product_id) '
                'JOIN "order" o USING (order_id) LIMIT 1')  # fmt: skip
    label = retail.label("order_item", item)
    assert label.title == item["name"]
    assert label.details[0] == f"Order placed on {day_text(item['placed_on'])}"


@pytest.mark.parametrize("domain", ["airline", "banking", "clinic", "library", "retail"])
def test_no_label_shows_an_email_or_a_phone_number(packages: dict[str, Path], domain: str) -> None:
    labeler, session = _labeler(packages[domain])
    for entity in session.env.entities:
        for row in session.connection.execute(f'SELECT * FROM "{entity}" LIMIT 20'):
            text = labeler.label(entity, dict(row)).text
            assert "@" not in text and not re.search(r"\d{3}\W\d{3}\W\d{4}", text), (entity, text)
            assert text.endswith(f"({row[session.env.entities[entity].key]})")
