"""Position notation (issue 29, item 7): a position in the middle of a deal on one line, like
FEN; ``Position.parse`` and ``str`` in a pair, ``Game.from_position`` and ``game.position()``
with the same future, clear errors with the column, and ``tysiac position``."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.engine.actions import PlayCard
from tysiac_spec.engine.game import Game
from tysiac_spec.engine.position import Position
from tysiac_spec.engine.record import Record
from tysiac_spec.engine.replay import replay
from tysiac_spec.errors import NotationError, RecordError
from tysiac_spec.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]

FORMS = [  # (ruleset, players): a 3-player, a 4-player (a sitter), a 2-player form, a stock
    ("pl-standard", 3),
    ("ru-classic", 4),
    ("pl-standard", 2),
    (str(ROOT / "examples" / "house" / "two-stock.yaml"), 2),
]


@cache
def _rules(name: str) -> Ruleset:
    return load_ruleset(name)


# pl-standard, 3 players: player 1 declared 110 and led AH; player 2 holds one heart.
PLAY = ("0:9S TS JS QS KS AS AC 9C / TH JH QH KH 9D TD JD / QD KD AD TC JC QC KC 9H | ; play 2 ; "
        "scores 0 0 0 ; bid 110 1 ; passed 0 2 ; declarer 1 ; contract 110 ; trick 1:AH")


def _played(name: str, players: int, seed: int, steps: int) -> Game:
    """A game of ``name`` after ``steps`` random actions (fewer when the match ends)."""
    game = Game(_rules(name), players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def _check_round_trip(name: str, players: int, seed: int, steps: int, choices: random.Random) -> None:
    """The position of a game after ``steps`` random actions prints and parses back to itself,
    and a game started from it goes on as the game does for the same choices, to the deal's
    scores."""
    rules = _rules(name)
    game = _played(name, players, seed, steps)
    position = game.position()
    text = str(position)
    assert "\n" not in text
    assert Position.parse(text, rules, players) == position
    assert eval(repr(position), {"Position": Position, "rules": rules}) == position
    started = Game.from_position(rules, text, seed=seed)
    assert started.position() == position
    assert str(started.position()) == text
    # the rest of the deal, for the same choices: the same legal actions, then the same scores
    deals, deal = len(game.deal_scores), game.deal
    # (to the end of this deal: a deal dealt again draws from the seed, not from the
    # original game's generator, which a position does not carry)
    while len(game.deal_scores) == deals and not game.is_over and game.deal is deal:
        legal = game.legal_actions()
        assert started.legal_actions() == legal
        assert started.current_player == game.current_player
        action = choices.choice(legal)
        game.apply(action)
        started.apply(action)
    if len(game.deal_scores) > deals:
        assert started.deal_scores == [game.deal_scores[-1]]
    assert started.scores == game.scores


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f"{Path(f[0]).stem}-{f[1]}p")
def test_positions_of_played_games_round_trip(form: tuple[str, int]) -> None:
    for seed, steps in [(1, 0), (2, 5), (3, 17), (4, 30), (5, 45)]:
        _check_round_trip(*form, seed, steps, random.Random(seed))


@pytest.mark.slow
@settings(max_examples=200)
@given(form=st.sampled_from(FORMS), seed=st.integers(0, 10**6), steps=st.integers(0, 120),
       choices=st.randoms(use_true_random=False))
def test_a_position_round_trips_and_goes_on_as_the_game(
    form: tuple[str, int], seed: int, steps: int, choices: random.Random
) -> None:
    _check_round_trip(*form, seed, steps, choices)


HOUSE = ["contra", "rebuy", "misere", "slam", "partners-four", "blind-dark", "all-pass-play"]


@pytest.mark.slow
@pytest.mark.parametrize("name", [
    *(str(p) for p in sorted((ROOT / "rulesets").glob("*.yaml")) if p.stem != "core"),
    *(str(ROOT / "examples" / "house" / f"{h}.yaml") for h in HOUSE)], ids=lambda n: Path(n).stem)
def test_positions_round_trip_on_every_shipped_form(name: str) -> None:
    for players in _rules(name).player_counts:
        for seed in range(6):
            _check_round_trip(name, players, seed, random.Random(seed).randrange(150), random.Random(seed))


def test_a_written_position_gives_its_legal_cards() -> None:
    rules = _rules("pl-standard")
    game = Game.from_position(rules, PLAY)
    assert game.phase == "play"
    assert game.current_player == 2
    assert game.legal_actions() == [PlayCard(rules.deck.parse("9H"))]  # must follow hearts
    game.apply(game.legal_actions()[0])
    assert game.current_player == 0  # player 0 has no heart: any card
    assert sorted(str(a.card) for a in game.legal_actions() if isinstance(a, PlayCard)) == sorted(
        "9S TS JS QS KS AS AC 9C".split())
    assert str(game.position()).endswith("; play 0 ; scores 0 0 0 ; bid 110 1 ; passed 0 2 ; "
                                         "declarer 1 ; contract 110 ; trick 1:AH 2:9H")


def test_the_transcript_of_a_game_from_a_position_shows_the_cards_already_played() -> None:
    from tysiac_spec.transcript import transcript

    rules = _rules("pl-standard")
    game = Game.from_position(rules, PLAY)
    for card in ("9H", "9C"):  # player 2 follows hearts, player 0 throws a club
        game.apply(PlayCard(rules.deck.parse(card)))
    text = transcript(game)
    assert f"From the position: {PLAY}" in text
    assert "  trick 1: P1 AH, P2 9H, P0 9C → P1" in text.splitlines()


def test_trump_and_marriages_of_a_written_position() -> None:
    rules = _rules("pl-standard")
    # hearts are trump (player 1's marriage); player 1 led AS and player 2, void in spades, must trump
    text = ("0:9S TS JS QS KS AC 9C / TH JH QH KH 9D TD / QD KD AD TC JC QC 9H | ; play 2 ; "
            "scores 0 0 0 ; bid 110 1 ; declarer 1 ; contract 110 ; trump H ; trick 1:AS ; "
            "won - / AH JD KC / - ; tricks 0 1 0 ; marriages 1:H")
    position = Position.parse(text, rules)
    assert position.trump == "hearts"
    assert position.marriages == ((1, "hearts"),)
    assert str(position) == text.replace("trump H", "trump hearts").replace("1:H", "1:hearts")
    game = Game.from_position(rules, position)
    assert game.legal_actions() == [PlayCard(rules.deck.parse("9H"))]
    assert game.deal.marriages == {1: 100}  # from marriages.values
    assert game.deal.trick_number == 1  # from the tricks taken


@pytest.mark.parametrize(("change", "column", "message"), [
    (("AC 9C", "9H 9C"), 73, "9H is written twice: in player 0's hand and in player 2's hand"),
    (("trick 1:AH", "trick 1:9C"), 165, "9C is written twice: in player 0's hand and in the trick"),
    ((" AC 9C", " 9C"), 74, "the position holds 23 cards; a deal holds 24; not written: AC"),
    (("0:9S", "0:9S / 9S"), 1,
     "the position gives 4 hand(s) for a 3-player game (one per seat, `-` for an empty hand)"),
    (("trick 1:AH", "trick 1:AH 2:9H 0:9C 1:9D"), 157,
     "the trick holds 4 cards, more than the 3 players in a deal"),
    (("trick 1:AH", "trick 1:AH 1:9H"), 157, "a player plays twice to the trick"),
    (("play 2", "plya 2"), 80, "unknown phase `plya`; the phases are: redeal, dark, auction, rebuy, "
     "contra, talon, exchange, contract, marriages, play, over, trump"),
    (("play 2", "play 5"), 85, "the player to move must be a seat 0 to 2 (got 5)"),
    (("scores 0 0 0", "scores 0 0"), 96, "`scores` gives 2 score(s) for 3 players"),
    (("trick 1:AH", "trick 1AH"), 163, "`trick` lists `PLAYER:CARD` (got `1AH`)"),
    (("; declarer", "; bid 1 1 ; declarer"), 129, "the section `bid` is out of place or repeated; "
     "the order is: scores, bid, passed, declarer, contract, trump, trick, won, tricks, marriages, more"),
    (("; trick", "; score 1 ; trick"), 157, "unknown section `score`; the sections are: scores, bid, "
     "passed, declarer, contract, trump, trick, won, tricks, marriages, more"),
])
def test_a_text_that_is_no_position_is_refused_at_its_column(
    change: tuple[str, str], column: int, message: str
) -> None:
    bad = PLAY.replace(*change)
    assert bad != PLAY
    with pytest.raises(NotationError) as info:
        Position.parse(bad, _rules("pl-standard"), 3)
    d = info.value.diagnostic
    assert (d.code, d.column, d.message) == ("notation.position", column, message)


def test_an_unknown_card_is_named_at_its_column() -> None:
    with pytest.raises(NotationError) as info:
        Position.parse(PLAY.replace("AC", "XC"), _rules("pl-standard"))
    d = info.value.diagnostic
    assert (d.code, d.column) == ("notation.card", 21)
    assert d.message.startswith("`XC` is not a card")


@pytest.mark.parametrize(("more", "message"), [
    ("more foo=1", "`more`: unknown part of the state `foo`"),
    ("more mode=dark", "`more`: the value of `mode` is not JSON (Expecting value)"),
    ("more multiplier=1 multiplier=2", "`more`: `multiplier` is given twice"),
])
def test_bad_more_values_are_refused(more: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        Position.parse(f"{PLAY} ; {more}", _rules("pl-standard"))
    assert info.value.diagnostic.message == message


def test_a_more_value_of_the_wrong_kind_is_refused_when_the_game_starts() -> None:
    with pytest.raises(NotationError) as info:
        Game.from_position(_rules("pl-standard"), PLAY + ' ; more multiplier="2"')
    assert info.value.diagnostic.message == '`multiplier` must be an integer (got "2")'


def test_more_sets_the_rest_of_the_state() -> None:
    game = Game.from_position(_rules("pl-standard"), PLAY + ' ; more mode="dark" multiplier=2 match.deals=4')
    assert (game.deal.mode, game.deal.multiplier, game.match.deals) == ("dark", 2, 4)
    assert str(game.position()).endswith('; more mode="dark" multiplier=2 match.deals=4')


def test_the_position_command_lists_the_legal_actions_and_applies_some() -> None:
    result = CliRunner().invoke(main, ["position", "pl-standard", PLAY, "--apply", "play 9H"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("; play 0 ; scores 0 0 0 ; bid 110 1 ; passed 0 2 ; declarer 1 ; "
                             "contract 110 ; trick 1:AH 2:9H")
    assert lines[1:] == ["play, player 0 to move",
                         "legal: play AC, play 9C, play AS, play TS, play KS, play QS, play JS, play 9S"]


def test_the_position_command_shows_an_error_under_a_caret() -> None:
    result = CliRunner().invoke(main, ["position", "pl-standard", PLAY.replace("AC", "XC")])
    assert result.exit_code == 1
    assert result.stderr.startswith("POSITION:1:21: error[notation.card]: `XC` is not a card")
    assert "\n" + " " * 22 + "^" in result.stderr
    illegal = CliRunner().invoke(main, ["position", "pl-standard", PLAY, "--apply", "play QD"])
    assert illegal.exit_code == 1
    assert illegal.stderr.startswith("--apply: error[action.illegal]: `play QD` is not legal for "
                                     "player 2 in the play phase: must follow hearts")


def _cli(*args: str, text: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=text)
    return result.exit_code, result.stdout, result.stderr


def test_a_game_from_a_position_keeps_it_in_its_record_and_replays(tmp_path: Path) -> None:
    rules = _rules("pl-standard")
    game = Game.from_position(rules, PLAY, seed=5)
    game.apply(game.legal_actions()[0])  # play 9H
    record = game.record
    assert record.position == PLAY and record.actions == ("play 9H",)
    path = tmp_path / "g.json"
    path.write_text(record.to_json(), encoding="utf-8")
    read = Record.read(path)
    assert read.position == PLAY
    again = replay(read)
    assert again.position() == game.position() and again.start_position == game.start_position
    broken = Record.from_json(record.to_json().replace("play 2 ;", "play 7 ;"))
    with pytest.raises(RecordError) as info:
        replay(broken)
    assert info.value.diagnostic.message == ("`position` is not a position of the ruleset: the player "
                                             "to move must be a seat 0 to 2 (got 7) (column 85)")


def test_play_starts_from_a_position_and_resumes_there(tmp_path: Path) -> None:
    save = str(tmp_path / "p.json")
    code, out, _ = _cli("play", "pl-standard", "--seed", "3", "--seat", "2", "--save", save,
                        "--position", PLAY, text="1\nquit\n")
    assert code == 0, out
    assert "legal cards: 9H" in out and "trick: P1 AH" in out
    record = Record.read(save)
    assert record.position == PLAY and record.actions[0] == "play 9H"
    code, out, _ = _cli("play", "--resume", save, text="quit\n")
    assert code == 0, out
    assert f"resuming {save}: {len(record.actions)} actions; you are P2" in out
    assert Record.read(save) == record  # quit at once: nothing added
    code, _, err = _cli("play", "pl-standard", "--save", save, "--position", PLAY, "--players", "2")
    assert code == 2 and "--players 2 contradicts the position, which gives 3 hands" in err
    code, _, err = _cli("play", "pl-standard", "--save", save, "--position", PLAY.replace("AC", "XC"))
    assert code == 1 and err.startswith("--position:1:21: error[notation.card]: `XC` is not a card")
    code, _, err = _cli("play", "pl-standard", "--save", save, "--position", PLAY, "--deal", "0:AS | -")
    assert code == 2 and "give --deal or --position, not both" in err


def test_a_game_from_a_position_copies_and_pickles_with_it() -> None:
    import pickle

    game = Game.from_position(_rules("pl-standard"), PLAY, seed=2)
    for other in (game.clone(), pickle.loads(pickle.dumps(game))):
        assert other.start_position == game.start_position == Position.parse(PLAY, _rules("pl-standard"))
        assert other.position() == game.position()
        assert other.record == game.record


HANDS = "9S TS JS QS KS AS 9H / TH JH QH KH AH 9D TD / JD QD KD AD 9C TC JC"


@pytest.mark.parametrize(("text", "player", "legal"), [
    # a fresh auction: the forced player (after the dealer) must open 100
    (f"0:{HANDS} | QC KC AC ; auction 1", 1, ["bid 100"]),
    # player 1 opened: player 2 may bid up to 120 + his diamond marriage (80), or pass
    (f"0:{HANDS} | QC KC AC ; auction 2 ; scores 0 0 0 ; bid 100 1",
     2, [f"bid {b}" for b in range(110, 201, 10)] + ["pass"]),
    (f"0:{HANDS} | QC KC AC ; talon 1 ; scores 0 0 0 ; bid 120 1 ; passed 0 2 ; declarer 1", 1, ["talon 0"]),
    # the declarer holds the talon and gives a card to each opponent, player 2 first
    ("0:9S TS JS QS KS AS 9H / TH JH QH KH AH 9D TD QC KC AC / JD QD KD AD 9C TC JC | ; exchange 1 ; "
     "scores 0 0 0 ; bid 120 1 ; passed 0 2 ; declarer 1", 1,
     [f"give {c} to {p}" for p in (2, 0) for c in "TH JH QH KH AH 9D TD QC KC AC".split()]),
    # 120 + the heart marriage (100) at most
    ("0:9S TS JS QS KS AS 9H 9C / TH JH QH KH AH 9D TD QC / JD QD KD AD KC TC JC AC | ; contract 1 ; "
     "scores 0 0 0 ; bid 120 1 ; passed 0 2 ; declarer 1", 1, [f"contract {b}" for b in range(120, 221, 10)]),
])
def test_a_written_position_in_each_phase_gives_the_engines_legal_actions(
    text: str, player: int, legal: list[str]
) -> None:
    game = Game.from_position(_rules("pl-standard"), text)
    assert game.current_player == player
    assert [str(a) for a in game.legal_actions()] == legal
    rng = random.Random(1)
    for _ in range(60):  # and the deal plays out to its scores (a deal of 24 cards: under 60 actions)
        if game.deal_scores:
            break
        game.apply(rng.choice(game.legal_actions()))
    assert len(game.deal_scores) == 1
    assert game.scores == list(game.deal_scores[0])


def test_a_sitter_holds_no_hand_and_does_not_move() -> None:
    rules = _rules("ru-classic")  # four players: the dealer sits the deal out
    game = Game(rules, players=4, seed=1)
    text = str(game.position())
    sitter = game.deal.sitter
    assert sitter is not None and text.split(":", 1)[1].split(" / ")[sitter].strip() == "-"
    moved = text.replace(f"; auction {game.current_player} ;", f"; auction {sitter} ;")
    assert moved != text
    with pytest.raises(NotationError) as info:
        Position.parse(moved, rules)
    assert info.value.diagnostic.message == (f"player {sitter} sits this deal out (dealer {game.deal.dealer}) "
                                             "and cannot be the player to move")


def _scenario_file(tmp_path: Path, extra: str, position: str = PLAY) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(
        "ruleset: pl-standard\nscenarios:\n  - name: from-a-position\n    description: d\n"
        f"    source: [S000]\n    players: 3\n{extra}    position: \"{position}\"\n"
        "    steps:\n      - expect: {legal: [\"play 9H\"]}\n", encoding="utf-8")
    return path


def test_a_scenario_starts_from_a_position(tmp_path: Path) -> None:
    from tysiac_spec.scenarios import load_scenarios, run_file

    (result,) = run_file(load_scenarios(_scenario_file(tmp_path, "")))
    assert result.status == "passed", result.explain()


def test_a_bad_position_in_a_scenario_is_named_at_its_column(tmp_path: Path) -> None:
    from tysiac_spec.errors import ScenarioError
    from tysiac_spec.scenarios import load_scenarios

    path = _scenario_file(tmp_path, "    match: {scores: [0, 0, 0]}\n", PLAY.replace("AC 9C", "9H 9C"))
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path)
    found = [(d.code, d.line, d.column, d.message) for d in info.value.diagnostics]
    assert found == [
        ("scenario.position", 7, 5, "`position` sets the whole starting state: give it without `match`"),
        # the text opens at column 16 (after `position: "`): 9H's second place is its column 73
        ("scenario.position", 8, 16 + 73 - 1,
         "9H is written twice: in player 0's hand and in player 2's hand"),
    ]


def test_a_failing_scenario_from_a_position_names_it(tmp_path: Path) -> None:
    from tysiac_spec.scenarios import load_scenarios, run_file

    path = _scenario_file(tmp_path, "")
    path.write_text(path.read_text(encoding="utf-8").replace('"play 9H"', '"play KC"'), encoding="utf-8")
    (result,) = run_file(load_scenarios(path))
    assert result.status == "failed" and result.deal == ""
    assert f"  position: {PLAY}" in result.explain().splitlines()
    game = Game.from_position(_rules("pl-standard"), PLAY)
    assert str(game.dealt()) == PLAY.split(" ; ")[0]  # the cards as they lay in the position


# ---------------------------------------------------------------- impossible positions (issue: posfix)

D = ("0:9S TS JS QS KS AS AC / TH JH QH KH 9D TD JD / QD KD AD TC JC QC KC | 9H AH 9C")


@pytest.mark.parametrize(("tail", "column", "message"), [
    ("contract 1 ; scores 0 0 0", 83, "the phase `contract` needs a `declarer`"),
    ("talon 1 ; scores 0 0 0", 83, "the phase `talon` needs a `declarer`"),
    ("dark 1 ; scores 0 0 0", 83, "the phase `dark` is not one of this game's (special.dark is off)"),
    ("redeal 1", 83, "the phase `redeal` is not one of this game's (deal.redeals is off)"),
    ("contra 1", 83, "the phase `contra` is not one of this game's (contract.contra is off)"),
    ("rebuy 1", 83, "the phase `rebuy` is not one of this game's (talon.rebuy is off)"),
    ("marriages 1", 83, "the phase `marriages` is not one of this game's "
     "(marriages.declared_by: before_play is off)"),
    ("over 1 ; scores 0 0 0", 83, "the deal is `over` but player 1 still holds cards"),
    ("play 1 ; scores 0 0 0 ; declarer 1", 83,
     "the phase `play` needs a `bid` (or a `contract`) for declarer 1"),
    ("auction 1 ; bid 110 1 ; declarer 2", 107, "the declarer (2) is not the highest bidder (1)"),
    ("auction 1 ; bid 115 1", 95, "the bid 115 is not a multiple of the auction's step (10, auction.step)"),
    ("auction 1 ; bid 1200 0", 95, "the bid 1200 is above the highest the auction allows (360)"),
    ("more passes_since_bid=1.5", 0,
     "`more`: the value of `passes_since_bid` holds a number that is not an integer (got 1.5)"),
    ("more bids=[[0,1.5]]", 0, "`more`: the value of `bids` holds a number that is not an integer "
     "(got [[0,1.5]])"),
    ("more around.kind=1e309", 0,
     "`more`: the value of `around.kind` holds a number that is not an integer (got 1e309)"),
    ("more passes_since_bid=99999999999999999999", 0, "`more`: the value of `passes_since_bid` holds "
     "99999999999999999999, beyond ±1,000,000,000,000,000"),
])
def test_an_impossible_position_is_refused_at_its_column(tail: str, column: int, message: str) -> None:
    text = f"{D} ; {tail}" if not tail.startswith("more") else f"{D} ; auction 1 ; {tail}"
    if not column:  # (a `more` value: its column, after `=`)
        column = text.index("=") + 2
    with pytest.raises(NotationError) as info:
        Game.from_position(_rules("pl-standard"), text)
    d = info.value.diagnostic
    assert (d.code, d.column, d.message) == ("notation.position", column, message)


@pytest.mark.parametrize(("more", "message"), [
    ('bids=[[9,"bid 110"]]', "`bids`: player 9 is not a seat (0 to 2)"),
    ('bids=[[0,"bid zzz"]]', "`bids`: `bid zzz` names no contract of this game (none, contract.kinds)"),
    ("passes_since_bid=-5", "`passes_since_bid` must be at least 0 (got -5)"),
])
def test_an_impossible_more_value_is_refused_when_the_game_starts(more: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        Game.from_position(_rules("pl-standard"), f"{D} ; auction 1 ; more {more}")
    assert (info.value.diagnostic.code, info.value.diagnostic.message) == ("notation.position", message)


def test_hands_of_the_wrong_sizes_for_the_play_are_refused() -> None:
    # player 1 led AH: he holds one card less; player 0 holds one more than player 2
    text = ("0:9S TS JS QS KS AS AC 9C QD / TH JH QH KH 9D TD JD / KD AD TC JC QC KC 9H | ; play 2 ; "
            "scores 0 0 0 ; bid 110 1 ; passed 0 2 ; declarer 1 ; contract 110 ; trick 1:AH")
    with pytest.raises(NotationError) as info:
        Position.parse(text, _rules("pl-standard"))
    assert info.value.diagnostic.message == (
        "in the play every hand holds as many cards, but one less for a player who has played "
        "to the trick (here: player 1 7, player 2 7, player 0 9)")
    talon = f"{D} ; auction 1 ; trick 1:AH".replace(" AH 9C", " 9C")
    with pytest.raises(NotationError) as info:
        Position.parse(talon, _rules("pl-standard"))
    assert info.value.diagnostic.message == "a trick is on the table in the phase `auction` (only in `play`)"


def test_a_marriage_declared_while_another_player_holds_it_is_refused() -> None:
    text = PLAY.replace("contract 110 ; trick 1:AH", "contract 110 ; trick 1:AH ; marriages 0:H")
    with pytest.raises(NotationError) as info:
        Position.parse(text, _rules("pl-standard"))
    assert info.value.diagnostic.message == ("`marriages`: player 0 declared hearts but player 1 "
                                             "holds that marriage")


def test_an_engine_failure_on_the_next_action_refuses_the_position(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Game, action: object) -> None:
        raise IndexError("pop from empty list")

    monkeypatch.setattr(Game, "apply", broken)
    with pytest.raises(NotationError) as info:
        Game.from_position(_rules("pl-standard"), PLAY)
    d = info.value.diagnostic
    assert (d.code, d.column, d.message) == (
        "notation.position", 1, "the engine cannot go on from this position: `play 9H` fails "
        "(IndexError: pop from empty list)")


def test_the_probe_goes_on_past_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clear error on one action does not end the probe: a failure on a later action
    still refuses the position."""
    from tysiac_spec.errors import TysiacError

    seen: list[str] = []

    def first_clear_then_broken(self: Game, action: object) -> None:
        seen.append(str(action))
        if len(seen) == 1:
            raise TysiacError("a clear refusal")
        raise IndexError("pop from empty list")

    monkeypatch.setattr(Game, "apply", first_clear_then_broken)
    with pytest.raises(NotationError) as info:
        Game.from_position(_rules("pl-standard"), D + " ; auction 1 ; bid 100 0")
    assert len(seen) == 2
    assert info.value.diagnostic.message == (
        f"the engine cannot go on from this position: `{seen[1]}` fails (IndexError: pop from empty list)")


def test_a_named_bid_position_prints_and_parses_back() -> None:
    rules = _rules(str(ROOT / "examples" / "house" / "misere.yaml"))
    game = Game(rules, players=3, seed=1)
    while "bid misere" not in [str(a) for a in game.legal_actions()]:
        game.apply(game.legal_actions()[-1])
    game.apply(next(a for a in game.legal_actions() if str(a) == "bid misere"))
    text = str(game.position())
    assert f"; bid 1000000000000 {game.deal.high_bidder}" in text
    assert Position.parse(text, rules) == game.position()
    assert Game.from_position(rules, text).legal_actions() == game.legal_actions()


def test_a_record_from_an_impossible_position_is_refused_by_replay_and_resume(tmp_path: Path) -> None:
    import json

    save = tmp_path / "p.json"
    code, out, _ = _cli("play", "pl-standard", "--seed", "3", "--seat", "2", "--save", str(save),
                        "--position", PLAY, text="quit\n")
    assert code == 0, out
    data = json.loads(save.read_text(encoding="utf-8"))
    data["position"] = f"{D} ; contract 1 ; scores 0 0 0"
    save.write_text(json.dumps(data), encoding="utf-8")
    expected = ("error[record.position]: `position` is not a position of the ruleset: the phase "
                "`contract` needs a `declarer` (column 83)")
    for args in (["replay", str(save)], ["play", "--resume", str(save)]):
        code, _, err = _cli(*args, text="quit\n")
        assert code != 0 and expected in err and "Traceback" not in err, (args, err)


def test_a_match_over_from_a_position_stops_the_same_in_play_and_replay(tmp_path: Path) -> None:
    every = D.split(":", 1)[1].replace(" / ", " ").replace(" | ", " ")
    text = f"0:- / - / - | ; over 1 ; scores 0 0 0 ; won {every} / - / -"
    save = tmp_path / "o.json"
    code, out, _ = _cli("play", "pl-standard", "--seat", "2", "--save", str(save), "--position", text)
    assert code == 0 and "match stopped without a winner: P0 0  P1 0  P2 0" in out
    code, out, _ = _cli("replay", str(save))
    assert code == 0 and out.splitlines()[-2:] == ["Match stopped without a winner",
                                                   "Scores: P0 0, P1 0, P2 0"]


@pytest.mark.parametrize(("bad", "column"), [("\u200b", 102), ("\x1b", 102)])
def test_a_control_character_in_a_position_is_shown_with_a_caret(bad: str, column: int) -> None:
    text = f"{D} ; auction 1 ; scores 0{bad} 0 0"
    code, _, err = _cli("position", "pl-standard", text)
    lines = err.splitlines()
    assert code == 1 and lines[0].startswith(f"POSITION:1:{column}: error[notation.position]: a score "
                                             "must be an integer")
    shown, caret = lines[1], lines[2]
    assert caret.strip() == "^"
    # the caret stands under the score, on the line as shown (the character escaped)
    assert shown[len(caret) - 1] == "0" and shown[len(caret):].startswith(repr(bad)[1:-1])


def test_hands_of_different_sizes_in_the_auction_are_refused() -> None:
    text = "0:9S TS JS QS KS AS AC 9H / TH JH QH KH 9D TD JD / QD KD AD TC JC QC KC | AH 9C ; auction 1"
    with pytest.raises(NotationError) as info:
        Position.parse(text, _rules("pl-standard"))
    assert (info.value.diagnostic.column, info.value.diagnostic.message) == (
        1, "in the `auction` every hand holds as many cards, as dealt (here: player 1 7, player 2 7, "
        "player 0 8)")
