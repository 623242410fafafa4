"""What the model is told at each blueprint-writing step: one worked example (a bookshop), then the question.

A worked example in the answer's own format steers small models far better than a description of the
format (a 135M model copies instruction words such as "lower_snake_case" into names), and it costs a
capable model nothing. Prompts stay short: small models have small context windows.
"""

from __future__ import annotations

import json
from typing import Any

from envforge.synthesis.drafts import EntitySketch
from envforge.synthesis.schemas import DATA_TYPES, MAX_ACTIONS, MAX_ENTITIES, MAX_FIELDS

Message = dict[str, str]

EXAMPLE_DESCRIPTION = "a small bookshop that sells books and takes orders"
EXAMPLE_DOMAIN = {
    "domain": "bookshop",
    "title": "Corner Bookshop",
    "description": "A small bookshop that sells books and takes orders for them.",
    "agent_instructions": "You help customers with their orders and payments. Act only for the customer you talk to.",
}
EXAMPLE_ENTITIES = {
    "entities": [
        {"name": "customer", "description": "A reader who buys books."},
        {"name": "order", "description": "A purchase of books."},
        {"name": "payment", "description": "Money paid for an order."},
    ]
}
EXAMPLE_PERSON = {"person": "customer"}
EXAMPLE_FIELDS = {
    "fields": [
        {"name": "placed_on", "type": "date", "description": "When it was ordered."},
        {"name": "total", "type": "money", "description": "Amount due."},
        {
            "name": "status",
            "type": "enum",
            "values": ["pending", "shipped", "cancelled"],
            "description": "Where the order stands.",
        },
    ]
}
EXAMPLE_LINKS = {
    "order": {"belongs_to": "customer", "also_refers_to": "none"},
    "payment": {"belongs_to": "order", "also_refers_to": "none"},
}
EXAMPLE_COLUMNS = "order.placed_on (date); order.total (money); order.status (enum: pending/shipped/cancelled)"
EXAMPLE_ACTIONS = {
    "actions": [
        {
            "kind": "change_status",
            "target": "order.status",
            "from_value": "pending",
            "to_value": "cancelled",
            "name": "cancel_order",
            "description": "Cancel an order that has not shipped yet.",
        },
        {"kind": "create", "target": "payment", "name": "add_payment", "description": "Record a payment for an order."},
    ]
}
EXAMPLE_PERSONAS = {
    "personas": [
        {
            "name": "busy_reader",
            "description": "Orders books between meetings.",
            "traits": ["terse", "impatient"],
            "knows": ["email"],
        },
        {
            "name": "careful_collector",
            "description": "Collects first editions and checks every detail.",
            "traits": ["polite", "detail-oriented"],
            "knows": ["first_name", "last_name"],
        },
    ]
}


def system() -> Message:
    return {
        "role": "system",
        "content": (
            "You design the data of a customer-service domain: a database that an assistant reads and changes "
            "with tools on behalf of a user. Answer with JSON only, in the format of the example."
        ),
    }


def user(text: str) -> Message:
    return {"role": "user", "content": text}


def _shot(question: str, answer: dict[str, Any], real: str) -> list[Message]:
    return [user(question), {"role": "assistant", "content": json.dumps(answer)}, user(real)]


def domain_step(description: str) -> list[Message]:
    ask = "Describe the domain: {}."
    return _shot(ask.format(EXAMPLE_DESCRIPTION), EXAMPLE_DOMAIN, ask.format(description.strip()))


def entities_step(description: str) -> list[Message]:
    ask = "The domain: {}. List 2 to " + str(MAX_ENTITIES) + " different kinds of records it keeps, people first."
    return _shot(ask.format(EXAMPLE_DESCRIPTION), EXAMPLE_ENTITIES, ask.format(description.strip()))


def person_step(names: list[str]) -> list[Message]:
    ask = "Records: {}. Which of them is the user the assistant talks to?"
    example = ", ".join(item["name"] for item in EXAMPLE_ENTITIES["entities"])
    return _shot(ask.format(example), EXAMPLE_PERSON, ask.format(", ".join(names)))


def fields_step(sketch: EntitySketch) -> list[Message]:
    ask = (
        "List 1 to " + str(MAX_FIELDS) + " columns of a {} ({}), besides its key and links{}. "
        f"Types: {', '.join(DATA_TYPES)}, or enum with values."
    )
    known = ", first_name, last_name and email" if sketch.is_person else ""
    return _shot(
        ask.format("order", "A purchase of books.", ""),
        EXAMPLE_FIELDS,
        ask.format(sketch.name, sketch.description, known),
    )


def links_step(person: str, others: list[EntitySketch]) -> list[Message]:
    ask = "Each record belongs to the {} or to a record listed before it, and may refer to one more. Records: {}."
    example = "order (A purchase of books.); payment (Money paid for an order.)"
    listed = "; ".join(f"{sketch.name} ({sketch.description})" for sketch in others)
    return _shot(ask.format("customer", example), EXAMPLE_LINKS, ask.format(person, listed))


def columns(sketches: list[EntitySketch]) -> str:
    parts = []
    for sketch in sketches:
        for item in sketch.fields:
            values = f": {'/'.join(item['values'])}" if item["type"] == "enum" else ""
            parts.append(f"{sketch.name}.{item['name']} ({item['type']}{values})")
    return "; ".join(parts) or "none"


def actions_step(sketches: list[EntitySketch]) -> list[Message]:
    ask = (
        "Choose 1 to " + str(MAX_ACTIONS) + " different actions the assistant takes for the user. Kinds: "
        "change_status (an enum column from one value to another), set_field (a column to a value the user "
        "gives), add_to or subtract_from (a number), create (a new record). Names are verb_noun, e.g. "
        "cancel_order. Columns: {}."
    )
    return _shot(ask.format(EXAMPLE_COLUMNS), EXAMPLE_ACTIONS, ask.format(columns(sketches)))


def personas_step(person: str, knowable: list[str]) -> list[Message]:
    ask = "Describe 1 to 3 kinds of {} who talk to the assistant, and which of {} they tell it."
    listed = ", ".join(knowable)
    return _shot(ask.format("customer", listed), EXAMPLE_PERSONAS, ask.format(person, listed))


def repair(error: str) -> str:
    return f"That answer makes the domain invalid: {error}. Answer again in the same format with this fixed."
