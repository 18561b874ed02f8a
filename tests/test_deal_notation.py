"""Deal notation (issue 16): one line for a deal, ``Deal.parse`` and ``str`` in a pair, clear
errors with the column; the notation in scenarios, records and the commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.engine.deal_notation import Deal
from tysiac_spec.engine.game import Game
from tysiac_spec.engine.record import Record
from tysiac_spec.errors import NotationError, ScenarioError
from tysiac_spec.ruleset import core_deck
from tysiac_spec.scenarios import load_scenarios, run_file

DECK = core_deck()
CARDS = [str(c) for c in DECK.cards]

pile = st.lists(st.sampled_from(CARDS), max_size=8).map(tuple)
deals = st.builds(
    Deal,
    dealer=st.integers(0, 999),
    hands=st.lists(pile, min_size=1, max_size=6).filter(any).map(tuple),
    talons=st.lists(pile, max_size=3).map(tuple),
    stock=pile,
)


@given(deals)
def test_parse_and_str_are_a_pair(deal: Deal) -> None:
    text = str(deal)
    assert "\n" not in text
    assert Deal.parse(text) == deal
    assert Deal.parse(text, DECK) == deal  # canonical card texts stay as they are
    assert str(Deal.parse(text)) == text


@given(deals, st.sampled_from([" ", "  ", "\t"]))
def test_blanks_around_the_separators_are_free(deal: Deal, blank: str) -> None:
    loose = str(deal).replace(" / ", f"{blank}/{blank}").replace(" | ", f"{blank}|{blank}")
    assert Deal.parse(blank + loose + blank) == deal


def test_an_example_in_full() -> None:
    text = "1:9S TS JS QS KS AS 9H / TH JH QH KH AH 9D TD / JD QD KD AD 9C TC JC | QC KC AC"
    deal = Deal.parse(text)
    assert deal.dealer == 1
    assert deal.hands[2] == ("JD", "QD", "KD", "AD", "9C", "TC", "JC")
    assert deal.talons == (("QC", "KC", "AC"),) and deal.stock == ()
    assert str(deal) == text


def test_card_texts_are_made_canonical_with_a_pack() -> None:
    deal = Deal.parse("0: th 10H Q♥ / - | 9c,  ac", DECK)
    assert deal.hands == (("TH", "TH", "QH"), ())
    assert str(deal) == "0:TH TH QH / - | 9C AC"
    assert Deal.parse("0: th / - | 9c").hands[0] == ("th",)  # without a pack: as written


def test_empty_piles_talons_and_a_stock() -> None:
    assert str(Deal.parse("0:AS / - / KS | - / 9C | TD JD")) == "0:AS / - / KS | - / 9C | TD JD"
    assert Deal.parse("0:AS / KS |").talons == ()
    assert Deal.parse("0:AS / KS").talons == ()
    assert str(Deal(dealer=0, hands=(("AS",), ("KS",)))) == "0:AS / KS |"
    assert Deal.parse("0:AS / KS | | 9C").stock == ("9C",)


@pytest.mark.parametrize(
    ("text", "code", "column", "message"),
    [
        ("AS KS / QH", "notation.deal", 1, "a deal opens with the dealer's seat and a colon (`0:…`)"),
        ("x: AS", "notation.deal", 1, "the dealer must be a seat number (got `x`)"),
        ("  -1:AS", "notation.deal", 3, "the dealer must be a seat number (got `-1`)"),
        (": AS", "notation.deal", 1, "the dealer must be a seat number (got `nothing`)"),
        ("0:AS /  / KS", "notation.deal", 7, "an empty pile is written `-`"),
        ("0:AS - / KS", "notation.deal", 6, "`-` stands alone for an empty pile"),
        ("0:AS | 9C | TC | JC", "notation.deal", 16, "a deal has at most three parts: hands | talons | stock"),
        ("0:AS : KS", "notation.deal", 6, "a deal has one colon, after the dealer"),
        ("0:- / - | AS", "notation.deal", 3, "the deal names no card in the hands"),
        ("0:AS\nKS", "notation.deal", 5, "a deal is written on one line, without control characters"),
        ("0:AS / KX | 9C", "notation.card", 8, "`KX` is not a card: write a rank (A T K Q J 9, or 10) then a "
         "suit (H D C S or its symbol), e.g. `AH`"),
    ],
)
def test_bad_deal_texts_name_the_column(text: str, code: str, column: int, message: str) -> None:
    with pytest.raises(NotationError) as info:
        Deal.parse(text, DECK)
    d = info.value.diagnostic
    assert (d.code, d.column, d.message) == (code, column, message)


def test_a_huge_text_is_refused_before_it_is_read() -> None:
    with pytest.raises(NotationError, match="the deal text is too long"):
        Deal.parse("0: " + "AS " * 5000)


def test_the_deal_of_a_game_and_back() -> None:
    rules = load_ruleset("ru-classic")
    game = Game(rules, players=4, seed=5)
    d = game.deal
    deal = Deal.of(d.dealer, {p: d.hands[p] for p in d.order}, d.talons, players=4)
    assert deal.hands[d.sitter if d.sitter is not None else 0] == () or d.sitter is None
    other = Game(rules, players=4, seed=6)
    other.start_deal(str(deal))
    assert other.deal.hands == d.hands and other.deal.talons == d.talons and other.deal.dealer == d.dealer


def test_a_stock_deal_round_trips_through_a_game() -> None:
    rules = load_ruleset("pl-standard")
    for players in rules.player_counts:
        game = Game(rules, players=players, seed=3)
        d = game.deal
        deal = Deal.of(d.dealer, {p: d.hands[p] for p in d.order}, d.talons, d.stock, players=players)
        other = Game(rules, players=players, seed=4)
        other.start_deal(str(deal))
        assert other.deal.hands == d.hands and other.deal.stock == d.stock


# --------------------------------------------------------------------------- scenarios


SCENARIO = """\
ruleset: pl-standard
scenarios:
  - name: must-follow-the-led-suit
    description: The first scenario of pl-standard, its deal written on one line.
    source: [S000]
    players: 3
    deal: {deal}
    steps:
      - do: ["bid 100", pass, pass]
      - expect: {{phase: exchange, declarer: 1, current_player: 1}}
      - do: ["give 9D to 2", "give JD to 0", "contract 100", "play QD"]
      - expect:
          current_player: 2
          legal: ["play 9D"]
"""

ONE_LINE = "0:AD TD KD KC QC JC 9C / AH TH KH QH JH 9H 9S / AC TC AS TS KS QS JS | QD JD 9D"


def _scenario_file(tmp_path: Path, deal: str) -> Path:
    path = tmp_path / "pl-standard.yaml"
    path.write_text(SCENARIO.format(deal=deal), encoding="utf-8")
    return path


@pytest.mark.parametrize("written", [ONE_LINE, f'"{ONE_LINE}"', f"'{ONE_LINE.lower()}'"])
def test_a_scenario_takes_a_deal_on_one_line(tmp_path: Path, written: str) -> None:
    loaded = load_scenarios(_scenario_file(tmp_path, written))
    (scenario,) = loaded.scenarios
    assert scenario.deal is not None and scenario.deal["hands"][1].upper() == "AH TH KH QH JH 9H 9S"
    (result,) = run_file(loaded)
    assert result.passed, result.explain()
    assert result.deal == ONE_LINE  # the deal the scenario started with, in deal notation


@pytest.mark.parametrize(
    ("written", "code", "at", "message"),
    [
        (ONE_LINE.replace("QD JD 9D", "QD JD 9X"), "scenario.card", "9X", "`9X` is not a card"),
        (f'"{ONE_LINE.replace("QD JD 9D", "QD JD 9X")}"', "scenario.card", "9X", "`9X` is not a card"),
        (f"'{ONE_LINE.replace(' | ', ' : ')}'", "scenario.deal", ": QD", "a deal has one colon"),
        (ONE_LINE.replace("0:", "x:"), "scenario.deal", "x:", "the dealer must be a seat number"),
        (ONE_LINE.replace(" / AC TC AS TS KS QS JS", ""), "scenario.players", "0:",
         "the deal gives 2 hand(s) for 3 players"),
        (ONE_LINE.replace("QD JD 9D", "QD JD"), "scenario.deal", "0:", "talon 0 must hold 3 cards (got 2)"),
        (ONE_LINE.replace("0:", "3:"), "scenario.players", "3:", "dealer 3 is not a player (0..2)"),
    ],
)
def test_a_bad_one_line_deal_in_a_scenario_is_placed_in_the_file(
    tmp_path: Path, written: str, code: str, at: str, message: str
) -> None:
    path = _scenario_file(tmp_path, written)
    line = path.read_text(encoding="utf-8").splitlines()[6]
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path)
    d = info.value.diagnostic
    assert (d.code, d.file, d.line, d.column) == (code, str(path), 7, line.index(at) + 1), d.message
    assert message in d.message


# --------------------------------------------------------------------------- commands


def _cli(*args: str, text: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=text)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_play_takes_a_deal_keeps_it_in_the_record_and_resumes_it(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    deal = ONE_LINE.replace("0:", "1:")
    code, out, _ = _cli("play", "pl-standard", "--seed", "3", "--save", str(save), "--deal", deal, text="quit\n")
    assert code == 0
    assert "dealer: P1" in out and "your hand: diamonds: AD TD KD   clubs: KC QC JC 9C" in out
    record = Record.read(save)
    assert record.deals == ((0, deal),)
    code, out, _ = _cli("play", "--resume", str(save), text="quit\n")
    assert code == 0 and "your hand: diamonds: AD TD KD   clubs: KC QC JC 9C" in out
    code, _, err = _cli("play", "--resume", str(save), "--deal", deal)
    assert code == 2 and "--resume takes the ruleset, players, options, seed and deals" in err


def test_play_shows_a_bad_deal_under_a_caret(tmp_path: Path) -> None:
    save = str(tmp_path / "g.json")
    code, _, err = _cli("play", "pl-standard", "--save", save, "--deal", "1:KC QC JC 9C AD TD KX / AH")
    assert code == 1
    assert err.splitlines() == [
        "--deal:1:21: error[notation.card]: `KX` is not a card: write a rank (A T K Q J 9, or 10) then a "
        "suit (H D C S or its symbol), e.g. `AH`",
        "  1:KC QC JC 9C AD TD KX / AH",
        "                      ^",
    ]
    code, _, err = _cli("play", "pl-standard", "--save", save, "--deal", "1:KC QC / AH / JS | 9C")
    assert code == 1 and err.strip() == "--deal: error[deal.stack]: stacked deal: each hand must hold 7 cards"
    deal = "0:KC QC JC 9C AD TD KD / AH TH KH QH JH 9H 9S / AS TS KS QS JS AC AC | QD JD 9D"
    code, _, err = _cli("play", "pl-standard", "--save", save, "--deal", deal)
    assert code == 1 and err.strip() == (
        "--deal: error[deal.stack]: stacked deal: AC is dealt twice in player 2's hand"
    )
    code, _, err = _cli("play", "pl-standard", "--save", save, "--deal", deal.replace("AC AC |", "AC TC |")
                        .replace("QD JD 9D", "QD JD AH"))
    assert code == 1 and err.strip() == (
        "--deal: error[deal.stack]: stacked deal: AH is dealt twice: in player 1's hand and in talon 0"
    )


def test_deal_is_exported_beside_game() -> None:
    import tysiac_spec
    from tysiac_spec import Deal
    from tysiac_spec.engine.deal_notation import Deal as Home

    assert Deal is Home and "Deal" in tysiac_spec.__all__
    game = tysiac_spec.Game(tysiac_spec.load_ruleset("pl-standard"), players=3, seed=1)
    game.start_deal(Deal.parse("1:KC QC JC 9C AD TD KD / AH TH KH QH JH 9H 9S / AS TS KS QS JS AC TC | QD JD 9D"))
    assert str(game.record.deals[0][1]).startswith("1:KC QC JC 9C AD TD KD / ")


def test_check_prints_the_deal_a_failing_scenario_started_with(tmp_path: Path) -> None:
    path = _scenario_file(tmp_path, ONE_LINE)
    path.write_text(path.read_text(encoding="utf-8").replace('legal: ["play 9D"]', 'legal: ["play AS"]'),
                    encoding="utf-8")
    code, out, _ = _cli("check", "--file", str(path))
    assert code == 1
    assert f"    deal: {ONE_LINE}" in out.splitlines()
