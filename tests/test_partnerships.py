"""Fixed partnerships (``players.<n>.partnerships: across``; issue 14, table layouts).

Four players, partners across the table (seats 0+2 against 1+3), one score per side
(mekedron/thousand ``players.partnership_mode: fixed_across_table``: the contract is checked
against the side's points, the side is credited once, the barrel and the target apply to
the side's total).  The house example is ``examples/house/partners-four.yaml``; its
scenarios (``examples/house/scenarios/partners-four.yaml``) play whole deals.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.engine.match import DealOutcome, MatchState, settle_deal
from tysiac_spec.engine.seating import sides, standing_for
from tysiac_spec.errors import RulesetError
from tysiac_spec.ruleset.model import Form
from tysiac_spec.simulate import simulate

HOUSE = str(Path(__file__).parent.parent / "examples" / "house" / "partners-four.yaml")

# deal P of the scenario file: 1 takes 36, 3 takes 69, 0 takes 15, 2 nothing
DEAL_P = {"card_points": {1: 36, 3: 69, 0: 15, 2: 0}, "tricks": {1: 2, 3: 3, 0: 1, 2: 0}}


def _form(**changes: Any) -> tuple[Form, MatchState]:
    rules = load_ruleset(HOUSE)
    form = rules.form(4)
    special = changes.pop("special", None)
    if special:
        barrel = dataclasses.replace(form.special.barrel, **special)
        form = dataclasses.replace(form, special=dataclasses.replace(form.special, barrel=barrel))
    if changes:
        form = dataclasses.replace(form, **changes)
    return form, MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)


def _settle(form: Form, state: MatchState, **outcome: Any) -> tuple[MatchState, list[tuple[str, Any]]]:
    outcome = {"declarer": 1, "bid": 100, "contract": 100, **DEAL_P, **outcome}
    new, events = settle_deal(form, state, DealOutcome(**outcome))
    return new, [(e.kind, e.player) for e in events]


def test_sides_are_the_seats_across_the_table() -> None:
    form, _ = _form()
    assert sides(form) == (0, 1, 0, 1)
    assert sides(load_ruleset(HOUSE).form(3)) is None
    assert sides(load_ruleset("ru-classic").form(4)) is None
    assert standing_for((0, 1, 0, 1), 3) == (0, 3, 0, 3)
    assert standing_for((0, 1, 0, 1), 0) == (0, 1, 0, 1)


def test_the_partners_points_make_the_contract_and_the_side_scores_once() -> None:
    form, start = _form()
    new, events = _settle(form, start)
    assert new.scores == (15, 100, 15, 100)
    assert events == [("contract.made", 1)]


def test_without_partnerships_the_same_deal_fails() -> None:
    # the same form with the field off: player 1's 36 alone fail 100, each plays for himself
    table = dataclasses.replace(load_ruleset(HOUSE).form(4).table, partnerships="none")
    form, start = _form(table=table)
    new, events = _settle(form, start)
    assert new.scores == (15, -100, 0, 70)
    assert ("contract.failed", 1) in events


def test_a_side_reaching_the_barrel_together_is_no_collision() -> None:
    # `collision: all_fall` throws off two or more players reaching the barrel in one deal;
    # partners are one player: the side 1+3 reaching 880 stays on
    form, start = _form(special={"collision": "all_fall"})
    start = start.with_values(form, scores=[0, 780, 0, 780])
    new, events = _settle(form, start)
    assert new.scores == (15, 880, 15, 880)
    assert [s.on for s in new.barrel] == [False, True, False, True]
    assert events == [("contract.made", 1), ("barrel.enter", 1)]
    # both sides reaching it in one deal is a collision of two: both fall
    start = start.with_values(form, scores=[870, 780, 870, 780])
    new, events = _settle(form, start)
    assert [s.on for s in new.barrel] == [False] * 4
    assert ("barrel.collision", 0) in events and ("barrel.collision", 1) in events
    assert new.scores[0] == new.scores[2] and new.scores[1] == new.scores[3]


def test_the_defending_side_crossing_the_target_wins_alone() -> None:
    # without the barrel and its floor, the defending side 0+2 at 990 takes 15 and crosses:
    # one side crossed, no tie between the two partners
    rules = load_ruleset(HOUSE)
    form = rules.form(4)
    form = dataclasses.replace(
        form,
        special=dataclasses.replace(form.special, barrel=dataclasses.replace(form.special.barrel, enabled=False)),
        match=dataclasses.replace(form.match, rules=()),
    )
    start = MatchState.new(form, options=rules.selected, deck_points=rules.deck.total_points)
    start = start.with_values(form, scores=[990, 0, 990, 0])
    new, events = _settle(form, start)
    assert new.scores == (1005, 100, 1005, 100)
    assert new.winner == 0
    assert events[-1] == ("match.won", 0)


def test_a_bolt_counts_for_the_side() -> None:
    # bolts count zero points (ru-classic): player 2 alone took nothing in deal P but his
    # side took 15, so no bolt; a side taking nothing gets one bolt, carried by both seats
    form, start = _form()
    new, _ = _settle(form, start)
    assert new.bolts == (0, 0, 0, 0)
    new, events = _settle(
        form, start, card_points={1: 80, 3: 40, 0: 0, 2: 0}, tricks={1: 4, 3: 2, 0: 0, 2: 0}
    )
    assert new.scores == (0, 100, 0, 100)
    assert new.bolts == (1, 0, 1, 0)
    assert events == [("contract.made", 1), ("bolt", 0)]


def test_partnerships_need_four_active_players(tmp_path: Path) -> None:
    doc = tmp_path / "bad.yaml"
    doc.write_text(
        "id: bad\nkind: house\nextends: ru-classic\nname: {en: bad}\n"
        "players:\n  3:\n    partnerships: across\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(doc))
    assert "table.partnerships" in str(err.value)
    assert "needs 4 players, all active" in str(err.value)


@pytest.mark.slow
def test_200_matches_of_the_house_example() -> None:
    data = simulate(HOUSE, players=4, games=200, seed=2024).as_dict()
    assert data["matches"] == data["finished"] == 200
    assert sum(data["wins"]) == 400  # a side's win counts for both partners
    assert data["wins"][0] == data["wins"][2] and data["wins"][1] == data["wins"][3]
    # partners carry one score: every match ends with partners level
    mean = data["mean_scores"]
    assert mean[0] == mean[2] and mean[1] == mean[3]


def test_the_scoresheet_scores_sides(tmp_path: Path) -> None:
    # `tysiac score` settles through the same match code: deal P typed in at a real table
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    answers = ["1", "100", "n", "", "15 36 0 69", ""]
    result = CliRunner().invoke(
        main,
        ["score", HOUSE, "-p", "4", "--sheet", str(tmp_path / "sheet.json")],
        input="\n".join(answers) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "P1: contract 100 made" in result.output
    assert "totals: P0 15  P1 100  P2 15  P3 100" in result.output


def test_a_match_state_splitting_partners_is_refused() -> None:
    from tysiac_spec.errors import MatchError

    form, start = _form()
    with pytest.raises(MatchError, match=r"`scores`: partners share one value .* player 1 has 880 and player 3 870"):
        start.with_values(form, scores=[0, 880, 0, 870])
    with pytest.raises(MatchError, match="`barrel`: partners share one value"):
        start.with_values(form, scores=[0, 880, 0, 880], barrel=[False, True, False, False])
    assert start.with_values(form, scores=[5, 880, 5, 880], barrel=[False, 1, False, 1]).scores == (5, 880, 5, 880)


UA_FOUR = (
    "id: ua-four\nkind: house\nextends: ua-standard\nname: {en: 'Ukrainian, two against two'}\n"
    "players:\n  4:\n    active: 4\n    hand_size: 6\n    talons: []\n    partnerships: across\n"
    "    talon:\n      exchange: none\n"
)


def test_the_cut_penalty_is_paid_by_the_side(tmp_path: Path) -> None:
    # ua-standard: the third bad cut in a row costs the cutter 120 (deal.cut.payer: cutter);
    # with partnerships his side pays: both partners' scores stay equal (the fresh-user trial
    # stopped here with `match.state`: player 0 has 660 and player 2 540)
    from tysiac_spec.engine import Game

    doc = tmp_path / "ua-four.yaml"
    doc.write_text(UA_FOUR, encoding="utf-8")
    game = Game(load_ruleset(str(doc)), players=4, seed=101)
    cuts = [(e.kind, e.player, e.value) for e in game.events if e.kind.startswith("cut")]
    assert cuts == [("cut.bad", 2, None)] * 3 + [("cut.penalty", 2, -120)]
    assert game.scores == [-120, 0, -120, 0]


def test_charge_seat_charges_the_whole_side() -> None:
    from tysiac_spec.engine.match import charge_seat
    from tysiac_spec.engine.seating import side_of

    form, start = _form()
    assert side_of(form, 3) == (1, 3)
    assert side_of(load_ruleset("ru-classic").form(4), 3) == (3,)
    assert charge_seat(form, start, 3, 120).scores == (0, -120, 0, -120)
    assert charge_seat(form, start, 0, -50).scores == (50, 0, 50, 0)
    alone = load_ruleset("ru-classic").form(4)
    solo = MatchState.new(alone, options={}, deck_points=120)
    assert charge_seat(alone, solo, 3, 120).scores == (0, 0, 0, -120)


def test_a_side_wins_the_match() -> None:
    from tysiac_spec.engine.match import winners
    from tysiac_spec.engine.seating import seats_text

    form, start = _form()
    start = start.with_values(form, scores=[0, 990, 0, 990])
    new, events = settle_deal(form, start, DealOutcome(declarer=1, bid=100, contract=100, **DEAL_P))
    assert new.winner == 1
    assert winners(form, new) == (1, 3)
    assert [e.text for e in events if e.kind == "match.won"] == ["players 1 and 3 win with 1090"]
    assert winners(form, start) == ()
    assert seats_text((1, 3)) == "P1 and P3"
    assert seats_text((0, 1, 2)) == "P0, P1 and P2"
    assert seats_text((2,)) == "P2"


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_simulate_credits_a_win_to_both_partners() -> None:
    data = simulate(HOUSE, players=4, games=4, seed=1).as_dict()
    assert data["wins"] == [3, 1, 3, 1]
    assert data["mean_scores"][0] == data["mean_scores"][2]


def test_the_transcript_names_the_winning_side() -> None:
    from tysiac_spec.engine import Game
    from tysiac_spec.simulate import make_bots
    from tysiac_spec.transcript import transcript

    rules = load_ruleset(HOUSE)
    game = Game(rules, players=4, seed=1)
    seats = make_bots("heuristic", rules, 4, 1)
    while not game.is_over:
        game.apply(seats[game.current_player].choose(game.view(game.current_player), game.legal_actions()))
    assert game.winners == (1, 3)
    text = transcript(game)
    assert f"Match over: P1 and P3 win with {game.scores[1]} points" in text


def test_play_marks_the_partner_in_the_scores_line(tmp_path: Path) -> None:
    # t8: at four across the table showed four scores without saying who plays with whom
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    example = Path(__file__).resolve().parents[1] / "examples" / "house" / "partners-four.yaml"
    result = CliRunner().invoke(
        main, ["play", str(example), "--players", "4", "--seat", "1", "--seed", "3",
               "--save", str(tmp_path / "g.json")], input="quit\n",
    )
    assert result.exit_code == 0
    assert "scores: P0 0  P1 (you) 0  P2 0  P3 (partner) 0" in result.output.splitlines()
