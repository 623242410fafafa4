"""A page of an app as a person's browser sees it, driven over HTTP without a browser.

The golden path builder clicks, types and selects on this model exactly what a replay in Chromium will:
elements by `data-testid`, links followed, forms submitted with every named control the way a browser
encodes them. A step that names a missing element fails here first, before any browser runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol, cast
from urllib.parse import urlencode, urljoin, urlsplit

import lxml.html
from lxml.html import HtmlElement

from envforge.errors import EnvforgeError
from envforge.ir.uitasks import UIStep

CONTROLS = frozenset({"input", "select", "textarea", "button"})


@dataclass
class Control:
    """A named form control and the value a browser would submit for it."""

    tag: str
    name: str
    kind: str
    value: str
    options: list[str] = field(default_factory=list)
    label: str = ""
    """For a radio: its accessible name (a picker's row label)."""
    checked: bool = False


@dataclass
class Form:
    action: str
    method: str
    controls: list[Control] = field(default_factory=list)

    def encoded(self) -> str:
        pairs = [
            (c.name, c.value)
            for c in self.controls
            if c.tag != "button" and (c.kind not in ("checkbox", "radio") or c.checked)
        ]
        return urlencode(pairs)


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    form: Form | None
    control: Control | None
    text: str = ""
    """The text inside it, whitespace collapsed."""
    radios: list[Control] = field(default_factory=list)
    """For a group of radio buttons (a picker): its radios."""


def _control(node: HtmlElement) -> Control:
    """A form control as the browser would submit it before anyone touches it."""
    tag = str(node.tag)
    kind = node.get("type", "submit" if tag == "button" else "text").lower()
    control = Control(tag, node.get("name", ""), kind, node.get("value", ""), checked=node.get("checked") is not None)
    if tag == "textarea":
        control.value = node.text_content()
    elif tag == "select":
        options = list(node.iter("option"))
        control.options = [option.get("value", option.text_content().strip()) for option in options]
        chosen = [
            value for option, value in zip(options, control.options, strict=True) if option.get("selected") is not None
        ]
        control.value = (chosen or control.options or [""])[0]
    elif kind == "radio":
        control.label = node.get("aria-label", "")
    return control


class ParsedPage:
    """The elements of a page with a `data-testid`, by test id, each with its form, its control and its text.

    A path looks up a few of a page's dozens of test ids, so an element (and the form it sits in) is read from the
    tree when first asked for; asked again, it is the same object, so what was typed into a control stays typed."""

    def __init__(self, html: str) -> None:
        self._nodes: dict[str, list[HtmlElement]] = {}
        for node in cast(list[HtmlElement], lxml.html.document_fromstring(html).xpath("//*[@data-testid]")):
            self._nodes.setdefault(str(node.get("data-testid")), []).append(node)
        self._forms: dict[HtmlElement, Form] = {}
        self._controls: dict[HtmlElement, Control] = {}
        self._elements: dict[str, list[Element]] = {}

    def count(self, testid: str) -> int:
        return len(self._nodes.get(testid, ()))

    def get(self, testid: str) -> list[Element]:
        if testid not in self._elements:
            self._elements[testid] = [self._element(node) for node in self._nodes.get(testid, ())]
        return self._elements[testid]

    def _element(self, node: HtmlElement) -> Element:
        owner = next(node.iterancestors("form"), None)
        form = self._form(owner) if owner is not None else None
        control = self._controls.get(node) or (_control(node) if node.tag in CONTROLS else None)
        return Element(
            str(node.tag),
            {str(key): str(value) for key, value in node.attrib.items()},
            form,
            control,
            " ".join(node.text_content().split()),
            [radio for radio in map(self._in_form, node.iter("input")) if radio is not None and radio.kind == "radio"],
        )

    def _in_form(self, node: HtmlElement) -> Control | None:
        """The control of a form's field, as its form holds it; None outside a form."""
        owner = next(node.iterancestors("form"), None)
        if owner is None:
            return None
        self._form(owner)
        return self._controls[node]

    def _form(self, node: HtmlElement) -> Form:
        if node not in self._forms:
            form = self._forms[node] = Form(action=node.get("action", ""), method=node.get("method", "get").lower())
            for field_node in node.iter(*CONTROLS):
                named = self._controls[field_node] = _control(field_node)
                if named.name:
                    form.controls.append(named)
        return self._forms[node]


class PageResponse(Protocol):
    @property
    def url(self) -> object: ...

    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...


class PageClient(Protocol):
    """What walks an app's pages: envforge's `LocalClient`, or a test's Starlette TestClient."""

    def get(self, url: str) -> PageResponse: ...

    def post(self, url: str, *, content: str, headers: dict[str, str]) -> PageResponse: ...


class StepError(EnvforgeError):
    """A step of the path cannot be done on the page as served."""


class HttpPage:
    """One episode's page, moved through the app by clicks, typing and selecting; records every step."""

    def __init__(self, client: PageClient, home: str) -> None:
        self.client = client
        self.steps: list[UIStep] = []
        self.url = ""
        self.status = 0
        self.html = ""
        self._elements: ParsedPage
        self.open(home)

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    def open(self, url: str, body: str | None = None) -> None:
        if body is None:
            response = self.client.get(url)
        else:
            headers = {"Content-Type": "application/x-www-form-urlencoded"}
            response = self.client.post(url, content=body, headers=headers)
        self.url, self.status, self.html = str(response.url), response.status_code, response.text
        self._elements = ParsedPage(self.html)

    def has(self, testid: str) -> bool:
        return self._elements.count(testid) == 1

    def element(self, testid: str) -> Element:
        found = self._elements.get(testid)
        if len(found) != 1:
            raise StepError(f"{len(found)} elements named {testid!r} on {self.path}")
        return found[0]

    def href(self, testid: str) -> str | None:
        element = self._elements.get(testid)
        return urljoin(self.url, element[0].attrs["href"]) if len(element) == 1 and "href" in element[0].attrs else None

    def click(self, testid: str) -> None:
        element = self.element(testid)
        if element.tag == "a" and "href" in element.attrs:
            self.steps.append(UIStep(action="click", target=testid, navigates=True))
            self.open(urljoin(self.url, element.attrs["href"]))
        elif element.tag == "button" and element.form is not None:
            self.steps.append(UIStep(action="click", target=testid, navigates=True))
            form = element.form
            action = urljoin(self.url, element.attrs.get("formaction") or form.action or self.url)
            if element.attrs.get("formmethod", form.method).lower() == "post":
                self.open(action, form.encoded())
            else:
                self.open(f"{urlsplit(action)._replace(query='').geturl()}?{form.encoded()}")
        elif element.tag == "summary":
            self.steps.append(UIStep(action="click", target=testid))
        else:
            raise StepError(f"{testid!r} on {self.path} is a <{element.tag}>, not something to click")

    def _control(self, testid: str, tags: tuple[str, ...]) -> Control:
        element = self.element(testid)
        if element.control is None or element.tag not in tags:
            raise StepError(f"{testid!r} on {self.path} is not a {'/'.join(tags)} control")
        return element.control

    def fill(self, testid: str, value: str) -> None:
        self._control(testid, ("input", "textarea")).value = value
        self.steps.append(UIStep(action="fill", target=testid, value=value))

    def select(self, testid: str, value: str) -> None:
        """Choose an option of a select by its value, or a radio of a group (a picker) by its label."""
        element = self.element(testid)
        if element.radios:
            radio = next((radio for radio in element.radios if radio.label == value), None)
            if radio is None:
                raise StepError(f"{testid!r} on {self.path} has no choice {value!r}")
            for other in element.radios:
                other.checked = other is radio
        else:
            control = self._control(testid, ("select",))
            if value not in control.options:
                raise StepError(f"{testid!r} on {self.path} has no option {value!r}")
            control.value = value
        self.steps.append(UIStep(action="select", target=testid, value=value))

    def choices(self, testid: str) -> dict[str, str]:
        """A picker's choices on the page: value (a row's key) -> label."""
        return {radio.value: radio.label for radio in self.element(testid).radios}

    def check(self, testid: str, checked: bool) -> None:
        control = self._control(testid, ("input",))
        if control.checked != checked:
            control.checked = checked
            self.steps.append(UIStep(action="check" if checked else "uncheck", target=testid))

    def read(self, testid: str) -> str:
        text = self.element(testid).text
        self.steps.append(UIStep(action="read", target=testid))
        return text

    def perform(self, step: UIStep) -> str | None:
        """Do a recorded step again (a replay); a `read` step returns the text it read."""
        if step.action == "click":
            self.click(step.target)
        elif step.action == "fill":
            self.fill(step.target, step.value or "")
        elif step.action == "select":
            self.select(step.target, step.value or "")
        elif step.action in ("check", "uncheck"):
            self.check(step.target, step.action == "check")
        else:
            return self.read(step.target)
        return None

    def mark(self) -> tuple[int, str]:
        """Where the path is now, to come back to after a try that did not lead anywhere."""
        return len(self.steps), self.url

    def rewind(self, mark: tuple[int, str]) -> None:
        count, url = mark
        del self.steps[count:]
        self.open(url)

    def refusal(self) -> str:
        """What the page says went wrong (its alerts), in one line."""
        alerts = re.findall(r'role="alert"[^>]*>(.*?)</(?:div|p)>', self.html, flags=re.DOTALL)
        text = " ".join(re.sub(r"<[^>]+>", " ", alert) for alert in alerts)
        return " ".join(text.split()) or f"no success message (HTTP {self.status} on {self.path})"
