"""A malformed blueprint fails with one line: file, line, field path, what is wrong and how to fix it.

Each case takes the shipped retail blueprint, makes one targeted edit and loads the result. The
expected line is found by searching the edited text, so the tests survive edits to retail.yaml.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.errors import BlueprintError
from envforge.ir.loading import load_blueprint
from tests.blueprint_edits import RETAIL_TEXT, edit, line_of


def load_error(tmp_path: Path, text: str) -> BlueprintError:
    """Load `text` as a blueprint file; return the error, checked to be one line naming file and line."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    error = info.value
    message = str(error)
    assert "\n" not in message and "\r" not in message, message
    assert error.file == str(path)
    assert error.line is not None, message
    assert message.startswith(f"{path}:{error.line}: "), message
    if error.path:
        assert message.startswith(f"{path}:{error.line}: {error.path}: "), message
    return error


# --- broken YAML -----------------------------------------------------------------------------


def test_an_unclosed_bracket_is_broken_yaml_on_its_line(tmp_path: Path) -> None:
    text = edit("child: address, field: customer_id,", "child: [address, field: customer_id,")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "child: [address")
    assert error.path == ""
    assert "broken YAML" in error.detail
    assert "fix the YAML syntax" in error.detail


def test_a_key_indented_too_deeply_is_broken_yaml_on_its_line(tmp_path: Path) -> None:
    text = edit("    rows: 60\n", "      rows: 60\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "      rows: 60")
    assert "broken YAML" in error.detail
    assert "indentation" in error.detail


def test_a_tab_in_the_indentation_says_to_indent_with_spaces(tmp_path: Path) -> None:
    text = edit("    rows: 60\n", "\trows: 60\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "\trows: 60")
    assert "indent with spaces, not tabs" in error.detail


def test_a_duplicate_yaml_key_names_the_second_key_and_the_line_of_the_first(tmp_path: Path) -> None:
    text = edit("    rows: 60\n", "    rows: 60\n    rows: 61\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "rows: 61")
    assert error.path == "entities[0].rows"
    assert f"duplicate key 'rows' (first on line {line_of(text, 'rows: 60')})" in error.detail
    assert "remove one of them" in error.detail


# --- unknown keys, wrong types, wrong literals -------------------------------------------------


def test_an_unknown_top_level_key_suggests_the_key_it_was_meant_to_be(tmp_path: Path) -> None:
    text = edit("\nclock: 2026", "\nclocks: 2026")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "clocks:")
    assert error.path == "clocks"
    assert error.detail == "unknown key 'clocks'; did you mean 'clock'?"


def test_an_unknown_key_inside_a_field_suggests_the_closest_key(tmp_path: Path) -> None:
    text = edit("{name: phone, type: string, searchable: true,", "{name: phone, type: string, searchabel: true,")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "searchabel")
    assert error.path == "entities[0].fields[4].searchabel"
    assert error.detail == "unknown key 'searchabel'; did you mean 'searchable'?"


def test_an_unknown_key_inside_an_effect_suggests_the_closest_key(tmp_path: Path) -> None:
    old = "      - update: order\n        set: {status: \"'cancelled'\"}"
    text = edit(old, old.replace("set:", "sett:"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "sett:")
    assert error.path == "actions[0].effects[0].sett"
    assert error.detail == "unknown key 'sett'; did you mean 'set'?"


def test_an_unquoted_description_cut_at_a_comma_says_to_quote_the_whole_description(tmp_path: Path) -> None:
    # In a flow mapping the comma ends the value, and the rest of the sentence becomes a key of its own.
    text = edit(
        "{name: ship_city, type: string,",
        "{name: ship_city, type: string, description: City of the address, as printed on the label.,",
    )
    error = load_error(tmp_path, text)
    assert str(error) == (
        f"{error.file}:{line_of(text, 'as printed')}: entities[3].fields[6].as printed on the label.: "
        "unknown key 'as printed on the label.' — this looks like text cut at a comma; quote the whole description: "
        'description: "City of the address, as printed on the label."'
    )


def test_a_description_cut_at_several_commas_is_quoted_whole_from_its_first_piece(tmp_path: Path) -> None:
    text = edit(
        "{name: ship_city, type: string,", '{name: ship_city, type: string, description: City, town, or "hamlet".,'
    )
    error = load_error(tmp_path, text)
    assert error.path == "entities[3].fields[6].town"
    assert error.detail == (
        "unknown key 'town' — this looks like text cut at a comma; quote the whole description: "
        'description: "City, town, or \\"hamlet\\"."'
    )


def test_a_mistyped_effect_kind_suggests_the_effect_kind(tmp_path: Path) -> None:
    old = "      - update: order\n        set: {status: \"'cancelled'\"}"
    text = edit(old, old.replace("update:", "updte:"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "updte:")
    assert error.path == "actions[0].effects[0].updte"
    assert error.detail == "unknown effect kind 'updte'; did you mean 'update'?"


def test_a_word_where_a_number_belongs_says_a_whole_number_is_expected(tmp_path: Path) -> None:
    text = edit("    rows: 60\n", "    rows: many\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "rows: many")
    assert error.path == "entities[0].rows"
    assert error.detail == "expected a whole number, got 'many'; fix the value"


def test_a_value_of_none_of_a_unions_types_names_the_field_not_the_union_member(tmp_path: Path) -> None:
    text = edit(
        "{name: store_credit, type: money, minimum: 0, default: 0,",
        "{name: store_credit, type: money, minimum: 0, default: [0],",
    )
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "default: [0]")
    assert error.path == "entities[0].fields[6].default"
    assert error.detail.startswith("expected text, a number or true/false, got [0]")


def test_a_misspelled_field_type_suggests_the_closest_type(tmp_path: Path) -> None:
    text = edit(
        "{name: street, type: string, generator: {faker: street_address}, noun: street address}",
        "{name: street, type: strng, generator: {faker: street_address}, noun: street address}",
    )
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "type: strng")
    assert error.path == "entities[1].fields[3].type"
    assert error.detail.startswith("'strng' is not one of id, ref, string,")
    assert error.detail.endswith("; did you mean 'string'?")


def test_a_name_that_is_not_snake_case_shows_the_snake_case_spelling(tmp_path: Path) -> None:
    text = edit("  - name: payment\n    description", "  - name: Payment\n    description")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "name: Payment")
    assert error.path == "entities[5].name"
    assert error.detail == "'Payment' is not a valid name here; use lower_snake_case (e.g. 'payment')"


def test_a_missing_required_key_names_the_key_and_says_to_add_it(tmp_path: Path) -> None:
    text = edit("    description: An item the shop sells.\n", "")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "  - name: product\n")
    assert error.path == "entities[2].description"
    assert error.detail == "required key 'description' is missing; add it"


# --- names that do not resolve ---------------------------------------------------------------


def test_a_relation_to_a_missing_entity_names_the_line_and_suggests_the_closest_entity(tmp_path: Path) -> None:
    text = edit(
        "child: order, field: customer_id, parent: customer,", "child: order, field: customer_id, parent: custmer,"
    )
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "parent: custmer")
    assert error.path == "relations[1].parent"
    assert error.detail == "unknown entity 'custmer'; did you mean 'customer'?"


def test_a_relation_on_a_missing_field_suggests_the_closest_field(tmp_path: Path) -> None:
    text = edit(
        "child: order_item, field: order_id, parent: order,", "child: order_item, field: ordr_id, parent: order,"
    )
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "field: ordr_id")
    assert error.path == "relations[2].field"
    assert error.detail == "entity 'order_item' has no field 'ordr_id'; did you mean 'order_id'?"


def test_a_relation_on_a_field_with_no_close_match_lists_the_fields(tmp_path: Path) -> None:
    text = edit("child: order_item, field: order_id, parent: order,", "child: order_item, field: zzz, parent: order,")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "field: zzz")
    assert error.path == "relations[2].field"
    assert error.detail.startswith("entity 'order_item' has no field 'zzz'; its fields are item_id, order_id,")


def test_a_relation_on_a_field_that_is_not_a_ref_names_the_ref_fields_to_use(tmp_path: Path) -> None:
    text = edit(
        "child: order_item, field: product_id, parent: product,", "child: order_item, field: quantity, parent: product,"
    )
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "field: quantity, parent: product")
    assert error.path == "relations[3].field"
    assert error.detail == (
        "field 'order_item.quantity' has type 'integer', but a relation needs a 'ref' field; "
        "name one of its ref fields (order_id, product_id) or make 'quantity' 'type: ref'"
    )


def test_an_effect_setting_a_missing_field_suggests_the_closest_field(tmp_path: Path) -> None:
    old = "      - update: order\n        set: {status: \"'cancelled'\"}"
    text = edit(old, old.replace("{status:", "{statuss:"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "statuss")
    assert error.path == "actions[0].effects[0].set.statuss"
    assert error.detail == "entity 'order' has no field 'statuss'; did you mean 'status'?"


def test_an_effect_on_an_unknown_alias_suggests_the_bound_alias(tmp_path: Path) -> None:
    old = "      - update: order\n        set: {status: \"'cancelled'\"}"
    text = edit(old, old.replace("update: order", "update: ordr"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "update: ordr")
    assert error.path == "actions[0].effects[0].update"
    assert error.detail == "unknown alias 'ordr'; did you mean 'order'?"


def test_an_effect_on_an_alias_with_no_close_match_says_to_bind_it_first(tmp_path: Path) -> None:
    old = "      - update: order\n        set: {status: \"'cancelled'\"}"
    text = edit(old, old.replace("update: order", "update: basket"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "update: basket")
    assert error.detail == "unknown alias 'basket'; bind the row under 'bind' first (bound: order, payment)"


def test_an_expression_reading_an_unknown_field_suggests_the_closest_field(tmp_path: Path) -> None:
    text = edit("{require: \"order.status == 'pending'\"", "{require: \"order.stauts == 'pending'\"")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "order.stauts")
    assert error.path == "actions[2].preconditions[0].require"
    assert error.detail == "entity 'order' has no field 'stauts'; did you mean 'status'?"


def test_an_expression_reading_an_unknown_argument_suggests_the_closest_argument(tmp_path: Path) -> None:
    old = "{name: order, entity: order, key: args.order_id}\n      - {name: payment"
    text = edit(old, old.replace("args.order_id", "args.order_idd"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "args.order_idd")
    assert error.path == "actions[0].bind[0].key"
    assert error.detail == "no argument 'args.order_idd'; did you mean 'order_id'?"


def test_an_unknown_expression_function_suggests_the_closest_function(tmp_path: Path) -> None:
    text = edit("set: {email: lower(args.email)}", "set: {email: lowr(args.email)}")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "lowr(")
    assert error.path == "actions[9].effects[0].set.email"
    assert error.detail == "unknown function 'lowr' in 'lowr(args.email)'; did you mean 'lower'?"


@pytest.mark.parametrize(
    ("require", "detail"),
    [
        (
            "count(order.items) < 10",
            "unknown function 'count' in 'count(order.items) < 10'; expressions have no aggregates; "
            "keep a stored counter and increment it in the action's effects",
        ),
        (
            "len(order.items) <= 10",
            "'order.items' names rows of 'order_item' (relation 'order_items'), not a field; expressions have no "
            "aggregates; keep a stored counter and increment it in the action's effects",
        ),
        (
            "clamp(args.quantity) <= 10",
            "unknown function 'clamp' in 'clamp(args.quantity) <= 10'; the functions are abs, add_days, coalesce, "
            "days_between, len, lower, max, min, round, upper, years_between",
        ),
    ],
    ids=["aggregate-function", "child-rows", "no-close-function"],
)
def test_an_expression_reaching_for_what_does_not_exist_names_what_does(
    tmp_path: Path, require: str, detail: str
) -> None:
    text = edit("require: args.quantity <= 10", f"require: {require}")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, require)
    assert error.path == "policies[4].require"
    assert error.detail == detail


def test_an_expression_that_does_not_parse_says_what_expressions_may_use(tmp_path: Path) -> None:
    text = edit("require: args.quantity <= 10", "require: args.quantity <=")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "require: args.quantity <=")
    assert error.path == "policies[4].require"
    assert error.detail.startswith("cannot parse 'args.quantity <=': invalid syntax; expressions use bound rows")


def test_a_person_naming_a_missing_entity_suggests_the_closest_entity(tmp_path: Path) -> None:
    text = edit("\nperson: customer", "\nperson: custmer")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "person: custmer")
    assert error.path == "person"
    assert error.detail == "unknown entity 'custmer'; did you mean 'customer'?"


# --- duplicates ------------------------------------------------------------------------------


def test_a_duplicate_entity_name_names_the_second_and_the_line_of_the_first(tmp_path: Path) -> None:
    text = edit("  - name: payment\n    description", "  - name: refund\n    description")
    error = load_error(tmp_path, text)
    second = text.index("  - name: refund\n    description: Money returned")
    assert error.line == text[:second].count("\n") + 1
    assert error.path == "entities[7].name"
    first = line_of(text, "  - name: refund\n    description: The payment")
    assert error.detail == f"duplicate entity 'refund' (first declared on line {first}); give each entity its own name"


def test_a_duplicate_field_name_names_the_second_and_the_line_of_the_first(tmp_path: Path) -> None:
    text = edit("{name: ship_city, type: string", "{name: ship_street, type: string")
    error = load_error(tmp_path, text)
    assert error.line == line_of(
        text, "{name: ship_street, type: string, generator: {faker: city}, noun: delivery city}"
    )
    assert error.path == "entities[3].fields[6].name"
    first = line_of(
        text, "{name: ship_street, type: string, generator: {faker: street_address}, noun: delivery street address}"
    )
    assert (
        error.detail == f"duplicate field 'ship_street' (first declared on line {first}); give each field its own name"
    )


def test_a_duplicate_action_name_names_the_second_and_the_line_of_the_first(tmp_path: Path) -> None:
    text = edit("  - name: reject_return\n", "  - name: refund_return\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "  - name: refund_return\n    description: Reject")
    assert error.path == "actions[7].name"
    first = line_of(text, "  - name: refund_return\n    description: Refund")
    assert (
        error.detail
        == f"duplicate action 'refund_return' (first declared on line {first}); give each action its own name"
    )


# --- policies --------------------------------------------------------------------------------


def test_an_entity_policy_on_an_unknown_field_suggests_the_closest_field(tmp_path: Path) -> None:
    text = edit("require: payment.refunded_total <= payment.amount", "require: payment.refunded_totl <= payment.amount")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "payment.refunded_totl")
    assert error.path == "policies[5].require"
    assert error.detail == "entity 'payment' has no field 'refunded_totl'; did you mean 'refunded_total'?"


def test_an_entity_policy_reading_args_says_it_has_no_arguments(tmp_path: Path) -> None:
    text = edit("require: payment.refunded_total <= payment.amount", "require: args.limit <= payment.amount")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "args.limit")
    assert error.path == "policies[5].require"
    assert error.detail.startswith("no argument 'args.limit'; there are no arguments here")


def test_a_policy_naming_an_unknown_action_suggests_the_closest_action(tmp_path: Path) -> None:
    text = edit("actions: [request_return]", "actions: [request_returns]")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "request_returns")
    assert error.path == "policies[0].actions[0]"
    assert error.detail == "unknown action 'request_returns'; did you mean 'request_return'?"


def test_what_a_user_says_for_a_value_the_enum_lacks_suggests_the_closest_value(tmp_path: Path) -> None:
    text = edit('          damaged: "It arrived damaged."', '          damagd: "It arrived damaged."')
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "damagd:")
    assert error.path.endswith(".says.damagd")
    assert error.detail == (
        "'says' of argument 'reason' names 'damagd', which is not one of its values; did you mean 'damaged'?"
    )


# --- seeding ---------------------------------------------------------------------------------


def cyclic_text() -> str:
    """Retail plus two required relations customer -> product -> customer through two new ref fields."""
    text = edit(
        "      - {name: joined_on,", "      - {name: favourite_product_id, type: ref}\n      - {name: joined_on,"
    )
    text = edit(
        "      - {name: stock, type: integer",
        "      - {name: owner_id, type: ref}\n      - {name: stock, type: integer",
        text,
    )
    return edit(
        "  - {name: payment_refunds,",
        "  - {name: favourite_product, child: customer, field: favourite_product_id, parent: product}\n"
        "  - {name: product_owner, child: product, field: owner_id, parent: customer}\n"
        "  - {name: payment_refunds,",
        text,
    )


def test_required_foreign_keys_in_a_cycle_name_the_cycle_and_say_to_make_one_optional(tmp_path: Path) -> None:
    text = cyclic_text()
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "{name: favourite_product,")
    earlier_relations = text[text.index("\nrelations:") : text.index("  - {name: favourite_product,")].count("\n  - ")
    assert error.path == f"relations[{earlier_relations}]"
    assert error.detail == (
        "required foreign keys form a cycle (customer -> product -> customer, through 'favourite_product' and "
        "'product_owner'), so no row can be inserted first; set 'required: false' on one of them"
    )


def test_the_cycle_is_gone_once_one_of_its_relations_is_optional(tmp_path: Path) -> None:
    text = edit("parent: customer}\n", "parent: customer, required: false}\n", cyclic_text())
    # Products now belong to customers too, so an order item reaches one through its order and its product.
    text = edit("  - name: order_item\n", "  - name: order_item\n    owner: order_items\n", text)
    path = tmp_path / "fixed.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_blueprint(path).domain == "retail"


# --- whole-file problems ---------------------------------------------------------------------


def test_an_empty_file_says_where_to_start(tmp_path: Path) -> None:
    error = load_error(tmp_path, "")
    assert error.line == 1
    assert error.detail == "the file is empty; start from blueprints/retail.yaml"


def test_a_file_of_only_comments_is_empty(tmp_path: Path) -> None:
    error = load_error(tmp_path, "# a blueprint, some day\n\n")
    assert error.detail == "the file is empty; start from blueprints/retail.yaml"


def test_a_file_whose_top_level_is_a_list_says_a_blueprint_is_a_mapping(tmp_path: Path) -> None:
    error = load_error(tmp_path, "\n- domain: retail\n- title: Shop\n")
    assert error.line == 2
    assert error.detail.startswith("the top level is a list, but a blueprint is a mapping of keys")
    assert error.detail.endswith("start from blueprints/retail.yaml")


def test_a_control_character_names_its_line(tmp_path: Path) -> None:
    text = edit("    rows: 60\n", "    rows: 6\x000\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "rows: 6\x00")
    assert error.detail == "the file contains the character #x0000, which YAML does not allow; remove it"


def test_a_file_that_is_not_utf8_names_the_line_of_the_first_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(edit("description: A person", "description: A p\u00e9rson").encode("latin-1"))
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    assert info.value.line == line_of(RETAIL_TEXT, "description: A person")
    assert str(info.value) == f"{path}:{info.value.line}: not UTF-8 text (byte 0xe9); save the blueprint as UTF-8"


def test_a_utf8_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + RETAIL_TEXT.encode("utf-8"))
    assert load_blueprint(path).domain == "retail"


def test_a_missing_file_says_what_to_pass(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    assert str(info.value) == (
        f"{path}: no such file; pass a path to a blueprint YAML or a shipped name such as 'retail'"
    )


def test_a_folder_instead_of_a_file_says_to_pass_the_file(tmp_path: Path) -> None:
    with pytest.raises(BlueprintError) as info:
        load_blueprint(tmp_path)
    assert str(info.value) == f"{tmp_path}: this is a folder, not a file; pass the blueprint's .yaml file"
