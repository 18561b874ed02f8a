"""Contract kinds (issue 17, ``contract.kinds``, ``engine/contracts.py``): the numeric contract
is the kind ``POINTS_KIND``; named bids rank among the numeric ones; misère, slam and open hand
play and score as the house examples (``examples/house/misere.yaml``, ``slam.yaml``,
``open-hand.yaml``) write them, with the values of mekedron/thousand's special-contract tests
(``tests/spec/app/session_special_contracts_spec.lua``: misère ±120, slam ±240 or a set 300,
open hand ±200, the defenders 0); the views show an open hand and nothing else; the
scoresheet records each kind; the bots play them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tysiac_spec import RulesetError, load_ruleset
from tysiac_spec.bots.heuristic import HeuristicBot
from tysiac_spec.engine import contracts
from tysiac_spec.engine.actions import NamedBid, parse_action
from tysiac_spec.engine.game import Game
from tysiac_spec.engine.replay import replay
from tysiac_spec.errors import EntryError, IllegalActionError
from tysiac_spec.ruleset.model import POINTS_KIND, ContractKind
from tysiac_spec.scoresheet import DealEntry, Sheet, settle_sheet
from tysiac_spec.table import view_lines
from tysiac_spec.transcript import transcript

HOUSE = Path(__file__).resolve().parents[1] / "examples" / "house"
MISERE, SLAM, OPEN = (str(HOUSE / f"{n}.yaml") for n in ("misere", "slam", "open-hand"))

# the deals of examples/house/scenarios/misere.yaml and slam.yaml (dealer 0, player 1 opens)
LOW = {1: "9H JH 9D JD 9C JC QS", 0: "AH AD AS KH KD KC KS", 2: "TH TD TC TS QH QD QC"}
LOW_TALON = "JS 9S AC"
HIGH = {1: "AH TH AD TD AC TC AS", 0: "JH JD JC JS 9C 9S QS", 2: "QH QD QC KH KD KC KS"}
HIGH_TALON = "TS 9H 9D"


def _game(path: str, hands: dict[int, str], talon: str, players: int = 3, **options: object) -> Game:
    game = Game(load_ruleset(path, options=options or None), players=players, seed=3)
    game.start_deal(hands=hands, talons=[talon], dealer=0)
    return game


def _do(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text, game.ruleset.deck))


def _house(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\nkind: house\nextends: ru-classic\nname: {{en: {name}}}\n{body}", encoding="utf-8")
    return str(path)


def test_the_numeric_contract_is_the_kind_at_its_defaults() -> None:
    form = load_ruleset("ru-classic").form(3)
    assert POINTS_KIND == ContractKind(id="points")
    assert (POINTS_KIND.goal, POINTS_KIND.declarer, POINTS_KIND.defender, POINTS_KIND.value) == (None,) * 4
    assert (POINTS_KIND.trump, POINTS_KIND.marriages, POINTS_KIND.open_hand) == (True, True, False)
    # played and scored under the form itself: today's contract, nothing compiled for it
    assert contracts.played_form(form, POINTS_KIND) is form
    assert contracts.scored_form(form, POINTS_KIND) is form
    assert contracts.kind_of(form, None) is POINTS_KIND
    assert form.contract.kinds == () and Game(load_ruleset("ru-classic"), players=3, seed=1).compiled.kinds == {}


def test_a_named_bid_prints_and_parses_in_pairs() -> None:
    deck = load_ruleset("ru-classic").deck
    bid = NamedBid("misere")
    assert str(bid) == "bid misere" and parse_action("bid misere", deck) == bid
    assert parse_action("BID Misere", deck) == bid
    assert parse_action("bid 120", deck) != bid


def test_named_contract_definitions_are_checked(tmp_path: Path) -> None:
    bad = _house(tmp_path, "bad-kinds", "contract:\n  kinds:\n    - {id: points, value: 120}\n"
                 "    - {id: '2x'}\n    - {id: slam, value: 240}\n    - {id: slam, value: 300}\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(bad)
    text = str(caught.value)
    assert "error[contract.kind-id]: `contract.kinds[0].id` `points` is the numeric contract's" in text
    assert "`contract.kinds[1].id` `2x` is not a lower-case word starting with a letter" in text
    assert "error[contract.kind-value]: `contract.kinds[1]` (`2x`) has no `value`" in text
    assert "error[rule.duplicate-id]: `contract.kinds` has two entries with id `slam`" in text


def test_misere_is_played_without_trump_or_marriages() -> None:
    # the declarer holds the king and queen of hearts: under misère he may not declare them
    hands = {1: "KH QH 9D JD 9C JC QS", 0: "AH AD AS JH KD KC KS", 2: "TH TD TC TS 9H QD QC"}
    # (ru-classic's option: a marriage may be declared on the first lead)
    game = _game(MISERE, hands, LOW_TALON, first_trick_marriage=True)
    _do(game, "bid misere", "pass", "pass", "give 9S to 2", "give AC to 0", "contract 120")
    assert game.phase == "play" and game.deal.kind == "misere" and game.deal.trump is None
    legal = [str(a) for a in game.legal_actions()]
    assert "play KH" in legal and not any(a.endswith("marriage") for a in legal)
    with pytest.raises(IllegalActionError, match="no marriage may be declared in a `misere` deal"):
        _do(game, "play KH marriage")
    # the same hand in a numeric contract declares the marriage (and sets trump)
    numeric = _game(MISERE, hands, LOW_TALON, first_trick_marriage=True)
    _do(numeric, "bid 100", "pass", "pass", "give 9S to 2", "give AC to 0", "contract 100")
    assert "play KH marriage" in [str(a) for a in numeric.legal_actions()]
    _do(numeric, "play KH marriage")
    assert numeric.deal.trump == "hearts" and numeric.deal.kind is None


MISERE_PLAY = (
    "bid misere", "pass", "pass", "give 9S to 2", "give AC to 0", "contract 120",
    "play 9H", "play QH", "play KH", "play AH", "play JH", "play TH",
    "play AD", "play JD", "play QD", "play AC", "play JC", "play QC",
    "play AS", "play QS", "play 9S", "play KD", "play 9D", "play TD",
    "play TC", "play KC", "play 9C", "play TS", "play KS", "play JS",
)
"""examples/house/scenarios/misere.yaml's first deal: no trick for the declarer (+120), the
defenders' 76 and 44 card points scored 0 by the kind's defender formula."""


def test_a_kind_may_count_no_bolts(tmp_path: Path) -> None:
    # ru-classic counts a bolt for a deal scored 0 (`special.bolts.counts: zero_points`); the
    # misère example's defenders score 0 by the kind's formula: with `gives_bolts: true` (the
    # default) each defender gets a bolt, with the example's `false` nobody does
    counted = _house(tmp_path, "misere-bolts", "contract:\n  kinds:\n"
                     "    - {id: misere, value: 120, goal: 'tricks == 0', declarer: 'if made then "
                     "contract else -contract', defender: '0', trump: false, marriages: false}\n")
    game = _game(counted, LOW, LOW_TALON)
    _do(game, *MISERE_PLAY)
    assert game.deal_scores == [(0, 120, 0)]
    assert game.match.bolts == (1, 0, 1)
    assert [(e.player, e.value) for e in game.events if e.kind == "bolt"] == [(0, 1), (2, 1)]
    quiet = _game(MISERE, LOW, LOW_TALON)
    _do(quiet, *MISERE_PLAY)
    assert quiet.deal_scores == [(0, 120, 0)]
    assert quiet.match.bolts == (0, 0, 0)
    assert not [e for e in quiet.events if e.kind.startswith("bolt")]
    # a scoresheet settles the same deal alike
    entry = DealEntry(0, 1, 120, 120, (76, 0, 44), no_trick=(1,), kind="misere")
    for path, bolts in ((counted, (1, 0, 1)), (MISERE, (0, 0, 0))):
        rules = load_ruleset(path)
        [row] = settle_sheet(rules, rules.form(3), Sheet(ruleset=path, players=3, deals=[entry]))
        assert row.scores == (0, 120, 0) and row.state.bolts == bolts


ENDING_MISERE = (
    "contract:\n  kinds:\n    - {id: misere, value: 120, goal: 'tricks == 0', declarer: 'if made then "
    "contract else -contract', defender: '0', trump: false, marriages: false, ends_when_decided: true}\n"
)


def test_a_kind_may_end_when_its_goal_is_decided(tmp_path: Path) -> None:
    # no source stops the play (the peer plays a lost misère to the last trick): the option
    # is off by default; on, the declarer's first trick decides the misère and the deal ends
    ending = _house(tmp_path, "misere-ends", ENDING_MISERE)
    ace = {1: "9H JH 9D JD 9C JC AS", 0: "AH AD QS KH KD KC KS", 2: "TH TD TC TS QH QD QC"}
    steps = ("bid misere", "pass", "pass", "give 9S to 2", "give AC to 0", "contract 120",
             "play AS", "play 9S", "play QS")
    game = _game(ending, ace, LOW_TALON)
    _do(game, *steps)
    assert game.deal_scores == [(0, -120, 0)]
    last = game.last_deal
    assert last is not None and last.trick_number == 1 and last.tricks == {1: 1}
    assert {p: len(h) for p, h in last.hands.items()} == {1: 7, 2: 7, 0: 7}  # not played
    played_on = _game(MISERE, ace, LOW_TALON)  # the example: played to the last trick
    _do(played_on, *steps)
    assert played_on.deal_scores == [] and played_on.phase == "play" and played_on.deal.trick_number == 1
    # a misère made is decided only by the last trick: all eight are played
    made = _game(ending, LOW, LOW_TALON)
    _do(made, *MISERE_PLAY)
    assert made.deal_scores == [(0, 120, 0)] and made.last_deal is not None
    assert made.last_deal.trick_number == 8


def test_a_kind_ending_early_may_not_read_the_play(tmp_path: Path) -> None:
    body = ENDING_MISERE.replace("defender: '0', ", "")  # ru-classic's defender score: his points
    with pytest.raises(RulesetError) as caught:
        load_ruleset(_house(tmp_path, "misere-points", body))
    text = str(caught.value)
    assert "contract.kind-ends" in text
    assert ("`contract.kinds[0]` (`misere`) ends when its goal is decided, but `scoring.defender` "
            "(it has no `defender`) reads `points`, which the tricks not played would change") in text
    with pytest.raises(RulesetError, match=r"but `goal` reads `card_points`, which"):
        load_ruleset(_house(tmp_path, "misere-goal", ENDING_MISERE.replace("tricks == 0", "card_points == 0")))


def test_named_bids_rank_among_the_numbers(tmp_path: Path) -> None:
    # mekedron/thousand's `named_contracts_precedence` as ranks: misère counts as a bid of 120,
    # the slam as one of 200 (a named bid with a higher rank outbids a lower one)
    path = _house(tmp_path, "ranked", "contract:\n  kinds:\n"
                  "    - {id: misere, rank: 120, value: 120, goal: 'tricks == 0'}\n"
                  "    - {id: slam, rank: 200, value: 240, goal: 'others_tricks == 0'}\n")
    game = _game(path, LOW, LOW_TALON, bid_without_marriage=True)  # (bids above 120 without one)
    assert [str(a) for a in game.legal_actions()][-2:] == ["bid misere", "bid slam"]
    _do(game, "bid 125")
    # 125 is above misère's 120: only the slam is named over it
    legal = [str(a) for a in game.legal_actions()]
    assert legal[0] == "bid 130" and legal[-2:] == ["bid slam", "pass"] and "bid misere" not in legal
    with pytest.raises(IllegalActionError, match="`bid misere` does not outrank the bid of 125"):
        _do(game, "bid misere")
    _do(game, "bid slam")
    legal = [str(a) for a in game.legal_actions()]
    assert legal[0] == "bid 205" and "bid misere" not in legal and legal[-1] == "pass"
    _do(game, "bid 205")  # a number over a ranked named bid: the numeric contract again
    assert game.deal.kind is None and game.deal.high_bid == 205
    with pytest.raises(IllegalActionError, match="the ruleset has no named contract `grand`"):
        _do(game, "bid grand")


def test_open_hand_is_shown_to_everyone_and_nothing_else_leaks() -> None:
    game = _game(OPEN, HIGH, HIGH_TALON)
    _do(game, "bid open", "pass", "pass", "give 9H to 2")
    assert all(game.view(p).open_hand == () for p in range(3))  # not before the play
    _do(game, "give 9D to 0", "contract 200")
    declarer = game.deal.hands[1]
    for p in (0, 2):
        view = game.view(p)
        assert view.open_hand == tuple(declarer) and view.kind == "open"
        assert view.hand == tuple(game.deal.hands[p])  # his own hand, not the other defender's
        assert view.talon == tuple(game.deal.taken)  # the talon, shown as the rules show it
    _do(game, "play AH")
    assert game.view(2).open_hand == tuple(game.deal.hands[1]) and len(game.view(2).open_hand) == 7
    # the terminal table shows it to a defender, with the contract's kind
    lines = view_lines(game.view(2), game.ruleset.deck, game.legal_actions())
    assert "declarer: P1  contract: 200 (open)" in lines
    assert any(line.startswith("P1's open hand: ") for line in lines)
    assert not any("open hand" in line for line in view_lines(game.view(1), game.ruleset.deck, []))
    # a misère hand is not shown; nor any hand in a game of a form without named kinds
    misere = _game(MISERE, LOW, LOW_TALON)
    _do(misere, "bid misere", "pass", "pass", "give 9S to 2", "give AC to 0", "contract 120")
    assert misere.view(0).open_hand == () and misere.view(0).kind == "misere"
    plain = Game(load_ruleset("ru-classic"), players=3, seed=1)
    assert plain.view(0).open_hand == () and plain.view(0).kind is None


def test_a_set_slam_value_is_won_and_lost(tmp_path: Path) -> None:
    # mekedron/thousand's "respects a custom slam_contract_value sibling": 300
    body = Path(SLAM).read_text(encoding="utf-8").split("contract:\n", 1)[1].replace("value: 240", "value: 300")
    path = tmp_path / "slam-300.yaml"
    head = Path(SLAM).read_text(encoding="utf-8").split("contract:\n", 1)[0].replace("house-slam", "slam-300")
    path.write_text(head + "contract:\n" + body, encoding="utf-8")
    game = _game(str(path), HIGH, HIGH_TALON)
    _do(game, "bid slam", "pass", "pass", "give 9H to 2", "give 9D to 0", "contract 300")
    bots = {p: HeuristicBot(p, game.form) for p in range(3)}
    while not game.deal_scores:
        game.apply(bots[game.current_player].choose(game.view(game.current_player), game.legal_actions()))
    assert game.deal_scores == [(0, 300, 0)]


def test_the_scoresheet_records_each_kind() -> None:
    def settle(path: str, *entries: DealEntry) -> list[tuple[int, ...]]:
        rules = load_ruleset(path)
        sheet = Sheet(ruleset=path, players=3, deals=list(entries))
        again = Sheet.from_json(sheet.to_json())
        assert again == sheet
        return [row.scores for row in settle_sheet(rules, rules.form(3), again)]

    # misère made (the declarer, player 1, in no_trick) and lost; card points do not count
    made = DealEntry(0, 1, 120, 120, (76, 0, 44), no_trick=(1,), kind="misere")
    lost = DealEntry(1, 2, 120, 120, (60, 45, 15), kind="misere")
    assert settle(MISERE, made, lost) == [(0, 120, 0), (0, 120, -120)]
    assert json.loads(Sheet(ruleset=MISERE, players=3, deals=[made]).to_json())["deals"][0]["kind"] == "misere"
    # the slam: every other player without a trick
    assert settle(SLAM, DealEntry(0, 1, 240, 240, (0, 120, 0), no_trick=(0, 2), kind="slam")) == [(0, 240, 0)]
    assert settle(OPEN, DealEntry(0, 1, 200, 200, (20, 85, 15), kind="open")) == [(0, -200, 0)]
    with pytest.raises(EntryError, match=r"the named contract `misere` is played for 120 \(got bid 100"):
        settle(MISERE, DealEntry(0, 1, 100, 100, (76, 0, 44), no_trick=(1,), kind="misere"))
    with pytest.raises(EntryError, match=r"the ruleset has no named contract `slam` \(named contracts: `misere`"):
        settle(MISERE, DealEntry(0, 1, 240, 240, (76, 0, 44), kind="slam"))


def test_the_heuristic_bot_bids_misere_with_low_cards_and_ducks_every_trick() -> None:
    game = _game(MISERE, LOW, LOW_TALON)
    bots = {p: HeuristicBot(p, game.form) for p in range(3)}
    first = bots[1].choose(game.view(1), game.legal_actions())
    assert first == NamedBid("misere")
    while not game.deal_scores:
        game.apply(bots[game.current_player].choose(game.view(game.current_player), game.legal_actions()))
    assert game.last_deal is not None and game.last_deal.kind == "misere"
    assert game.last_deal.tricks.get(1, 0) == 0 and game.deal_scores == [(0, 120, 0)]
    # a strong hand does not bid it
    strong = _game(MISERE, HIGH, HIGH_TALON)
    assert HeuristicBot(1, strong.form).choose(strong.view(1), strong.legal_actions()) != NamedBid("misere")


def test_a_game_with_named_bids_replays_from_its_record() -> None:
    game = Game(load_ruleset(MISERE), players=3, seed=1)
    bots = {p: HeuristicBot(p, game.form) for p in range(3)}
    for _ in range(300):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game.view(game.current_player), game.legal_actions()))
    assert "bid misere" in game.history
    again = replay(game.record)
    assert again.deal_scores == game.deal_scores and again.history == game.history
    told = transcript(game.record)
    assert "  P1: bid misere" in told and "  declarer: P1 at 120 (misere)" in told


def test_the_score_command_asks_the_named_contract(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    sheet = tmp_path / "sheet.json"
    answers = "1\nmisere\n\n76 0 44\n1\n"  # declarer, named contract, rospis, points, no trick
    result = CliRunner().invoke(main, ["score", MISERE, "--sheet", str(sheet)], input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "named contract (misere; empty: none): misere" in out
    assert "bid:" not in out and "contract (empty: the bid)" not in out and "marriages declared" not in out
    assert "deal 1: P0 0  P1 +120  P2 0" in out
    [deal] = json.loads(sheet.read_text(encoding="utf-8"))["deals"]
    assert (deal["kind"], deal["bid"], deal["contract"], deal["no_trick"]) == ("misere", 120, 120, [1])
