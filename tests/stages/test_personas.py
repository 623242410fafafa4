"""Who plays each task's user: a persona whose `fits` holds for the person, never a child at a bank or a 40-year-old
'senior'; a person no persona fits asks nothing."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from envforge.errors import BlueprintError
from envforge.ir.blueprint import Blueprint
from envforge.ir.expressions import compile_expression
from envforge.ir.loading import load_blueprint
from envforge.ir.violations import read_tables
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_tasks
from envforge.stages.tasks.personas import PersonaCast
from tests.blueprint_edits import RETAIL
from tests.conftest import BLUEPRINTS

DOMAINS = [path.stem for path in BLUEPRINTS]
SENIOR_PERSONAS = ("careful_retiree", "chronic_care_senior", "retiree", "retired_teacher")
"""Personas whose description makes them old; in retail, where customers have no age, none of them plays by age."""
YOUNGEST = {"library": 12}
"""The youngest user a domain serves: a teenager borrows books on a child card; elsewhere users are adults."""


def _world(package: Path) -> tuple[Blueprint, dict[str, list[dict[str, Any]]]]:
    """The package's blueprint and its seeded rows per entity."""
    env = load_environment(open_package(package))
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(env.template)
        return env.blueprint, read_tables(connection, env.blueprint)
    finally:
        connection.close()


def _age(born: str, today: date) -> int:
    birth = date.fromisoformat(born)
    return today.year - birth.year - ((today.month, today.day) < (birth.month, birth.day))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_task_of_every_domain_is_played_by_a_persona_whose_condition_holds_for_its_person(
    packages: dict[str, Path], domain: str
) -> None:
    blueprint, tables = _world(packages[domain])
    keys = {entity.name: next(f.name for f in entity.fields if f.type == "id") for entity in blueprint.entities}
    persons = {row[keys[blueprint.person]]: row for row in tables[blueprint.person]}
    links = [r for r in blueprint.relations if r.parent == blueprint.person and r.child in blueprint.linked_persons]
    personas = {persona.name: persona for persona in blueprint.personas}
    clock = {"today": blueprint.clock.date().isoformat(), "now": blueprint.clock.isoformat()}
    tasks = load_tasks(open_package(packages[domain])).values()
    assert tasks
    for task in tasks:
        person = task.scenario.person
        scope: dict[str, Any] = {**clock, blueprint.person: persons[person]}
        for link in links:
            scope[link.child] = next(row for row in tables[link.child] if row[link.field] == person)
        fits = personas[task.scenario.persona].fits
        assert fits is None or compile_expression(fits)(scope), (task.id, task.scenario.persona, person)


@pytest.mark.parametrize("domain", [domain for domain in DOMAINS if domain != "retail"])
def test_no_task_is_asked_by_a_child_the_domain_does_not_serve_and_senior_personas_play_people_over_60(
    packages: dict[str, Path], domain: str
) -> None:
    blueprint, tables = _world(packages[domain])
    key = next(field.name for field in blueprint.entity(blueprint.person).fields if field.type == "id")
    born = {row[key]: row["date_of_birth"] for row in tables[blueprint.person]}
    today = blueprint.clock.date()
    played = [
        (task.scenario.persona, _age(born[task.scenario.person], today))
        for task in load_tasks(open_package(packages[domain])).values()
    ]
    # A fused world prefixes each persona with its domain (`bank_retiree`).
    seniors = [(name, age) for name, age in played if name.endswith(SENIOR_PERSONAS)]
    assert min(age for _, age in played) >= YOUNGEST.get(domain, 18)
    assert [(name, age) for name, age in seniors if age < 60] == []


def _cast(fits: str, tiers: dict[str, str]) -> PersonaCast:
    """Retail with every persona fitting only where `fits` holds, over customers of these loyalty tiers."""
    retail = load_blueprint(RETAIL)
    blueprint = retail.model_copy(
        update={"personas": [persona.model_copy(update={"fits": fits}) for persona in retail.personas]}
    )
    rows = {"customer": {key: {"customer_id": key, "loyalty_tier": tier} for key, tier in tiers.items()}}
    return PersonaCast(blueprint, rows, seed=0)


def test_a_person_no_persona_fits_asks_no_task_and_the_others_keep_their_order() -> None:
    cast = _cast("customer.loyalty_tier == 'gold'", {"CUS-1": "gold", "CUS-2": "standard", "CUS-3": "gold"})

    assert cast.players(["CUS-3", "CUS-2", "CUS-1"]) == ["CUS-3", "CUS-1"]
    assert [persona.name for persona in cast.fitting("CUS-2")] == []
    assert cast.persona_of("CUS-1").name in ("busy_parent", "careful_retiree", "deal_hunter")


def test_a_world_where_no_person_fits_any_persona_fails_naming_the_conditions() -> None:
    cast = _cast("customer.loyalty_tier == 'platinum'", {"CUS-1": "gold"})

    with pytest.raises(BlueprintError) as info:
        cast.players(["CUS-1"])

    assert str(info.value).startswith("no customer row fits any persona (busy_parent: customer.loyalty_tier == ")
    assert str(info.value).endswith(
        "so no task has a user; widen a persona's 'fits', or the generators of the fields it reads"
    )
