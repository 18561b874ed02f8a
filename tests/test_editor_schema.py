"""Editor support: every shipped YAML file names the schema that fits it, and a standard
validator (the ``jsonschema`` package, draft 2020-12 and draft-07, as editors use) accepts
every shipped file and the README's examples with nothing but the schema file it names.

The files are read with PyYAML as YAML 1.2 editors read them (no timestamps; mapping keys
as JSON strings), not with the project's loader.  The ``tests/invalid/`` corpus is checked
for agreement: what the schema refuses, ``tysiac validate`` refuses; what only the semantic
checks (or the merge with the parents, or the YAML reader) can see is listed with the reason.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from _quick import sample
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
README = ROOT / "README.md"
INVALID = ROOT / "tests" / "invalid"

COMPLETE = "ruleset.schema.json"
EXTENDS = "ruleset-extends.schema.json"
SCENARIO = "scenario.schema.json"

MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)")

DRAFTS = {"2020-12": jsonschema.Draft202012Validator, "07": jsonschema.Draft7Validator}


class _Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader without YAML 1.1's timestamps (editors read YAML 1.2)."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _as_json(value: Any) -> Any:
    """A YAML value as the JSON an editor validates (mapping keys are strings: ``3:`` is "3")."""
    if isinstance(value, dict):
        return {str(k): _as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_json(v) for v in value]
    return value


def _read(text: str) -> Any:
    return _as_json(yaml.load(text, Loader=_Yaml12Loader))  # a safe loader


def _shipped() -> list[Path]:
    return sorted([*ROOT.glob("rulesets/**/*.yaml"), *ROOT.glob("examples/**/*.yaml")])


SHIPPED = _shipped()


def _kind(doc: Any) -> str:
    """The schema a document needs, by what it is: a scenario file, a file that extends
    another, or a complete ruleset."""
    if isinstance(doc, dict) and "scenarios" in doc:
        return SCENARIO
    if isinstance(doc, dict) and "extends" in doc:
        return EXTENDS
    return COMPLETE


@cache
def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return loaded


def _errors(name: str, draft: str, instance: Any) -> list[str]:
    schema = _schema(name)
    if draft == "07":  # as a draft-07 editor reads it, without the 2020-12 dialect
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    validator = DRAFTS[draft](schema)
    return [
        f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}"
        for e in validator.iter_errors(instance)
    ]


def _leaves(name: str, draft: str, instance: Any) -> list[str]:
    """The errors inside every ``anyOf`` branch too (what an editor shows of the branch
    that fits best), as ``path: message``."""
    schema = _schema(name)
    found: list[str] = []
    todo = list(DRAFTS[draft](schema).iter_errors(instance))
    while todo:
        error = todo.pop()
        if error.context:
            todo.extend(error.context)
        else:
            found.append(f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}")
    return found


def _id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --------------------------------------------------------------------------- the schemas


def test_checked_in_extends_schema_is_current() -> None:
    from tysiac_spec.docs.editor_schema import editor_schema

    on_disk = json.loads((SCHEMAS / EXTENDS).read_text(encoding="utf-8"))
    assert on_disk == editor_schema("extends"), f"run: tysiac schema --extends -o schemas/{EXTENDS}"


def test_schema_command_prints_all_three() -> None:
    from tysiac_spec.cli import main

    for args, name in (([], COMPLETE), (["--extends"], EXTENDS), (["--scenario"], SCENARIO)):
        result = CliRunner().invoke(main, ["schema", *args])
        assert result.exit_code == 0, result.output
        assert result.stdout == (SCHEMAS / name).read_text(encoding="utf-8")


@pytest.mark.slow  # the metaschemas; the quick loop has tests/test_schema.py's draft 2020-12 check
@pytest.mark.parametrize("name", [COMPLETE, EXTENDS, SCENARIO])
@pytest.mark.parametrize("draft", DRAFTS)
def test_schema_is_valid_for_both_drafts(name: str, draft: str) -> None:
    DRAFTS[draft].check_schema(_schema(name))


def _refs_with_siblings(node: Any) -> list[Any]:
    """Subschemas holding ``$ref`` beside a keyword that is no annotation (draft-07 ignores
    every sibling of ``$ref``, so such a keyword would check nothing there)."""
    from tysiac_spec.docs.editor_schema import EDITOR_KEYWORDS

    notes = {"$ref", "description", "default", "examples", "title", "x-formula"} | EDITOR_KEYWORDS
    found = []
    if isinstance(node, dict):
        if "$ref" in node and set(node) - notes:
            found.append(node)
        for key, value in node.items():
            if key not in ("enum", "const", "default", "examples"):
                found.extend(_refs_with_siblings(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_refs_with_siblings(value))
    return found


@pytest.mark.parametrize("name", [COMPLETE, EXTENDS, SCENARIO])
def test_schema_means_the_same_in_draft_07(name: str) -> None:
    assert _refs_with_siblings(_schema(name)) == []
    text = json.dumps(_schema(name))
    for keyword in ("prefixItems", "unevaluatedProperties", "dependentRequired", "$dynamicRef"):
        assert f'"{keyword}"' not in text


def test_formula_fields_carry_an_example() -> None:
    auction = _schema(COMPLETE)["$defs"]["Auction"]["properties"]["max_bid"]
    plain = auction["anyOf"][0]["anyOf"][0]
    assert plain["examples"] == ["120 + marriages(hand)"]
    rule = _schema(COMPLETE)["$defs"]["MatchRule"]["properties"]["then"]["anyOf"][0]
    assert rule["examples"] == ["player.score = 0"]


def test_extends_schema_keeps_the_descriptions_and_defaults() -> None:
    complete = _schema(COMPLETE)["$defs"]["Auction"]["properties"]["step"]
    over = _schema(EXTENDS)["$defs"]["Auction.over"]["properties"]["step"]
    assert over["description"] == complete["description"] == "Bids are multiples of this."
    assert over["default"] == complete["default"] == 10
    assert over["anyOf"][0] == complete["anyOf"][0]
    assert over["anyOf"][-1] == {"$ref": "#/$defs/delete"}


@pytest.mark.parametrize("draft", DRAFTS)
def test_extends_schema_requires_nothing_a_parent_gives(draft: str) -> None:
    house = {"id": "t", "extends": "pl-standard"}
    assert _errors(EXTENDS, draft, house) == []
    assert _errors(EXTENDS, draft, {**house, "players": {"3": {"talons": [3]}}}) == []
    assert _errors(EXTENDS, draft, {**house, "options": {"barrel": {"default": False}}}) == []
    assert _errors(EXTENDS, draft, {**house, "marriages": {"values": {"hearts": 200}}}) == []
    assert _errors(EXTENDS, draft, {"id": "t"}) == ["(top): 'extends' is a required property"]
    # the complete schema is the wrong one for such a file: it asks for what the parent gives
    assert "(top): 'deck' is a required property" in _errors(COMPLETE, draft, house)


@pytest.mark.parametrize("draft", DRAFTS)
def test_extends_schema_takes_the_deletion_marker_in_mappings_only(draft: str) -> None:
    delete = {"$delete": True}
    house = {"id": "t", "extends": "pl-standard"}
    for ok in (
        {"auction": {"step": delete}},
        {"auction": delete},
        {"players": {"4": delete}},
        {"players": {"4": {"sitter": delete}}},
        {"options": {"barrel": delete}},
        {"marriages": {"values": {"hearts": delete}}},
    ):
        assert _errors(EXTENDS, draft, {**house, **ok}) == [], ok
    # a list replaces the parent's list: its items are complete, without markers
    redeal = {"deal": {"redeals": [delete]}}
    assert _errors(EXTENDS, draft, {**house, **redeal}) != []
    half = {"deal": {"redeals": [{"id": "r"}]}}
    assert "deal/redeals/0: 'when' is a required property" in _leaves(EXTENDS, draft, {**house, **half})
    # the marker is written alone, and only as `true`
    for bad in ({"$delete": False}, {"$delete": True, "reason": "x"}):
        assert _errors(EXTENDS, draft, {**house, "auction": {"step": bad}}) != [], bad
    # an option's patch is written like the file's own rules, and checked so
    patch = {"options": {"beat": {"set": {"true": {"play": {"must_beat": delete}}}}}}
    assert _errors(EXTENDS, draft, {**house, **patch}) == []
    typo = {"options": {"beat": {"set": {"true": {"play": {"must_beat": "alwyas"}}}}}}
    assert "options/beat/set/true/play/must_beat: 'alwyas' is not one of ['no', 'led_card', " \
        "'trick_winner']" in _leaves(EXTENDS, draft, {**house, **typo})
    # an unknown key stays unknown
    assert "auction: Additional properties are not allowed ('stepp' was unexpected)" in _leaves(
        EXTENDS, draft, {**house, "auction": {"stepp": 10}}
    )


def test_every_extends_field_has_a_description() -> None:
    """As ``test_schema.py`` asks of the complete schema: hover text for every key."""
    missing = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if name != "value" and where != "/if" and not (isinstance(sub, dict) and (
                    sub.get("description") or "$ref" in sub
                )):
                    missing.append(f"{where}.{name}")
            for key, sub in node.items():
                if key not in ("enum", "const", "default", "examples"):
                    walk(sub, f"{where}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")

    walk(_schema(EXTENDS), "")
    assert missing == []
    assert [n for n, d in _schema(EXTENDS)["$defs"].items() if not d.get("description")] == []


@cache
def _merged_shipped() -> list[tuple[str, Any]]:
    from tysiac_spec.ruleset import resolve_document
    from tysiac_spec.ruleset._yaml import load_yaml_file, to_plain

    out = []
    for path in [*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("examples/house/*.yaml")]:
        doc = resolve_document(load_yaml_file(str(path)), file=str(path))
        out.append((_id(path), _as_json(to_plain(doc))))
    return out


@pytest.mark.slow  # about 10 s: 66 rulesets merged, validated twice per draft
@pytest.mark.parametrize("draft", DRAFTS)
def test_extends_schema_is_never_stricter_than_the_complete_one(draft: str) -> None:
    """Every shipped ruleset, merged (a complete document, valid), is valid as written over
    a parent too; and the complete schema accepts it as it is."""
    merged = _merged_shipped()
    assert len(merged) >= 60
    for name, doc in merged:
        assert _errors(COMPLETE, draft, doc) == [], name
        assert _errors(EXTENDS, draft, {**doc, "extends": "core"}) == [], name


def _closed_objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and node.get("additionalProperties") is False:
            found.append(node)
        for key, value in node.items():
            if key not in ("enum", "const", "default", "examples"):
                found.extend(_closed_objects(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_closed_objects(value))
    return found


@pytest.mark.parametrize("name", [COMPLETE, EXTENDS, SCENARIO])
def test_every_closed_mapping_names_its_keys(name: str) -> None:
    """The YAML language server (1.25) does not report an unknown key written without a value
    (``{reason: Ours (A, B).}``: the key ``B).``) under ``additionalProperties: false``, only
    under ``propertyNames``; every closed mapping of the schemas names its keys so."""
    closed = _closed_objects(_schema(name))
    assert len(closed) >= 5
    assert [o["description"] for o in closed if o.get("propertyNames") != {
        "enum": list(o["properties"])
    }] == []


@pytest.mark.parametrize("name", [COMPLETE, EXTENDS])
def test_player_counts_are_also_numbers(name: str) -> None:
    """The YAML language server checks ``players: {3: …}``'s key as the number 3."""
    players = _schema(name)["properties"]["players"]
    names = players.get("propertyNames") or players["anyOf"][0]["propertyNames"]
    assert names == {"enum": ["2", "3", "4", 2, 3, 4]}


# --------------------------------------------------------------------------- shipped files


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_shipped_files_are_found() -> None:
    kinds = {_kind(_read(p.read_text(encoding="utf-8"))) for p in SHIPPED}
    assert kinds == {COMPLETE, EXTENDS, SCENARIO}
    assert len(SHIPPED) >= 100


@pytest.mark.parametrize("path", sample(SHIPPED, every=6, ids=_id))
def test_every_shipped_file_names_its_schema(path: Path) -> None:
    """The first line is the editor's modeline naming, relative to the file, the schema
    that fits it (new files in ``examples/house/`` are caught here)."""
    text = path.read_text(encoding="utf-8")
    name = _kind(_read(text))
    relative = os.path.relpath(SCHEMAS / name, path.parent).replace(os.sep, "/")
    assert text.split("\n", 1)[0] == f"# yaml-language-server: $schema={relative}"


def _named_schema(path: Path, text: str) -> str:
    match = MODELINE.match(text)
    assert match, f"{_id(path)} names no schema"
    named = (path.parent / match.group(1)).resolve()
    assert named.parent == SCHEMAS, named
    return named.name


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("path", sample(SHIPPED, every=6, ids=_id))
def test_standard_validator_accepts_every_shipped_file(path: Path, draft: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert _errors(_named_schema(path, text), draft, _read(text)) == []


def _readme_examples() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_yaml_examples() -> None:
    assert len(_readme_examples()) >= 1


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("index", range(len(_readme_examples())))
def test_standard_validator_accepts_the_readme_examples(index: int, draft: str) -> None:
    text = _readme_examples()[index]
    doc = _read(text)
    # the README's file sits in a folder beside `schemas/` (`my-rules/my-table.yaml`)
    line = text.split("\n", 1)[0]
    assert line == f"# yaml-language-server: $schema=../schemas/{_kind(doc)}"
    assert _errors(_kind(doc), draft, doc) == []


# --------------------------------------------------------------------------- tests/invalid

#: ``tests/invalid`` files the schema of their kind accepts, with the code ``tysiac validate``
#: gives and why only it can tell: the project's YAML reader is stricter than YAML 1.2; the
#: parents (merged before the check) give what a file lacks; formulas are compiled; and the
#: semantic checks weigh the rules against each other (``validate.SEMANTIC_CODES``).
SCHEMA_CANNOT_TELL: dict[str, tuple[str, str]] = {
    # session 11: fields that validate but would change nothing, refused by the semantic checks
    "cut-swap-every-rank-bad": ("deal.cut-swap", "the cut's swap with every rank bad: no card could be swapped in"),
    "golden-contract-unreachable": ("special.golden-contract", "a golden contract above the most a deal can make (card points, marriages, the cap)"),
    "rebuy-auction-while-off": ("talon.rebuy-inert", "a re-buy's bidding or seats set while re-buy is off: a pair of fields"),
    "rebuy-price-above-every-contract": ("talon.rebuy-price", "a re-buy price above every contract, found by the formula's range"),
    "tie-score-without-raise": ("match.tie-score", "tied scores set below a target that no tie raises: a pair of fields"),
    "ace-marriage-unknown-rank": ("deck.unknown-rank", "a field naming one rank (`deal.first_dealer_rank`, `marriages.ace_marriage.rank`) names one the deck does not have"),
    "active-above-seated": ("table.active", "more active players than seated, or a sitter missing / superfluous"),
    "barrel-threshold-at-target": ("match.threshold", "a threshold at or above the target"),
    "bid-not-multiple-of-step": ("auction.step", "a bid value is not a multiple of the bid step"),
    "card-points-total": ("deck.points-total", "the ranks' card points do not add up to `deck.total_points`"),
    "contract-step-default": ("contract.step", "the contract step does not divide the bid step"),
    "named-contract-bad-id": ("contract.kind-id", "a named contract's id that cannot be bid as `bid <id>` (a word with a digit first, or `points`, the numeric contract's), or a named contract without its fixed value"),
    "all-pass-play-without-rules": ("auction.all-pass-play", "all-pass play switched on without its rules (`auction.all_pass_play`), or its rules without it: a pair of fields that only the semantic check relates"),
    "rebuy-without-price": ("talon.rebuy", "selling the contract switched on without a `price` formula (or a price while it is off): a pair the semantic check relates"),
    "contract-step": ("contract.step", "the contract step does not divide the bid step"),
    "cut-unknown-rank": ("deal.cut", "the cut names a rank the deck does not have"),
    "talon-at-forbidden": ("deal.talon-at", "a forced talon position that another restriction forbids: a pair of fields only the semantic check relates"),
    "dealer-exempt-without-dealer-plays": ("auction.dealer-exempt", "`auction.dealer_exempt` without `all_pass: dealer_plays` or without `may_bid` (it changes nothing)"),
    "deck-hand-mismatch": ("table.card-count", "hands, talons and the cards left out do not use exactly the whole pack"),
    "delete-removes-required-key": ("schema.required", "parents: the merged ruleset lacks a key (the schema cannot know the parent)"),
    "dsl-division-by-folded-zero": ("dsl.division-by-zero", "formula: a division by zero"),
    "dsl-division-by-provable-zero": ("dsl.division-by-zero", "formula: a division by zero"),
    "dsl-division-by-zero": ("dsl.division-by-zero", "formula: a division by zero"),
    "dsl-out-of-range": ("dsl.out-of-range", "formula: a number out of range"),
    "dsl-round-to-negative": ("dsl.bad-step", "formula: a rounding step that is not positive"),
    "dsl-round-to-zero": ("dsl.bad-step", "formula: a rounding step that is not positive"),
    "duplicate-key": ("yaml.duplicate-key", "YAML reader: a key written twice (PyYAML keeps the last)"),
    "duplicate-redeal-id": ("rule.duplicate-id", "two counters, match rules or redeal conditions share an id"),
    "duplicate-suit-letter": ("deck.duplicate", "two suits or ranks share an id or a letter"),
    "duties-bind-nothing": ("play.inert-duty", "a play duty field that changes nothing with the other duties"),
    "duty-with-nothing-to-narrow": ("play.inert-duty", "a play duty field that changes nothing with the other duties"),
    "exchange-discard-one": ("table.exchange", "the hands do not come out even after the talon and the exchange (play would stall)"),
    "exchange-give-two-each": ("table.exchange", "the hands do not come out even after the talon and the exchange (play would stall)"),
    "exchange-no-talon": ("table.exchange", "the hands do not come out even after the talon and the exchange (play would stall)"),
    "extends-broken-parent": ("yaml.duplicate-key", "parents: the parent file has a key written twice"),
    "extends-cycle": ("merge.cycle", "parents: the file extends itself"),
    "extends-missing-file": ("merge.unknown-parent", "parents: no such parent"),
    "extends-self": ("merge.cycle", "parents: the file extends itself"),
    "extends-unknown": ("merge.unknown-parent", "parents: no such parent"),
    "first-dealer-unknown-rank": ("deck.unknown-rank", "a field naming one rank (`deal.first_dealer_rank`, `marriages.ace_marriage.rank`) names one the deck does not have"),
    "float-value": ("yaml.float", "YAML reader: `1000.0` has a fraction; JSON Schema counts it an integer"),
    "forced-seat-beyond-players": ("auction.seat", "a forced seat beyond the seated players, or the seat that sits out"),
    "forced-seat-sits-out": ("auction.seat", "a forced seat beyond the seated players, or the seat that sits out"),
    "four-players-no-sitter": ("table.active", "more active players than seated, or a sitter missing / superfluous"),
    "golden-dark-without-dark-game": ("special.golden-dark", "`golden_round.dark_allowed` with no dark game or no golden round (it changes nothing)"),
    "house-deletes-sitter": ("table.active", "parents: the merged 4-player table has no sitter"),
    "house-option-retyped": ("option.choices", "parents: a choice option made an int keeps the parent's choices"),
    "house-option-typo": ("option.undeclared", "parents: an option the parents do not declare"),
    "house-pack-renames-rank": ("dsl.unknown-name", "parents: a parent's formula names a rank the merged pack renamed"),
    "house-step-vs-parent": ("auction.step", "parents: the new bid step against the parent's bids"),
    "house-top-level-over-players": ("table.exchange", "parents: a top-level rule over the parent's player count"),
    "kind-ends-reads-points": ("contract.kind-ends", "a named contract ending once decided whose scores read the play: what a formula reads is the DSL's to tell"),
    "left-out-miscounted": ("table.card-count", "hands, talons and the cards left out do not use exactly the whole pack"),
    "loss-above-target": ("match.loss", "a score that loses the match (`match.finishing.loss`) at or above the target"),
    "marriage-ranks-same": ("marriages.ranks", "the marriage ranks are not two different ranks of the deck"),
    "marriage-ranks-unknown": ("marriages.ranks", "the marriage ranks are not two different ranks of the deck"),
    "marriage-unknown-suit": ("marriages.unknown-suit", "a marriage value names a suit the deck does not have"),
    "match-threshold-above-target": ("match.threshold", "a threshold at or above the target"),
    "missing-hand-size": ("schema.required", "parents: the merged ruleset lacks a key (the schema cannot know the parent)"),
    "missing-scoring-made": ("schema.required", "parents: the merged ruleset lacks a key (the schema cannot know the parent)"),
    "nobody-forced-but-forced-plays": ("auction.all-pass", "nobody is forced to open, but a deal everyone passes is to be played by the forced player"),
    "nobody-may-bid": ("auction.no-deal", "nobody may ever bid, nobody must open and a deal everyone passes is dealt again: proven from the compiled `may_bid`, with the other auction rules weighed"),
    "option-choice-without-choices": ("option.choices", "a choice option without choices, or choices on another type"),
    "option-default-bool-type": ("option.default", "an option's default is not one of its values"),
    "option-default-int-range": ("option.default", "an option's default is not one of its values"),
    "option-default-int-type": ("option.default", "an option's default is not one of its values"),
    "option-default-not-choice": ("option.default", "an option's default is not one of its values"),
    "option-int-unbounded-default": ("option.default", "an option's default is not one of its values"),
    "option-overridden": ("option.overridden", "parents: a rule an option of the parent sets"),
    "option-set-bad-key": ("option.set-key", "an option patch is keyed by a value the option cannot take"),
    "overtrump-declarer-without-trump": ("play.inert-duty", "a play duty field that changes nothing with the other duties"),
    "partnerships-three-players": ("table.partnerships", "fixed partnerships at a table that is not four players, all of them active"),
    "partnerships-with-sitter": ("table.partnerships", "fixed partnerships at a table that is not four players, all of them active"),
    "sitter-all-active": ("table.active", "more active players than seated, or a sitter missing / superfluous"),
    "source-duplicate": ("source.duplicate", "two sources share an id"),
    "source-unknown": ("source.unknown", "`source:` cites an id not in the ruleset's `sources`"),
    "stock-not-a-multiple": ("table.stock", "a stock that cannot give every active player a card after a trick, a stock rule without a stock, or a claim with a stock"),
    "stock-rule-without-stock": ("table.stock", "a stock that cannot give every active player a card after a trick, a stock rule without a stock, or a claim with a stock"),
    "stock-with-claim": ("table.stock", "a stock that cannot give every active player a card after a trick, a stock rule without a stock, or a claim with a stock"),
    "talon-hand-out-without-give-each": ("talon.hand-out", "`talon.hand_out` without a `give_each` exchange of the whole first talon taken with the others"),
    "two-player-talons": ("table.card-count", "hands, talons and the cards left out do not use exactly the whole pack"),
    "yaml-merge-key": ("yaml.merge-key", "YAML reader: merge keys (`<<`) are refused"),
    "yaml11-no": ("yaml.ambiguous-bool", "YAML reader: a YAML 1.1 boolean word, a text to YAML 1.2"),
    "yaml11-octal": ("yaml.ambiguous-number", "YAML reader: a YAML 1.1 octal number, a text to YAML 1.2"),
    "yaml11-on": ("yaml.ambiguous-bool", "YAML reader: a YAML 1.1 boolean word, a text to YAML 1.2"),
}


def _invalid_cases() -> list[Path]:
    return sorted(INVALID.glob("*.yaml"))


def _schema_verdict(path: Path, draft: str) -> list[str] | None:
    """The standard validator's errors for an invalid file (by its kind), ``None`` when
    YAML itself cannot read it (the editor shows that without any schema)."""
    try:
        doc = _read(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError):
        return None
    return _errors(_kind(doc), draft, doc)


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("path", sample(_invalid_cases(), every=6, ids=lambda p: p.stem))
def test_schema_agrees_with_validate_on_invalid_files(path: Path, draft: str) -> None:
    from tysiac_spec import load_ruleset
    from tysiac_spec.errors import TysiacError

    with pytest.raises(TysiacError) as info:  # tysiac validate refuses every file of the corpus
        load_ruleset(path)
    codes = {d.code for d in info.value.diagnostics}
    errors = _schema_verdict(path, draft)
    if errors is None:
        assert codes <= {"yaml.syntax", "yaml.tag", "yaml.multiple-documents", "io.read"}, codes
    elif path.stem in SCHEMA_CANNOT_TELL:
        assert errors == [], f"the schema refuses {path.stem}: take it off SCHEMA_CANNOT_TELL"
        assert SCHEMA_CANNOT_TELL[path.stem][0] in codes
    else:
        assert errors != [], f"the schema accepts {path.stem}: why? (or SCHEMA_CANNOT_TELL)"


def test_schema_cannot_tell_lists_only_cases() -> None:
    assert sorted(SCHEMA_CANNOT_TELL) == sorted(
        name for name in SCHEMA_CANNOT_TELL if (INVALID / f"{name}.yaml").exists()
    )


# --------------------------------------------------------------------------- stray keys


STRAY = """\
id: t
kind: house
extends: pl-standard
name: {en: T}
deal:
  talon_not_consecutive: {value: true, reason: House agreement (TER, KEP).}
"""


@pytest.mark.parametrize("draft", DRAFTS)
def test_a_text_cut_by_a_comma_is_refused_by_the_schema(draft: str) -> None:
    assert _read(STRAY)["deal"]["talon_not_consecutive"] == {
        "value": True, "reason": "House agreement (TER", "KEP).": None,
    }
    assert "deal/talon_not_consecutive: Additional properties are not allowed ('KEP).' was " \
        "unexpected)" in _leaves(EXTENDS, draft, _read(STRAY))


def test_a_text_cut_by_a_comma_is_reported_by_validate(tmp_path: Path) -> None:
    from tysiac_spec.cli import main

    (tmp_path / "t.yaml").write_text(STRAY, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "t.yaml")])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:5] == [
        f"{tmp_path / 't.yaml'}:6:70: error[schema.unknown-key]: unknown key `KEP).` in "
        "`deal.talon_not_consecutive`",
        "    talon_not_consecutive: {value: true, reason: House agreement (TER, KEP).}",
        " " * 71 + "^",
        "  at: deal.talon_not_consecutive.KEP).",
        "  hint: a comma ends a text that is not quoted inside `{…}`, so the rest of `reason` "
        'was read as this key: quote the text (`reason: "…, …"`)',
    ]


def _cut_texts(node: yaml.Node) -> list[str]:
    """The keys of flow mappings (``{…}``) written without a value after a comma: the rest
    of a text cut there (``{reason: Ours (A, B).}`` has the key ``B).``); an explicit
    ``null`` is a value."""
    found: list[str] = []
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if (
                node.flow_style and isinstance(value, yaml.ScalarNode)
                and value.tag.endswith(":null") and value.value == ""
            ):
                found.append(f"{key.start_mark.line + 1}:{key.start_mark.column + 1}: {key.value}")
            found.extend(_cut_texts(value))
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found.extend(_cut_texts(item))
    return found


def test_the_cut_text_finder_finds_it() -> None:
    assert _cut_texts(yaml.compose(STRAY)) == ["6:70: KEP)."]
    assert _cut_texts(yaml.compose("a: {b: null, c: 'x, y'}\nd:\n")) == []


@pytest.mark.parametrize("path", sample(SHIPPED, every=6, ids=_id))
def test_no_shipped_file_holds_a_cut_text(path: Path) -> None:
    """Where the schema lets any key through (an option's patch), this still finds one."""
    assert _cut_texts(yaml.compose(path.read_text(encoding="utf-8"))) == []


def test_a_text_cut_by_a_comma_is_named_wherever_it_shows(tmp_path: Path) -> None:
    """Where the rest of the text lands in a mapping of texts (`doc`) or of option values (a
    scenario's `options`), the key or its null value is refused, with the same hint."""
    from tysiac_spec import load_ruleset
    from tysiac_spec.errors import RulesetError

    hint = ("a comma ends a text that is not quoted inside `{…}`, so the rest of `en` was read "
            'as this key: quote the text (`en: "…, …"`)')
    path = tmp_path / "t.yaml"
    path.write_text(STRAY.replace("deal:\n  talon_not_consecutive: {value: true, reason: House "
                                  "agreement (TER, KEP).}\n", "doc: {en: Ours (TER, KEP).}\n"),
                    encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert [(d.code, d.line, d.column, d.hint) for d in info.value.diagnostics] == [
        ("schema.key", 5, 22, hint), ("schema.type", 5, 27, hint),
    ]
