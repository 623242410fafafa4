"""Whose rows are whose: the relation chains up to the person entity, and the blueprint errors when they compete.

The blueprint cases edit the shipped retail blueprint so a return request also points at its order
(`two_chains`): it then reaches the customer through two relations, and only `owner:` settles which counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.errors import BlueprintError
from envforge.ir.loading import load_blueprint, load_blueprint_text
from envforge.ir.ownership import owner_paths
from tests.blueprint_edits import edit, line_of, two_chains
from tests.conftest import REPO
from tests.ir.test_blueprint_errors import load_error


def test_every_owned_entity_maps_to_its_chain_up_to_the_person_and_catalog_entities_are_absent() -> None:
    paths = owner_paths(load_blueprint(REPO / "blueprints" / "retail.yaml"))
    assert {entity: [relation.name for relation in path] for entity, path in paths.items()} == {
        "customer": [],
        "address": ["customer_addresses"],
        "order": ["customer_orders"],
        "order_item": ["order_items", "customer_orders"],
        "payment": ["order_payment", "customer_orders"],
        "return_request": ["item_returns", "order_items", "customer_orders"],
        "refund": ["payment_refunds", "order_payment", "customer_orders"],
    }


def test_a_banking_transfer_belongs_to_the_customer_who_sends_it() -> None:
    paths = owner_paths(load_blueprint(REPO / "blueprints" / "banking.yaml"))
    assert [relation.name for relation in paths["transfer"]] == ["transfer_source", "customer_accounts"]


@pytest.mark.parametrize("domain", ["airline", "clinic", "library"])
def test_catalog_entities_belong_to_no_one(domain: str) -> None:
    blueprint = load_blueprint(REPO / "blueprints" / f"{domain}.yaml")
    paths = owner_paths(blueprint)
    catalog = {"airline": {"route", "flight", "fare"}, "clinic": {"doctor", "slot", "medication"}}
    assert not catalog.get(domain, {"book", "branch", "holding"}) & set(paths)
    assert paths[blueprint.person] == []


def test_an_entity_reaching_the_person_through_two_relations_is_one_line_naming_them_and_owner(
    tmp_path: Path,
) -> None:
    text = two_chains()
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "  - name: return_request")
    assert error.detail == (
        "entity 'return_request' belongs to a customer through 2 relations (item_returns, return_order); "
        "set 'owner: <relation>' on entity 'return_request' to the one that makes a row the customer's"
    )


def test_declaring_the_owner_relation_settles_the_chain() -> None:
    blueprint = load_blueprint_text(two_chains("return_order"), "retail.yaml")
    assert [relation.name for relation in owner_paths(blueprint)["return_request"]] == [
        "return_order",
        "customer_orders",
    ]
    blueprint = load_blueprint_text(two_chains("item_returns"), "retail.yaml")
    assert owner_paths(blueprint)["return_request"][0].name == "item_returns"


def test_an_unknown_owner_relation_suggests_the_entitys_relation(tmp_path: Path) -> None:
    text = two_chains("return_ordr")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "owner: return_ordr")
    assert error.path == "entities[6].owner"
    assert error.detail == (
        "unknown relation 'return_ordr' in 'owner' of entity 'return_request'; did you mean 'return_order'?"
    )


def test_an_owner_relation_of_another_entity_says_to_name_one_whose_child_is_this_entity(tmp_path: Path) -> None:
    text = two_chains("customer_orders")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "owner: customer_orders")
    assert error.detail == (
        "relation 'customer_orders' links 'order' to 'customer', so it cannot make a row of 'return_request' "
        "belong to the person; 'owner' names a relation whose child is 'return_request'; "
        "its relations are return_order, item_returns"
    )


def test_an_owner_on_the_person_entity_says_to_remove_it(tmp_path: Path) -> None:
    text = edit("  - name: customer\n", "  - name: customer\n    owner: customer_orders\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "owner: customer_orders")
    assert "is the person entity" in error.detail
    assert error.detail.endswith("remove 'owner'")


def test_an_owner_on_a_catalog_entity_says_no_chain_leads_to_the_person(tmp_path: Path) -> None:
    airline = (REPO / "blueprints" / "airline.yaml").read_text(encoding="utf-8")
    text = edit("  - name: flight\n", "  - name: flight\n    owner: route_flights\n", airline)
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "owner: route_flights")
    assert error.detail == (
        "entity 'flight' has 'owner: route_flights', but no chain of relations leads from it through that "
        "relation to the person entity 'passenger'; name a relation whose parent belongs to a passenger, "
        "or remove 'owner'"
    )


def test_an_ownership_error_is_a_blueprint_error() -> None:
    with pytest.raises(BlueprintError, match="through 2 relations"):
        load_blueprint_text(two_chains(), "retail.yaml")
