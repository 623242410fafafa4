"""Fusion: a `compose:` blueprint, and `envforge fuse`, build one blueprint from 2-3 domains with namespaced
names, the same person linked across them, and one-line errors that say how to fix what cannot be fused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from envforge.cli.app import main
from envforge.errors import BlueprintError
from envforge.ir.blueprint import Blueprint
from envforge.ir.checks import check_blueprint
from envforge.ir.compose import plain_names, rename_names, task_domains, tool_domains
from envforge.ir.invariants import DerivedValue, StateRule
from envforge.ir.loading import load_blueprint
from envforge.ir.tasks import ToolCall
from envforge.suite.fusion import composition_data
from envforge.suite.scaffold import render_blueprint
from tests.blueprint_edits import edit, line_of
from tests.cli.test_bad_input import run_main
from tests.conftest import REPO

SHIPPED = REPO / "blueprints"
FUSED = {name: SHIPPED / "fused" / f"{name}.yaml" for name in ("clinic_banking", "airline_banking")}
BANKING_TEXT = (SHIPPED / "banking.yaml").read_text(encoding="utf-8")
UNIQUE_EMAIL = "{name: email, type: string, unique: true, searchable: true, max_length: 120"


def shipped(name: str) -> Blueprint:
    return load_blueprint(SHIPPED / f"{name}.yaml")


def write_composition(folder: Path, name: str, members: list[str], identity: str = "email") -> Path:
    """A `compose:` blueprint in `folder` fusing `members` (each a `{blueprint: ...}` flow mapping's inside)."""
    listed = "".join(f"    - {{{member}}}\n" for member in members)
    path = folder / f"{name}.yaml"
    path.write_text(
        f"schema_version: 1\ndomain: {name}\ntitle: {name}\ndescription: A fused test world.\n"
        f"compose:\n  identity: {identity}\n  domains:\n{listed}",
        encoding="utf-8",
    )
    return path


def fuse_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> str:
    """The one error line of `envforge fuse ARGS`, which must exit 2 and write nothing."""
    out = tmp_path / "out"
    code, message = run_main(capsys, "fuse", *args, "-o", str(out))
    assert code == 2
    assert not out.exists()
    return message


def generate_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, blueprint: Path) -> str:
    """The one error line of `envforge generate BLUEPRINT`, which must exit 2 and write nothing."""
    out = tmp_path / "out"
    code, message = run_main(capsys, "generate", str(blueprint), "-o", str(out))
    assert code == 2
    assert not out.exists()
    return message


# --- rename_names ------------------------------------------------------------------------------


def test_rename_names_renames_bare_names_and_keeps_attributes_strings_and_spacing() -> None:
    renamed = rename_names("order.status  ==  'order' or x.order>order.total", {"order": "shop_order"})
    assert renamed == "shop_order.status  ==  'order' or x.order>shop_order.total"


def test_rename_names_leaves_longer_names_and_calls_alone_and_keeps_line_breaks() -> None:
    expression = "max(order_item.total,\n    order.total) + orders"
    assert rename_names(expression, {"order": "shop_order"}) == "max(order_item.total,\n    shop_order.total) + orders"
    assert rename_names(expression, {}) == expression


# --- the shipped compositions --------------------------------------------------------------------


@pytest.fixture(scope="module")
def clinic_banking() -> Blueprint:
    return load_blueprint(FUSED["clinic_banking"])


@pytest.fixture(scope="module")
def airline_banking() -> Blueprint:
    return load_blueprint(FUSED["airline_banking"])


@pytest.mark.parametrize(
    ("fused_name", "members", "bridges", "bridge_policies"),
    [("clinic_banking", ["clinic", "banking"], 1, 3), ("airline_banking", ["airline", "banking"], 1, 0)],
)
def test_every_name_of_each_member_appears_namespaced_once_in_the_fused_blueprint(
    fused_name: str, members: list[str], bridges: int, bridge_policies: int
) -> None:
    fused = load_blueprint(FUSED[fused_name])
    prefixes = {part.domain: part.prefix for part in fused.composed_of}
    assert [part.domain for part in fused.composed_of] == members
    assert prefixes["banking"] == "bank"
    loaded = [shipped(member) for member in members]
    for member in loaded:
        prefix = prefixes[member.domain]
        assert {f"{prefix}_{e.name}" for e in member.entities} <= {e.name for e in fused.entities}
        assert {f"{prefix}_{r.name}" for r in member.relations} <= {r.name for r in fused.relations}
        assert {f"{prefix}_{p.id}" for p in member.policies} <= {p.id for p in fused.policies}
        assert {f"{prefix}_{i.id}" for i in member.invariants} <= {i.id for i in fused.invariants}
        part = next(part for part in fused.composed_of if part.domain == member.domain)
        assert len(part.actions) == len(member.actions)
        for original, action in zip(member.actions, part.actions, strict=True):
            # The prefix is one word inside the name, after the verb (and its particle): taken out, the
            # member's own name is left.
            words = action.split("_")
            assert words.index(prefix) in (1, 2)
            assert "_".join(word for word in words if word != prefix) == original.name
    for names in (
        [e.name for e in fused.entities],
        [r.name for r in fused.relations],
        [a.name for a in fused.actions],
        [p.id for p in fused.policies],
        [i.id for i in fused.invariants],
    ):
        assert len(names) == len(set(names))
    assert len(fused.entities) == sum(len(m.entities) for m in loaded)
    assert len(fused.relations) == sum(len(m.relations) for m in loaded) + 1
    assert len(fused.actions) == sum(len(m.actions) for m in loaded) + bridges
    assert len(fused.policies) == sum(len(m.policies) for m in loaded) + bridge_policies
    assert len(fused.invariants) == sum(len(m.invariants) for m in loaded)


def test_the_prefix_goes_after_the_verb_and_after_a_particle(
    clinic_banking: Blueprint, airline_banking: Blueprint
) -> None:
    names = {a.name for a in clinic_banking.actions} | {a.name for a in airline_banking.actions}
    assert {"freeze_bank_card", "pay_clinic_invoice", "report_bank_card_lost_or_stolen", "check_in_airline"} <= names
    assert {"bank_account", "clinic_patient", "airline_baggage_claim"} <= {
        e.name for e in [*clinic_banking.entities, *airline_banking.entities]
    }


def test_the_later_person_is_linked_one_to_one_to_the_first_and_copies_its_identity_through_the_link(
    clinic_banking: Blueprint, airline_banking: Blueprint
) -> None:
    for fused, primary, link in (
        (clinic_banking, "clinic_patient", "patient_id"),
        (airline_banking, "airline_passenger", "passenger_id"),
    ):
        assert fused.person == primary
        assert fused.linked_persons == ["bank_customer"]
        relation = next(r for r in fused.relations if r.child == "bank_customer" and r.parent == primary)
        assert (relation.name, relation.field, relation.cardinality, relation.required) == (
            "bank_customer_person",
            link,
            "one_to_one",
            True,
        )
        customer = fused.entity("bank_customer")
        field = next(f for f in customer.fields if f.name == link)
        assert field.type == "ref"
        copied = {f.name: f.generator.copy_from for f in customer.fields if f.generator and f.generator.copy_from}
        # Personal fields both persons have are copied (one human, one birthday); the bank's own username and
        # customer_since are not.
        shared = ("first_name", "last_name", "email", "phone", "date_of_birth")
        assert copied == {name: f"{link}.{name}" for name in shared}
        assert customer.rows == fused.entity(primary).rows


def test_composed_of_lists_the_members_with_their_prefix_person_and_fused_names(clinic_banking: Blueprint) -> None:
    assert [(p.domain, p.prefix, p.title, p.person) for p in clinic_banking.composed_of] == [
        ("clinic", "clinic", "Medical clinic patient services", "clinic_patient"),
        ("banking", "bank", "Personal banking support", "bank_customer"),
    ]
    assert clinic_banking.composed_of[1].entities == [
        "bank_customer",
        "bank_account",
        "bank_card",
        "bank_transaction",
        "bank_transfer",
        "bank_dispute",
        "bank_payee",
    ]
    assert clinic_banking.domain_of("bank_card") == "banking"
    assert clinic_banking.domain_of("book_clinic_appointment") == "clinic"
    assert clinic_banking.domain_of("pay_clinic_invoice_from_bank_account") is None


def test_plain_names_drop_the_prefix_unless_two_members_share_the_word(
    clinic_banking: Blueprint, airline_banking: Blueprint
) -> None:
    clinic = plain_names(clinic_banking)
    assert clinic["bank_card"] == "card"
    assert clinic["bank_cards"] == "cards"
    assert clinic["freeze_bank_card"] == "freeze_card"
    assert clinic["update_clinic_contact_info"] == "update_contact_info"
    # A bridge is said as its verb and the thing it acts on.
    assert clinic["pay_clinic_invoice_from_bank_account"] == "pay_invoice"
    airline = plain_names(airline_banking)
    assert airline["check_in_airline"] == "check_in"
    # Both members have update_contact_details: each keeps its prefix.
    assert "update_airline_contact_details" not in airline
    assert "update_bank_contact_details" not in airline
    assert plain_names(shipped("retail")) == {}


def test_fusing_retail_and_banking_keeps_the_prefix_on_the_customer_both_have(tmp_path: Path) -> None:
    path = write_composition(
        tmp_path, "shop_bank", ["blueprint: retail, prefix: shop", "blueprint: banking, prefix: bank"]
    )
    fused = load_blueprint(path)
    plain = plain_names(fused)
    assert "shop_customer" not in plain
    assert "bank_customer" not in plain
    assert "shop_customers" not in plain
    assert (plain["bank_account"], plain["shop_order"], plain["update_shop_email"]) == (
        "account",
        "order",
        "update_email",
    )
    # Both persons call their key customer_id: the link is named after the first's fused name instead.
    relation = next(r for r in fused.relations if r.name == "bank_customer_person")
    assert (relation.field, relation.parent) == ("shop_customer_id", "shop_customer")
    email = next(f for f in fused.entity("bank_customer").fields if f.name == "email")
    assert email.generator is not None
    assert email.generator.copy_from == "shop_customer_id.email"


def test_tool_and_task_domains_name_the_members_a_call_works_in_apart_from_the_person_records(
    clinic_banking: Blueprint,
) -> None:
    tools = tool_domains(clinic_banking)
    assert tools["pay_clinic_invoice_from_bank_account"] == {"banking", "clinic"}
    assert tools["freeze_bank_card"] == {"banking"}
    assert tools["list_bank_cards"] == {"banking"}
    assert tools["find_clinic_patient_by_email"] == frozenset()
    calls = [ToolCall(name="find_clinic_patient_by_email"), ToolCall(name="freeze_bank_card")]
    assert task_domains(clinic_banking, calls) == ["banking"]
    assert task_domains(clinic_banking, [*calls, ToolCall(name="cancel_clinic_appointment")]) == ["banking", "clinic"]
    assert task_domains(shipped("retail"), [ToolCall(name="cancel_order")]) == []


# --- expressions -------------------------------------------------------------------------------


def test_entity_policies_and_invariants_are_rewritten_to_fused_names_but_aliases_are_kept(
    clinic_banking: Blueprint, airline_banking: Blueprint
) -> None:
    policies = {p.id: p for p in clinic_banking.policies}
    assert (policies["clinic_no_overpayment"].entity, policies["clinic_no_overpayment"].require) == (
        "clinic_invoice",
        "clinic_invoice.amount_paid <= clinic_invoice.amount + 0.005",
    )
    assert policies["bank_no_overdraft"].require == (
        "bank_account.balance >= -0.005 or (bank_account.account_type == 'checking' "
        "and bank_account.balance >= -bank_account.overdraft_limit - 0.005)"
    )
    # Action-scoped rules read the action's aliases, which keep their names.
    assert policies["bank_daily_transfer_limit"].actions == ["transfer_bank_funds", "pay_bank_bill"]
    invariants = {i.id: i for i in clinic_banking.invariants}
    stopped = invariants["bank_closed_account_cards_stopped"]
    assert isinstance(stopped, StateRule)
    # `account` is an alias of the card's parent row, though banking also has an entity of that name.
    assert (stopped.entity, stopped.parents) == ("bank_card", {"account": "account_id"})
    assert stopped.require == "account.status != 'closed' or bank_card.status in ('blocked', 'replaced')"
    follows = invariants["bank_charge_status_follows_dispute"]
    assert isinstance(follows, DerivedValue)
    assert follows.children == {"dispute": "bank_transaction_dispute"}
    assert follows.value is not None
    assert follows.value.startswith("'disputed' if dispute.status == 'open' else")
    assert follows.value.endswith(
        "else 'posted' if bank_transaction.status in ('disputed', 'reversed') else bank_transaction.status"
    )
    counts = next(i for i in airline_banking.invariants if i.id == "airline_checked_bags_counts_bags")
    assert isinstance(counts, DerivedValue)
    assert (counts.entity, counts.over, counts.where) == (
        "airline_booking",
        "airline_booking_bags",
        "airline_bag.status != 'cancelled'",
    )
    check_blueprint(clinic_banking)
    check_blueprint(airline_banking)


def test_a_child_alias_named_like_an_entity_in_scope_is_not_renamed(tmp_path: Path) -> None:
    fused = load_blueprint(
        write_composition(tmp_path, "shop_bank", ["blueprint: retail, prefix: shop", "blueprint: banking"])
    )
    invariants = {i.id: i for i in fused.invariants}
    line = invariants["shop_line_status_follows_return"]
    assert isinstance(line, DerivedValue)
    assert line.children == {"return_request": "shop_item_returns"}
    assert line.value == (
        "'return_requested' if return_request.status == 'requested' else 'returned' if return_request.status == "
        "'refunded' else 'cancelled' if shop_order_item.status == 'cancelled' else 'ordered'"
    )
    total = invariants["shop_order_total_is_sum_of_lines"]
    assert isinstance(total, DerivedValue)
    assert (total.over, total.of, total.where) == (
        "shop_order_items",
        "shop_order_item.unit_price * shop_order_item.quantity",
        "shop_order_item.status != 'cancelled'",
    )


# --- errors: one line, with the fix -----------------------------------------------------------


def test_fusing_one_domain_with_itself_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert fuse_error(capsys, tmp_path, "retail", "retail") == (
        "the domain 'retail' is given twice; fuse different domains (a compose: blueprint can fuse one twice, "
        "with a prefix for each)"
    )


def test_the_same_prefix_for_two_domains_is_refused_on_the_command_line_and_in_a_composition(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--prefix", "banking=clinic") == (
        "two domains are namespaced 'clinic'; give each domain its own prefix (--prefix DOMAIN=PREFIX)"
    )
    path = write_composition(tmp_path, "twice", ["blueprint: clinic, prefix: bank", "blueprint: banking, prefix: bank"])
    line = line_of(path.read_text(encoding="utf-8"), "blueprint: banking")
    assert generate_error(capsys, tmp_path, path) == (
        f"{path}:{line}: compose.domains[1].prefix: two domains are namespaced 'bank'; give each domain its own prefix"
    )


def test_fusing_one_blueprint_is_refused_with_how_many_to_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert fuse_error(capsys, tmp_path, "retail") == (
        "fuse takes 2 to 3 blueprints, got 1; name 2 or 3 (e.g. envforge fuse clinic banking)"
    )


def test_an_identity_one_person_has_but_not_unique_is_refused_naming_the_one_they_share(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--identity", "phone") == (
        "no shared person identity: clinic's person entity 'patient' has 'phone', but it is not unique; "
        "use one every person entity has: email"
    )
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--identity", "date_of_birth") == (
        "no shared person identity: clinic's person entity 'patient' has 'date_of_birth', but it is of type date, "
        "not text; use one every person entity has: email"
    )
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--identity", "E-mail") == (
        "--identity: 'E-mail' is not a lower_snake_case name; write e.g. --identity email"
    )


def test_persons_with_no_unique_text_field_in_common_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    loose = tmp_path / "loose_bank.yaml"
    loose.write_text(
        edit(UNIQUE_EMAIL, "{name: email, type: string, searchable: true, max_length: 120", BANKING_TEXT),
        encoding="utf-8",
    )
    assert fuse_error(capsys, tmp_path, "clinic", str(loose)) == (
        "no shared person identity: the person entities clinic.patient, banking.customer have no unique text field "
        "in common; give each the same one (e.g. email with unique: true)"
    )
    assert fuse_error(capsys, tmp_path, "clinic", str(loose), "--identity", "email") == (
        "no shared person identity: banking's person entity 'customer' has 'email', but it is not unique; "
        "mark it unique: true in banking's blueprint"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("bank", "--prefix 'bank': write DOMAIN=PREFIX with DOMAIN one of clinic, banking (e.g. banking=bank)"),
        (
            "bankin=bank",
            "--prefix 'bankin=bank': write DOMAIN=PREFIX with DOMAIN one of clinic, banking (e.g. banking=bank)",
        ),
        ("banking=", "--prefix 'banking=': write DOMAIN=PREFIX with DOMAIN one of clinic, banking (e.g. banking=bank)"),
        ("banking=Bank", "--prefix 'banking=Bank': 'Bank' is not a lower_snake_case name; write e.g. banking=bank"),
    ],
)
def test_a_malformed_prefix_is_refused_with_the_form_to_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, message: str
) -> None:
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--prefix", value) == message


def test_a_prefix_that_makes_a_name_too_long_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    prefix = "harbor_federal_bank_personal_and_business_banking"
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--prefix", f"banking={prefix}") == (
        f"the fused name '{prefix}_transfer_source' is longer than 63 characters; give banking a shorter "
        "prefix (--prefix DOMAIN=PREFIX)"
    )


def test_a_name_collision_made_by_a_prefix_is_refused_and_another_prefix_fixes_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # pet_clinic's booking and pet's clinic_booking both become pet_clinic_booking.
    first = tmp_path / "pet_clinic.yaml"
    first.write_text(render_blueprint("pet_clinic", first), encoding="utf-8")
    second = tmp_path / "pet.yaml"
    second.write_text(re.sub(r"\bbooking\b", "clinic_booking", render_blueprint("pet", second)), encoding="utf-8")
    assert fuse_error(capsys, tmp_path, str(first), str(second)) == (
        "the entity name 'pet_clinic_booking' comes from both pet_clinic and pet; give one of them another prefix "
        "(--prefix DOMAIN=PREFIX)"
    )
    data = composition_data([first, second], domain=None, identity=None, prefixes=["pet=pets"], folder=tmp_path)
    assert data["compose"]["domains"] == [{"blueprint": "pet_clinic.yaml"}, {"blueprint": "pet.yaml", "prefix": "pets"}]


def test_a_composition_naming_a_missing_member_is_refused_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_composition(tmp_path, "missing", ["blueprint: clinic", "blueprint: ./nowhere.yaml"])
    line = line_of(path.read_text(encoding="utf-8"), "nowhere")
    assert generate_error(capsys, tmp_path, path) == (
        f"{path}:{line}: compose.domains[1].blueprint: no blueprint './nowhere.yaml' (looked for "
        f"{tmp_path / 'nowhere.yaml'}); give a file relative to this one, or a shipped name such as clinic"
    )


def test_a_composition_listing_itself_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write_composition(tmp_path, "itself", ["blueprint: clinic", "blueprint: itself.yaml"])
    line = line_of(path.read_text(encoding="utf-8"), "itself.yaml")
    assert generate_error(capsys, tmp_path, path) == (
        f"{path}:{line}: compose.domains[1].blueprint: 'itself.yaml' is this composition itself; "
        "list the domains' own blueprints"
    )


def test_a_member_that_is_itself_fused_is_refused_in_a_composition_and_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    member = FUSED["clinic_banking"]
    path = write_composition(tmp_path, "nested", ["blueprint: retail", f"blueprint: {member}"])
    line = line_of(path.read_text(encoding="utf-8"), "clinic_banking")
    assert generate_error(capsys, tmp_path, path) == (
        f"{path}:{line}: compose.domains[1].blueprint: '{member}' is itself fused; list its domains here instead "
        "(at most 3)"
    )
    assert fuse_error(capsys, tmp_path, "retail", "clinic_banking") == (
        "'clinic_banking' is itself fused; list its domains here instead (at most 3)"
    )


def test_two_compositions_that_list_each_other_are_refused_without_recursing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first = write_composition(tmp_path, "first", ["blueprint: retail", "blueprint: second.yaml"])
    write_composition(tmp_path, "second", ["blueprint: clinic", "blueprint: first.yaml"])
    line = line_of(first.read_text(encoding="utf-8"), "second.yaml")
    assert generate_error(capsys, tmp_path, first) == (
        f"{first}:{line}: compose.domains[1].blueprint: 'second.yaml' is itself fused; list its domains here "
        "instead (at most 3)"
    )


def test_a_mistake_in_a_bridge_or_bridge_policy_is_located_in_the_composition(tmp_path: Path) -> None:
    text = FUSED["clinic_banking"].read_text(encoding="utf-8")
    text = edit("../clinic.yaml", "clinic", edit("../banking.yaml", "banking", text))
    path = tmp_path / "bridged.yaml"
    path.write_text(edit("key: invoice.appointment_id}", "key: invoice.appointment_idx}", text), encoding="utf-8")
    with pytest.raises(BlueprintError) as bridge:
        load_blueprint(path)
    assert str(bridge.value) == (
        f"{path}:{line_of(path.read_text(encoding='utf-8'), 'appointment_idx')}: compose.bridges[0].bind[1].key: "
        "entity 'clinic_invoice' has no field 'appointment_idx'; did you mean 'appointment_id'?"
    )
    path.write_text(edit('require: "source.account_type', 'require: "sourc.account_type', text), encoding="utf-8")
    with pytest.raises(BlueprintError) as policy:
        load_blueprint(path)
    assert str(policy.value) == (
        f"{path}:{line_of(path.read_text(encoding='utf-8'), 'sourc.')}: compose.policies[1].require: unknown name "
        "'sourc' in \"sourc.account_type != 'savings' or source.withdrawals_this_month < 6\"; did you mean 'source'?"
    )


# --- --save --------------------------------------------------------------------------------------


def _files(package: Path) -> dict[str, bytes]:
    return {str(path.relative_to(package)): path.read_bytes() for path in sorted(package.rglob("*")) if path.is_file()}


def test_fuse_save_writes_a_composition_that_generates_the_same_package_byte_for_byte(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "blueprints" / "clinic_bank.yaml"
    size = ["--rows", "300", "--tasks", "10"]
    main(
        [
            "fuse",
            "clinic",
            "banking",
            "--prefix",
            "banking=bank",
            "--save",
            str(saved),
            "-o",
            str(tmp_path / "a"),
            *size,
        ]
    )
    main(["generate", str(saved), "-o", str(tmp_path / "b"), *size])
    capsys.readouterr()
    data = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert data["domain"] == "clinic_banking"
    # shipped members by name, so the saved file reads the same on every machine
    assert [d["blueprint"] for d in data["compose"]["domains"]] == ["clinic", "banking"]
    assert data["compose"]["identity"] == "email"
    first, second = _files(tmp_path / "a" / "clinic_banking"), _files(tmp_path / "b" / "clinic_banking")
    assert "state.sqlite" in first
    assert "tasks.jsonl" in first
    assert first == second


def test_fuse_save_onto_an_existing_file_without_force_is_refused_and_leaves_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "mine.yaml"
    saved.write_text("# my own notes\n", encoding="utf-8")
    assert fuse_error(capsys, tmp_path, "clinic", "banking", "--save", str(saved)) == (
        f"--save {saved}: the file exists; pass --force to overwrite it, or choose another path"
    )
    assert saved.read_text(encoding="utf-8") == "# my own notes\n"
