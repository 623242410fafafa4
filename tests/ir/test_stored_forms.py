"""Which arguments an action stores in one case, read from its expressions: those compare case-blind."""

from __future__ import annotations

from envforge.ir.blueprint import ActionSpec
from envforge.ir.loading import load_blueprint
from envforge.ir.stored_forms import stored_arguments, stored_forms
from envforge.suite.blueprints import resolve_blueprint


def _action(email_uses: list[str]) -> ActionSpec:
    return ActionSpec.model_validate(
        {
            "name": "update_email",
            "description": "Change the email.",
            "entity": "customer",
            "params": [{"name": "customer_id", "ref": "customer"}, {"name": "email", "type": "string"}],
            "bind": [{"name": "customer", "entity": "customer", "key": "args.customer_id"}],
            "preconditions": [{"require": use, "error": "no"} for use in email_uses[1:]],
            "effects": [{"update": "customer", "set": {"email": email_uses[0]}}],
        }
    )


def test_every_shipped_action_that_lower_cases_an_email_is_read_so() -> None:
    retail = load_blueprint(resolve_blueprint("retail"))
    action = next(action for action in retail.actions if action.name == "update_email")
    assert stored_forms(action, retail.policies) == {"email": "lower"}


def test_uses_blind_to_case_keep_the_fold_and_any_other_use_drops_it() -> None:
    assert stored_forms(_action(["lower(args.email)", "'@' in args.email", "len(args.email) < 99"]), []) == {
        "email": "lower"
    }
    assert stored_forms(_action(["lower(args.email) if args.email is not None else 'x'"]), []) == {"email": "lower"}
    assert stored_forms(_action(["args.email"]), []) == {}
    assert stored_forms(_action(["lower(args.email)", "args.email != 'Admin@Example.com'"]), []) == {}
    assert stored_forms(_action(["lower(args.email)", "'A' in args.email"]), []) == {}
    assert stored_forms(_action(["upper(args.email)", "lower(args.email) != ''"]), []) == {}


def test_stored_arguments_fold_only_the_folded_strings() -> None:
    forms = stored_forms(_action(["lower(args.email)"]), [])
    assert stored_arguments({"customer_id": "CUS-1", "email": "Ann@Example.COM"}, forms) == {
        "customer_id": "CUS-1",
        "email": "ann@example.com",
    }
