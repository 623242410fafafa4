"""A form field that takes a row is a picker of rows in words: the person's own rows (or a shared catalog's),
bounded and searchable, never another person's unless the argument allows it; in a real Chromium it is a keyboard
operable radio group that submits the row's key, so the tool call is the one an MCP client would make."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from envforge.ir.apps import ActionForm
from envforge.ir.uitasks import AppKind
from envforge.runtime.apps import pickers
from envforge.runtime.apps.axtree import accessibility_text
from envforge.runtime.apps.chromium import context_options
from envforge.runtime.apps.pickers import PickerSource
from envforge.runtime.apps.server import AppServer
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.stages.apps.spec import build_app_spec
from envforge.stages.ontology.build import build_ontology
from tests.browser import expect, serve, watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def _rows(package: Path, sql: str, *args: str) -> list[tuple[str, ...]]:
    with closing(sqlite3.connect(package / "state.sqlite")) as db:
        return [tuple(str(value) for value in row) for row in db.execute(sql, args)]


def _reroute_case(package: Path) -> tuple[str, str, list[str]]:
    """A customer with two or more saved addresses and an order not shipped yet: (customer, order, addresses)."""
    customer, order = _rows(
        package,
        "SELECT o.customer_id, o.order_id FROM \"order\" o WHERE o.status IN ('pending', 'processing') AND "
        "(SELECT COUNT(*) FROM address a WHERE a.customer_id = o.customer_id) >= 2 ORDER BY o.order_id LIMIT 1",
    )[0]
    addresses = [key for (key,) in _rows(package, "SELECT address_id FROM address WHERE customer_id = ?", customer)]
    return customer, order, addresses


@pytest.fixture(scope="module")
def envs(packages: dict[str, Path]) -> dict[str, Environment]:
    return {domain: load_environment(open_package(packages[domain])) for domain in ("retail", "clinic", "banking")}


def action_form(env: Environment, tool: str) -> ActionForm:
    return build_app_spec(env.blueprint, build_ontology(env.blueprint), env.toolgraph).action(tool)


def test_a_picker_offers_only_the_persons_own_rows_in_words(
    packages: dict[str, Path], envs: dict[str, Environment]
) -> None:
    env = envs["retail"]
    customer, _, addresses = _reroute_case(packages["retail"])
    form = action_form(env, "update_shipping_address")
    picker = PickerSource(env, Session(env, customer)).pickers(form, {}, {})["address_id"]
    assert sorted(choice.key for choice in picker.choices) == sorted(addresses)
    assert picker.matching == len(addresses) and not picker.searchable
    rows = _rows(packages["retail"], "SELECT address_id, street FROM address WHERE customer_id = ?", customer)
    streets = {key: street for key, street in rows}
    for choice in picker.choices:
        assert choice.title.startswith(streets[choice.key]) and choice.text.endswith(f"({choice.key})")
        assert "@" not in choice.text, "no email or other identifier of the person in a label"


def test_a_catalog_picker_is_bounded_and_its_search_narrows_it_by_words(
    packages: dict[str, Path], envs: dict[str, Environment], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = envs["clinic"]
    monkeypatch.setattr(pickers, "PICKER_LIMIT", 5)
    form = action_form(env, "book_appointment")
    (patient,) = _rows(packages["clinic"], "SELECT patient_id FROM patient LIMIT 1")[0]
    source = PickerSource(env, Session(env, patient))
    (slots,) = _rows(packages["clinic"], "SELECT COUNT(*) FROM slot")[0]
    picker = source.pickers(form, {}, {})["slot_id"]
    assert len(picker.choices) == 5 and picker.matching == int(slots) and picker.searchable
    doctor, key = _rows(
        packages["clinic"],
        "SELECT d.last_name, s.slot_id FROM slot s JOIN doctor d ON d.doctor_id = s.doctor_id ORDER BY s.slot_id DESC",
    )[0]
    found = source.pickers(form, {}, {"slot_id": f"  {doctor.lower()}  "})["slot_id"]
    assert found.choices and all(doctor in choice.text for choice in found.choices)
    assert found.query == doctor.lower() and found.matching <= int(slots)
    assert [choice.key for choice in source.pickers(form, {}, {"slot_id": key})["slot_id"].choices] == [key]
    # the value chosen so far stays listed whatever the search shows
    kept = source.pickers(form, {"slot_id": key}, {"slot_id": "no such words"})["slot_id"]
    assert [choice.key for choice in kept.choices] == [key] and kept.matching == 0


def test_another_persons_row_is_found_only_by_its_exact_key_and_shows_nothing_of_theirs(
    packages: dict[str, Path], envs: dict[str, Environment]
) -> None:
    env = envs["banking"]
    package = packages["banking"]
    named = "SELECT DISTINCT customer_id FROM account WHERE nickname IS NOT NULL ORDER BY customer_id LIMIT 2"
    customer, other = (row[0] for row in _rows(package, named))
    mine = {key for (key,) in _rows(package, "SELECT account_id FROM account WHERE customer_id = ?", customer)}
    theirs, nickname = _rows(
        package, "SELECT account_id, nickname FROM account WHERE customer_id = ? AND nickname IS NOT NULL", other
    )[0]
    source = PickerSource(env, Session(env, customer))
    transfer = action_form(env, "transfer_funds")
    listed = source.pickers(transfer, {}, {})["to_account_id"]
    assert {choice.key for choice in listed.choices} == mine and listed.others_by_key and listed.searchable
    by_key = source.pickers(transfer, {}, {"to_account_id": theirs})["to_account_id"]
    (found,) = [choice for choice in by_key.choices if choice.key == theirs]
    assert found.text == f"Another customer's account ({theirs})" and found.details == ()
    assert by_key.matching == 1, "found by its key, it is what the search matched"
    assert nickname not in found.text
    by_words = source.pickers(transfer, {}, {"to_account_id": nickname})["to_account_id"]
    assert theirs not in {choice.key for choice in by_words.choices}
    # an argument that must name the person's own row never finds another's, not even by its key
    pay = action_form(env, "pay_bill")
    refused = source.pickers(pay, {"account_id": theirs}, {"account_id": theirs})["account_id"]
    assert theirs not in {choice.key for choice in refused.choices} and not refused.others_by_key


@pytest.mark.parametrize("kind", ["web", "phone"])
def test_a_record_field_is_a_keyboard_picker_of_the_persons_rows_that_submits_the_key_in_chromium(
    chromium: Browser, packages: dict[str, Path], kind: AppKind
) -> None:
    package = packages["retail"]
    customer, order, addresses = _reroute_case(package)
    server = AppServer(load_package(open_package(package)), kind)
    episode = server.episodes.open_free(person=customer)
    expected = PickerSource(server.package.env, episode.session).pickers(
        server.pages.spec.action("update_shipping_address"), {}, {}
    )["address_id"]
    context = chromium.new_context(**context_options(kind))
    page = context.new_page()
    problems = watch(page)
    try:
        with serve(server.app()) as base_url:
            page.goto(f"{base_url}/e/{episode.token}/order/{order}/do/update_shipping_address")
            radios = page.get_by_role("radio")
            names = [radio.get_attribute("aria-label") for radio in radios.all()]
            assert names == [choice.text for choice in expected.choices]
            assert sorted(radio.get_attribute("value") or "" for radio in radios.all()) == sorted(addresses)
            group = page.get_by_role("radiogroup", name="Address")
            expect(group).to_be_visible()
            axtree = accessibility_text(page)
            assert 'radiogroup "Address"' in axtree
            assert all(f'radio "{name}"' in axtree for name in names)
            # a radio group is one tab stop, and the arrow keys move the choice
            radios.first.focus()
            page.keyboard.press("Space")
            page.keyboard.press("ArrowDown")
            expect(radios.nth(1)).to_be_checked()
            target = expected.choices[-1]
            page.get_by_role("radio", name=target.text, exact=True).check()
            page.get_by_test_id("submit").click()
            expect(page.get_by_test_id("flash")).to_be_visible()
    finally:
        context.close()
    writes = [call for call in episode.calls if call[0] == "update_shipping_address"]
    assert writes == [("update_shipping_address", {"address_id": target.key, "order_id": order}, True)]
    assert problems == []
