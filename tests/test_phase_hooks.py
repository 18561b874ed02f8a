"""Phase hooks and visibility (issue 14, group 3): when the talon is turned face up
(``talon.shown_from``), as each player's view shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine.actions import parse_action
from tysiac_spec.engine.game import Game
from tysiac_spec.errors import IllegalActionError
from tysiac_spec.scenarios import load_scenarios, run_scenario, scenario_file_for

HOUSE = Path(__file__).parent.parent / "examples" / "house"
HANDS = {1: "AH KH AD KD QD 9C QC", 2: "TH QH 9H TD JD AC AS", 0: "JH TC KC JC TS JS 9S"}
TALON = ["KS QS 9D"]


def _game(ruleset: str | Path) -> Game:
    game = Game(load_ruleset(str(ruleset)), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    return game


def _do(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text, game.ruleset.deck))


def _seen(game: Game) -> dict[int, str]:
    return {p: " ".join(str(c) for c in game.view(p).talon) or "-" for p in range(3)}


def _house(tmp_path: Path, shown_from: str) -> Path:
    path = tmp_path / "shown.yaml"
    path.write_text(
        "id: house-shown\nkind: house\nname: {en: shown}\nextends: pl-standard\n"
        f"talon:\n  shown_from: {{value: {shown_from}, reason: test}}\n",
        encoding="utf-8",
    )
    return path


def test_default_talon_hidden_until_taken_and_unopposed_stays_hidden() -> None:
    game = _game("pl-standard")
    assert game.form.talon.shown_from == "taking"
    assert _seen(game) == {0: "-", 1: "-", 2: "-"}
    _do(game, "bid 100", "pass", "pass")
    # pl-standard (S000): a musik taken unopposed is seen by its declarer only
    assert game.phase == "exchange"
    assert _seen(game) == {0: "-", 1: "KS QS 9D", 2: "-"}


def test_public_talon_seen_from_the_deal_and_after_taking() -> None:
    game = _game(HOUSE / "talon-face-up.yaml")
    assert _seen(game) == {0: "KS QS 9D", 1: "KS QS 9D", 2: "KS QS 9D"}
    _do(game, "bid 100", "pass", "pass")
    assert _seen(game) == {0: "KS QS 9D", 1: "KS QS 9D", 2: "KS QS 9D"}
    _do(game, "give 9C to 2", "give QC to 0")
    # after the exchange the declarer's talon stays public; the gifts are not
    assert _seen(game)[0] == "KS QS 9D"
    assert [str(c) for _, c in game.view(0).given] == ["QC"]


def test_second_round_turns_the_talon_up_when_the_auction_comes_back(tmp_path: Path) -> None:
    game = _game(_house(tmp_path, "second_round"))
    _do(game, "bid 100", "bid 110")
    assert _seen(game) == {0: "-", 1: "-", 2: "-"}  # first round: 1 and 2 have spoken, 0 not yet
    _do(game, "pass")  # back to player 1, who has already bid: the second round
    assert game.current_player == 1
    assert _seen(game) == {0: "KS QS 9D", 1: "KS QS 9D", 2: "KS QS 9D"}
    _do(game, "pass")
    assert game.deal.declarer == 2 and _seen(game)[0] == "KS QS 9D"


def test_second_round_never_reached_leaves_the_talon_to_the_taking_rules(tmp_path: Path) -> None:
    game = _game(_house(tmp_path, "second_round"))
    _do(game, "bid 100", "pass", "pass")
    assert _seen(game) == {0: "-", 1: "KS QS 9D", 2: "-"}


def test_house_example_scenario_passes() -> None:
    path = scenario_file_for(HOUSE / "talon-face-up.yaml")
    assert path is not None
    loaded = load_scenarios(path, ruleset=load_ruleset(str(HOUSE / "talon-face-up.yaml")))
    results = [run_scenario(s, loaded.ruleset) for s in loaded.scenarios]
    assert [r.status for r in results] == ["passed"]


@pytest.mark.parametrize("value", ["taking", "second_round", "deal"])
def test_shown_from_values_validate(tmp_path: Path, value: str) -> None:
    assert load_ruleset(str(_house(tmp_path, value))).forms[3].talon.shown_from == value


# --------------------------------------------------------------------------- marriage timing

MARRIAGE_HANDS = {1: "AH KH AD KD QD 9C QS", 2: "TH QH 9H TD JD AC AS", 0: "9D KC QC JC TS JS 9S"}
MARRIAGE_TALON = ["JH TC KS"]


def _marriage_game(path: Path) -> Game:
    game = Game(load_ruleset(str(path)), players=3, seed=0)
    game.start_deal(hands=MARRIAGE_HANDS, talons=MARRIAGE_TALON, dealer=0)
    _do(game, "bid 100", "pass", "pass", "give 9C to 2", "give JH to 0", "contract 100")
    return game


def _marriage_house(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "timing.yaml"
    path.write_text(
        "id: house-timing\nkind: house\nname: {en: timing}\nextends: pl-standard\n" + body,
        encoding="utf-8",
    )
    return path


def _legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def test_from_trick_bars_the_first_trick_for_everyone() -> None:
    game = _marriage_game(HOUSE / "marriage-not-first-trick.yaml")
    assert game.form.marriages.from_trick == 2
    assert _legal(game) == ["play AH", "play KH", "play AD", "play KD", "play QD", "play TC", "play KS", "play QS"]
    with pytest.raises(IllegalActionError, match="KD cannot declare a marriage before trick 2"):
        game.apply(parse_action("play KD marriage", game.ruleset.deck))
    _do(game, "play AD", "play JD", "play 9D")
    assert "play KD marriage" in _legal(game) and "play QS marriage" in _legal(game)
    _do(game, "play KD marriage")
    assert game.deal.trump == "diamonds" and game.deal.marriages == {1: 80}


def test_min_cards_bars_declaring_with_a_short_hand(tmp_path: Path) -> None:
    game = _marriage_game(_marriage_house(tmp_path, "marriages:\n  min_cards: {value: 7, reason: test}\n"))
    assert len(game.deal.hands[1]) == 8 and "play KD marriage" in _legal(game)
    _do(game, "play AD", "play JD", "play 9D")  # 7 cards left: still allowed
    assert "play KD marriage" in _legal(game)
    _do(game, "play AH", "play 9H", "play JH")  # 6 cards left
    assert game.current_player == 1 and len(game.deal.hands[1]) == 6
    assert [a for a in _legal(game) if "marriage" in a] == []
    with pytest.raises(IllegalActionError, match="KD cannot declare a marriage with fewer than 7 cards in hand"):
        game.apply(parse_action("play KD marriage", game.ruleset.deck))


def test_claim_credits_only_the_marriages_the_timing_allows(tmp_path: Path) -> None:
    from tysiac_spec.engine import play as play_mod

    def credited(body: str) -> list[str]:
        game = Game(load_ruleset(str(_marriage_house(tmp_path, body))), players=3, seed=0)
        deck, deal = game.ruleset.deck, game.deal
        deal.phase, deal.declarer, deal.trump, deal.trick_number, deal.current = "play", 0, None, 0, 0
        deal.hands = {
            0: list(deck.parse_many("KH QH KD QD AH TH 9C 9S")),
            1: list(deck.parse_many("AC TC KC QC JC AS")),
            2: list(deck.parse_many("TS KS QS JS")),
        }
        return play_mod.claim_marriages(game.form, deal)

    # no opponent holds hearts or diamonds: both marriages are safe to declare
    tests = {
        "": ["hearts", "diamonds"],
        # from trick 5: four leads before, made with the four other cards
        "marriages:\n  from_trick: {value: 5, reason: t}\n": ["hearts", "diamonds"],
        # from trick 6: a fifth lead before needs a marriage card: diamonds (the smaller) is given up
        "marriages:\n  from_trick: {value: 6, reason: t}\n": ["hearts"],
        "marriages:\n  from_trick: {value: 8, reason: t}\n": [],
        # at least 7 cards: the first two leads; at least 8: the first lead only; 9: none
        "marriages:\n  min_cards: {value: 7, reason: t}\n": ["hearts", "diamonds"],
        "marriages:\n  min_cards: {value: 8, reason: t}\n": ["hearts"],
        "marriages:\n  min_cards: {value: 9, reason: t}\n": [],
    }
    for body, expected in tests.items():
        assert credited(body) == expected, body


# --------------------------------------------------------------------------- marriage values


def test_first_marriage_double_scores_the_house_scenario() -> None:
    path = HOUSE / "first-marriage-double.yaml"
    loaded = load_scenarios(HOUSE / "scenarios" / "first-marriage-double.yaml", ruleset=load_ruleset(str(path)))
    assert [run_scenario(s, loaded.ruleset).status for s in loaded.scenarios] == ["passed"]


def test_marriage_value_formula_reads_role_order_and_trump(tmp_path: Path) -> None:
    from tysiac_spec.engine import play as play_mod

    formula = "(if declarer then 0 else 1000) + (if sets_trump then 100 else 0) + number * 10 + value"
    game = _marriage_game(
        _marriage_house(
            tmp_path,
            f'marriages:\n  trump_change: {{value: first_only, reason: t}}\n  value: {{value: "{formula}", reason: t}}\n',
        )
    )
    m, deal = game.form.marriages, game.deal
    assert deal.declarer == 1
    # the declarer's first marriage sets trump: 0 + 100 + 0 + 80
    assert play_mod.marriage_points(m, deal, 1, "diamonds") == 180
    _do(game, "play KD marriage")
    assert deal.marriages == {1: 180} and deal.trump == "diamonds"
    # a defender's second marriage, trump already set (first_only): 1000 + 0 + 10 + 100
    assert play_mod.marriage_points(m, deal, 2, "hearts") == 1110


def test_scoresheet_accepts_formula_marriage_points() -> None:
    from tysiac_spec.engine.outcome import iter_marriage_errors

    plain = load_ruleset("pl-standard").forms[3]
    double = load_ruleset(str(HOUSE / "first-marriage-double.yaml")).forms[3]
    assert [str(p.diagnostic.message) for p in iter_marriage_errors(plain, marriages={1: 170}, active=[0, 1, 2])] == [
        "marriage points of player 1 must be a sum of marriages: "
        "0, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 280 (got 170)"
    ]
    assert list(iter_marriage_errors(double, marriages={1: 170}, active=[0, 1, 2])) == []


# --------------------------------------------------------------------------- forfeit before the talon


def test_bomb_before_talon_house_scenarios_pass() -> None:
    path = HOUSE / "bomb-before-talon.yaml"
    loaded = load_scenarios(HOUSE / "scenarios" / "bomb-before-talon.yaml", ruleset=load_ruleset(str(path)))
    assert [run_scenario(s, loaded.ruleset).status for s in loaded.scenarios] == ["passed", "passed"]


def test_bomb_before_talon_only_for_the_stuck_player() -> None:
    game = Game(load_ruleset(str(HOUSE / "bomb-before-talon.yaml")), players=3, seed=0)
    game.start_deal(hands=MARRIAGE_HANDS, talons=MARRIAGE_TALON, dealer=0)
    assert game.form.contract.forfeit.when == "before_talon"
    _do(game, "bid 110", "pass", "pass")  # player 2 outbids the compulsory 100: no bomb, no choice
    assert game.phase == "exchange" and game.deal.declarer == 2
    assert "forfeit" not in _legal(game)


def test_until_contract_forfeit_is_still_offered_after_the_talon() -> None:
    game = Game(load_ruleset("cz-standard"), players=3, seed=0)
    game.start_deal(hands=MARRIAGE_HANDS, talons=MARRIAGE_TALON, dealer=0)
    _do(game, "pass", "pass")
    assert game.phase == "exchange" and "forfeit" in _legal(game)
