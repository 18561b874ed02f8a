"""The rule book (`tysiac docs`): golden files, every rule field shown, terms per language.

Regenerate the golden files after an intended change with
``UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_docs.py``.
"""

from __future__ import annotations

import dataclasses
import os
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _quick import sample
from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.docs import terms
from tysiac_spec.docs.book import build_book, render_book
from tysiac_spec.ruleset import model, registry
from tysiac_spec.ruleset.model import Ruleset

HERE = Path(__file__).parent
GOLDEN = HERE / "golden_docs"
ALL_ON = HERE / "data" / "docs" / "all-on.yaml"
META = {"source", "status", "reason", "doc"}


def _model_paths(cls: type, prefix: str) -> Iterator[tuple[str, Any]]:
    """Every field of the model below ``cls``: (path without list indexes, type)."""
    hints = typing.get_type_hints(cls, vars(model))
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        yield prefix + f.name, tp
        nested = [a for a in (tp, *typing.get_args(tp))
                  if isinstance(a, type) and dataclasses.is_dataclass(a) and a is not model.Formula]
        if nested:
            yield from _model_paths(nested[0], prefix + f.name + ".")


def all_model_paths() -> list[tuple[str, Any]]:
    out = list(_model_paths(model.TablePlan, "players.N."))
    for section, cls in model.SECTIONS.items():
        out.extend(_model_paths(cls, section + "."))
    return out


def shown_paths(markdown: str) -> set[str]:
    """The field paths a rule book shows (in backticks), list indexes removed."""
    return {re.sub(r"\[\d+\]", "", m) for m in re.findall(r"`([A-Za-z_][A-Za-z0-9_.\[\]]*)`", markdown)}


@pytest.mark.parametrize(("ruleset_id", "lang"), [
    ("pl-standard", "en"), ("pl-standard", "pl"), ("ru-online", "en"), ("ru-online", "pl"),
])
def test_rule_book_matches_golden_file(ruleset_id: str, lang: str) -> None:
    text = render_book(build_book(load_ruleset(ruleset_id), lang=lang), "md")
    golden = GOLDEN / f"{ruleset_id}.{lang}.md"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"missing {golden}; run UPDATE_GOLDEN=1 pytest tests/test_docs.py"
    assert text == golden.read_text(encoding="utf-8"), (
        f"rule book of {ruleset_id} ({lang}) changed; if intended: UPDATE_GOLDEN=1 pytest tests/test_docs.py"
    )


def test_every_rule_field_of_the_model_appears_when_set() -> None:
    # all-on switches on every optional mechanism (forfeit, ace marriage, 800 rule, redeals,
    # counters, barrel, bolts, dark game, golden round, a sitter for 4 players)
    rules = load_ruleset(ALL_ON)
    shown = shown_paths(render_book(build_book(rules, lang="en"), "md"))
    # a 4-player table of partners has no sitter, a 2-player table with a stock no talon:
    # their layouts are the house examples'; all-pass play, contra and selling the contract
    # (issue 17) are house examples too
    for name in ("partners-four", "two-stock", "all-pass-play", "contra", "rebuy", "cut-swap", "tie-below-target",
                 "tie-high-score"):
        layout = load_ruleset(str(HERE.parent / "examples" / "house" / f"{name}.yaml"))
        shown |= shown_paths(render_book(build_book(layout, lang="en"), "md"))
    # the cards set aside (talon.leftover) are a rule only where the declarer discards
    # (fields.SHOWN_WHEN_IS): pl-standard's 2-player table
    shown |= shown_paths(render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md"))
    # a golden round bid for (special.golden_round.auction): ru-classic's gold set
    gold = load_ruleset("ru-classic", options={"gold_set": True})
    shown |= shown_paths(render_book(build_book(gold, lang="en"), "md"))
    missing = [path for path, _ in all_model_paths() if path not in shown]
    assert missing == []


def _written_leaves(node: Any, path: str) -> Iterator[str]:
    if isinstance(node, dict) and "value" in node and set(node) <= META | {"value"}:
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in META:
                yield from _written_leaves(value, f"{path}.{key}")
    elif isinstance(node, list) and node and all(isinstance(v, dict) for v in node):
        for i, value in enumerate(node):
            yield from _written_leaves(value, f"{path}[{i}]")
    else:
        yield path


def _in_force(rules: Ruleset, path: str) -> bool:
    """False when an enclosing mechanism is switched off (`enabled: false`) in every form."""
    parts = re.sub(r"\[\d+\]", "", path).split(".")
    for depth in range(1, len(parts)):
        prefix = parts[:depth]
        if prefix[0] == "players" or parts[depth] == "enabled":
            continue
        flags = []
        for n in rules.player_counts:
            obj: Any = rules.form(n)
            for part in prefix:
                obj = getattr(obj, part, None)
            if obj is not None and hasattr(obj, "enabled"):
                flags.append(obj.enabled)
        if flags and not any(flags):
            return False
    return True


@pytest.mark.parametrize("ruleset_id", sample([e.id for e in registry.entries()], every=3))
def test_every_rule_written_in_a_shipped_ruleset_is_in_its_rule_book(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    shown = shown_paths(render_book(build_book(rules, lang="en"), "md"))
    table_fields = {f.name for f in dataclasses.fields(model.TablePlan)}
    written: list[str] = []
    for section in model.SECTIONS:
        written += _written_leaves(rules.document.get(section, {}), section)
    for entry in (rules.document.get("players") or {}).values():
        for key, value in entry.items():
            if key in table_fields:
                written += _written_leaves(value, f"players.N.{key}")
            elif key in model.SECTIONS:
                written += _written_leaves(value, key)
    leaves = {path for path, _ in all_model_paths()}

    def model_leaf(path: str) -> str:  # a mapping field (marriage values) is one rule
        parts = path.split(".")
        for k in range(len(parts), 0, -1):
            if re.sub(r"\[\d+\]", "", ".".join(parts[:k])) in leaves:
                return ".".join(parts[:k])
        return path

    written = [model_leaf(p) for p in written if _in_force(rules, p)]
    assert written or not rules.player_counts
    missing = sorted({re.sub(r"\[\d+\]", "", p) for p in written} - shown)
    assert missing == []


def test_every_field_and_choice_has_terms_in_every_language() -> None:
    for path, tp in all_model_paths():
        key = path.replace("players.N.", "table.")
        assert key in terms.LABELS, f"no label for {key}"
        assert all(terms.LABELS[key]), key
        literals = [a for a in (tp, *typing.get_args(tp)) if typing.get_origin(a) is typing.Literal]
        for lit in literals:
            for value in typing.get_args(lit):
                assert f"{key}={value}" in terms.CHOICES, f"no words for {key}={value}"


def test_a_phrase_is_written_once_in_the_terms() -> None:
    """A section title that is also a word of the interface (``sources``, ``examples``) is
    the interface's phrase itself; no phrase of the interface is kept as a section title."""
    shared = sorted(k for k in terms.SECTION_TITLES if k in terms.UI)
    assert shared == ["examples", "sources"]
    assert all(terms.SECTION_TITLES[k] is terms.UI[k] for k in shared)
    assert terms.pick(terms.SECTION_TITLES["sources"], "pl") == "Źródła"


def test_languages_use_their_own_game_terms() -> None:
    rules = load_ruleset("pl-standard")
    books = {lang: render_book(build_book(rules, lang=lang), "md") for lang in terms.LANGS}
    assert "## 7. Meldunki i atut" in books["pl"]
    assert "Musik (karty zakryte)" in books["pl"]
    assert "## 7. Марьяжи и козырь" in books["ru"]
    assert "Прикуп (карт рубашкой вверх)" in books["ru"]
    assert "## 7. Hlášky a trumfy" in books["cs"]
    assert "## 4. Talon a výměna" in books["cs"]
    # formulas in words, in each language, with the formula itself
    assert "120 plus the value of the marriages in the hand (formula: `120 + marriages(hand)`)" in books["en"]
    assert "120 плюс сумма марьяжей на руке (формула: `120 + marriages(hand)`)" in books["ru"]


def test_numbers_sources_and_assumptions_come_from_the_data() -> None:
    text = render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md")
    # the 360 cap is only for 3 and 4 players (S000); 2 players: 400, assumed with the reason
    assert "- **Absolute ceiling on a bid** · `auction.cap` · Sources: S000 · _assumed_ (2, 4 players): S000's ceiling of 360" in text
    assert "  - 2 players: no ceiling\n  - 3, 4 players: 360" in text
    # contract.max is assumed, with the ruleset's reason
    assert re.search(r"`contract\.max` · Sources: S000 · _assumed_: No source caps the raise", text)
    # marriage values from the common core
    assert "**Value of a marriage**: hearts 100, diamonds 80, clubs 60, spades 40" in text
    assert "| A | ace | 11 |" in text


def test_disabled_mechanism_shows_only_that_it_is_off() -> None:
    text = render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md")
    assert "**Played**: no · `special.barrel.enabled`" in text
    assert "special.barrel.threshold" not in text


def test_players_option_limits_the_book_to_one_form() -> None:
    text = render_book(build_book(load_ruleset("pl-standard"), lang="en", players=2), "md")
    assert "- Number of players: 2\n" in text
    assert "**Absolute ceiling on a bid**: no ceiling · `auction.cap`" in text
    assert "3, 4 players" not in text


def test_book_for_n_players_lists_only_the_options_for_n_players() -> None:
    """`two_player_exchange` patches only `players.2`: the 4-player book of ru-online does not
    list it (nor credit it with setting the exchange); the 2-player and all-forms books do."""
    rules = load_ruleset("ru-online")
    assert [rules.options["two_player_exchange"].applies_to(n) for n in (2, 3, 4)] == [True, False, False]
    assert all(rules.options["barrel"].applies_to(n) for n in (2, 3, 4))
    result = CliRunner().invoke(main, ["docs", "ru-online", "--players", "4"])
    assert result.exit_code == 0, result.output
    four = result.output
    assert "two_player_exchange" not in four
    assert "- Table options in force: “Rospis (giving up the contract)”: any number, each costs the " \
        "contract; “Dark game (bidding blind)”: yes; “Golden round at the start”: yes; “Dump truck " \
        "(exactly 555 drops to 0)”: yes; “Bolts (third deal without a trick costs 120)”: yes; “Barrel " \
        "at 880”: yes; “Player on the barrel may be outbid”: no; “Two on the barrel both fall off”: no; " \
        "“Four aces as a marriage of 200”: no; “No bidding with a negative score”: no; “A minimum bid on the " \
        "barrel”: no; “Jump bids " \
        "(raise by any multiple of 5)”: no\n" in four
    assert "- **The exchange**: the declarer gives cards to each opponent · `talon.exchange` · Sources: S002" in four
    assert "- **Jump bids (raise by any multiple of 5)**: **no** (in force) · `options.jump_bids`" in four  # an option of every form stays
    two = render_book(build_book(rules, lang="en", players=2), "md")
    assert "- **The declarer's exchange (2 players)**: **discards two cards face down** (in force); gives one " \
        "card to the opponent" in two
    assert "`talon.exchange` · set by table option “The declarer's exchange (2 players)”: discards two cards " \
        "face down" in two
    every = render_book(build_book(rules, lang="en"), "md")
    assert "- **The declarer's exchange (2 players)**: **discards two cards face down** (in force)" in every
    # pl-standard: the 2-player and 4-player options are left out of the 3-player book only
    three = render_book(build_book(load_ruleset("pl-standard"), lang="en", players=3), "md")
    assert "leftover_two_player" not in three and "four_player_sitter" not in three
    assert "- **Rounding a defender's score ending in 5**: " in three  # read by a formula, set by no patch: every form


SCENARIO = """ruleset: my-table
scenarios:
  - name: must-follow-suit
    description: Player 2 holds one diamond and must play it.
    source: [S000]
    cite: course of play
    players: 3
    deal:
      dealer: 0
      hands:
        1: "AH TH KH QH JH 9H 9S"
        2: "AS TS KS QS JS AC TC"
        0: "KC QC JC 9C AD TD KD"
      talons: ["QD JD 9D"]
    steps:
      - do: ["bid 100", pass, pass]
      - expect: {phase: exchange, declarer: 1}
      - do: ["give 9D to 2", "give JD to 0", "contract 100", "play QD"]
      - expect: {current_player: 2, legal: ["play 9D"]}
      - illegal: "play AS"
        error: must follow diamonds
      - do: ["play 9D", "play AD"]
      - expect: {trick_winner: 0}
  - name: two-players-opening
    description: With two players the first hand opens at 100.
    source: [S000]
    players: 2
    deal:
      dealer: 0
      hands: {1: "KH JH TD QD JD 9D AC TC KC TS", 0: "AH QH KD QC JC 9C AS KS QS JS"}
      talons: ["TH AD", "9H 9S"]
    steps:
      - expect: {legal: ["bid 100"]}
"""


def test_worked_examples_are_told_in_words_in_their_chapter(tmp_path: Path) -> None:
    house = tmp_path / "my-table.yaml"
    house.write_text("id: my-table\nkind: house\nextends: pl-standard\nname: {en: My table}\n", encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "my-table.yaml").write_text(SCENARIO, encoding="utf-8")
    text = render_book(build_book(load_ruleset(house), lang="en"), "md")
    play = text.split("## 6. Play and its obligations")[1].split("\n## 7.")[0]
    assert "### Worked examples\n" in play
    assert (
        "#### Must follow suit\n\nPlayer 2 holds one diamond and must play it.\n\n_Source: S000 — course of play_\n\n"
        "- 3 players; player 0 deals\n"
        "- Player 1: `A♥ 10♥ K♥ Q♥ J♥ 9♥ 9♠`\n- Player 2: `A♠ 10♠ K♠ Q♠ J♠ A♣ 10♣`\n"
        "- Player 0 (dealer): `K♣ Q♣ J♣ 9♣ A♦ 10♦ K♦`\n- Talon: `Q♦ J♦ 9♦`\n\n"
        "1. **Auction**: player 1 bids 100, player 2 passes, player 0 passes.\n"
        "2. **Then**: phase: exchange; player 1 is the declarer.\n"
        "3. **Talon and exchange**: player 1 gives 9♦ to player 2, player 1 gives J♦ to player 0.\n"
        "4. **Contract**: player 1 sets the contract at 100.\n"
        "5. **Trick 1**: player 1 leads Q♦.\n"
        "6. **Then**: player 2 is to act; the only move allowed: 9♦.\n"
        "7. **Not allowed**: player 2 plays A♠ — “must follow diamonds”.\n"
        "8. **Trick 1**: player 2 plays 9♦, player 0 plays A♦ — player 0 takes the trick.\n"
        "9. **Then**: player 0 took the trick.\n"
    ) in play
    # the 2-player example is in the auction chapter, and left out of a 3-player book
    assert "#### Two players opening" in text.split("## 3. The auction")[1].split("\n## 4.")[0]
    three = render_book(build_book(load_ruleset(house), lang="en", players=3), "md")
    assert "Two players opening" not in three and "Must follow suit" in three
    # in another language: the game's own words, the scenario's text marked as English
    pl = render_book(build_book(load_ruleset(house), lang="pl"), "md")
    assert "1. **Licytacja**: gracz 1 licytuje 100, gracz 2 pasuje, gracz 0 pasuje.\n" in pl
    assert "Player 2 holds one diamond and must play it. (en)" in pl
    assert "5. **Lewa 1**: gracz 1 wychodzi Q♦.\n" in pl
    # no scenario file: no examples, no error
    (tmp_path / "scenarios" / "my-table.yaml").unlink()
    assert "Worked examples" not in render_book(build_book(load_ruleset(house), lang="en"), "md")


def test_an_example_the_engine_refuses_is_still_told(tmp_path: Path) -> None:
    house = tmp_path / "my-table.yaml"
    house.write_text("id: my-table\nkind: house\nextends: pl-standard\nname: {en: My table}\n", encoding="utf-8")
    (tmp_path / "scenarios").mkdir()
    broken = SCENARIO.replace('"give 9D to 2", "give JD to 0"', '"give 9D to 1", "give JD to 2"').split(
        "  - name: two-players")[0]
    (tmp_path / "scenarios" / "my-table.yaml").write_text(broken, encoding="utf-8")
    text = render_book(build_book(load_ruleset(house), lang="en"), "md")
    # the actions after the engine's refusal are shown without the players' names
    assert "3. **Talon and exchange**: 9♦ → player 1, J♦ → player 2.\n" in text


def test_html_rule_book_has_the_same_content() -> None:
    book = build_book(load_ruleset("ru-online"), lang="ru")
    html = render_book(book, "html")
    assert html.startswith("<!DOCTYPE html>") and '<html lang="ru">' in html
    for section in book.sections:
        assert f'<section id="{section.key}">' in html
        for rule in section.rules:
            assert f"<code class=\"path\">{rule.path}</code>" in html
    assert "http://" not in html.split("<body>")[0] and "<script" not in html  # no external resources


def test_docs_command_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "book.html"
    result = CliRunner().invoke(main, ["docs", "pl-standard", "--lang", "pl", "--format", "html", "-o", str(out),
                                       "-O", "five_rounds=up"])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "<h1>Tysiąc — zasady standardowe</h1>" in html
    assert "<li>Obowiązujące opcje stołu: “Zaokrąglanie wyniku obrońcy kończącego się na 5”: w górę (25 → 30)" in html
    assert "five_rounds=" not in html  # option names in words, never as ids


def test_docs_command_reports_user_errors() -> None:
    result = CliRunner().invoke(main, ["docs", "pl-standard", "--players", "5"])
    assert result.exit_code == 1
    assert "error[option.players]: ruleset `pl-standard` has no 5-player form; it defines 2, 3, 4" in result.stderr
    for count in ("-1", "0"):  # t8 finding F10: no "-1-player form"
        result = CliRunner().invoke(main, ["show", "pl-standard", "--players", count])
        assert result.exit_code == 1
        assert result.stderr.endswith(
            f"error[option.players]: {count} is not a number of players: ruleset `pl-standard` defines 2, 3, 4\n")
    result = CliRunner().invoke(main, ["docs", "pl-standard", "-O", "five_rounds=sideways"])
    assert result.exit_code == 1
    assert "option `five_rounds` of `pl-standard` cannot be \"sideways\"; valid: down, up" in result.stderr


def test_rules_set_by_a_table_option_say_so() -> None:
    text = render_book(build_book(load_ruleset("house-five-up"), lang="en"), "md")
    assert "- **Raising a bid**: by exactly one step · `auction.raise_by` · set by table option " \
        "“Graduated auction (raises of 10 only)”: yes" in text
    # the same rule without the option in force
    text = render_book(build_book(load_ruleset("house-five-up", options={"graduated_auction": "false"}), lang="en"), "md")
    assert "by any multiple of the step (jumps allowed) · `auction.raise_by` · set by table option " \
        "“Graduated auction (raises of 10 only)”: no" in text


def test_marriage_ranks_in_the_rule_book(tmp_path: Path) -> None:
    """The marriages chapter names the ranks of ``marriages.ranks`` in its first sentence; the
    field's own line appears only when a ruleset changes it from king and queen."""
    standard = render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md")
    assert "A king and queen of one suit in one hand form a marriage" in standard
    assert "`marriages.ranks`" not in standard
    house = tmp_path / "king-jack.yaml"
    house.write_text(
        "id: king-jack\nkind: house\nextends: pl-standard\nname: {en: King and jack}\n"
        "marriages: {ranks: [king, jack]}\n", encoding="utf-8")
    books = {lang: render_book(build_book(load_ruleset(house), lang=lang), "md") for lang in terms.LANGS}
    assert "A king and jack of one suit in one hand form a marriage" in books["en"]
    assert "- **The two cards of a marriage**: king + jack · `marriages.ranks`" in books["en"]
    assert "Król i walet jednego koloru w jednej ręce to meldunek" in books["pl"]
    assert "- **Dwie karty meldunku**: król + walet · `marriages.ranks`" in books["pl"]
    assert "Король и валет одной масти" in books["ru"]
    assert "Král a kluk stejné barvy" in books["cs"]
    # forms naming different ranks: the first sentence names none of them
    house.write_text(
        "id: king-jack\nkind: house\nextends: pl-standard\nname: {en: King and jack}\n"
        "players: {2: {marriages: {ranks: [king, jack]}}}\n", encoding="utf-8")
    mixed = render_book(build_book(load_ruleset(house), lang="en"), "md")
    assert "The two cards named under `marriages.ranks` of one suit in one hand form a marriage" in mixed
    assert ("- **The two cards of a marriage** · `marriages.ranks` · Sources: S000\n"
            "  - 2 players: king + jack\n  - 3, 4 players: king + queen\n") in mixed


def test_rules_of_a_forced_opening_are_left_out_when_nobody_must_open() -> None:
    """``auction.forced_seat: null`` (examples/house/nobody-opens.yaml): no compulsory bid, no
    forced player to speak first, so the book leaves those three rules out; pl-standard, where the
    dealer's left must open at 100, keeps them."""
    forced = ("auction.forced_bid", "auction.first_to_speak", "auction.forced_opening")
    standard = render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md")
    house = render_book(
        build_book(load_ruleset(HERE.parent / "examples" / "house" / "nobody-opens.yaml"), lang="en"), "md"
    )
    assert [f"`{p}`" in standard for p in forced] == [True, True, True]
    assert [f"`{p}`" in house for p in forced] == [False, False, False]
    assert "nobody is obliged to open · `auction.forced_seat`" in house
    assert "> Anyone may open or pass; bids are multiples of 10" in house


PL_STOCK = """id: pl-stock
kind: house
extends: pl-standard
name: {en: Polish two-hander with a stock}
options:
  leftover_two_player: {$delete: true}
players:
  2:
    hand_size: 9
    talons: []
    stock: 6
    stock_trump: true
    stock_duties: free
    talon:
      take: all
      exchange: none
    contract:
      claim_allowed: false
"""


def test_a_rule_a_house_file_adds_under_players_cites_none_of_the_parents_sources(tmp_path: Path) -> None:
    # pl-stock adds the stock at 2 players, with no source: at 3 and 4 players the stock keeps
    # the model's default, which pl-standard's players.3 / players.4 elements never wrote,
    # so their sources (S000, KRO, ZAG) do not speak for it
    from tysiac_spec.docs.fields import provenance_for

    path = tmp_path / "pl-stock.yaml"
    path.write_text(PL_STOCK, encoding="utf-8")
    house = load_ruleset(str(path))
    for n in (2, 3, 4):
        assert provenance_for(house, ("players", str(n), "stock"), n).sources == ()
    # a rule the parent wrote at 4 players keeps its sources there
    assert provenance_for(house, ("players", "4", "hand_size"), 4).sources == ("S000", "KRO", "ZAG")
    book = CliRunner().invoke(main, ["docs", str(path)]).output
    [line] = [ln for ln in book.splitlines() if "`players.N.stock`" in ln]
    assert line == "- **Stock to draw from after each trick** · `players.N.stock`"


SELLING = """\
id: selling
kind: house
extends: ru-classic
name: {en: Selling}
talon:
  rebuy: {enabled: true, who: defenders, price: "240"}
contract:
  contra: {enabled: true, who: defenders, when: after_auction, multiplier: 2, redouble: true,
           redouble_multiplier: 2, applies_to: declarer}
  kinds:
    - {id: misere, name: {en: Misere}, rank: null, value: 120, goal: "tricks == 0",
       declarer: "if made then contract else -contract", defender: "0", trump: false, marriages: false}
"""


def test_a_group_a_house_file_adds_cites_none_of_the_parents_sources(tmp_path: Path) -> None:
    # t8: a group written whole by a house file without `source` (talon.rebuy, contract.contra,
    # a named contract) was shown with the sources of the parent's section (ru-classic's talon:
    # LOD, PAGx3), which say nothing of selling, contra or misere
    path = tmp_path / "selling.yaml"
    path.write_text(SELLING, encoding="utf-8")
    book = CliRunner().invoke(main, ["docs", str(path)]).output
    lines = book.splitlines()
    assert "- **Selling the contract (re-buy)** (`talon.rebuy`)" in lines
    assert "- **Contra and redouble** (`contract.contra`)" in lines
    assert "  - **Entry 1: `misere`** (`contract.kinds[0]`)" in lines
    assert "    - **Name**: Misere · `contract.kinds[0].name`" in lines
    # the parent's own rules beside them keep their sources
    assert "- **Taking the talon**: the declarer takes the whole talon · `talon.take` · Sources: LOD, PAGx3" in lines


def test_the_stock_fields_are_printed_only_for_the_forms_with_a_stock(tmp_path: Path) -> None:
    # only the 2-player form of pl-stock has a stock: its trump card and duties are rules of
    # that form alone (fields.SHOWN_WHEN_SET, per form as SHOWN_WHEN_IS)
    path = tmp_path / "pl-stock.yaml"
    path.write_text(PL_STOCK, encoding="utf-8")
    book = CliRunner().invoke(main, ["docs", str(path)]).output
    assert (
        "- **Stock to draw from after each trick** · `players.N.stock`\n"
        "  - 2 players: 6\n"
        "  - 3, 4 players: no stock\n"
        "- **The stock's face-up bottom card names trump** · `players.N.stock_trump`\n"
        "  - 2 players: yes\n"
        "- **While the stock lasts** · `players.N.stock_duties`\n"
        "  - 2 players: any card may be played; the duties begin when it is empty\n"
    ) in book


def test_leftover_rules_only_for_forms_that_discard() -> None:
    # talon.leftover applies only with `exchange: discard` (fields.SHOWN_WHEN_IS): the buried
    # cards of give_and_bury count for the declarer, so the book says nothing of who scores them
    text = render_book(build_book(load_ruleset(HERE.parent / "examples" / "house" / "two-player-fixed-deal.yaml")))
    assert "Who scores the discards" not in text and "Talon cards not taken" not in text
    assert "`talon.leftover" not in text
    # pl-standard discards for 2 players: the rule stays, for 2 players only
    text = render_book(build_book(load_ruleset("pl-standard")))
    assert "- **Talon cards not taken** (`talon.leftover`)" in text


def test_an_option_off_its_default_drops_the_prose_and_examples_of_the_default() -> None:
    # ua-standard -O dealer_bolt=if_all_pass: nobody must open, so the auction chapter's
    # words ("The dealer's bid is a compulsory 100") and the example of the standing 100 go;
    # the example run with the option stays
    default = render_book(build_book(load_ruleset("ua-standard")))
    assert "The dealer's bid is a compulsory 100" in default and "#### The dealer holds the 100" in default
    text = render_book(build_book(load_ruleset("ua-standard", options={"dealer_bolt": "if_all_pass"})))
    assert "The dealer's bid is a compulsory 100" not in text
    assert "#### The dealer holds the 100" not in text
    assert "MEKU's reading (option `dealer_bolt: if_all_pass`)" in text
    assert "nobody is obliged to open · `auction.forced_seat` · set by table option " \
        "“The dealer's compulsory 100”: only if all pass" in text


@pytest.mark.parametrize(("lang", "group", "enabled"), [
    ("en", "Marriage of four of a rank (4 × king; in moves: aces)", "4 × king may be declared"),
    ("pl", "Meldunek czterech kart (4 × król; w zapisie ruchów: aces)", "Można meldować 4 × król"),
    ("ru", "Марьяж четырёх карт (4 × король; в записи ходов: aces)", "Можно объявить 4 × король"),
    ("cs", "Hláška čtyř karet (4 × král; v zápisu tahů: aces)", "4 × král lze hlásit"),
])
def test_an_ace_marriage_of_another_rank_is_named_by_it(tmp_path: Path, lang: str, group: str, enabled: str) -> None:
    # marriages.ace_marriage.rank: king — the book names the four kings by the pack's rank
    # name, not "four aces"; the move notation keeps its word `aces` (records stay readable)
    house = tmp_path / "h.yaml"
    house.write_text("id: h\nextends: pl-standard\nname: {en: h}\n"
                     "marriages:\n  ace_marriage: {enabled: true, rank: king, value: 150}\n", encoding="utf-8")
    text = render_book(build_book(load_ruleset(house), lang=lang))
    assert f"- **{group}** (`marriages.ace_marriage`)" in text
    assert f"  - **{enabled}**: " in text
    aces = render_book(build_book(load_ruleset("ru-online", options={"ace_marriage": True}), lang=lang))
    assert terms.pick(terms.LABELS["marriages.ace_marriage"], lang) in aces and "4 ×" not in aces


def test_transcript_names_the_ace_marriage_of_another_rank(tmp_path: Path) -> None:
    # marriages.ace_marriage.rank: jack — the transcript said "JH (marriage of jack) (ace
    # marriage)"; now the four jacks by the pack's name and the value, no suit marriage
    from tysiac_spec.engine import Game
    from tysiac_spec.transcript import _Writer

    house = tmp_path / "h.yaml"
    house.write_text("id: h\nextends: pl-standard\nname: {en: h}\n"
                     "marriages:\n  ace_marriage: {enabled: true, rank: jack, value: 50}\n", encoding="utf-8")
    game = Game(load_ruleset(house), players=3, seed=0)
    game.start_deal(hands={1: "JH JS JD JC AH TH KH", 2: "9H 9S 9D 9C QS KS AS", 0: "AD TD KD QD AC TC KC"},
                    talons=["QC TS QH"], dealer=0)
    while "play JH aces" not in [str(a) for a in game.legal_actions()]:
        legal = [str(a) for a in game.legal_actions()]
        pick = "bid 100" if game.current_player == 1 and "bid 100" in legal else "pass" if "pass" in legal else legal[0]
        game.apply(next(a for a in game.legal_actions() if str(a) == pick))
    writer = _Writer.__new__(_Writer)
    writer.game, writer.lines, writer.trick, writer.trick_no, writer.deal_no = game, [], [], 0, 1
    writer.step("play JH aces")
    assert writer.trick == ["P1 JH (ace marriage: 4 × jack, 50)"]
    assert game.deal.marriages[1] == 50 and game.deal.declared == [(1, "jack")]


def test_every_shipped_option_and_choice_has_words_in_every_language() -> None:
    # the rule books show options by name in words (issue 27: the Polish book showed raw ids)
    missing = []
    for entry in registry.entries():
        for name, opt in load_ruleset(entry.id).options.items():
            if name not in terms.OPTION_NAMES:
                missing.append(name)
            missing += [f"{name}={c}" for c in opt.choices if f"{name}={c}" not in terms.OPTION_VALUES]
    assert missing == []
    assert all(all(t.strip() for t in texts) for texts in terms.OPTION_NAMES.values())
    assert terms.option_setting("barrel_variant", "lviv", "pl") == "“Beczka”: lwowska: na 900, bez limitu"
    assert terms.option_setting("samosval", True, "ru") == "“Самосвал (ровно 555 сбрасывается в 0)”: да"
    assert terms.option_name("my_own_rule", "cs") == "my own rule"  # a user's option: its name
    pl = render_book(build_book(load_ruleset("pl-standard"), lang="pl"), "html")
    assert re.findall(r"\b[a-z]+_[a-z_]+=", pl) == []
