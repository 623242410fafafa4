"""Bad input at the command line: one `envforge: error:` line on stderr, exit code 2, no traceback, nothing written.

The blueprint cases and a few CLI cases run the real CLI in a fresh interpreter (about a second
each); the rest call `main()` in-process, where an escaping exception would fail the test anyway.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from envforge.cli.app import main
from tests.blueprint_edits import LIBRARY_TEXT, RETAIL_TEXT, edit, line_of, two_chains
from tests.conftest import REPO, envforge_cli, error_lines

PREFIX = "envforge: error: "


def error_line(stdout: str, stderr: str) -> str:
    """The one error line of a failed command; no traceback anywhere."""
    assert "Traceback" not in stdout + stderr, stderr
    lines = error_lines(stderr)
    assert len(lines) == 1, stderr
    assert lines[0].startswith(PREFIX), stderr
    return lines[0][len(PREFIX) :]


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run `main()` in-process: (exit code, the one error line)."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    code = info.value.code
    assert isinstance(code, int)
    return code, error_line(captured.out, captured.err)


def assert_nothing_written(out: Path) -> None:
    assert not (out / "retail").exists()
    assert not out.exists() or not any(out.rglob("*")), sorted(out.rglob("*"))


def generate_bad(tmp_path: Path, text: str) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    return bad, out, envforge_cli("generate", str(bad), "-o", str(out))


# --- a bad blueprint through the real CLI ----------------------------------------------------


def test_generate_on_broken_yaml_exits_2_with_one_located_line_and_writes_nothing(tmp_path: Path) -> None:
    text = edit("child: address, field: customer_id,", "child: [address, field: customer_id,")
    bad, out, result = generate_bad(tmp_path, text)
    assert result.returncode == 2
    message = error_line(result.stdout, result.stderr)
    assert message.startswith(f"{bad}:{line_of(text, 'child: [address')}: broken YAML")
    assert_nothing_written(out)


def test_generate_on_an_unknown_key_exits_2_with_a_did_you_mean_and_writes_nothing(tmp_path: Path) -> None:
    text = edit("{name: phone, type: string, searchable: true,", "{name: phone, type: string, searchabel: true,")
    bad, out, result = generate_bad(tmp_path, text)
    assert result.returncode == 2
    assert error_line(result.stdout, result.stderr) == (
        f"{bad}:{line_of(text, 'searchabel')}: entities[0].fields[4].searchabel: "
        "unknown key 'searchabel'; did you mean 'searchable'?"
    )
    assert_nothing_written(out)


def test_generate_on_a_number_compared_with_text_exits_2_with_the_fix_and_writes_nothing(tmp_path: Path) -> None:
    # Once admitted, such a policy failed on every call, and its tool got no task.
    text = edit("require: member.active_holds < 5", "require: member.active_holds < '5'", LIBRARY_TEXT)
    bad, out, result = generate_bad(tmp_path, text)
    assert result.returncode == 2
    assert error_line(result.stdout, result.stderr) == (
        f"{bad}:{line_of(text, 'active_holds <')}: policies[5].require: policy 'hold_limit' compares integer "
        "'member.active_holds' with string '5'; write the number without quotes: member.active_holds < 5"
    )
    assert not out.exists() or not any(out.rglob("*"))


def test_generate_on_a_relation_to_a_missing_entity_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    text = edit(
        "child: order, field: customer_id, parent: customer,", "child: order, field: customer_id, parent: custmer,"
    )
    bad, out, result = generate_bad(tmp_path, text)
    assert result.returncode == 2
    assert error_line(result.stdout, result.stderr) == (
        f"{bad}:{line_of(text, 'parent: custmer')}: relations[1].parent: "
        "unknown entity 'custmer'; did you mean 'customer'?"
    )
    assert_nothing_written(out)


def test_generate_on_cyclic_required_foreign_keys_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    text = edit(
        "      - {name: joined_on,", "      - {name: favourite_product_id, type: ref}\n      - {name: joined_on,"
    )
    text = edit(
        "      - {name: stock, type: integer",
        "      - {name: owner_id, type: ref}\n      - {name: stock, type: integer",
        text,
    )
    text = edit(
        "  - {name: payment_refunds,",
        "  - {name: favourite_product, child: customer, field: favourite_product_id, parent: product}\n"
        "  - {name: product_owner, child: product, field: owner_id, parent: customer}\n"
        "  - {name: payment_refunds,",
        text,
    )
    bad, out, result = generate_bad(tmp_path, text)
    assert result.returncode == 2
    message = error_line(result.stdout, result.stderr)
    assert message.startswith(f"{bad}:{line_of(text, '{name: favourite_product,')}: relations[")
    assert "required foreign keys form a cycle (customer -> product -> customer" in message
    assert message.endswith("set 'required: false' on one of them")
    assert_nothing_written(out)


def test_generate_on_a_bad_blueprint_prints_nothing_on_stderr_but_the_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    bad = tmp_path / "bad.yaml"
    text = edit("\nperson: customer", "\nperson: custmer")
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["generate", str(bad), "-o", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err
        == f"{PREFIX}{bad}:{line_of(text, 'person: custmer')}: person: unknown entity 'custmer'; did you mean 'customer'?\n"
    )


# --- bad arguments ---------------------------------------------------------------------------


def test_an_unknown_blueprint_name_exits_2_and_suggests_a_shipped_blueprint(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = envforge_cli("generate", "retial", "-o", str(out))
    assert result.returncode == 2
    assert error_line(result.stdout, result.stderr) == (
        "retial: no such blueprint file or shipped blueprint; did you mean 'retail'?"
    )
    assert_nothing_written(out)


def test_a_missing_blueprint_file_exits_2_and_says_what_to_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    missing = tmp_path / "nope.yaml"
    code, message = run_main(capsys, "generate", str(missing), "-o", str(out))
    assert code == 2
    assert message == f"{missing}: no such file; pass a path to a blueprint YAML or a shipped name such as 'retail'"
    assert_nothing_written(out)


def test_a_folder_instead_of_a_blueprint_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    folder = tmp_path / "blueprints"
    folder.mkdir()
    out = tmp_path / "out"
    code, message = run_main(capsys, "generate", str(folder), "-o", str(out))
    assert code == 2
    assert message == f"{folder}: this is a folder, not a file; pass the blueprint's .yaml file"
    assert_nothing_written(out)


def test_a_blueprint_that_is_not_utf8_exits_2_and_says_to_save_it_as_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(edit("description: A person", "description: A p\u00e9rson").encode("latin-1"))
    out = tmp_path / "out"
    code, message = run_main(capsys, "generate", str(bad), "-o", str(out))
    assert code == 2
    line = line_of(RETAIL_TEXT, "description: A person")
    assert message == f"{bad}:{line}: not UTF-8 text (byte 0xe9); save the blueprint as UTF-8"
    assert_nothing_written(out)


def test_an_empty_blueprint_file_exits_2_and_says_where_to_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    bad = tmp_path / "empty.yaml"
    bad.write_text("", encoding="utf-8")
    out = tmp_path / "out"
    code, message = run_main(capsys, "generate", str(bad), "-o", str(out))
    assert code == 2
    assert message == f"{bad}:1: the file is empty; start from blueprints/retail.yaml"
    assert_nothing_written(out)


def test_rows_below_the_minimum_exits_2_naming_the_option_and_the_minimum(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = envforge_cli("generate", "retail", "--rows", "5", "-o", str(out))
    assert result.returncode == 2
    message = error_line(result.stdout, result.stderr)
    assert "--rows" in message
    assert "10" in message
    assert_nothing_written(out)


def test_from_an_unknown_stage_exits_2_and_suggests_or_lists_the_stages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    code, message = run_main(capsys, "generate", "retail", "--from", "toolgrpah", "-o", str(out))
    assert code == 2
    assert message == "--from: unknown stage 'toolgrpah'; did you mean 'toolgraph'?"
    code, message = run_main(capsys, "generate", "retail", "--from", "zzz", "-o", str(out))
    assert code == 2
    assert (
        message
        == "--from: unknown stage 'zzz'; stages: ontology, toolgraph, state, tooltests, tasks, verifiers, review, apps, uitasks, package"
    )
    assert_nothing_written(out)


def test_serve_on_a_folder_that_is_not_a_package_exits_2_and_says_to_generate_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, message = run_main(capsys, "serve", str(tmp_path))
    assert code == 2
    assert message.startswith(f"{tmp_path}: ")
    assert "envforge generate" in message


def test_serve_of_an_app_with_free_episodes_exits_2_since_only_the_harness_makes_app_episodes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, message = run_main(capsys, "serve", str(tmp_path), "--app", "web", "--free-episodes")
    assert code == 2
    assert message.startswith("--free-episodes is for MCP")


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (("--transport", "http", "--task", "retail-0001"), "--task is for --transport stdio"),
        (("--app", "web", "--task", "retail-0001"), "--task is for --transport stdio"),
        (("--transport", "http", "--harness-port", "0"), "--harness-port is for --transport stdio"),
    ],
)
def test_serve_over_http_with_a_stdio_option_exits_2_and_says_what_http_does_instead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], start: str
) -> None:
    code, message = run_main(capsys, "serve", str(tmp_path), *args)
    assert code == 2
    assert message.startswith(start) and "over HTTP the harness" in message


def test_serve_on_an_unknown_transport_exits_2_and_lists_the_transports(tmp_path: Path) -> None:
    result = envforge_cli("serve", str(tmp_path), "--transport", "carrier-pigeon")
    assert result.returncode == 2
    message = error_line(result.stdout, result.stderr)
    assert "'--transport'" in message and "'carrier-pigeon' is not one of 'stdio', 'http'" in message


@pytest.mark.parametrize(
    ("args", "option", "choices"),
    [
        (("run-task", "PKG", "retail-0001", "--oracle", "--via", "BAD"), "--via", "'session', 'mcp'"),
        (("run-task", "PKG", "retail-0001", "--oracle", "--app", "BAD"), "--app", "'web', 'phone'"),
        (("serve", "PKG", "--app", "BAD"), "--app", "'web', 'phone'"),
        (("bench", "PKG", "--app", "BAD"), "--app", "'web', 'phone'"),
        (("generate", "--from-description", "a shop", "--json-mode", "BAD"), "--json-mode", "'vllm', 'openai'"),
        (
            ("rollout", "PKG", "--base-url", "http://x/v1", "--model", "m", "--user", "BAD"),
            "--user",
            "'scripted', 'persona'",
        ),
        (
            ("validate", "PKG", "--base-url", "http://x/v1", "--model", "m", "--user", "BAD"),
            "--user",
            "'scripted', 'persona'",
        ),
    ],
)
def test_a_value_outside_the_choices_exits_2_naming_the_option_the_value_and_the_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], option: str, choices: str
) -> None:
    code, message = run_main(capsys, *[str(tmp_path) if arg == "PKG" else arg for arg in args])
    assert code == 2
    assert f"'{option}'" in message and f"'BAD' is not one of {choices}" in message


def test_bench_on_a_folder_that_is_not_a_package_exits_2_and_says_to_generate_one(tmp_path: Path) -> None:
    result = envforge_cli("bench", str(tmp_path))
    assert result.returncode == 2
    message = error_line(result.stdout, result.stderr)
    assert message.startswith(f"{tmp_path}: ")
    assert "envforge generate" in message


def test_generate_on_an_entity_owned_through_two_relations_exits_2_naming_them_and_owner(tmp_path: Path) -> None:
    text = two_chains()
    bad, out, result = generate_bad(tmp_path, text)
    assert result.returncode == 2
    message = error_line(result.stdout, result.stderr)
    assert message == (
        f"{bad}:{line_of(text, '  - name: return_request')}: entities[6]: entity 'return_request' belongs to a "
        "customer through 2 relations (item_returns, return_order); set 'owner: <relation>' on entity "
        "'return_request' to the one that makes a row the customer's"
    )
    assert_nothing_written(out)


# --- the cap on seeded rows -------------------------------------------------------------------


def test_generate_asking_more_rows_than_the_cap_exits_2_naming_the_total_the_biggest_entities_and_the_flag(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    result = envforge_cli("generate", "retail", "--rows", "2400000", "-o", str(out))
    assert result.returncode == 2
    assert error_line(result.stdout, result.stderr) == (
        "blueprints/retail.yaml: seeding 2,400,040 rows (order_item 878,049, order 439,024, payment 439,024, ...) "
        "is above the cap of 1,000,000 rows; lower --rows (now 2,400,000), or pass --max-rows 2400040 to allow it"
    )
    assert not out.exists()


REFUSED_AT_50 = (
    "blueprints/retail.yaml: seeding 100 rows (product 40, order_item 22, order 11, ...) is above the cap of 50 "
    "rows; lower --rows (now 60), or pass --max-rows 100 to allow it"
)
"""Retail at --rows 60: its 60 rows and its catalogue's 40 products."""


@pytest.mark.parametrize("command", ["generate", "lint"])
def test_max_rows_lowers_the_cap_for_generate_and_lint_and_counts_the_catalogue(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    args = ["-o", str(out)] if command == "generate" else []
    code, message = run_main(capsys, command, "retail", "--rows", "60", "--max-rows", "50", *args)
    assert code == 2
    assert message == REFUSED_AT_50
    assert not out.exists()


def test_batch_over_the_cap_fails_that_blueprint_alone_with_the_same_line_and_builds_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = envforge_cli("batch", "retail", "--rows", "60", "--max-rows", "50", "--json", "-o", str(out))
    assert result.returncode == 2
    assert "Traceback" not in result.stdout + result.stderr
    [outcome] = json.loads(result.stdout)["blueprints"]
    assert (outcome["ok"], outcome["error"]) == (False, REFUSED_AT_50)
    assert sorted(path.name for path in out.iterdir()) == ["suite.json"]
