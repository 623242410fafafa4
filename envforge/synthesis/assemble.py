"""From the model's step answers to a blueprint dict: keys, references and relations are added here.

The model names things and describes them; the structure that must be exactly right (one `id` field per
entity, a `ref` field and a relation per link, the person's identity fields) is derived, so it is right
by construction. A name the model repeats (an entity listed twice, a column the structure
already has) is dropped with a note: a repetition carries no information, and a
small model repeats itself often. Whatever else the model chose that the IR would refuse is reported as a
`DraftError` naming the step that chose it, which the writer feeds back to that step.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from envforge.synthesis.drafts import DraftError, EntitySketch, check_name
from envforge.synthesis.menu import expand_action

CLOCK = datetime(2026, 3, 16, 9, 0)
"""Every written blueprint runs at the same fixed time, so a rerun seeds the same dates."""
PERSON_FIELDS: tuple[dict[str, Any], ...] = (
    {"name": "first_name", "type": "string", "searchable": True, "description": "Given name."},
    {"name": "last_name", "type": "string", "searchable": True, "description": "Family name."},
    {
        "name": "email",
        "type": "string",
        "unique": True,
        "searchable": True,
        "max_length": 120,
        "description": "Email address; identifies the user.",
    },
)
"""How users identify themselves: the task synthesizer finds a user by a unique searchable field."""
CREDENTIAL = "email"
"""The person field that authenticates a user of a written blueprint (the blueprint's default credential)."""


def _prefix(name: str, taken: set[str]) -> str:
    letters = "".join(char for char in name.upper() if "A" <= char <= "Z") or "KEY"
    for size in (3, 4, 5, 2):
        candidate = letters[:size]
        if candidate not in taken:
            return candidate
    for char in "XYZQWV":
        candidate = f"{letters[:3]}{char}"[:5]
        if candidate not in taken:
            return candidate
    return letters[:5]


def fields_step(entity: str) -> str:
    return f"fields:{entity}"


def _first_of_each(
    items: list[dict[str, Any]], taken: set[str], what: str, notes: list[str] | None
) -> list[dict[str, Any]]:
    """The items whose name is not taken yet, in order; each repeated one is noted."""
    kept = []
    for item in items:
        if item["name"] in taken:
            if notes is not None:
                notes.append(f"dropped a repeated {what} '{item['name']}'")
            continue
        taken.add(item["name"])
        kept.append(item)
    return kept


def sketch_entities(answers: dict[str, Any], notes: list[str] | None = None) -> list[EntitySketch]:
    """Entities with keys, links and columns, in seeding order: the person first, then the others as listed."""
    listed = _first_of_each(answers["entities"]["entities"], set(), "entity", notes)
    if len(listed) < 2:
        # Tasks walk from the user to their records; a domain of users alone has nothing to walk to.
        raise DraftError("entities", "name at least two different kinds of record: the users and what they have")
    person = answers["person"]["person"] if "person" in answers else listed[0]["name"]
    prefixes: set[str] = set()
    sketches = []
    for item in sorted(listed, key=lambda item: item["name"] != person):
        check_name("entities", "entity", item["name"])
        sketches.append(_sketch(item["name"], item["description"], prefixes, is_person=item["name"] == person))
    sketches[0].fields = [dict(item) for item in PERSON_FIELDS]
    links = answers.get("links")
    if links is not None:
        for sketch in sketches[1:]:
            link = links.get(sketch.name)
            if link is None:
                continue
            parents = [link["belongs_to"]]
            if link.get("also_refers_to", "none") not in ("none", link["belongs_to"]):
                parents.append(link["also_refers_to"])
            sketch.refs = [(f"{parent}_id", parent) for parent in parents]
    for sketch in sketches:
        step = fields_step(sketch.name)
        answer = answers.get(step)
        if answer is None:
            continue
        taken = {sketch.key, *(ref for ref, _ in sketch.refs), *(item["name"] for item in sketch.fields)}
        for item in _first_of_each(answer["fields"], taken, f"column of {sketch.name}", notes):
            check_name(step, "field", item["name"])
            spec = {"name": item["name"], "type": item["type"], "description": item.get("description", "")}
            if item["type"] == "enum":
                spec["values"] = list(item["values"])
            sketch.fields.append(spec)
    return sketches


def _sketch(name: str, description: str, prefixes: set[str], *, is_person: bool = False) -> EntitySketch:
    prefix = _prefix(name, prefixes)
    prefixes.add(prefix)
    return EntitySketch(name=name, description=description, key=f"{name}_id", prefix=prefix, is_person=is_person)


def _owners(sketches: list[EntitySketch], relations: list[dict[str, Any]]) -> dict[str, str]:
    """Entity -> its `belongs_to` relation, where a second link also leads to the person: the model said which
    link makes a row the person's, so ownership is declared rather than left ambiguous."""
    owned = {sketches[0].name}
    changed = True
    while changed:
        changed = False
        for relation in relations:
            if relation["parent"] in owned and relation["child"] not in owned:
                owned.add(relation["child"])
                changed = True
    owners = {}
    for sketch in sketches[1:]:
        links = [relation for relation in relations if relation["child"] == sketch.name]
        leading = [relation["name"] for relation in links if relation["parent"] in owned]
        if len(leading) > 1:
            owners[sketch.name] = leading[0]  # the first link is the one the model named `belongs_to`
    return owners


def _entity_spec(sketch: EntitySketch, owner: str | None = None) -> dict[str, Any]:
    fields: list[dict[str, Any]] = [
        {"name": sketch.key, "type": "id", "prefix": sketch.prefix, "description": f"Key of the {sketch.name}."}
    ]
    fields += [
        {"name": ref, "type": "ref", "description": f"The {parent} it belongs to."} for ref, parent in sketch.refs
    ]
    fields += [dict(item) for item in sketch.fields]
    spec: dict[str, Any] = {"name": sketch.name, "description": sketch.description, "fields": fields}
    if owner is not None:
        spec["owner"] = owner
    return spec


def build_blueprint(answers: dict[str, Any], notes: list[str] | None = None) -> dict[str, Any]:
    """The blueprint dict the answers describe; raises DraftError for what the IR would refuse."""
    domain = answers["domain"]
    sketches = sketch_entities(answers, notes)
    relations = [
        {
            "name": f"{sketch.name}_{parent}" if index == 0 else f"{sketch.name}_{ref.removesuffix('_id')}_link",
            "child": sketch.name,
            "field": ref,
            "parent": parent,
            "description": f"The {parent} of the {sketch.name}.",
        }
        for sketch in sketches
        for index, (ref, parent) in enumerate(sketch.refs)
    ]
    owners = _owners(sketches, relations)
    by_name = {sketch.name: sketch for sketch in sketches}
    chosen = _first_of_each(answers["actions"]["actions"], set(), "action", notes)
    actions = [expand_action(choice, by_name, index) for index, choice in enumerate(chosen)]
    personas = [
        {
            "name": persona["name"],
            "description": persona["description"],
            "traits": list(persona["traits"]),
            # Every user can state the email that authenticates them, whatever else the model chose.
            "knows": list(dict.fromkeys([*persona["knows"], CREDENTIAL])),
        }
        for persona in _first_of_each(answers["personas"]["personas"], set(), "persona", notes)
    ]
    return {
        "schema_version": 1,
        "domain": domain["domain"],
        "version": 0,
        "title": domain["title"],
        "description": domain["description"],
        "clock": CLOCK.isoformat(),
        "person": sketches[0].name,
        "agent_instructions": domain["agent_instructions"],
        "entities": [_entity_spec(sketch, owner) for sketch in sketches for owner in [owners.get(sketch.name)]],
        "relations": relations,
        "actions": actions,
        "policies": [],
        "personas": personas,
    }


def knowable_fields() -> list[str]:
    """Person fields a user can state: the searchable identity fields, so the agent can look the user up."""
    return [str(item["name"]) for item in PERSON_FIELDS if item.get("searchable")]
