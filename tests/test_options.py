"""Options: declared in the ruleset, chosen per game, checked, applied as patches."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysiac_spec import OptionError, load_ruleset

TABLE = Path(__file__).parent / "data" / "table.yaml"


def test_defaults_are_selected() -> None:
    rules = load_ruleset(TABLE)
    assert dict(rules.selected) == {
        "five_rounds": "down", "barrel": True, "rospis_limit": 3, "jumps": "any",
    }
    assert rules.form(3).special.barrel.enabled is True
    assert rules.form(3).auction.raise_by == "any"


def test_a_bool_option_patches_the_ruleset() -> None:
    rules = load_ruleset(TABLE, options={"barrel": "false"})
    assert rules.selected["barrel"] is False
    assert rules.form(3).special.barrel.enabled is False
    assert rules.form(2).special.barrel.enabled is False


def test_a_choice_option_patches_the_ruleset() -> None:
    rules = load_ruleset(TABLE, options={"jumps": "exactly_step"})
    assert rules.form(3).auction.raise_by == "exactly_step"


def test_int_option_from_text() -> None:
    assert load_ruleset(TABLE, options={"rospis_limit": "5"}).selected["rospis_limit"] == 5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"five_round": "up"}, "ruleset `test-table` has no option `five_round`; its options: barrel, five_rounds, jumps, rospis_limit"),
        ({"five_rounds": "sideways"}, 'option `five_rounds` of `test-table` cannot be "sideways"; valid: down, up'),
        ({"barrel": "maybe"}, 'option `barrel` of `test-table` cannot be "maybe"; valid: true, false'),
        ({"rospis_limit": "11"}, 'option `rospis_limit` of `test-table` cannot be "11"; valid: an integer from 0 to 10'),
        ({"rospis_limit": "three"}, 'option `rospis_limit` of `test-table` cannot be "three"; valid: an integer from 0 to 10'),
    ],
)
def test_bad_options_list_the_valid_ones(options: dict[str, str], message: str) -> None:
    with pytest.raises(OptionError) as info:
        load_ruleset(TABLE, options=options)
    assert info.value.diagnostic.message == message


def test_unknown_option_suggests_the_closest() -> None:
    with pytest.raises(OptionError) as info:
        load_ruleset(TABLE, options={"five_round": "up"})
    assert info.value.diagnostic.hint == "did you mean `five_rounds`?"


def test_player_form_overrides_and_provenance() -> None:
    rules = load_ruleset(TABLE)
    assert rules.player_counts == (2, 3)
    assert rules.form(3).auction.cap == 300
    assert rules.form(2).auction.cap == 360  # players.2 overrides the common section
    assert rules.form(2).talon.take == "choose_one"
    assert rules.form(3).talon.take == "all"
    prov = rules.provenance[("auction", "cap")]
    assert prov.source == ("T1",) and prov.status == "assumed" and prov.reason == "fixture"


def test_unknown_player_count_lists_the_defined_ones() -> None:
    with pytest.raises(OptionError, match="ruleset `test-table` has no 4-player form; it defines 2, 3"):
        load_ruleset(TABLE).form(4)


def test_formulas_keep_their_position() -> None:
    rules = load_ruleset(TABLE)
    f = rules.form(3).auction.max_bid
    assert f is not None
    assert (f.text, f.context, f.line, f.column) == ("120 + marriages(hand)", "auction.max_bid", 17, 12)
    assert f.file == str(TABLE)


def test_sources_accumulate_along_extends() -> None:
    rules = load_ruleset(TABLE)
    assert [s.id for s in rules.sources] == ["S000", "S002", "S003", "PAG", "T1"]


def test_the_resolved_ruleset_is_immutable() -> None:
    rules = load_ruleset(TABLE)
    with pytest.raises(AttributeError):
        rules.id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.form(3).marriages.values["hearts"] = 1  # type: ignore[index]


def test_quoted_formula_position_is_its_first_character() -> None:
    f = load_ruleset(TABLE).form(3).scoring.declarer
    # line 21 reads `  declarer: "if made then contract else -contract"`: the text starts after the quote
    assert (f.line, f.column) == (21, 14)


def test_option_patch_with_null_replaces_an_inherited_formula() -> None:
    """pl-standard's `bid_limit: false` sets the 120 + marriages limit to none (S000: the limit
    is an agreement); the null is kept through `extends` and the option's patch."""
    from tysiac_spec import load_ruleset

    assert load_ruleset("pl-standard").form(3).auction.max_bid is not None
    assert load_ruleset("pl-standard", options={"bid_limit": False}).form(3).auction.max_bid is None
    assert load_ruleset("house-five-up", options={"bid_limit": False}).form(3).auction.max_bid is None



_OPTION_VALUES = """id: option-values
extends: core
kind: variant
name: {en: Option values}
sources:
  - {id: T1, title: Test source, language: en}
players:
  3:
    hand_size: 7
    talons: [3]
options:
  beat:
    type: bool
    default: true
    set:
      "false": {play: {must_beat: BEAT}}
  bonus:
    type: choice
    choices: [none, some]
    default: none
    set:
      some: {scoring: {declarer: "contract + BONUS"}}
scoring:
  made: "points >= contract"
  declarer: "if made then contract else -contract"
  defender: "round_to(points, 10)"
"""


@pytest.mark.parametrize(("beat", "bonus", "name", "value", "code"), [
    ("alwyas", "10", "beat", False, "schema.enum"),
    ("trick_winner", "bonus(points)", "bonus", "some", "dsl.unknown-function"),
])
def test_every_option_value_is_checked_as_load_ruleset_checks_it(
    tmp_path: Path, beat: str, bonus: str, name: str, value: object, code: str
) -> None:
    from tysiac_spec import RulesetError
    from tysiac_spec.ruleset import check_every_option

    path = tmp_path / "option-values.yaml"
    path.write_text(_OPTION_VALUES.replace("BEAT", beat).replace("BONUS", bonus), encoding="utf-8")
    rules = load_ruleset(path)  # the defaults are valid
    with pytest.raises(RulesetError) as checked:
        check_every_option(rules)
    with pytest.raises(RulesetError) as loaded:
        load_ruleset(path, options={name: value})
    assert checked.value.diagnostics == loaded.value.diagnostics
    assert [d.code for d in checked.value.diagnostics] == [code]


# ------------------------------------------------------------------ options in the ruleset layer


def test_a_ruleset_from_text_takes_options() -> None:
    text = TABLE.read_text(encoding="utf-8")
    rules = load_ruleset("served-table.yaml", text=text)
    assert rules.selected["barrel"] is True
    off = rules.with_options({"barrel": "false"})
    assert off.selected["barrel"] is False and off.selected["five_rounds"] == "down"
    assert off.form(3).special.barrel.enabled is False
    assert rules.form(3).special.barrel.enabled is True  # (the ruleset itself unchanged)
    assert off.document == load_ruleset(TABLE, options={"barrel": False}).document  # as a file so
    assert off.content_hash == rules.content_hash
    assert rules.with_options({"barrel": False}) is off  # the same options: the same object
    assert rules.with_options({}) is rules
    with pytest.raises(OptionError, match="ruleset `test-table` has no option `barell`; its options: barrel, "):
        rules.with_options({"barell": False})


def test_options_chosen_add_up() -> None:
    rules = load_ruleset(TABLE, options={"jumps": "exactly_step"})
    both = rules.with_options({"barrel": False})
    assert dict(both.selected) == {"five_rounds": "down", "barrel": False, "rospis_limit": 3,
                                   "jumps": "exactly_step"}
    assert both is load_ruleset(TABLE, options={"jumps": "exactly_step"}).with_options({"barrel": False})


def test_a_game_takes_options_for_a_ruleset_from_text() -> None:
    from tysiac_spec import Game

    rules = load_ruleset("served-table.yaml", text=TABLE.read_text(encoding="utf-8"))
    game = Game(rules, players=3, seed=4, options={"barrel": False})
    assert game.ruleset.selected["barrel"] is False
    assert game.form.special.barrel.enabled is False
    assert game.record.options["barrel"] is False
    again = Game(rules, players=3, seed=5, options={"barrel": False})
    assert again.compiled is game.compiled  # (one ruleset object: its compiled forms shared)


def test_options_read_no_file(tmp_path: Path) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TABLE.read_text(encoding="utf-8"), encoding="utf-8")
    rules = load_ruleset(path)
    path.unlink()  # (the old Game(options=) loaded the file again)
    assert rules.with_options({"rospis_limit": 5}).selected["rospis_limit"] == 5


def test_a_copied_ruleset_takes_options_by_reference() -> None:
    import copy
    import dataclasses

    rules = load_ruleset(TABLE)
    for again in (copy.copy(rules), dataclasses.replace(rules)):
        assert getattr(again, "_rechoose", None) is None  # (not a field: not copied)
        assert again.with_options({"barrel": False}).form(3).special.barrel.enabled is False
