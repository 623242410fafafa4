"""What the generated web and phone apps show and let a person do: screens, search controls, action forms.

One `AppSpec` drives both apps; they differ in layout, never in what is reachable. Every WRITE tool is an
action form, every form field is one of its parameters, and submitting a form calls that tool through the
runtime's dispatch, so the apps can do exactly what the MCP tools can and nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from envforge.ir.base import IRModel

ColumnKind = Literal["key", "ref", "text", "number", "money", "date", "datetime", "boolean", "enum"]
InputKind = Literal["text", "textarea", "number", "money", "date", "datetime", "select", "checkbox", "record"]


class ColumnView(IRModel):
    """A field as a list column or a detail row."""

    name: str
    label: str
    kind: ColumnKind
    ref: str | None = None
    """For `ref` columns: the entity the value points at (rendered as a link to its detail screen)."""


class SearchControl(IRModel):
    """A filter of a list screen: one filter parameter of the entity's list or find tool."""

    name: str
    label: str
    input: InputKind
    options: list[str] = Field(default_factory=list)
    """For `select`: the allowed values."""
    tool: str
    """The READ tool the control feeds (`list_...` or `find_..._by_...`)."""
    exact: bool = False
    """Finds one record by a unique field (a find tool) rather than filtering a list."""


class RelatedList(IRModel):
    """Child records shown on a parent's detail screen, e.g. a customer's orders."""

    entity: str
    label: str
    field: str
    """The child's foreign key to the parent."""


class ListScreen(IRModel):
    """All records of an entity, searchable by the fields its READ tools filter on."""

    entity: str
    title: str
    tool: str
    """The list tool that fills the screen."""
    columns: list[ColumnView]
    search: list[SearchControl]
    actions: list[str] = Field(default_factory=list)
    """Tools of action forms that need no record (e.g. creating one)."""


class FormField(IRModel):
    """One parameter of an action, as a form input."""

    name: str
    label: str
    input: InputKind
    required: bool
    options: list[str] = Field(default_factory=list)
    ref: str | None = None
    """For `record` inputs: the entity whose key the field takes."""
    minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None
    help: str = ""


class ActionForm(IRModel):
    """A WRITE tool as a form on the detail screen of the record it acts on."""

    tool: str
    title: str
    description: str
    entity: str
    """The entity whose detail screen offers the action."""
    record_param: str | None
    """The parameter filled with the key of the record on screen; None for an action that needs no record
    (offered on the entity's list screen instead)."""
    fields: list[FormField]
    """The other parameters, in the tool's order."""
    destructive: bool
    """Cancels, deletes or refunds something: the app asks for confirmation before calling the tool."""


class DetailScreen(IRModel):
    """One record: its fields, its related records, and the actions that act on it."""

    entity: str
    title: str
    tool: str
    """The get tool that fills the screen."""
    fields: list[ColumnView]
    related: list[RelatedList]
    actions: list[str]
    """Tools of the action forms offered here."""


class AppSpec(IRModel):
    """The screens of one environment's apps."""

    schema_version: Literal[1] = 1
    env_id: str
    title: str
    navigation: list[str]
    """Entities in the main navigation (a sidebar on the web, a tab bar on the phone), most central first."""
    lists: list[ListScreen]
    details: list[DetailScreen]
    actions: list[ActionForm]

    def action(self, tool: str) -> ActionForm:
        for form in self.actions:
            if form.tool == tool:
                return form
        raise KeyError(tool)

    def detail(self, entity: str) -> DetailScreen:
        for screen in self.details:
            if screen.entity == entity:
                return screen
        raise KeyError(entity)
