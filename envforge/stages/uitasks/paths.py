"""Golden UI paths: a task's oracle tool chain turned into clicks, typing and selecting in one app.

Each oracle call becomes what a person does for it on screen: a find tool is the section's find bar, a
list tool is the related list on the record in view (or the section's filters), a WRITE tool is the action
form on its record's screen. Every step is done on the live app over HTTP while the path is built, so a
path that names a missing element, lands on the wrong record or has its form refused is never written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from envforge.errors import EnvforgeError
from envforge.ir.apps import ActionForm, DetailScreen, FormField, SearchControl
from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.ir.uitasks import AppKind, UIStep
from envforge.runtime.answers import judge_answer
from envforge.runtime.apps.local_client import LocalClient
from envforge.runtime.apps.pickers import PickerSource
from envforge.runtime.apps.server import AppSite
from envforge.runtime.episode_store import ServedEpisode
from envforge.runtime.errors import refusal_of
from envforge.stages.uitasks.http_page import HttpPage, StepError

MAX_PAGES = 10
"""Pages of a list a path may page through to reach a record before the record counts as unreachable."""
PAGING_KEYS = frozenset({"limit", "offset"})


class UnbuildableError(EnvforgeError):
    """No UI path does this task in this app; `reason` is a stable code for the report."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def input_text(value: Any) -> str:
    """An argument as a person types it (the form reads it back to the same JSON value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass
class _Walk:
    """One task's path through one app, built step by step on a live page."""

    site: AppSite
    kind: AppKind
    page: HttpPage
    episode: ServedEpisode

    @property
    def base(self) -> str:
        return f"/e/{self.episode.token}"

    def do(self, call: ToolCall) -> None:
        tool = self.site.pages.env.tools[call.name]
        if tool.kind == "write":
            self.write(call)
        elif tool.operation == "find":
            self.find(call)
        elif tool.operation == "list":
            self.listing(tool.entity, call.arguments)
        elif tool.operation == "get":
            key = self.site.pages.env.entities[tool.entity].key
            self.detail(tool.entity, str(call.arguments[key]))

    # --- moving around --------------------------------------------------------------------------

    def section(self, entity: str) -> None:
        """Open an entity's list screen from the main navigation (the phone's More page past its 4 tabs)."""
        if entity not in self.site.pages.spec.navigation:
            raise UnbuildableError("no_screen", f"{entity} has no list screen")
        if self.page.has(f"nav-{entity}"):
            self.page.click(f"nav-{entity}")
        else:
            self.page.click("nav-more")
            self.page.click(f"home-{entity}")

    def detail(self, entity: str, key: str) -> None:
        """Reach a record's screen: a row on the page in view, else its section's find bar or filters."""
        target = f"{self.base}/{entity}/{quote(key)}"
        if self.page.path == target:
            return
        if self._row_on_page(key, target):
            return
        self.section(entity)
        if self._by_find(entity, key, target) or self._by_filters(entity, key, target):
            return
        for _ in range(MAX_PAGES):
            if self._row_on_page(key, target) or not self.page.has("next-page"):
                break
            self.page.click("next-page")
        if self.page.path != target:
            raise UnbuildableError("record_unreachable", f"{entity} {key} cannot be reached from its list screen")

    def _row_on_page(self, key: str, target: str) -> bool:
        href = self.page.href(f"row-{key}")
        if href is None or urlsplit(href).path != target:
            return False
        self.page.click(f"row-{key}")
        return True

    def _record(self, entity: str, key: str) -> dict[str, Any]:
        screen = self._detail_screen(entity)
        ok, record = self.episode.session.call_tool(screen.tool, {self.site.pages.env.entities[entity].key: key})
        if not ok:
            raise UnbuildableError("record_unreachable", f"{entity} {key}: {refusal_of(record)['message']}")
        return record

    def _detail_screen(self, entity: str) -> DetailScreen:
        try:
            return self.site.pages.spec.detail(entity)
        except KeyError:
            raise UnbuildableError("no_screen", f"{entity} has no detail screen") from None

    def _controls(self, entity: str) -> list[SearchControl]:
        return next((screen.search for screen in self.site.pages.spec.lists if screen.entity == entity), [])

    def _by_find(self, entity: str, key: str, target: str) -> bool:
        record = self._record(entity, key)
        for control in self._controls(entity):
            value = record.get(control.name)
            if control.exact and value not in (None, ""):
                mark = self.page.mark()
                self._enter(f"find-{control.name}", control.input, value)
                self.page.click(f"find-submit-{control.name}")
                if self.page.path == target:
                    return True
                self.page.rewind(mark)
        return False

    def _by_filters(self, entity: str, key: str, target: str) -> bool:
        record = self._record(entity, key)
        # A parent's key narrows a list the most; plain values (a status, a date) after.
        controls = sorted(
            (c for c in self._controls(entity) if not c.exact and record.get(c.name) not in (None, "")),
            key=lambda c: c.input != "record",
        )
        for control in controls:
            mark = self.page.mark()
            self._enter(f"search-{control.name}", control.input, record[control.name])
            self.page.click("search-submit")
            if self._row_on_page(key, target):
                return True
            self.page.rewind(mark)
        return False

    def _enter(self, testid: str, kind: str, value: Any) -> None:
        if kind in ("select", "checkbox"):
            self.page.select(testid, input_text(value))
        else:
            self.page.fill(testid, input_text(value))

    # --- the oracle's calls -----------------------------------------------------------------------

    def find(self, call: ToolCall) -> None:
        entity = self.site.pages.env.tools[call.name].entity
        control = next((c for c in self._controls(entity) if c.tool == call.name and c.exact), None)
        if control is None or set(call.arguments) != {control.name}:
            raise UnbuildableError("no_control", f"{call.name} has no find bar on the {entity} screen")
        self.section(entity)
        self._enter(f"find-{control.name}", control.input, call.arguments[control.name])
        self.page.click(f"find-submit-{control.name}")
        if not self.page.path.startswith(f"{self.base}/{entity}/") or self.page.path.endswith("/"):
            raise UnbuildableError("lookup_failed", f"finding {entity} by {control.name} did not open a record")

    def listing(self, entity: str, arguments: dict[str, Any], *, in_view: bool = True) -> None:
        """The records the oracle listed, on screen: the record in view's related list, else filtered."""
        filters = {name: value for name, value in arguments.items() if name not in PAGING_KEYS}
        for name, value in filters.items() if in_view else ():
            section = f"related-{entity}"
            if self.page.path == f"{self.base}/{self._parent(entity, name)}/{quote(str(value))}" and (
                self.page.has(section) or self.page.has(f"{section}-{name}")
            ):
                return
        self.section(entity)
        if not filters:
            return
        controls = {c.name: c for c in self._controls(entity) if not c.exact}
        for name, value in filters.items():
            if name not in controls:
                raise UnbuildableError("no_control", f"the {entity} screen cannot filter by {name}")
            self._enter(f"search-{name}", controls[name].input, value)
        self.page.click("search-submit")

    def _parent(self, entity: str, field: str) -> str:
        """The entity a foreign key of `entity` points at ("" when `field` is no foreign key)."""
        spec = self.site.pages.spec
        columns = [c for s in spec.details if s.entity == entity for c in s.fields]
        columns += [c for s in spec.lists if s.entity == entity for c in s.columns]
        return next((c.ref for c in columns if c.name == field and c.ref), "")

    def write(self, call: ToolCall) -> None:
        try:
            form = self.site.pages.spec.action(call.name)
        except KeyError:
            raise UnbuildableError("no_form", f"{call.name} has no form in the app") from None
        arguments = dict(call.arguments)
        if form.record_param is not None:
            if form.record_param not in arguments:
                raise UnbuildableError("no_record", f"{call.name} is called without {form.record_param}")
            self.detail(form.entity, str(arguments.pop(form.record_param)))
            if self.kind == "phone":
                self.page.click("open-actions")
        else:
            self.section(form.entity)
        self.page.click(f"action-{form.tool}")
        self._fill_form(form, arguments)
        self.page.click("submit")
        if form.destructive and self.page.has("confirm"):
            self.page.click("confirm")
        if not self.page.has("flash"):
            raise UnbuildableError("form_refused", f"{call.name}: {self.page.refusal()}")

    def _fill_form(self, form: ActionForm, arguments: dict[str, Any]) -> None:
        fields: dict[str, FormField] = {field.name: field for field in form.fields}
        stray = sorted(set(arguments) - set(fields))
        if stray:
            raise UnbuildableError("no_field", f"the {form.tool} form has no field for {', '.join(stray)}")
        for field in form.fields:
            if field.name not in arguments:
                continue
            value = arguments[field.name]
            if field.input == "checkbox":
                self.page.check(f"field-{field.name}", bool(value))
            elif field.input == "record":
                self._pick(form.tool, field, str(value))
            else:
                self._enter(f"field-{field.name}", field.input, value)

    def _pick(self, tool: str, field: FormField, key: str) -> None:
        """Choose a row in a record field's picker by its label, as a person reads it; search for it first when
        the picker does not list it."""
        testid = f"field-{field.name}"
        if key not in self.page.choices(testid):
            self._search(tool, field, key)
        label = self.page.choices(testid).get(key)
        if label is None:
            raise UnbuildableError("not_offered", f"the {field.name} picker of {tool} does not offer {key}")
        self.page.select(testid, label)

    def _search(self, tool: str, field: FormField, key: str) -> None:
        """Search a picker with the fewest leading words of the row's label that bring the row up (its key, last)."""
        source = PickerSource(self.site.pages.env, self.episode.session)
        wanted = source.picker(tool, field, key, "").choice(key)
        if wanted is None:
            raise UnbuildableError("not_offered", f"the {field.name} picker of {tool} does not offer {key}")
        parts = [wanted.title, *wanted.details]
        tries = [" ".join(parts[:count]) for count in range(1, len(parts) + 1)] + [key]
        query = next(
            text for text in tries if source.picker(tool, field, "", text).choice(key) is not None or text == key
        )
        self.page.fill(f"pick-{field.name}", query)
        self.page.click(f"pick-search-{field.name}")

    # --- questions --------------------------------------------------------------------------------

    def answer(self, task: TaskSpec) -> str:
        """Show what the question asks about and read it: a record's field, or how many records match."""
        last = task.oracle[-1]
        tool = self.site.pages.env.tools[last.name]
        # A list's count or row, or one record's detail that only its get tool (and its screen) shows.
        if tool.operation not in ("list", "get"):
            raise UnbuildableError("question_shape", f"the question ends with {last.name}, not a list or a get")
        spec = task.verifier.answer
        if spec is not None and spec.field is None:
            self.listing(tool.entity, last.arguments, in_view=False)
            if not self.page.has("result-count"):
                raise UnbuildableError("answer_not_shown", "the matching records fill more than one page")
            shown = self.page.read("result-count")
        elif spec is not None and spec.key is not None:
            entity, field = str(spec.field).split(".", 1)
            if field not in [column.name for column in self._detail_screen(entity).fields]:
                raise UnbuildableError("answer_not_shown", f"the {entity} screen does not show {field}")
            self.detail(entity, spec.key)
            shown = self.page.read(f"value-{field}")
        else:
            raise UnbuildableError("question_shape", "the task's answer names no field and no row")
        problem = judge_answer(task.verifier.answer, shown) if task.verifier.answer is not None else "no answer spec"
        if problem is not None:
            raise UnbuildableError(
                "answer_not_shown", f"the app shows {shown!r} where the answer is {task.expected_answer!r}"
            )
        return shown


def build_path(
    site: AppSite, kind: AppKind, client: LocalClient, task: TaskSpec
) -> tuple[list[UIStep], ServedEpisode, str | None]:
    """The golden steps of `task` in this app, done on a fresh episode (returned, for the verifier), and for a
    question the answer as the app shows it."""
    episode = site.episodes.open_task(task)
    page = HttpPage(client, f"/e/{episode.token}/")
    walk = _Walk(site, kind, page, episode)
    answer = None
    try:
        for call in task.oracle[:-1] if task.kind == "read" else task.oracle:
            walk.do(call)
        if task.kind == "read":
            answer = walk.answer(task)
    except StepError as error:
        site.episodes.close(episode.id)
        raise UnbuildableError("missing_element", str(error)) from None
    except UnbuildableError:
        site.episodes.close(episode.id)
        raise
    return page.steps, episode, answer
