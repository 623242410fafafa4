"""Seed invariants: what must hold in every seeded state, so that the world reads as real.

They are declared at the top of a blueprint rather than on an entity because most of them cross
entities (a total over lines, a return on a delivered order); each still names the one entity whose
rows it constrains. Expressions see that row under the entity's name, the rows named in `parents`,
`today` and `now`. The state stage makes every seeded row satisfy them and `envforge check` counts
violations; they are not enforced on writes (that is what entity policies do).
"""

from __future__ import annotations

import typing
from typing import Annotated, Literal

from pydantic import Field, Tag

from envforge.ir.base import IRModel
from envforge.ir.syntax import Expression, Identifier, Scalar, key_discriminator, tag_keys

ParentPath = Annotated[str, Field(pattern=r"^([a-z][a-z0-9_]*\.)?[a-z][a-z0-9_]*$")]
"""`ref_field` of the row, or `alias.ref_field` of a parent named earlier in `parents`."""

Aggregate = Literal["sum", "count", "min", "max"]


class _InvariantBase(IRModel):
    id: Identifier
    """Stable invariant id, named in reports."""
    text: str = Field(min_length=1)
    """The rule in one line, as people read it in reports."""
    entity: Identifier
    """The entity whose rows must satisfy it; expressions see the row under this name."""
    parents: dict[Identifier, ParentPath] = Field(default_factory=dict)
    """Aliases for rows reached through ref fields, in order: `{item: item_id, order: item.order_id}` binds the
    row's item and that item's order."""


TotalPath = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")]
"""A row the invariant sees, then the relations followed down from it: `order.order_items`, or
`patient.patient_appointments.appointment_invoices` for the invoices of the patient's appointments."""


class Total(IRModel):
    """An aggregate over the rows reached down relations from a row the invariant sees, read by name in `value`."""

    aggregate: Aggregate
    """`sum`, `min` or `max` of `of` over the rows, or `count` of them."""
    over: TotalPath
    """Where the rows are: an alias (the invariant's entity name or one of its `parents`), then each relation
    from parent to child, e.g. `order.order_items`."""
    of: Expression | None = None
    """What is aggregated for each row; it sees every row along `over` under its entity name."""
    where: Expression | None = None
    """Only rows for which this holds count, e.g. `invoice.status == 'open'`."""
    empty: Scalar | None = None
    """The value when no row counts; 0 for sum and count, empty for min and max when left out."""


class DerivedValue(_InvariantBase):
    """A field computed from other values: an aggregate over child rows, or an expression over the row.

    The state stage computes it after every row exists, then recomputes the `copy_from` fields that read it.
    """

    derive: Identifier
    """The field whose value is derived."""
    value: Expression | None = None
    """The value, from the row, its `parents` and `children`; e.g. `'refunded' if payment.refunded_total >=
    payment.amount else 'captured'`. Give this, or `aggregate` with `over`."""
    aggregate: Aggregate | None = None
    """`sum`, `min` or `max` of `of` over the child rows, or `count` of them."""
    over: Identifier | None = None
    """The relation whose parent is this entity; its child rows are aggregated, each seen under its entity name."""
    of: Expression | None = None
    """What is aggregated for each child row, e.g. `order_item.unit_price * order_item.quantity`."""
    where: Expression | None = None
    """Only child rows for which this holds count, e.g. `order_item.status != 'cancelled'`."""
    empty: Scalar | None = None
    """The value when no child row counts; 0 for sum and count, empty for min and max when left out."""
    children: dict[Identifier, Identifier] = Field(default_factory=dict)
    """Aliases for the one child row (or none) of a one_to_one relation whose parent is this entity, for `value`:
    `{return_request: item_returns}`."""
    totals: dict[Identifier, Total] = Field(default_factory=dict)
    """Named aggregates `value` reads: `{owed: {aggregate: sum, over: patient.patient_appointments.appointment_invoices,
    of: invoice.amount - invoice.amount_paid}}` makes `owed` the sum over the invoices of the patient's
    appointments. They reach the children of parents and grandchildren, which `aggregate` with `over` does not."""


class ConditionalValue(_InvariantBase):
    """A nullable field is filled exactly when a condition on the row holds (a delivery date only when delivered)."""

    present: Identifier
    """The field that is set exactly when `when` holds and empty otherwise."""
    when: Expression
    """The condition, e.g. `order.status == 'delivered'`."""


class TemporalOrder(_InvariantBase):
    """A date or datetime field lies between bounds: not earlier than some dates, not later than others.

    Bounds that are empty on a row are ignored, and so is a row whose field is empty. Where a value is out of
    bounds, the state stage draws it again inside them (within the field's generator range where possible).
    """

    date: Identifier
    """The date or datetime field that is bounded."""
    not_before: list[Expression] = Field(default_factory=list)
    """Dates the field is not earlier than, e.g. `order.placed_on` or `add_days(order.placed_on, 2)`."""
    not_after: list[Expression] = Field(default_factory=list)
    """Dates the field is not later than, e.g. `today`."""


class StateRule(_InvariantBase):
    """A row-level condition over the row and its parents (a return only on a line of a delivered order)."""

    require: Expression
    """Must hold for every row, e.g. `order.status == 'delivered' and item.status != 'cancelled'`."""
    seed_by: Identifier
    """The field the state stage picks so that the rule holds: for a ref field, among the parents for which it
    holds; for any other field, by drawing it again from its generator (a bounded number of times)."""
    distinct: bool = False
    """With a ref `seed_by`: no two rows share a parent (e.g. at most one refund per payment)."""
    totals: dict[Identifier, Total] = Field(default_factory=dict)
    """Named aggregates `require` reads, as a derived value's `totals`: `{returns: {aggregate: count, over:
    order.order_items.item_returns}}`. They are counted when this entity's rows are seeded, over the rows seeded
    before it as they are then (a field derived later still holds its drawn value); the rule is checked again
    once everything is derived."""


class ChildCount(_InvariantBase):
    """Every row has at least some child rows through a relation (an order has a line).

    The state stage meets it when the child rows are seeded, by moving children from parents that have more than
    they need to those that have too few, where every rule of the child still holds after the move.
    """

    at_least: int = Field(ge=1)
    """The fewest child rows each row has."""
    when: Expression | None = None
    """Only rows for which this holds need the children, e.g. `order.status == 'cancelled'` for the refund of a
    cancelled order's payment; it sees the row and its `parents`."""
    over: Identifier
    """The relation whose parent is this entity; its child rows are counted, each seen under its entity name."""
    where: Expression | None = None
    """Only child rows for which this holds count, e.g. `order_item.status != 'cancelled'`."""


_TaggedInvariant = (
    Annotated[DerivedValue, Tag("derive")]
    | Annotated[ConditionalValue, Tag("present")]
    | Annotated[TemporalOrder, Tag("date")]
    | Annotated[StateRule, Tag("require")]
    | Annotated[ChildCount, Tag("at_least")]
)

INVARIANT_KINDS: tuple[str, ...] = tag_keys(_TaggedInvariant)
"""The keys that name an invariant's kind (`derive`, `present`, `date`, `require`, `at_least`), in the union's
order."""


InvariantSpec = Annotated[
    _TaggedInvariant,
    key_discriminator(INVARIANT_KINDS, "invariant"),
]
"""One declared seed invariant; its kind is named by the key `derive`, `present`, `date`, `require` or
`at_least`."""


def invariant_field(invariant: InvariantSpec) -> str | None:
    """The field of the invariant's entity that the state stage sets to satisfy it; None for a child count, which
    moves child rows instead."""
    match invariant:
        case ChildCount():
            return None
        case DerivedValue():
            return invariant.derive
        case ConditionalValue():
            return invariant.present
        case TemporalOrder():
            return invariant.date
        case StateRule():
            return invariant.seed_by
        case _:
            typing.assert_never(invariant)
