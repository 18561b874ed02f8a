"""The schema reads like the CLI: what an editor says about the ten common mistakes of a
house-rule file names the rule (its label in the rule book, the keys written), never an
internal definition of the schema (``annotated.over``, ``delete``, ``Auction.over``).

Checked twice: on the schema's text (every definition has a title, so the YAML language
server names it by that; every message jsonschema gives, inside each ``anyOf`` branch too,
is free of definition names), and, when the YAML language server is installed
(``npm install yaml-language-server``; ``YAML_LANGUAGE_SERVER`` or the ``PATH``), on the
diagnostics it publishes for each mistake.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from _yls import Client, server_command

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
NAMES = ("ruleset.schema.json", "ruleset-extends.schema.json", "scenario.schema.json")

HOUSE = "id: t\nkind: house\nextends: pl-standard\nname: {en: T}\n"

#: The ten common mistakes in a house-rule file: name -> (text after the modeline, the
#: words the YAML language server's message has).
MISTAKES: dict[str, tuple[str, str]] = {
    "unknown-key": ("auction:\n  stepp: 10\n", "Property stepp is not allowed."),
    "wrong-type": ("auction:\n  step: ten\n",
                   'Incorrect type. Expected "integer | a value with its source | {$delete: true}".'),
    "enum-typo": ("play:\n  must_beat: alwyas\n",
                  'Value is not accepted. Valid values: "no", "led_card", "trick_winner".'),
    "section-not-mapping": ("auction: 10\n",
                            'Incorrect type. Expected "The auction (`auction`) | {$delete: true}".'),
    "annotated-bad-value": ("auction:\n  step: {value: ten, source: [PZBS]}\n",
                            'Incorrect type. Expected "integer | {$delete: true}".'),
    "annotated-bad-status": ("auction:\n  step: {value: 10, status: guessed}\n",
                             'Value is not accepted. Valid values: "verified", "assumed".'),
    "delete-false": ("auction:\n  step: {$delete: false}\n", "Value must be true."),
    "players-five": ("players:\n  5: {hand_size: 7}\n", "Valid values: \"2\", \"3\", \"4\", 2, 3, 4."),
    "option-bad-type": ("options:\n  barrel: {type: yes-no, default: true}\n",
                        'Value is not accepted. Valid values: "choice", "int", "bool".'),
    "list-for-mapping": ("marriages:\n  values: [100, 80]\n", "Incorrect type. Expected \"object("),
}


def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return loaded


def _definition_names() -> set[str]:
    """The names that read as internal: all but those that are a plain English word too
    (``Talon``, ``scenario``: a title may say "Talon and exchange"), and the internal words
    ``annotated`` and ``delete`` an editor showed before the titles."""
    names = {name for schema in NAMES for name in _schema(schema).get("$defs", {})}
    return {n for n in names if not re.fullmatch(r"[A-Za-z][a-z]+", n)} | {"annotated", "delete"}


def _names_a_definition(message: str) -> list[str]:
    """The definition names a message shows as a word of its own (``Auction.over``,
    ``delete``); a key of a file written in it (``'$delete'``) is not one."""
    found = []
    for name in _definition_names():
        for match in re.finditer(re.escape(name), message):
            before = message[match.start() - 1] if match.start() else " "
            after = message[match.end()] if match.end() < len(message) else " "
            if before not in "$_`'\"." and not before.isalnum() and not after.isalnum() and after != "_":
                found.append(name)
    return found


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
def test_every_definition_has_a_title() -> None:
    untitled = [f"{name}: {d}" for name in NAMES for d, body in _schema(name).get("$defs", {}).items()
                if not body.get("title")]
    assert untitled == []
    # the titles name no definition either
    titles = [body["title"] for name in NAMES for body in _schema(name).get("$defs", {}).values()]
    assert [t for t in titles if _names_a_definition(t)] == []


def test_the_finder_finds_a_definition_name() -> None:
    found = set(_names_a_definition('Expected "integer | annotated.over | delete".'))
    assert found == {"annotated", "annotated.over", "delete"}
    assert _names_a_definition("Property '$delete' is a key") == []


def _leaves(instance: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(_schema("ruleset-extends.schema.json"))
    found: list[str] = []
    todo = list(validator.iter_errors(instance))
    while todo:
        error = todo.pop()
        todo.extend(error.context or ())
        found.append(error.message)
    return found


@pytest.mark.slow  # about half a second of CPU a case (quick-loop budget, issue 25)
@pytest.mark.parametrize("name", MISTAKES)
def test_jsonschema_messages_name_no_definition(name: str) -> None:
    messages = _leaves(yaml.safe_load(HOUSE + MISTAKES[name][0]))
    assert messages, name
    assert [m for m in messages if _names_a_definition(m)] == []


def test_fields_carry_the_rule_books_words() -> None:
    step = _schema("ruleset-extends.schema.json")["$defs"]["Auction.over"]["properties"]["step"]
    assert step["title"] == "Bids are multiples of"
    assert step["markdownDescription"] == (
        "Bids are multiples of this.\n\nRule book: en *Bids are multiples of* · pl *Oferty są "
        "wielokrotnością* · ru *Ставки кратны* · cs *Sázky jsou násobky*.\n\nDefault: `10`.")
    beat = _schema("ruleset.schema.json")["$defs"]["Play"]["properties"]["must_beat"]["anyOf"][0]
    assert beat["enum"] == ["no", "led_card", "trick_winner"]
    assert len(beat["enumDescriptions"]) == 3 and all(beat["enumDescriptions"])


def test_snippets_for_a_house_file_and_each_table_option() -> None:
    extends = _schema("ruleset-extends.schema.json")
    assert extends["defaultSnippets"][0]["body"]["kind"] == "house"
    options = extends["properties"]["options"]["anyOf"][0]["defaultSnippets"]
    by_label = {s["label"]: s["body"] for s in options}
    assert by_label["barrel"] == {"barrel": {"default": True}}  # shipped default false
    assert by_label["rospis"] == {"rospis": {"default": "penalty_after_3"}}
    assert len(by_label) >= 25


@pytest.mark.slow  # starts node: about 3 s
def test_yaml_language_server_names_no_definition(tmp_path: Path) -> None:
    command = server_command()
    if command is None:
        pytest.skip("yaml-language-server is not installed (npm install yaml-language-server)")
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    folder = tmp_path / "house"
    folder.mkdir()
    client = Client(command)
    try:
        seen: dict[str, list[str]] = {}
        for name, (text, _words) in MISTAKES.items():
            path = folder / f"{name}.yaml"
            path.write_text("# yaml-language-server: $schema=../schemas/ruleset-extends.schema.json\n"
                            + HOUSE + text, encoding="utf-8")
            seen[name] = [f"{d['message']} [{d.get('source', '')}]" for d in client.diagnostics(path)]
        ok = folder / "ok.yaml"
        ok.write_text("# yaml-language-server: $schema=../schemas/ruleset-extends.schema.json\n"
                      + HOUSE + "auction:\n  step: 5\n", encoding="utf-8")
        clean = client.diagnostics(ok)
    finally:
        client.close()
    assert clean == []
    for name, (_text, words) in MISTAKES.items():
        assert seen[name], f"{name}: the server reports nothing"
        assert any(words in m for m in seen[name]), (name, seen[name])
        assert [m for m in seen[name] if _names_a_definition(m)] == [], name


def test_validate_checks_a_scenario_file_by_its_schema_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    shipped = ROOT / "rulesets" / "scenarios" / "pl-standard.yaml"
    result = CliRunner().invoke(main, ["validate", str(shipped)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"ok  {shipped} scenarios for pl-standard: ")
    bad = tmp_path / "bad.yaml"  # no `scenarios` key: only the schema line says what it is
    bad.write_text("# yaml-language-server: $schema=../schemas/scenario.schema.json\n"
                   "ruleset: pl-standard\nscenarios: []\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{bad}:3:12: error[schema.empty]: `scenarios` must not be empty")
    assert result.stderr.splitlines()[-1] == "1 of 1 file(s) invalid"
    assert "missing the required key `id`" not in result.stderr
