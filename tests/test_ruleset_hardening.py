"""Inputs that used to validate and then play otherwise than written, or fail only in play
(issue 14: every rule the data states is played as written; issue 12's hardening)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.errors import RulesetError
from tysiac_spec.ruleset import model
from tysiac_spec.ruleset._merge import SECTION_NAMES


def _house(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _errors(path: Path, **kwargs: object) -> list[str]:
    with pytest.raises(RulesetError) as info:
        load_ruleset(path, **kwargs)  # type: ignore[arg-type]
    return [d.render() for d in info.value.diagnostics]


# ----------------------------------------------------- 1. a top-level value over a parent's
#                                                          per-player value


def test_section_names_are_the_models() -> None:
    assert SECTION_NAMES == tuple(model.SECTIONS)


def test_house_top_level_value_holds_for_every_player_count(tmp_path: Path) -> None:
    # pl-standard writes the cap per player count (players.3/4.auction.cap: 360)
    parent = load_ruleset("pl-standard")
    assert {n: f.auction.cap for n, f in parent.forms.items()} == {2: None, 3: 360, 4: 360}
    house = _house(tmp_path, "id: h\nextends: pl-standard\nname: {en: h}\nauction: {cap: 300}\n")
    ruleset = load_ruleset(house)
    assert {n: f.auction.cap for n, f in ruleset.forms.items()} == {2: 300, 3: 300, 4: 300}


def test_house_per_player_value_still_wins_over_its_own_top_level(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        "id: h\nextends: pl-standard\nname: {en: h}\nauction: {cap: 300}\n"
        "players:\n  4:\n    auction: {cap: 340}\n",
    )
    ruleset = load_ruleset(house)
    assert {n: f.auction.cap for n, f in ruleset.forms.items()} == {2: 300, 3: 300, 4: 340}


def test_house_top_level_key_replaces_only_that_key_of_a_parents_player_mapping(
    tmp_path: Path,
) -> None:
    house = _house(
        tmp_path, "id: h\nextends: pl-standard\nname: {en: h}\ntalon: {leftover: {cards: unchosen_talon}}\n"
    )
    two = load_ruleset(house).form(2).talon.leftover
    assert (two.to, two.cards) == ("last_trick", "unchosen_talon")
    parent = load_ruleset("pl-standard").form(2).talon.leftover
    assert (parent.to, parent.cards) == ("last_trick", "unchosen_and_discards")


def test_option_default_patching_a_player_count_refuses_the_house_top_level_line(
    tmp_path: Path,
) -> None:
    # option `leftover_two_player` (default last_trick) patches players.2.talon.leftover.to
    house = _house(
        tmp_path, "id: h\nextends: pl-standard\nname: {en: h}\ntalon: {leftover: {to: nobody}}\n"
    )
    assert _errors(house) == [
        f"{house}:4:24: error[option.overridden]: `talon.leftover.to` is set here, but option "
        '`leftover_two_player` (default "last_trick") sets `players.2.talon.leftover.to` to '
        '"last_trick"\n  talon: {leftover: {to: nobody}}\n                         ^\n  at: talon.leftover.to\n  hint: choose the option instead: set '
        "`options.leftover_two_player.default`, or pass -O leftover_two_player=VALUE"
    ]


def test_house_top_level_discard_count_is_not_lost_for_two_players(tmp_path: Path) -> None:
    house = _house(tmp_path, "id: h\nextends: pl-standard\nname: {en: h}\ntalon: {discard_count: 3}\n")
    [error] = _errors(house)
    assert error.startswith(
        f"{house}:4:24: error[table.exchange]: for 2 players the hands do not come out even: "
        "the declarer takes 2 card(s) (talons: 2 + 2) and discards 3"
    )


# ----------------------------------------------------- 3. every number of points is bounded


def test_int_option_without_a_written_range_is_bounded(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        "id: h\nextends: pl-standard\nname: {en: h}\noptions:\n"
        "  bonus: {type: int, default: 10, doc: {en: A bonus.}}\n",
    )
    assert load_ruleset(house, options={"bonus": "1000000"}).selected["bonus"] == 1_000_000
    with pytest.raises(RulesetError) as info:
        load_ruleset(house, options={"bonus": "999999999999999999"})
    [diag] = info.value.diagnostics
    assert diag.message == (
        'option `bonus` of `h` cannot be "999999999999999999"; '
        "valid: an integer from -1000000 to 1000000"
    )


# ----------------------------------------------------- 6. an option patch over an annotated value


def test_option_patch_writing_the_same_value_keeps_its_annotation() -> None:
    # pl-standard writes raise_by: {value: any, source: [S000], doc: …}; option
    # graduated_auction's default patch writes plain `raise_by: any` over it
    prov = load_ruleset("pl-standard").provenance[("auction", "raise_by")]
    assert prov.source == ("S000",)
    assert prov.doc["en"] == (
        "Jumps are allowed (e.g. straight to 120); option `graduated_auction` limits raises to +10."
    )
    assumed = load_ruleset("ru-online").provenance[("auction", "raise_by")]
    assert assumed.status == "assumed"


def test_option_patch_writing_another_value_drops_the_old_words() -> None:
    ruleset = load_ruleset("pl-standard", options={"graduated_auction": True})
    assert ruleset.form(3).auction.raise_by == "exactly_step"
    prov = ruleset.provenance.get(("auction", "raise_by"))
    assert prov is None or not prov.doc


# ----------------------------------------------------- 7. inherited words about changed rules


def test_inherited_words_about_a_rule_the_house_changed_are_dropped(tmp_path: Path) -> None:
    from tysiac_spec.docs import build_book, render_book

    words = "Lead the queen or king of the pair and say its value."
    standard = render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md")
    assert words in standard
    house = _house(
        tmp_path, "id: h\nextends: pl-standard\nname: {en: h}\nmarriages: {ranks: [king, jack]}\n"
    )
    book = render_book(build_book(load_ruleset(house), lang="en"), "md")
    assert words not in book
    assert "- **The two cards of a marriage**: king + jack · `marriages.ranks`\n" in book
    # the generated words and the sources of the rule stay
    assert (
        "- **Declaring a marriage**: must be said aloud when leading · `marriages.announcement` "
        "· Sources: S000\n" in book
    )
    # words in another section, which the house did not change, stay
    assert "_A forced player who won because everyone passed usually need not show it._" in book


# ----------------------------------------------------- 8. marriages(cards) and marriages.value


def test_bid_cap_counts_marriages_at_the_marriage_value_formula() -> None:
    # examples/house/first-marriage-double.yaml: "if first then value * 2 else value" over
    # pl-standard's bid cap "120 + marriages(hand)"; the most valuable marriage counts first
    root = Path(__file__).resolve().parent.parent
    rules = load_ruleset(root / "examples" / "house" / "first-marriage-double.yaml")
    cap = rules.form(2).auction.max_bid
    assert cap is not None
    env = {"player": {"score": 0}, "players": 2, "options": dict(rules.selected)}
    both = rules.deck.parse_many("KH QH KD QD AS TS 9C JC 9S JS")
    assert cap({**env, "hand": both}) == 120 + 2 * 100 + 80  # 400, not 300
    clubs = rules.deck.parse_many("KC QC AS TS 9H JH 9D JD 9S JS")
    assert cap({**env, "hand": clubs}) == 120 + 2 * 60  # 240, not 180
    assert cap({**env, "hand": rules.deck.parse_many("AS TS 9H JH 9D JD 9S JS 9C JC")}) == 120
    # the contract's ceiling and the sitter's score count the same way
    contract = rules.form(2).contract.max
    assert contract is not None
    assert contract({**env, "hand": both, "bid": 100}) == 400
    sitter = rules.form(4).table.sitter
    assert sitter is not None and sitter.score is not None
    talon = rules.deck.parse_many("KS QS AH")
    assert sitter.score({"talon": talon, "players": 3, "options": dict(rules.selected)}) == 50 + 80
    # pl-standard itself: the suits' values
    plain = load_ruleset("pl-standard").form(2).auction.max_bid
    assert plain is not None and plain({**env, "hand": both}) == 300


def test_marriage_value_by_role_counts_as_the_declarer(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        "id: h\nextends: pl-standard\nname: {en: h}\n"
        'marriages: {value: "if declarer then value else value // 2"}\n',
    )
    rules = load_ruleset(house)
    cap = rules.form(3).auction.max_bid
    assert cap is not None
    env = {"player": {"score": 0}, "players": 3, "options": dict(rules.selected)}
    assert cap({**env, "hand": rules.deck.parse_many("KH QH KD QD AS TS 9C")}) == 300


def test_book_prints_an_exchange_count_only_for_the_forms_that_use_it(tmp_path: Path) -> None:
    from tysiac_spec.docs import build_book, render_book

    book = render_book(build_book(load_ruleset("pl-standard"), lang="en"), "md")
    # 2 players discard (2 cards), 3 and 4 players give one card to each opponent
    assert (
        "- **Cards discarded face down** · `talon.discard_count` · Sources: S000\n"
        "  - 2 players: 2\n- **Given cards shown**"
    ) in book
    assert "- **Cards given to each opponent** · `talon.give_count` · Sources: S000\n  - 3, 4 players: 1\n" in book
    assert "3, 4 players: 0" not in book


def test_option_patch_top_level_rule_holds_for_every_player_count(tmp_path: Path) -> None:
    house = _house(
        tmp_path,
        "id: h\nextends: pl-standard\nname: {en: h}\noptions:\n"
        "  low_cap:\n    type: bool\n    default: false\n    doc: {en: A lower cap.}\n"
        '    set:\n      "true": {auction: {cap: 300}}\n',
    )
    assert {n: f.auction.cap for n, f in load_ruleset(house).forms.items()} == {
        2: None, 3: 360, 4: 360
    }
    chosen = load_ruleset(house, options={"low_cap": True})
    assert {n: f.auction.cap for n, f in chosen.forms.items()} == {2: 300, 3: 300, 4: 300}
