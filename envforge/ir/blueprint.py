"""The blueprint: a hand- or LLM-written declaration of one domain.

Field docstrings become JSON Schema descriptions, so this file documents the YAML format,
validates it, and instructs an LLM that writes blueprints.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StrictFloat, StrictInt, StrictStr, Tag, model_validator

from envforge.ir.base import IRModel
from envforge.ir.invariants import InvariantSpec
from envforge.ir.syntax import Expression, Identifier, Scalar, key_discriminator, tag_keys

FieldType = Literal["id", "ref", "string", "text", "integer", "number", "money", "boolean", "date", "datetime", "enum"]
ParamType = Literal["string", "text", "integer", "number", "money", "boolean", "date", "datetime", "enum"]


class ValueGenerator(IRModel):
    """How seed data for one field is made. Set one of `faker`, `choices`, `range`, `pattern`, `copy_from`."""

    faker: str | None = None
    """A Faker provider method, e.g. `name`, `email`, `street_address`, `company`, `sentence`."""
    args: dict[str, Scalar] = Field(default_factory=dict)
    """Keyword arguments for the Faker method."""
    choices: list[Scalar] | None = None
    """Pick one of these values."""
    weights: list[float] | None = None
    """Relative weights for `choices`, same length."""
    range: tuple[float, float] | None = None
    """Inclusive numeric range; for date and datetime fields, days relative to the clock (e.g. [-365, 0])."""
    pattern: str | None = None
    """A pattern where `#` is a digit and `?` an upper-case letter, e.g. `??-####`."""
    copy_from: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
    """Copy a field of the parent row through a ref field of this entity: `product_id.price` makes an
    order item's price equal its product's price."""
    null_rate: float = Field(default=0.0, ge=0.0, le=1.0)
    """Share of rows left empty (only for optional fields)."""


class FieldSpec(IRModel):
    """One column of an entity."""

    name: Identifier
    """Column name, lower_snake_case. Foreign keys end with `_id` by convention."""
    type: FieldType
    """`id` is the entity's key (exactly one per entity); `ref` holds another entity's key (declare the
    link under `relations`); `money` is a decimal amount with two places."""
    description: str = ""
    """What the field means, in words an agent understands."""
    prefix: str | None = Field(default=None, pattern=r"^[A-Z]{1,5}$")
    """For `id` fields: the upper-case prefix of generated keys, e.g. `ORD` gives `ORD-104233`."""
    values: list[str] | None = None
    """For `enum` fields: the allowed values."""
    nullable: bool = False
    """Whether the field may be empty."""
    unique: bool = False
    """Whether no two rows share a value (e.g. an email address)."""
    minimum: float | None = None
    """Smallest allowed number."""
    maximum: float | None = None
    """Largest allowed number."""
    max_length: int | None = Field(default=None, gt=0)
    """Longest allowed string."""
    searchable: bool = False
    """People look rows up by this field: READ tools filter on it (`list_<entities>`; enum, boolean and ref fields
    are always filters), and a unique
    searchable field gets its own `find_<entity>_by_<field>` tool."""
    default: Scalar | None = None
    """Value used when an insert effect does not set the field."""
    generator: ValueGenerator | None = None
    """How seed data is made; a sensible default is chosen from the type and name when omitted."""
    phrase: str | None = Field(default=None, pattern=r"\{value\}")
    """How a user names a row by this field in a request, with `{noun}` and `{value}`: `{noun} placed on {value}`,
    `{value} {noun}` (a status), `{noun} shipped to {value}`; without `{noun}` the phrase names the row alone
    (`Dr. {value}`). Omitted: made from the name and type where they read well (dates named `<verb>_on`,
    statuses, cities, amounts), else the field does not name rows."""
    noun: str | None = Field(default=None, min_length=1, max_length=60)
    """What a user calls this field in a question, e.g. `shipping postal code` for `ship_postal_code`. Omitted:
    the field name in words."""


def _iso_text(value: Any) -> Any:
    # YAML reads an unquoted 2026-03-16 as a date; the state holds dates as ISO text.
    return value.isoformat() if isinstance(value, date) else value


CatalogueValue = Annotated[Scalar | None, BeforeValidator(_iso_text)]
"""A declared value of one field of a catalogue row; a date or date-time is its ISO text."""


class EntitySpec(IRModel):
    """A kind of thing in the domain, stored as one table."""

    name: Identifier
    """Singular name, e.g. `order`."""
    plural: Identifier | None = None
    """Plural name used in tool names; defaults to the name plus `s`."""
    description: str
    """What one row is."""
    fields: list[FieldSpec] = Field(min_length=2)
    """Columns; exactly one has type `id`."""
    rows: int = Field(default=100, ge=1, le=1_000_000)
    """Relative number of seed rows; scaled so all entities together reach the requested row count. With a
    `catalogue`, its number of rows, which no row count scales."""
    owner: Identifier | None = None
    """The relation (with this entity as child) through which a row belongs to the person; needed only where
    several relation paths lead to the person entity."""
    catalogue: list[dict[Identifier, CatalogueValue]] = Field(default_factory=list)
    """The rows people pick from, declared one by one so their fields agree, e.g. `{name: Chef Knife, category:
    kitchen, price: 89.00}`. The entity then has exactly these rows, first to last, at any row count (`rows`, if
    written, equals their number); fields a row leaves out (never the key or a ref) are generated as usual. Each
    value meets its field's type, values, bounds, length and uniqueness, and the invariants."""

    @model_validator(mode="before")
    @classmethod
    def _rows_of_catalogue(cls, data: Any) -> Any:
        """A catalogue is every row of its entity, so its length is the entity's row count unless `rows` says
        otherwise (which the checks refuse)."""
        rows = data.get("catalogue") if isinstance(data, dict) else None
        if isinstance(rows, list) and rows and "rows" not in data:
            return {**data, "rows": len(rows)}
        return data


class RelationSpec(IRModel):
    """A foreign key: rows of `child` point at one row of `parent` through `field`."""

    name: Identifier
    """A name for the link, e.g. `customer_orders`."""
    child: Identifier
    """Entity that holds the foreign key."""
    field: Identifier
    """A `ref` field of the child entity."""
    parent: Identifier
    """Entity whose key the field holds."""
    cardinality: Literal["many_to_one", "one_to_one"] = "many_to_one"
    """`many_to_one`: many children per parent; `one_to_one`: at most one child per parent."""
    required: bool = True
    """Whether every child row must point at a parent."""
    description: str = ""
    """What the link means."""


class ParamSpec(IRModel):
    """One argument of a domain action."""

    name: Identifier
    """Argument name."""
    type: ParamType = "string"
    """Argument type; for keys of rows set `ref` instead (the type is then string)."""
    ref: Identifier | None = None
    """The argument is the key of a row of this entity (its JSON type is string)."""
    description: str = ""
    """What the caller passes."""
    required: bool = True
    """Whether the caller must pass it."""
    values: list[str] | None = None
    """For `enum` arguments: the allowed values."""
    minimum: float | None = None
    """Smallest allowed number."""
    maximum: float | None = None
    """Largest allowed number."""
    max_length: int | None = Field(default=None, gt=0)
    """Longest allowed string."""
    any_owner: bool = False
    """The argument may name another person's row, e.g. a transfer's receiving account; its owner is not checked."""
    sentence: str | None = Field(default=None, pattern=r"\{value\}")
    """How a user gives this argument in a request: one sentence with `{value}`, e.g. `The bag weighs {value} kg.`
    or `I think {value} in store credit would be fair.` Omitted: one made from the name (`The new email is ...`)."""
    examples: list[StrictStr | StrictInt | StrictFloat] = Field(default_factory=list)
    """Values a user would give, which tasks draw from: for free text that no field stores (`I was in hospital that
    week`), or for a number whose range is wider than what people ask (`[15, 40, 80]` dollars of goodwill credit
    where the tool takes up to 1000). Omitted: round numbers in the range; for text, the values the field it is
    written into holds, else made-up text."""
    says: dict[str, str] | None = None
    """For `enum` arguments: what a user says for each value, one sentence each, e.g. `It arrived damaged.` for
    `damaged` and `I'll pay by card.` for `card`; the agent maps the words to the value. A value left out is said
    as its words, which reads well only where they are what a user would say (`lost`)."""


class BindingSpec(IRModel):
    """A row the action reads, found by key or by matching fields. Later expressions use its alias."""

    name: Identifier
    """Alias used in expressions, e.g. `order`."""
    entity: Identifier
    """Entity of the row."""
    key: Expression | None = None
    """Expression giving the row's key, e.g. `args.order_id`."""
    match: dict[Identifier, Expression] | None = None
    """Find the one row whose fields equal these expressions, e.g. `{order_id: order.order_id}`."""
    optional: bool = False
    """If no row is found, bind nothing (`alias is None`) instead of failing; effects on the alias are then
    skipped, which makes them conditional ("close the hold, if there is one")."""


class ConditionSpec(IRModel):
    """A precondition: the action fails with `error` unless `require` holds."""

    require: Expression
    """Must be true before any effect is applied."""
    error: str
    """What the caller is told when it does not hold."""


class UpdateEffect(IRModel):
    """Set fields of a bound row."""

    update: Identifier
    """Alias of the bound row."""
    set: dict[Identifier, Expression] = Field(min_length=1)
    """Field -> new value expression (evaluated before any of them is applied)."""


class IncrementEffect(IRModel):
    """Add to a numeric field of a bound row."""

    increment: str = Field(pattern=r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
    """`alias.field` to add to."""
    by: Expression
    """Amount to add."""


class DecrementEffect(IRModel):
    """Subtract from a numeric field of a bound row."""

    decrement: str = Field(pattern=r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
    """`alias.field` to subtract from."""
    by: Expression
    """Amount to subtract."""


class InsertEffect(IRModel):
    """Insert a new row; its key is generated. Later effects and `returns` use its alias."""

    insert: Identifier
    """Entity to insert into."""
    alias: Identifier
    """Name of the new row in later expressions."""
    values: dict[Identifier, Expression] = Field(default_factory=dict)
    """Field -> value expression; fields left out take their default or stay empty."""


class DeleteEffect(IRModel):
    """Delete a bound row, or every row of `delete` matching `where`."""

    delete: Identifier
    """Alias of a bound row, or an entity name when `where` is given."""
    where: dict[Identifier, Expression] | None = None
    """Delete all rows of the entity whose fields equal these expressions."""


_TaggedEffect = (
    Annotated[UpdateEffect, Tag("update")]
    | Annotated[IncrementEffect, Tag("increment")]
    | Annotated[DecrementEffect, Tag("decrement")]
    | Annotated[InsertEffect, Tag("insert")]
    | Annotated[DeleteEffect, Tag("delete")]
)
"""Every kind of effect, tagged with the key that names it: the one place kinds are listed. Code that must
handle every kind matches over it and ends in `assert_never`, so mypy names each place a new kind is missed."""

EFFECT_KINDS: tuple[str, ...] = tag_keys(_TaggedEffect)
"""The keys that name an effect's kind (`update`, `insert`, ...), in the union's order."""


EffectSpec = Annotated[
    _TaggedEffect,
    key_discriminator(EFFECT_KINDS, "effect"),
]
"""One declarative change to the state. Effects run in order, in one transaction."""


class ActionSpec(IRModel):
    """A domain action: a WRITE tool with arguments, bound rows, preconditions and effects."""

    name: Identifier
    """Tool name, `verb_noun`, e.g. `cancel_order`."""
    description: str
    """What the action does, for the agent."""
    entity: Identifier
    """The entity the action is mainly about (groups it in UIs)."""
    params: list[ParamSpec] = Field(default_factory=list)
    """Arguments."""
    bind: list[BindingSpec] = Field(default_factory=list)
    """Rows read before the effects, in order; each may use earlier aliases."""
    preconditions: list[ConditionSpec] = Field(default_factory=list)
    """Checks that must hold; any failing one aborts the call with its error."""
    effects: list[EffectSpec] = Field(min_length=1)
    """Changes applied in order, atomically."""
    returns: list[Identifier] = Field(default_factory=list)
    """Aliases of rows returned to the caller after the effects (bound or inserted)."""
    accumulative: bool = False
    """Calls add up (e.g. adding units to a basket): a run may reach what was asked in several calls, so a verifier
    judges only the end result of this action. Leave false where one request means one call (a refund, a grant)."""
    motives: list[str] = Field(default_factory=list)
    """Why a user asks for this action, one sentence each (`I don't use my old email anymore.`); a request says
    one of them. Write only motives true whatever the arguments are; an enum argument's `says` already gives
    one (`It arrived damaged.`). Omitted: the request gives no motive of its own."""


class PolicySpec(IRModel):
    """A business rule the agent is told, and that the runtime enforces or leaves to the agent.

    Scope it to `actions` (checked before effects, with the action's aliases and `args`), or to an
    `entity` (an invariant checked on every row of it the call inserted or changed, the row named by
    the entity name).
    """

    id: Identifier
    """Stable policy id."""
    text: str
    """The rule as the agent reads it."""
    actions: list[Identifier] | None = None
    """Actions this rule constrains."""
    entity: Identifier | None = None
    """Entity whose rows must satisfy the rule after every write."""
    require: Expression
    """Must hold, or the call breaks the policy."""
    error: str
    """What the caller is told on a violation."""
    kept_by: Literal["runtime", "agent"] = "runtime"
    """Who keeps the rule. `runtime`: a call that breaks it is refused. `agent`: the back end accepts the
    call, as many real ones do, and the agent must refuse it itself; tasks that hinge on such a rule are
    where an agent learns judgement. Only rules scoped to `actions` can be left to the agent."""
    instead: dict[Identifier, Expression] | None = None
    """What the policy offers when a request breaks it: the same action with these arguments replaced
    (`amount: "50"` for a cap, `visit_type: "'in_person'"` for an alternative), evaluated like `require`.
    Tasks then ask for the broken request and accept the offer, and the right run makes the offered call."""
    instead_action: Identifier | None = None
    """With `instead`: the offer is another action (renew refused, so return the book), whose arguments
    `instead` then gives in full, evaluated in the broken request's scope (`loan_id: args.loan_id`)."""


class PersonaSpec(IRModel):
    """A kind of user who talks to the agent."""

    name: Identifier
    """Persona id."""
    description: str
    """Who they are and what they want."""
    traits: list[str] = Field(default_factory=list)
    """How they talk, e.g. `terse`, `impatient`, `detail-oriented`."""
    knows: list[Identifier] = Field(default_factory=list)
    """Fields of the person entity this user can state (e.g. `email`); they never know internal keys
    unless listed."""
    fits: Expression | None = None
    """Who can be this user: a condition on the person's row (under the person entity's name), `today` and
    `now`, e.g. `years_between(patient.date_of_birth, today) >= 65` or `customer.loyalty_tier != 'standard'`; in a
    fused blueprint also the same human's linked records (`bank_customer.segment`). Each task's user gets one of
    the personas whose condition holds for them; a person no persona fits asks no task. Omitted: anyone."""


class ComposedDomain(IRModel):
    """One domain of a fused blueprint (see `compose:`): which of the fused names came from it."""

    domain: Identifier
    """The member blueprint's domain."""
    prefix: Identifier
    """What its entity, relation, policy and invariant names start with (`bank_account`), and what its action
    names carry after the verb (`freeze_bank_card`)."""
    title: str
    """The member blueprint's title."""
    person: Identifier
    """Its person entity, by its fused name: the first domain's is the blueprint's person; a later domain's is
    that same human's record there, linked one-to-one to it."""
    entities: list[Identifier]
    """Its entities, by their fused names."""
    actions: list[Identifier]
    """Its actions, by their fused names; bridge actions belong to no one domain."""


NAME_FIELDS = frozenset(
    {"name", "first_name", "last_name", "middle_name", "full_name", "given_name", "family_name", "surname", "nickname"}
)
"""Fields that only name a person: anyone can know them, so no credential is made of them alone."""


class Blueprint(IRModel):
    """A domain blueprint: everything envforge needs to build one environment."""

    schema_version: Literal[1] = 1
    """Version of this format."""
    domain: Identifier
    """Domain id, used in the environment id `envforge/<domain>-v<version>`."""
    version: int = Field(default=0, ge=0)
    """Environment version, bumped when tasks or tools change meaning."""
    title: str
    """Human title."""
    description: str
    """What the domain is, for people and for the agent."""
    clock: datetime
    """The environment's fixed current time: seed dates are relative to it and `now` evaluates to it."""
    person: Identifier
    """The entity at the centre of the entity graph: the user the agent serves."""
    entities: list[EntitySpec] = Field(min_length=1)
    """Entities (tables)."""
    relations: list[RelationSpec] = Field(default_factory=list)
    """Foreign keys between entities."""
    actions: list[ActionSpec] = Field(default_factory=list)
    """Domain actions (WRITE tools)."""
    policies: list[PolicySpec] = Field(default_factory=list)
    """Enforced rules, also rendered into the agent's policy."""
    invariants: list[InvariantSpec] = Field(default_factory=list)
    """What holds in every seeded state: derived values, conditional values, temporal order and state rules."""
    personas: list[PersonaSpec] = Field(default_factory=list)
    """User personas."""
    authentication: list[list[Identifier]] = Field(default_factory=list)
    """The credentials that authenticate the person: each a list of person fields the user states together
    (`[email]`, `[first_name, last_name, phone]`). Empty: each unique field of the person entity alone. A name
    alone never authenticates."""
    agent_instructions: str = ""
    """Opening text of the agent's policy document."""
    composed_of: list[ComposedDomain] = Field(default_factory=list)
    """Filled in by fusion, never written by hand: the domains a fused blueprint was built from."""

    @property
    def env_id(self) -> str:
        return f"envforge/{self.domain}-v{self.version}"

    def credentials(self) -> list[list[str]]:
        """The declared credentials, or by default each unique field of the person entity but its key, alone."""
        if self.authentication:
            return [list(credential) for credential in self.authentication]
        person = self.entity(self.person)
        return [
            [field.name]
            for field in person.fields
            if field.unique and field.type != "id" and field.name not in NAME_FIELDS
        ]

    def personal_fields(self) -> list[str]:
        """Fields of the person entity that tell who someone is: their names, credentials and unique fields."""
        person = self.entity(self.person)
        credentials = {name for credential in self.credentials() for name in credential}
        return [
            field.name
            for field in person.fields
            if field.type != "id" and (field.name in NAME_FIELDS or field.name in credentials or field.unique)
        ]

    def entity(self, name: str) -> EntitySpec:
        for entity in self.entities:
            if entity.name == name:
                return entity
        raise KeyError(name)

    @property
    def linked_persons(self) -> list[str]:
        """In a fused blueprint, the person entities of the later domains: the same human's other records."""
        return [part.person for part in self.composed_of[1:]]

    def domain_of(self, entity_or_action: str) -> str | None:
        """The member domain a fused name came from; None for a bridge action, or in a blueprint not fused."""
        for part in self.composed_of:
            if entity_or_action in part.entities or entity_or_action in part.actions:
                return part.domain
        return None

    def action(self, name: str) -> ActionSpec:
        for action in self.actions:
            if action.name == name:
                return action
        raise KeyError(name)
