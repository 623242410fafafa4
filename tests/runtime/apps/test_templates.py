"""The web and phone templates render every screen of every shipped domain from live rows, with the selectors,
labels and links a test driver and an agent rely on, and nothing outside the episode's own URL space."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jinja2
import pytest

import envforge.runtime.apps
from envforge.ir.apps import ActionForm, AppSpec, DetailScreen, ListScreen
from envforge.runtime.apps.labels import RowLabel
from envforge.runtime.apps.pickers import Picker, PickerSource
from envforge.runtime.apps.server import app_templates
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.stages.apps.spec import build_app_spec
from envforge.stages.ontology.build import build_ontology
from tests.conftest import BLUEPRINTS
from tests.runtime import probes

ASSETS = Path(envforge.runtime.apps.__file__).parent / "assets"
APPS = ["web", "phone"]
DOMAINS = [path.stem for path in BLUEPRINTS]
BASE = "/e/3f9c0a"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CONTROLS = {"input", "select", "textarea"}
TABS = 4


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    children: list[Element] = field(default_factory=list)
    text: str = ""

    def ancestors(self) -> list[Element]:
        found, node = [], self.parent
        while node is not None:
            found.append(node)
            node = node.parent
        return found

    def all_text(self) -> str:
        """The text inside, whitespace collapsed as a browser shows it."""
        return " ".join(self._raw_text().split())

    def _raw_text(self) -> str:
        return self.text + " " + " ".join(child._raw_text() for child in self.children)

    def descendants(self, tag: str) -> list[Element]:
        found = []
        for child in self.children:
            found += [child] if child.tag == tag else []
            found += child.descendants(tag)
        return found

    def enclosing(self, tag: str) -> Element:
        return next(node for node in self.ancestors() if node.tag == tag)


class Page(HTMLParser):
    """A rendered page as a tree of elements, enough to find controls by test id and check what encloses them."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.root = Element("#root", {})
        self.elements: list[Element] = []
        self._open = self.root
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, parent=self._open)
        self._open.children.append(element)
        self.elements.append(element)
        if tag not in VOID:
            self._open = element

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self._open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self._open = node.parent

    def handle_data(self, data: str) -> None:
        self._open.text += data

    def all(self, tag: str | None = None, **attrs: str) -> list[Element]:
        return [
            element
            for element in self.elements
            if (tag is None or element.tag == tag) and all(element.attrs.get(k) == v for k, v in attrs.items())
        ]

    def testid(self, testid: str) -> Element:
        found = self.all(**{"data-testid": testid})
        assert len(found) == 1, f"{len(found)} elements with data-testid={testid!r}"
        return found[0]

    def testids(self) -> list[str]:
        return [element.attrs["data-testid"] for element in self.elements if "data-testid" in element.attrs]


def form_of(element: Element) -> Element:
    return element.enclosing("form")


@dataclass
class Screens:
    """Template contexts for one environment, filled from a live session the way the app server fills them."""

    env: Environment
    spec: AppSpec
    session: Session

    @classmethod
    def of(cls, package: Path) -> Screens:
        env = load_environment(open_package(package))
        spec = build_app_spec(env.blueprint, build_ontology(env.blueprint), env.toolgraph)
        return cls(env, spec, Session(env))

    def key(self, entity: str) -> str:
        return self.env.entities[entity].key

    def list_screen(self, entity: str) -> ListScreen:
        return next(screen for screen in self.spec.lists if screen.entity == entity)

    def rows(self, entity: str, limit: int = 20, **filters: Any) -> list[dict[str, Any]]:
        ok, result = self.session.call_tool(self.list_screen(entity).tool, {**filters, "limit": limit})
        assert ok, result
        return probes.rows(result)

    def common(self, title: str, current: str | None) -> dict[str, Any]:
        nav = [self.list_screen(entity) for entity in self.spec.navigation]
        return {"app": self.spec, "base": BASE, "nav": nav, "title": title, "current": current}

    def home(self) -> dict[str, Any]:
        return self.common(self.spec.title, None)

    def listing(self, screen: ListScreen, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        rows = self.rows(screen.entity) if rows is None else rows
        return {
            **self.common(screen.title, screen.entity),
            **{"screen": screen, "rows": rows, "query": {}, "has_more": True, "offset": 0, "error": None},
        }

    def related(self, screen: DetailScreen, key: str) -> list[tuple[Any, list[dict[str, Any]], str]]:
        return [
            (item, self.rows(item.entity, 50, **{item.field: key}), self.key(item.entity)) for item in screen.related
        ]

    def detail(self, screen: DetailScreen, flash: str | None = None) -> dict[str, Any]:
        """The record, among the first few, with the most related rows."""
        candidates = [
            (record, self.related(screen, record[self.key(screen.entity)])) for record in self.rows(screen.entity, 8)
        ]
        record, related = max(candidates, key=lambda pair: sum(len(rows) for _, rows, _ in pair[1]))
        return {
            **self.common(f"{screen.title} {record[self.key(screen.entity)]}", screen.entity),
            **{"screen": screen, "record": record, "related": related, "flash": flash},
            "actions": [self.spec.action(tool) for tool in screen.actions],
        }

    def action(
        self,
        form: ActionForm,
        values: dict[str, str] | None = None,
        errors: dict[str, str] | None = None,
        error: str | None = None,
        confirm: bool = False,
    ) -> dict[str, Any]:
        record = self.rows(form.entity, 1)[0] if form.record_param else None
        where = f"{record[self.key(form.entity)]}/do" if record else "new"
        pickers = PickerSource(self.env, self.session).pickers(form, values or {}, {})
        return {
            **self.common(form.title, form.entity),
            **{"form": form, "record": record, "values": values or {}, "errors": errors or {}, "error": error},
            **{"confirm": confirm, "post_url": f"{BASE}/{form.entity}/{where}/{form.tool}", "pickers": pickers},
        }


def render(app: str, template: str, context: dict[str, Any]) -> Page:
    templates = jinja2.Environment(
        loader=jinja2.FileSystemLoader([ASSETS / app, ASSETS / "shared"]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return Page(templates.get_template(template).render(**context))


def check_page(app: str, page: Page, nav: list[ListScreen]) -> None:
    """What holds on every page: self-contained, links inside the episode, labelled controls, unique test ids."""
    assert "http://" not in page.html and "https://" not in page.html
    for element in page.elements:
        for attribute in ("href", "src", "action"):
            if attribute in element.attrs:
                assert element.attrs[attribute].startswith(f"{BASE}/"), (element.tag, element.attrs)
    testids = page.testids()
    assert len(testids) == len(set(testids)), sorted(testid for testid in testids if testids.count(testid) > 1)
    ids = [element.attrs["id"] for element in page.elements if "id" in element.attrs]
    assert len(ids) == len(set(ids)), sorted(name for name in ids if ids.count(name) > 1)
    labelled = {label.attrs.get("for") for label in page.all("label")}
    for control in page.elements:
        if control.tag in CONTROLS and control.attrs.get("type") not in ("hidden", "submit"):
            assert control.attrs.get("id") in labelled, control.attrs
    assert len(page.all("main")) == 1 and len(page.all("h1")) == 1
    # The shared rules first: the app's own rules of the same specificity win over them.
    stylesheets = [link.attrs["href"] for link in page.all("link", rel="stylesheet")]
    assert stylesheets == [f"{BASE}/static/shared.css", f"{BASE}/static/app.css"]
    if app == "phone":
        assert page.all("meta", name="viewport", content="width=device-width, initial-scale=1")
        tabbed = nav[:TABS]
    else:
        sidebar = page.all("nav", **{"aria-label": "Main"})
        assert len(sidebar) == 1 and sidebar[0].attrs["class"] == "sidebar"
        tabbed = nav
    if page.all("body", **{"class": "phone full-screen"}):
        return
    for screen in tabbed:
        assert page.testid(f"nav-{screen.entity}").attrs["href"] == f"{BASE}/{screen.entity}/"
    if app == "phone":
        assert page.testid("nav-more").attrs["href"] == f"{BASE}/"


@pytest.fixture(scope="module")
def screens(packages: dict[str, Path]) -> dict[str, Screens]:
    return {domain: Screens.of(packages[domain]) for domain in DOMAINS}


@pytest.mark.parametrize("app", APPS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_home_and_list_screens_offer_navigation_search_and_row_links(
    screens: dict[str, Screens], domain: str, app: str
) -> None:
    view = screens[domain]
    nav = view.common("", None)["nav"]
    home = render(app, "home.html", view.home())
    check_page(app, home, nav)
    for screen in nav:
        assert home.testid(f"home-{screen.entity}").attrs["href"] == f"{BASE}/{screen.entity}/"
    for screen in view.spec.lists:
        context = view.listing(screen)
        page = render(app, "list.html", context)
        check_page(app, page, nav)
        for control in screen.search:
            prefix, name = ("find", f"find_{control.name}") if control.exact else ("search", control.name)
            control_element = page.testid(f"{prefix}-{control.name}")
            assert control_element.attrs["name"] == name
            search = form_of(control_element)
            assert search.attrs["method"] == "get" and search.attrs["action"] == f"{BASE}/{screen.entity}/"
            submit = f"find-submit-{control.name}" if control.exact else "search-submit"
            assert form_of(page.testid(submit)) is search and page.testid(submit).attrs["type"] == "submit"
            if control.input == "select":
                options = [option.attrs["value"] for option in control_element.children if option.tag == "option"]
                assert options == ["", *control.options]
        key = view.key(screen.entity)
        assert context["rows"]
        for row in context["rows"]:
            assert page.testid(f"row-{row[key]}").attrs["href"] == f"{BASE}/{screen.entity}/{row[key]}"
        assert page.testid("next-page").attrs["href"].startswith(f"{BASE}/{screen.entity}/?")
        if app == "web":
            (head,) = page.all("thead")
            assert [th.attrs.get("scope") for th in head.descendants("th")] == ["col"] * len(screen.columns)
        else:
            assert not page.all("table") and page.testid("back").attrs["href"] == f"{BASE}/"


@pytest.mark.parametrize("app", APPS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_detail_screens_show_fields_related_records_and_their_actions(
    screens: dict[str, Screens], domain: str, app: str
) -> None:
    view = screens[domain]
    nav = view.common("", None)["nav"]
    for screen in view.spec.details:
        context = view.detail(screen, flash="Cancel order: done.")
        page = render(app, "detail.html", context)
        check_page(app, page, nav)
        record_key = context["record"][view.key(screen.entity)]
        flash = page.testid("flash")
        assert flash.attrs["role"] == "status" and flash.all_text() == "Cancel order: done."
        for column in screen.fields:
            value = page.testid(f"value-{column.name}")
            if column.kind == "ref" and context["record"].get(column.name) and column.ref in view.spec.navigation:
                link = value.children[0]
                assert link.attrs["href"] == f"{BASE}/{column.ref}/{context['record'][column.name]}"
        entities = [relation.entity for relation, _, _ in context["related"]]
        for relation, rows, child_key in context["related"]:
            twice = entities.count(relation.entity) > 1
            section = page.testid(f"related-{relation.entity}" + (f"-{relation.field}" if twice else ""))
            for row in rows:
                link = page.testid(f"row-{row[child_key]}")
                assert (
                    section in link.ancestors() and link.attrs["href"] == f"{BASE}/{relation.entity}/{row[child_key]}"
                )
        for form in context["actions"]:
            link = page.testid(f"action-{form.tool}")
            assert link.attrs["href"] == f"{BASE}/{screen.entity}/{record_key}/do/{form.tool}"
            assert link.all_text().strip().startswith(form.title)
        if app == "phone":
            assert page.testid("back").attrs["href"] == f"{BASE}/{screen.entity}/"
            if context["actions"]:
                sheet = page.testid("open-actions").parent
                assert sheet is not None and sheet.tag == "details"
                assert all(sheet in page.testid(f"action-{form.tool}").ancestors() for form in context["actions"])


@pytest.mark.parametrize("app", APPS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_action_forms_have_a_labelled_input_per_parameter_and_show_errors_by_field(
    screens: dict[str, Screens], domain: str, app: str
) -> None:
    view = screens[domain]
    nav = view.common("", None)["nav"]
    for form in view.spec.actions:
        errors = {item.name: f"{item.label} is not right." for item in form.fields}
        context = view.action(form, errors=errors, error="The order has already shipped.")
        page = render(app, "action.html", context)
        check_page(app, page, nav)
        post = page.all("form", method="post")
        assert len(post) == 1 and post[0].attrs["action"] == context["post_url"]
        for item in form.fields:
            control = page.testid(f"field-{item.name}")
            message = page.testid(f"error-{item.name}")
            assert message.attrs["role"] == "alert" and message.all_text() == errors[item.name]
            assert f"error-{item.name}" in control.attrs["aria-describedby"].split()
            assert form_of(control) is post[0]
            if item.input == "record":
                # a picker: a labelled group of radios, one a row, whose values are the keys the tool takes
                assert control.tag == "fieldset" and control.attrs["role"] == "radiogroup"
                assert page.all(id=control.attrs["aria-labelledby"])[0].all_text().startswith(item.label)
                radios = control.descendants("input")
                radios = [radio for radio in radios if radio.attrs.get("type") == "radio"]
                assert radios and {radio.attrs["name"] for radio in radios} == {item.name}
                assert all(("required" in radio.attrs) == item.required for radio in radios)
                assert ("aria-required" in control.attrs) == item.required
                continue
            assert control.attrs["name"] == item.name
            assert ("required" in control.attrs) == item.required
            if item.input == "checkbox":
                assert control.attrs["type"] == "checkbox" and control.attrs["value"] == "true"
            if item.input == "select":
                values = [option.attrs["value"] for option in control.children if option.tag == "option"]
                assert values == ([] if item.required else [""]) + item.options
            if item.input in ("number", "money"):
                assert control.attrs["step"] == ("0.01" if item.input == "money" else "any")
                if item.minimum is not None:
                    assert float(control.attrs["min"]) == item.minimum
            if item.max_length and item.input in ("text", "textarea"):
                assert control.attrs["maxlength"] == str(item.max_length)
        assert page.testid("form-error").attrs["role"] == "alert"
        assert form_of(page.testid("submit")) is post[0] and page.testid("submit").attrs["type"] == "submit"
        record_url = f"{BASE}/{form.entity}/{context['record'][view.key(form.entity)]}"
        assert page.testid("cancel").attrs["href"] == record_url
        if app == "phone":
            assert page.testid("back").attrs["href"] == record_url and not page.all("nav", **{"class": "tabbar"})


@pytest.mark.parametrize("app", APPS)
def test_a_destructive_action_asks_to_confirm_with_every_value_carried_hidden(
    screens: dict[str, Screens], app: str
) -> None:
    view = screens["retail"]
    form = view.spec.action("cancel_order")
    assert form.destructive
    first = render(app, "action.html", view.action(form))
    assert first.testid("submit").all_text() == "Continue" and not first.all(**{"data-testid": "confirm"})
    context = view.action(form, values={"reason": "found_cheaper"}, confirm=True)
    page = render(app, "action.html", context)
    check_page(app, page, view.common("", None)["nav"])
    confirm = page.testid("confirm")
    post = form_of(confirm)
    hidden = {item.attrs["name"]: item.attrs["value"] for item in post.children if item.attrs.get("type") == "hidden"}
    assert hidden == {"reason": "found_cheaper", "confirmed": "yes"}
    assert post.attrs["action"] == context["post_url"] and confirm.attrs["type"] == "submit"
    assert page.testid("summary-reason").all_text() == "Found cheaper"
    assert page.testid("cancel").attrs["href"] == f"{BASE}/order/{context['record']['order_id']}"
    assert not page.all(**{"data-testid": "submit"}) and not page.all("select")
    refused = render(app, "action.html", view.action(form, values={"reason": "other"}, error="Order has shipped."))
    assert refused.testid("form-error").all_text() == "Order has shipped."
    assert refused.testid("field-reason").children[-1].attrs.get("selected") == ""


@pytest.mark.parametrize("app", APPS)
def test_a_record_less_action_is_offered_on_its_list_and_cancels_back_to_it(
    screens: dict[str, Screens], app: str
) -> None:
    view = screens["retail"]
    form = view.spec.action("add_address").model_copy(update={"entity": "address", "record_param": None})
    screen = view.list_screen("address").model_copy(update={"actions": [form.tool]})
    spec = view.spec.model_copy(
        update={
            "lists": [screen if item.entity == "address" else item for item in view.spec.lists],
            "actions": [form if item.tool == form.tool else item for item in view.spec.actions],
        }
    )
    local = Screens(view.env, spec, view.session)
    listing = render(app, "list.html", local.listing(screen))
    assert listing.testid(f"action-{form.tool}").attrs["href"] == f"{BASE}/address/new/{form.tool}"
    context = local.action(form, values={"street": "1 Main St"})
    page = render(app, "action.html", context)
    check_page(app, page, local.common("", None)["nav"])
    assert form_of(page.testid("submit")).attrs["action"] == f"{BASE}/address/new/{form.tool}"
    assert page.testid("cancel").attrs["href"] == f"{BASE}/address/"
    assert page.testid("field-street").attrs["value"] == "1 Main St"


@pytest.mark.parametrize("app", APPS)
def test_values_are_formatted_for_people_and_submitted_raw(screens: dict[str, Screens], app: str) -> None:
    view = screens["retail"]
    screen = view.list_screen("payment")
    row = {
        "payment_id": "PAY-1",
        "order_id": None,
        "method": "card",
        "amount": 1234.5,
        "refunded_total": 0,
        "status": "partially_refunded",
    }
    page = render(app, "list.html", view.listing(screen, [row]))
    shown = page.testid("row-PAY-1").enclosing("tr" if app == "web" else "li").all_text()
    assert "1,234.50" in shown and "Partially refunded" in shown
    # The refunded total is a detail list_payments leaves out: the payment's own screen shows it.
    assert "refunded_total" not in {column.name for column in screen.columns} and "0.00" not in shown
    assert "partially_refunded" not in shown
    status = page.testid("search-status")
    assert [(option.attrs["value"], option.all_text()) for option in status.children][1:] == [
        ("captured", "Captured"),
        ("partially_refunded", "Partially refunded"),
        ("refunded", "Refunded"),
    ]
    detail = view.detail(view.spec.detail("order"))
    detail["record"] = {**detail["record"], "delivered_on": None}
    page = render(app, "detail.html", detail)
    assert page.testid("value-delivered_on").all_text().strip() == "—"
    money = page.testid("value-total").children[0]
    assert money.attrs["class"] == "money" and money.all_text() == f"{detail['record']['total']:,.2f}"
    flag = view.spec.detail("order").fields[0].model_copy(update={"name": "gift", "kind": "boolean", "label": "Gift"})
    gift = view.spec.detail("order").model_copy(update={"fields": [*view.spec.detail("order").fields, flag]})
    page = render(app, "detail.html", {**detail, "screen": gift, "record": {**detail["record"], "gift": 1}})
    assert page.testid("value-gift").all_text() == "Yes"


@pytest.mark.parametrize("app", APPS)
def test_autoescape_keeps_a_script_in_the_data_as_text(screens: dict[str, Screens], app: str) -> None:
    view = screens["retail"]
    script = "<script>alert(1)</script>"
    rows = [{**row, "first_name": script} for row in view.rows("customer", 2)]
    listing = render(app, "list.html", {**view.listing(view.list_screen("customer"), rows), "query": {"email": script}})
    detail = view.detail(view.spec.detail("customer"))
    shown = render(app, "detail.html", {**detail, "record": {**detail["record"], "last_name": script}})
    form = view.spec.action("update_email")
    refill = render(app, "action.html", view.action(form, values={"email": script}, error=script))
    for page in (listing, shown, refill):
        assert script not in page.html and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.html
        assert all(item.attrs.get("src", "").startswith(f"{BASE}/static/") for item in page.all("script"))
    assert refill.testid("field-email").attrs["value"] == script
    assert shown.testid("value-last_name").all_text() == script


@pytest.mark.parametrize("app", APPS)
def test_a_record_field_is_a_picker_of_rows_in_words_that_submits_their_keys(
    screens: dict[str, Screens], app: str
) -> None:
    view = screens["retail"]
    form = view.spec.action("update_shipping_address")
    choices = (
        RowLabel("ADR-1", "1 Main St, Springfield", ("Home",)),
        RowLabel("ADR-2", "9 Dock Rd, Shelbyville", ("Work",)),
    )
    picker = Picker("address_id", "address", "addresses", choices, 2, "address id", "customer")
    context = {**view.action(form, values={"address_id": "ADR-2"}), "pickers": {"address_id": picker}}
    page = render(app, "action.html", context)
    group = page.testid("field-address_id")
    assert page.all(id="legend-address_id")[0].all_text().startswith("Address")
    radios = [item for item in group.descendants("input") if item.attrs.get("type") == "radio"]
    assert [(radio.attrs["value"], radio.attrs["aria-label"]) for radio in radios] == [
        ("ADR-1", "1 Main St, Springfield — Home (ADR-1)"),
        ("ADR-2", "9 Dock Rd, Shelbyville — Work (ADR-2)"),
    ]
    assert ["checked" in radio.attrs for radio in radios] == [False, True]
    cards = [page.all("label", **{"for": radio.attrs["id"]})[0].all_text() for radio in radios]
    assert cards == ["1 Main St, Springfield Home ADR-1", "9 Dock Rd, Shelbyville Work ADR-2"]
    assert not page.all(**{"data-testid": "pick-address_id"}), "every row is listed: no search"
    assert "Address key" not in page.html and "Address id" not in page.html
    many = Picker("address_id", "address", "addresses", choices, 120, "address id", "customer", query="Main")
    searched = render(app, "action.html", {**context, "pickers": {"address_id": many}})
    box = searched.testid("pick-address_id")
    assert box.attrs["name"] == "pick-address_id" and box.attrs["value"] == "Main"
    button = searched.testid("pick-search-address_id")
    # the search sends the form's values back with a GET: nothing typed so far is lost, nothing is submitted
    assert button.attrs["formmethod"] == "get" and form_of(button) is form_of(searched.testid("field-address_id"))
    assert "Showing 2 of 120 addresses that match" in searched.all(id="help-address_id")[0].all_text()
    narrowed = Picker("address_id", "address", "addresses", choices[:1], 1, "address id", "customer", query="Main")
    found = render(app, "action.html", {**context, "pickers": {"address_id": narrowed}})
    assert "1 address matches “Main”." in found.all(id="help-address_id")[0].all_text()
    confirm = render(
        app, "action.html", {**context, "confirm": True, "form": form.model_copy(update={"destructive": True})}
    )
    assert confirm.testid("summary-address_id").all_text() == "9 Dock Rd, Shelbyville — Work (ADR-2)"


@pytest.mark.parametrize("app", APPS)
def test_server_extras_flash_next_url_and_message_are_shown(screens: dict[str, Screens], app: str) -> None:
    view = screens["retail"]
    screen = view.list_screen("order")
    next_url = f"{BASE}/order/?status=pending&offset=20"
    extras = {"flash": "Add address: done.", "next_url": next_url, "query": {"status": "pending"}, "offset": 20}
    page = render(app, "list.html", {**view.listing(screen), **extras})
    assert page.testid("flash").all_text() == "Add address: done." and page.testid("flash").attrs["role"] == "status"
    assert page.testid("next-page").attrs["href"] == next_url
    assert page.testid("first-page").attrs["href"] == f"{BASE}/order/?status=pending&offset=0"
    assert [
        option.attrs["value"] for option in page.testid("search-status").children if "selected" in option.attrs
    ] == ["pending"]
    message = {"heading": "Not found", "text": "no order with order_id 'X'", "back": f"{BASE}/order/"}
    shown = render(app, "message.html", {**view.common("Not found", None), **message})
    check_page(app, shown, view.common("", None)["nav"])
    assert shown.all("h1")[0].all_text().strip() == "Not found" and "order_id 'X'" in shown.root.all_text()
    assert shown.testid("back").attrs["href"] == f"{BASE}/order/"


@pytest.mark.parametrize("app", APPS)
def test_assets_are_self_contained(app: str) -> None:
    names = {path.name for path in (ASSETS / app).iterdir()}
    assert {"base.html", "home.html", "list.html", "detail.html", "action.html", "message.html", "static"} <= names
    assert (ASSETS / app / "static" / "app.css").is_file() and (ASSETS / app / "static" / "icon.svg").is_file()
    assert (ASSETS / "shared" / "static" / "shared.css").is_file()
    for path in [*(ASSETS / app).rglob("*"), *(ASSETS / "shared").rglob("*")]:
        if path.is_file():
            # The SVG namespace is a name, never fetched.
            text = path.read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")
            assert "http://" not in text and "https://" not in text and "@import" not in text, path
            assert "url(" not in text and "@font-face" not in text, path


def test_a_template_two_apps_share_compiles_once_and_a_changed_one_again(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str | None] = []
    compile_source = jinja2.Environment.compile

    def counting(environment: jinja2.Environment, source: Any, name: str | None = None, *args: Any) -> Any:
        compiled.append(name)
        return compile_source(environment, source, name, *args)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    shared = {"_ui.html": f"{{{{ value }}}} {id(compiled)}"}
    web, phone = (app_templates(jinja2.DictLoader({**shared, "page.html": page})) for page in ("web", "phone"))
    assert web.get_template("_ui.html").render(value=1) == phone.get_template("_ui.html").render(value=1)
    assert compiled == ["_ui.html"]
    changed = app_templates(jinja2.DictLoader({"_ui.html": f"<{{{{ value }}}}> {id(compiled)}"}))
    assert changed.get_template("_ui.html").render(value=1) == f"<1> {id(compiled)}"
    assert compiled == ["_ui.html", "_ui.html"]
