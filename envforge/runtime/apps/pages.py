"""The pages of an app: home, list, detail and action forms, each filled by tool calls on the episode's session.

Reads go through the same READ tools an agent calls over MCP, and every change through a WRITE tool, so
what a page shows and what a form may do is exactly what the tools allow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import jinja2
from starlette.responses import HTMLResponse, RedirectResponse, Response

from envforge.ir.apps import ActionForm, AppSpec, ListScreen
from envforge.runtime.apps.forms import error_messages, form_arguments, read_arguments
from envforge.runtime.apps.pickers import PickerSource, picker_queries
from envforge.runtime.environment import Environment
from envforge.runtime.episode_store import ServedEpisode

PAGE_SIZE = 20
OFFSET_DIGITS = 9
OFFSET = re.compile(rf"[0-9]{{1,{OFFSET_DIGITS}}}")
"""A list page's `offset`: ASCII digits only (`str.isdigit` also takes '²'), few enough to stay an int64."""
RELATED_LIMIT = 50


@dataclass
class Pages:
    """Renders one app (web or phone) of one environment."""

    env: Environment
    spec: AppSpec
    templates: jinja2.Environment

    def _key(self, entity: str) -> str:
        return self.env.entities[entity].key

    def _render(self, name: str, episode: ServedEpisode, base: str, status: int = 200, **context: Any) -> HTMLResponse:
        page = self.templates.get_template(name).render(
            app=self.spec,
            base=base,
            nav=[self._list(entity) for entity in self.spec.navigation],
            current=context.pop("current", None),
            **context,
        )
        return HTMLResponse(page, status_code=status)

    def _list(self, entity: str) -> ListScreen:
        return next(screen for screen in self.spec.lists if screen.entity == entity)

    def _call(self, episode: ServedEpisode, tool: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        return episode.call(tool, arguments)

    def message(self, episode: ServedEpisode, base: str, heading: str, text: str, status: int = 404) -> HTMLResponse:
        return self._render(
            "message.html", episode, base, status, title=heading, heading=heading, text=text, back=f"{base}/"
        )

    def home(self, episode: ServedEpisode, base: str) -> Response:
        return self._render("home.html", episode, base, title=self.spec.title)

    def listing(self, episode: ServedEpisode, base: str, entity: str, query: Mapping[str, str]) -> Response:
        if entity not in self.spec.navigation:
            return self.message(episode, base, "Not found", f"There is no section called {entity!r}.")
        screen = self._list(entity)
        for control in screen.search:
            value = query.get(f"find_{control.name}", "").strip()
            if control.exact and value:
                ok, result = self._call(episode, control.tool, {control.name: value})
                if ok:
                    return RedirectResponse(f"{base}/{entity}/{quote(str(result[self._key(entity)]))}", 303)
                return self._show_list(episode, base, screen, query, error=error_messages(result, set())[1])
        return self._show_list(episode, base, screen, query)

    def _show_list(
        self, episode: ServedEpisode, base: str, screen: ListScreen, query: Mapping[str, str], error: str | None = None
    ) -> Response:
        tool = self.env.tools[screen.tool]
        filters = [control.name for control in screen.search if not control.exact]
        read = read_arguments(query, tool.parameters, filters, set())
        offset = int(query["offset"]) if OFFSET.fullmatch(query.get("offset", "")) else 0
        rows: list[dict[str, Any]] = []
        has_more = False
        # A support console lists people only once searched for: an unfiltered list of everyone would show the
        # user's record before anything authenticated them, and show every other person's with it.
        people = {self.env.blueprint.person, *self.env.blueprint.linked_persons}
        search_first = screen.entity in people and not read.arguments and not read.errors
        if read.errors:
            error = error or "; ".join(f"{name}: {message}" for name, message in read.errors.items())
        elif not search_first:
            ok, result = self._call(episode, screen.tool, {**read.arguments, "limit": PAGE_SIZE, "offset": offset})
            if ok:
                rows = result["items"]
                has_more = offset + len(rows) < int(result.get("total", 0))
            else:
                error = error or error_messages(result, set())[1]
        values = {name: value for name, value in query.items() if name != "offset"}
        return self._render(
            "list.html",
            episode,
            base,
            title=screen.title,
            current=screen.entity,
            screen=screen,
            rows=rows,
            query=values,
            has_more=has_more,
            offset=offset,
            next_url=f"{base}/{screen.entity}/?{urlencode({**values, 'offset': offset + PAGE_SIZE})}",
            error=error,
            search_first=search_first,
            flash=episode.take_flash(),
        )

    def detail(self, episode: ServedEpisode, base: str, entity: str, key: str) -> Response:
        screen = next((item for item in self.spec.details if item.entity == entity), None)
        if screen is None:
            return self.message(episode, base, "Not found", f"There is no section called {entity!r}.")
        ok, record = self._call(episode, screen.tool, {self._key(entity): key})
        if not ok:
            return self.message(episode, base, "Not found", error_messages(record, set())[1] or "Not found.")
        related = []
        for item in screen.related:
            child = self._list(item.entity) if item.entity in self.spec.navigation else None
            if child is None:
                continue
            found, result = self._call(episode, child.tool, {item.field: key, "limit": RELATED_LIMIT})
            related.append((item, result["items"] if found else [], self._key(item.entity)))
        return self._render(
            "detail.html",
            episode,
            base,
            title=f"{screen.title} {key}",
            current=entity,
            screen=screen,
            record=record,
            key=key,
            related=related,
            actions=[self.spec.action(tool) for tool in screen.actions],
            flash=episode.take_flash(),
        )

    def action(
        self,
        episode: ServedEpisode,
        base: str,
        tool: str,
        entity: str,
        key: str | None,
        submitted: Mapping[str, str] | None,
        query: Mapping[str, str] | None = None,
    ) -> Response:
        """An action form: shown (prefilled from `query`, as a picker's search sends it), or `submitted`."""
        form = next((item for item in self.spec.actions if item.tool == tool and item.entity == entity), None)
        if form is None or (form.record_param is None) != (key is None):
            return self.message(episode, base, "Not found", "There is no such action here.")
        record = None
        if key is not None:
            ok, record = self._call(episode, self.spec.detail(entity).tool, {self._key(entity): key})
            if not ok:
                return self.message(episode, base, "Not found", error_messages(record, set())[1] or "Not found.")
        post_url = f"{base}/{entity}/{quote(key)}/do/{tool}" if key is not None else f"{base}/{entity}/new/{tool}"
        context: dict[str, Any] = {"form": form, "record": record, "post_url": post_url, "current": entity}
        if submitted is None:
            shown = {f.name: query[f.name] for f in form.fields if query is not None and f.name in query}
            return self._form(episode, base, context, shown, {}, None, confirm=False, searches=query or {})
        values = {f.name: submitted[f.name] for f in form.fields if f.name in submitted}
        parameters = self.env.tools[tool].parameters
        read = form_arguments(form, values, parameters)
        if read.errors:
            return self._form(
                episode, base, context, values, read.errors, None, confirm=False, status=422, searches=submitted
            )
        if form.destructive and submitted.get("confirmed") != "yes":
            return self._form(episode, base, context, values, {}, None, confirm=True)
        arguments = dict(read.arguments)
        if form.record_param is not None and key is not None:
            arguments[form.record_param] = key
        ok, result = self._call(episode, tool, arguments)
        if not ok:
            errors, message = error_messages(result, {field.name for field in form.fields})
            return self._form(
                episode, base, context, values, errors, message, confirm=False, status=422, searches=submitted
            )
        # The success line lives on the server, set only here, after the call returned ok: no URL can fake it.
        episode.flash = f"{form.title}: done."
        target = f"{base}/{entity}/{quote(key)}" if key is not None else f"{base}/{entity}/"
        return RedirectResponse(target, 303)

    def _form(
        self,
        episode: ServedEpisode,
        base: str,
        context: dict[str, Any],
        values: Mapping[str, str],
        errors: Mapping[str, str],
        error: str | None,
        *,
        confirm: bool,
        status: int = 200,
        searches: Mapping[str, str] | None = None,
    ) -> Response:
        form: ActionForm = context["form"]
        queries = picker_queries(form, searches or {})
        pickers = PickerSource(self.env, episode.session).pickers(form, values, queries)
        return self._render(
            "action.html",
            episode,
            base,
            status,
            title=form.title,
            values=dict(values),
            errors=dict(errors),
            error=error,
            confirm=confirm,
            pickers=pickers,
            **context,
        )
