"""Apps: every WRITE tool is reachable from the screens of both apps, and every form input is labelled.

Crawls the real app server over HTTP (in process): each list screen renders with its search controls,
each action is linked from the detail screen of a record it acts on, and its form shows every parameter
as a labelled input (a parameter that takes a row as a labelled picker of labelled choices).
"""

from __future__ import annotations

from typing import cast

import lxml.html
from lxml.html import HtmlElement

from envforge.runtime.apps.local_client import LocalClient
from envforge.runtime.apps.server import APPS, AppServer
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError

CONTROLS = ("input", "select", "textarea")


def _labelled_fields(page: str) -> set[str]:
    """Names of the form fields a person can tell by their label: an input with a `<label for>` pointing at it, or
    a picker (a radio group named by its legend) whose every choice has one."""
    root = lxml.html.document_fromstring(page)
    labels = {label.get("for") for label in root.iter("label")}
    named = set()
    for node in cast(list[HtmlElement], root.xpath('//*[starts-with(@data-testid, "field-")]')):
        name = str(node.get("data-testid")).removeprefix("field-")
        if node.tag in CONTROLS and node.get("id") in labels:
            named.add(name)
        elif node.get("role") == "radiogroup":
            legend = cast(list[HtmlElement], root.xpath("//*[@id=$id]", id=node.get("aria-labelledby", "")))
            radios = [radio for radio in node.iter("input") if radio.get("type") == "radio"]
            if legend and legend[0].text_content().strip() and all(radio.get("id") in labels for radio in radios):
                named.add(name)
    return named


def _crawl(server: AppServer) -> tuple[list[str], int]:
    problems: list[str] = []
    spec = server.pages.spec
    with LocalClient(server.app()) as http:
        episode = server.episodes.open_free()
        base = f"/e/{episode.token}/"
        for screen in spec.lists:
            page = http.get(f"{base}{screen.entity}/")
            if page.status_code != 200:
                problems.append(f"{server.kind}: the {screen.entity} list answers {page.status_code}")
                continue
            for control in screen.search:
                testid = f"find-{control.name}" if control.exact else f"search-{control.name}"
                if f'data-testid="{testid}"' not in page.text:
                    problems.append(f"{server.kind}: the {screen.entity} list has no {testid} control")
        for form in spec.actions:
            if form.record_param is None:
                origin = http.get(f"{base}{form.entity}/").text
                target = f"{base}{form.entity}/new/{form.tool}"
            else:
                rows = episode.session.rows(form.entity)
                if not rows:
                    problems.append(
                        f"{server.kind}: {form.tool}: no {form.entity} record to act on in the initial state"
                    )
                    continue
                key = rows[0][server.package.env.entities[form.entity].key]
                origin = http.get(f"{base}{form.entity}/{key}").text
                target = f"{base}{form.entity}/{key}/do/{form.tool}"
            if f'data-testid="action-{form.tool}"' not in origin or f'href="{target}"' not in origin:
                problems.append(f"{server.kind}: {form.tool} is not linked from the {form.entity} screen")
                continue
            page = http.get(target)
            missing = {field.name for field in form.fields} - _labelled_fields(page.text)
            if page.status_code != 200 or missing:
                problems.append(f"{server.kind}: the {form.tool} form lacks labelled inputs for {sorted(missing)}")
        server.episodes.close(episode.id)
    return problems, len(spec.actions)


def check_app_reachability(package: LoadedPackage) -> str:
    problems: list[str] = []
    actions = 0
    for kind in APPS:
        found, actions = _crawl(AppServer(package.env_package, kind))
        problems += found
    if problems:
        raise ConformanceError("some actions or screens are not reachable in the apps", problems)
    return (
        f"web and phone: all {actions} WRITE tools are forms linked from their records' screens, every input labelled"
    )
