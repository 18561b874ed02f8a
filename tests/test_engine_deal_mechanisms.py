"""Deal-level variant mechanisms of the engine, switched on by data: forfeits, the dark game,
the golden round, redeals, dealing restrictions, the first dealer by the first ace, auction
comebacks and all-pass modes, bidding in minus, the ace marriage.

Each test names its source (ids of the ruleset's `sources`) and where in it the rule is;
each house-rule example in examples/house/ is checked against its parent ruleset.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import pytest

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.engine import Game, View, dealing, parse_action
from tysiac_spec.engine.dealing import deal_cards, first_ace_dealer, talon_positions

HOUSE = Path(__file__).parent.parent / "examples" / "house"

# A 3-player deal, dealer 0: bidding order 1, 2, 0.  Player 0 holds the diamond marriage.
HANDS = {1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"}
TALON = ["QC JC 9C"]

# Player 2 holds the four nines (and only 7 card points).
NINES = {1: "AH KH QH TH AS KS TS", 2: "9H 9S 9D 9C JS JH QS", 0: "KD QD JD AD AC TC KC"}
NINES_TALON = ["QC JC TD"]


def _game(
    ruleset: str,
    *,
    players: int = 3,
    hands: dict[int, str] = HANDS,
    talons: list[str] = TALON,
    **options: object,
) -> Game:
    game = Game(load_ruleset(ruleset), players=players, seed=0, options=options or None)
    game.start_deal(hands=hands, talons=talons, dealer=0)
    return game


def _do(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text, game.ruleset.deck))


def _legal(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


# --------------------------------------------------------------------------- forfeit


def test_bomb_only_when_stuck_with_the_forced_100() -> None:
    # S003 "Bomby": when both others fold and the first player must play 100, he may use a
    # bomb; the deal is not played; he scores nothing, each of the others 60.
    game = _game("cz-standard")
    _do(game, "pass", "pass")  # player 1 starts with the forced 100; 2 and 0 fold
    assert game.phase == "exchange" and _legal(game)[-1] == "forfeit"
    _do(game, "forfeit")
    assert game.last_deal is not None and game.last_deal.forfeited
    assert game.deal_scores[-1] == (60, 0, 60)
    assert game.match.forfeits == (0, 1, 0)
    # A contested auction: no bomb.
    game = _game("cz-standard")
    _do(game, "bid 110", "pass", "pass")
    assert game.deal.declarer == 2 and "forfeit" not in _legal(game)
    with pytest.raises(IllegalActionError, match="only a declarer stuck with the compulsory bid may forfeit"):
        _do(game, "forfeit")


def test_bomb_limit_one_per_match() -> None:
    # S003: each player may use one bomb (cz-standard: `forfeit.mode.limit: 1`).
    game = _game("cz-standard")
    game.set_match_state(forfeits=[0, 1, 0])
    _do(game, "pass", "pass")
    assert "forfeit" not in _legal(game)
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match="has used all 1 forfeit"):
        _do(game, "forfeit")
    assert game.snapshot() == before


def test_house_bomb_for_any_declarer() -> None:
    # examples/house/forfeit-any-declarer.yaml: `only_when_forced: false` over cz-standard.
    game = _game(str(HOUSE / "forfeit-any-declarer.yaml"))
    _do(game, "bid 110", "pass", "pass")
    assert game.deal.declarer == 2 and _legal(game)[-1] == "forfeit"


def test_rospis_at_the_contract() -> None:
    # S002 "Торговля" / "Роспись": after the prikup and the exchange the declarer may write
    # the deal off: the bid is taken off him and each opponent scores 60.
    game = _game("ru-online", golden_round=False, dark_game=False)
    _do(game, "bid 105", "pass", "pass")  # 2 over 1's forced 100; 0 and 1 pass
    assert game.deal.declarer == 2 and "forfeit" in _legal(game)
    _do(game, "give 9S to 0", "give JS to 1")
    assert game.phase == "contract" and _legal(game)[:2] == ["contract 105", "contract 110"]
    assert _legal(game)[-1] == "forfeit"
    _do(game, "forfeit")
    assert game.deal_scores[-1] == (60, 60, -105)


# --------------------------------------------------------------------------- dark game


def test_dark_game_declared_and_cancelled() -> None:
    # S002 "Игра «Втемную»": the first hand (dealer on his right) may declare it; an
    # opponent holding a marriage may cancel; the contract is 120, points doubled.
    game = _game("ru-online", golden_round=False)
    assert game.phase == "dark" and game.current_player == 1 and _legal(game) == ["dark", "pass"]
    _do(game, "dark")
    # Player 0 holds K♦ Q♦ and may cancel; player 2 holds no marriage.
    assert game.current_player == 0 and _legal(game) == ["cancel dark", "pass"]
    _do(game, "cancel dark")
    assert game.phase == "auction" and game.current_player == 2 and game.deal.mode == "normal"


def test_dark_game_played_and_its_rospis() -> None:
    game = _game("ru-online", golden_round=False)
    _do(game, "dark", "pass")
    deal = game.deal
    assert (deal.declarer, deal.contract or deal.high_bid, deal.mode, deal.multiplier) == (1, 120, "dark", 2)
    assert game.phase == "exchange"
    # "without showing the prikup": only the dark player sees it.
    assert game.view(0).talon == () and game.view(2).talon == ()
    _do(game, "give 9H to 2", "give 9C to 0")
    assert _legal(game) == ["contract 120", "forfeit"]  # no raising in the dark
    # "При «тёмной» можно расписать": each opponent scores 120.
    _do(game, "forfeit")
    scores = game.deal_scores[-1]
    assert scores[0] == scores[2] == 120


def test_no_dark_game_with_a_negative_score() -> None:
    # S002: "Темнить нельзя, если счёт отрицательный".
    game = _game("ru-online", golden_round=False)
    game.set_match_state(scores=[0, -5, 0])
    assert game.phase == "auction" and game.current_player == 2


def test_dark_pass_goes_to_the_auction() -> None:
    game = _game("ru-online", golden_round=False)
    _do(game, "pass")
    assert game.phase == "auction" and game.current_player == 2 and game.deal.high_bid == 100


def test_house_dark_anyone_uncancellable() -> None:
    # examples/house/dark-anyone.yaml: `who: anyone`, `cancel_with_marriage: false`.
    game = _game(str(HOUSE / "dark-anyone.yaml"), golden_round=False)
    assert game.current_player == 1
    _do(game, "pass")
    assert game.phase == "dark" and game.current_player == 2
    _do(game, "dark")
    assert game.deal.declarer == 2 and game.deal.mode == "dark" and game.phase == "exchange"


# --------------------------------------------------------------------------- golden round


def test_golden_round_first_hand_plays_120_doubled() -> None:
    # S002 "Золотой кон": each player in turn must make 120, no raising, all points doubled,
    # a rospis counts 120 instead of 60.
    game = _game("ru-online")
    deal = game.deal
    assert (deal.declarer, deal.high_bid, deal.mode, deal.multiplier) == (1, 120, "golden", 2)
    assert game.phase == "exchange" and deal.bids == []
    _do(game, "give 9H to 2", "give 9C to 0")
    assert _legal(game) == ["contract 120", "forfeit"]
    _do(game, "forfeit")
    scores = game.deal_scores[-1]
    assert scores[0] == scores[2] == 120
    # The next golden deal: the dealer moved on, so the next first hand plays.
    assert game.deal.mode == "golden" and game.deal.declarer == game.deal.order[0] == 2


def test_golden_round_no_raising() -> None:
    # Without a forfeit the contract is fixed as the exchange ends.
    game = _game("ru-online", rospis="only_3")
    game.set_match_state(forfeits=[0, 3, 0], golden=3)
    _do(game, "give 9H to 2", "give 9C to 0")
    assert game.phase == "play" and game.deal.contract == 120 and game.current_player == 1


def test_dark_game_no_raising() -> None:
    game = _game("ru-online", golden_round=False)
    _do(game, "dark", "pass", "give 9H to 2", "give 9C to 0", "contract 120")
    assert game.phase == "play" and game.deal.contract == 120


def test_house_golden_round_with_raising() -> None:
    game = _game(str(HOUSE / "golden-raise.yaml"))
    _do(game, "give 9H to 2", "give 9C to 0")
    assert _legal(game)[:3] == ["contract 120", "contract 125", "contract 130"]


# --------------------------------------------------------------------------- redeals


def test_four_nines_after_the_exchange() -> None:
    # PAGx3/LOD (ru-classic): a player holding four nines after the exchange may abandon
    # the deal; no score; dealt again.
    game = _game("ru-classic", hands=NINES, talons=NINES_TALON)
    _do(game, "bid 100", "pass", "pass", "give QC to 2", "give JC to 0")
    assert game.phase == "redeal" and game.current_player == 2 and _legal(game) == ["redeal", "pass"]
    events = len(game.events)
    _do(game, "redeal")
    assert [e.kind for e in game.events[events:]] == ["redeal"]
    assert game.events[-1].player == 2 and game.deal_scores == []
    assert game.phase == "auction" and game.deal.dealer == 0 and game.deal.actions == 0


def test_four_nines_declined_play_goes_on() -> None:
    game = _game("ru-classic", hands=NINES, talons=NINES_TALON)
    _do(game, "bid 100", "pass", "pass", "give QC to 2", "give JC to 0", "pass")
    assert game.phase == "contract" and game.current_player == 1


@pytest.mark.parametrize(("value", "phase"), [("dealt_hand", "redeal"), ("never", "auction")])
def test_four_nines_option(value: str, phase: str) -> None:
    # PAGx2: some allow it only with all four nines in the hand as dealt; option `four_nines`.
    game = _game("ru-classic", hands=NINES, talons=NINES_TALON, four_nines=value)
    assert game.phase == phase


def test_house_redeal_weak_hand_with_penalty() -> None:
    # examples/house/redeal-weak-hand.yaml: fewer than 13 card points, redeal for 10.
    hands = {1: "AH KH QH TH AS KS TS", 2: "9H 9S 9D 9C JS JH QS", 0: "KD QD JD AD AC TC KC"}
    assert _game("pl-standard", hands=hands, talons=NINES_TALON).phase == "auction"
    game = _game(str(HOUSE / "redeal-weak-hand.yaml"), hands=hands, talons=NINES_TALON)
    assert game.phase == "redeal" and game.current_player == 2
    _do(game, "redeal")
    assert game.scores == [0, 0, -10]
    assert (game.events[-1].kind, game.events[-1].player, game.events[-1].value) == ("redeal", 2, -10)


def test_house_mandatory_redeal_is_automatic() -> None:
    # examples/house/four-nines-redeal.yaml: four nines as dealt always mean a new deal.
    assert _game("pl-standard", hands=NINES, talons=NINES_TALON).phase == "auction"
    game = _game(str(HOUSE / "four-nines-redeal.yaml"), hands=NINES, talons=NINES_TALON)
    assert game.events[-1].kind == "redeal" and game.phase == "auction"
    assert game.deal.hands[2] != sorted(game.ruleset.deck.parse_many(NINES[2]), key=lambda c: c.index)


def test_house_four_nines_bonus_instead_of_a_redeal() -> None:
    # examples/house/four-nines-bonus.yaml (`effect: play_on`, penalty -50): claiming the
    # four nines pays 50 at once and the deal goes on with the same cards.
    game = _game(str(HOUSE / "four-nines-bonus.yaml"), hands=NINES, talons=NINES_TALON)
    assert game.phase == "redeal" and game.current_player == 2 and _legal(game) == ["redeal", "pass"]
    hands = {p: list(h) for p, h in game.deal.hands.items()}
    _do(game, "redeal")
    assert game.scores == [0, 0, 50] and game.phase == "auction" and game.current_player == 1
    assert game.deal.hands == hands and game.deal.dealer == 0
    last = game.events[-1]
    assert (last.kind, last.player, last.value, last.text) == ("redeal.play_on", 2, 50, "four-nines: played on, player 2 +50")
    # The bonus is written before the deal is scored: it stays whatever the deal brings.
    _do(game, "bid 100", "pass", "pass")
    assert game.deal.declarer == 1 and game.scores == [0, 0, 50]


def _play_on_house(tmp_path: Path, timing: str, mandatory: bool) -> Path:
    house = tmp_path / "play-on.yaml"
    house.write_text(
        "id: play-on\nkind: house\nextends: pl-standard\nname: {en: play on}\n"
        "deal:\n  redeals:\n    - {id: nines, when: 'count(hand, nine) == 4', who: holder, "
        f"timing: {timing}, mandatory: {str(mandatory).lower()}, penalty: 30, effect: play_on}}\n",
        encoding="utf-8",
    )
    return house


def test_mandatory_play_on_condition_charges_and_goes_on(tmp_path: Path) -> None:
    # A mandatory `play_on` condition needs no answer: the holder is charged (penalty 30,
    # a loss) as dealt and the auction starts at once with the same cards.
    game = _game(str(_play_on_house(tmp_path, "after_deal", True)), hands=NINES, talons=NINES_TALON)
    assert game.phase == "auction" and game.current_player == 1 and game.scores == [0, 0, -30]
    assert game.events[-1].text == "nines: played on, player 2 −30"
    assert "redeal" not in [e.kind for e in game.events]


def test_mandatory_play_on_after_the_exchange_starts_play(tmp_path: Path) -> None:
    # Checked after the exchange: player 2 still holds his four nines, is charged, and the
    # declarer goes on to announce his contract.
    game = _game(str(_play_on_house(tmp_path, "after_exchange", True)), hands=NINES, talons=NINES_TALON)
    _do(game, "bid 100", "pass", "pass", "give QC to 2", "give JC to 0")
    assert game.scores == [0, 0, -30] and game.phase == "contract" and game.current_player == 1


def _cut_events(game: Game) -> list[tuple[str, int | None, int | None, str]]:
    return [(e.kind, e.player, e.value, e.text) for e in game.events if e.kind.startswith("cut.")]


def test_house_cut_nines() -> None:
    # examples/house/cut-nines.yaml (WIK, AYT: a nine at the bottom of the cut means cutting
    # again; the third in a row costs the cutter 120). Seed 8: dealer 0, the player on his
    # right (2) cuts 9D to the bottom once; the pack is shuffled and cut again.
    rules = load_ruleset(str(HOUSE / "cut-nines.yaml"))
    game = Game(rules, players=3, seed=8)
    assert game.deal.dealer == 0
    assert _cut_events(game) == [("cut.bad", 2, None, "bad cut by player 2: 9D at the bottom")]
    assert game.scores == [0, 0, 0]
    # Seed 189: dealer 1; player 0 cuts a nine three times in a row and pays 120; the pack
    # is then dealt as it lies.
    game = Game(rules, players=3, seed=189)
    assert game.deal.dealer == 1 and game.scores == [-120, 0, 0]
    assert _cut_events(game) == [
        ("cut.bad", 0, None, "bad cut by player 0: 9S at the bottom"),
        ("cut.bad", 0, None, "bad cut by player 0: 9D at the bottom"),
        ("cut.bad", 0, None, "bad cut by player 0: 9C at the bottom"),
        ("cut.penalty", 0, -120, "bad cut 3 in a row: player 0 −120"),
    ]
    # Off (ru-classic): no cut, and the same seed deals from the same random draws.
    assert _cut_events(Game(load_ruleset("ru-classic"), players=3, seed=189)) == []


def test_cut_passes_on_and_the_dealer_pays(tmp_path: Path) -> None:
    # `recut_by: next` (MEKH: the next seat re-cuts) and `payer: dealer`, `penalised: 3` over
    # seed 189: the cutters go 0, 2, 1 (away from dealer 1), and the dealer pays.
    (tmp_path / "cut-nines.yaml").write_text((HOUSE / "cut-nines.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    house = tmp_path / "cut.yaml"
    house.write_text(
        "id: cut\nkind: house\nextends: cut-nines.yaml\nname: {en: cut}\n"
        "deal: {cut: {recut_by: next, payer: dealer}}\n",
        encoding="utf-8",
    )
    game = Game(load_ruleset(str(house)), players=3, seed=189)
    assert [(k, p) for k, p, _, _ in _cut_events(game)] == [
        ("cut.bad", 0), ("cut.bad", 2), ("cut.bad", 1), ("cut.penalty", 1)
    ]
    assert game.scores == [0, -120, 0]


def test_a_penalised_cut_skips_the_deal() -> None:
    # examples/house/cut-nines.yaml with its option `cut_skips` (`deal.cut.then: skip`; WIK: the
    # third nine in a row costs the cutter 120 and the deal is skipped, passing on). Seed 189:
    # dealer 1's cutter (player 0) cuts three nines and pays 120; no one is dealt from that
    # pack, and player 2 deals the deal that is played.
    rules = load_ruleset(str(HOUSE / "cut-nines.yaml"))
    game = Game(rules, players=3, seed=189, options={"cut_skips": True})
    assert game.deal.dealer == 2 and game.scores == [-120, 0, 0]
    assert _cut_events(game)[3:] == [
        ("cut.penalty", 0, -120, "bad cut 3 in a row: player 0 −120"),
        ("cut.skip", 1, None, "the deal of player 1 is skipped: the cards pass on"),
    ]
    assert game.deal.order == [0, 1, 2] and game.current_player == 0
    # The default (`then: deal`): dealer 1 deals the pack as it lies.
    assert Game(rules, players=3, seed=189).deal.dealer == 1
    assert rules.form(3).deal.cut.then == "deal"


def test_the_talon_is_the_top_card_the_bottom_card_and_one_more() -> None:
    # examples/house/talon-top-bottom.yaml (`deal.talon_at: [1, -1]`; WIK: the top card, the
    # bottom card and one other card go to the stock): the first and the last card dealt
    # always go to the prikup, the third anywhere between them.
    rules = load_ruleset(str(HOUSE / "talon-top-bottom.yaml"))
    form = rules.form(3)
    rng = random.Random(7)
    assert [talon_positions(form, 24, rng) for _ in range(3)] == [[0, 11, 23], [0, 5, 23], [0, 13, 23]]
    middles = {talon_positions(form, 24, rng)[1] for _ in range(500)}
    assert middles == set(range(1, 23))
    # The pack in its order (not shuffled): AH on top and 9S at the bottom go to the prikup,
    # with the 9D of position 12; the hands get the rest one card at a time.
    cards = list(rules.deck.cards)
    hands, talons = deal_cards(form, cards, [1, 2, 0], random.Random(7))
    assert (str(cards[0]), str(cards[-1])) == ("AH", "9S")
    assert [str(c) for c in talons[0]] == ["AH", "9D", "9S"]
    assert " ".join(map(str, hands[1])) == "TH JH TD JD KC 9C KS"
    # ru-classic (LOD: the prikup among the first 12 cards) never deals the bottom card to it.
    classic = load_ruleset("ru-classic").form(3)
    assert all(talon_positions(classic, 24, rng)[-1] < 12 for _ in range(200))


def test_house_redeal_passes_the_deal_on() -> None:
    # examples/house/redeal-passes-on.yaml (`deal.redeal_dealer: next`, GLI's spoilt deal
    # passing on): the abandoned deal of dealer 0 is followed by player 1's deal, and the
    # match goes on from there (player 2 deals the deal after it).
    game = _game(str(HOUSE / "redeal-passes-on.yaml"), hands=NINES, talons=NINES_TALON)
    _do(game, "bid 100", "pass", "pass", "give QC to 2", "give JC to 0", "redeal")
    assert game.events[-1].kind == "redeal" and game.deal_scores == []
    assert game.deal.dealer == 1 and game.deal.order == [2, 0, 1] and game.current_player == 2
    # Every deal after a redeal is dealt by the next dealer: a mandatory redeal too.
    house = load_ruleset(str(HOUSE / "redeal-passes-on.yaml"))
    assert house.form(3).deal.redeal_dealer == "next"
    assert load_ruleset("ru-classic").form(3).deal.redeal_dealer == "same"


def test_redeal_dealer_next_with_an_all_pass_redeal(tmp_path: Path) -> None:
    # `deal.redeal_dealer: next` over examples/house/all-pass-redeal.yaml: everyone passes,
    # the deal is abandoned and player 1 deals; the same dealer with the default.
    house = tmp_path / "next.yaml"
    house.write_text(
        "id: next\nkind: house\nextends: pl-standard\nname: {en: next}\n"
        "auction: {all_pass: redeal}\ndeal: {redeal_dealer: next}\n",
        encoding="utf-8",
    )
    for path, dealer in ((house, 1), (HOUSE / "all-pass-redeal.yaml", 0)):
        game = _game(str(path))
        _do(game, "bid 100", "pass", "pass")
        assert game.events[-1].kind == "redeal" and game.deal.dealer == dealer
        assert game.current_player == (dealer + 1) % 3


# --------------------------------------------------------------------------- dealing


def test_plain_deal_one_card_at_a_time() -> None:
    # S002 and PAG: cards are dealt one at a time from the dealer's left; no restriction: the
    # talon cards are the last three.
    form = load_ruleset("pl-standard").form(3)
    cards = list(load_ruleset("pl-standard").deck.cards)
    hands, talons = deal_cards(form, cards, [1, 2, 0], random.Random(0))
    assert hands[1] == [cards[i] for i in range(0, 21, 3)]
    assert hands[0] == [cards[i] for i in range(2, 21, 3)]
    assert talons == [cards[21:]]


def test_prikup_never_among_the_first_or_last_three() -> None:
    # S002: "первые и последние три карты раздавать в прикуп нельзя".
    form = load_ruleset("ru-online").form(3)
    seen: set[int] = set()
    for seed in range(300):
        positions = talon_positions(form, 24, random.Random(seed))
        assert len(positions) == 3
        seen |= set(positions)
    assert min(seen) == 3 and max(seen) == 20


def test_prikup_within_the_first_rounds() -> None:
    # LOD (ru-classic): the prikup cards go out in the first three rounds: positions < 12.
    form = load_ruleset("ru-classic").form(3)
    seen = {p for seed in range(300) for p in talon_positions(form, 24, random.Random(seed))}
    assert max(seen) == 11 and min(seen) == 0


def test_house_deal_in_pairs() -> None:
    # examples/house/deal-in-pairs.yaml: packets of 2; talon not first 2, not last 2, never
    # two in a row.  The parent (pl-standard) deals one card at a time.
    form = load_ruleset(str(HOUSE / "deal-in-pairs.yaml")).form(3)
    cards = list(load_ruleset("pl-standard").deck.cards)
    for seed in range(200):
        positions = talon_positions(form, 24, random.Random(seed))
        assert 2 <= positions[0] and positions[-1] <= 21
        assert all(b - a > 1 for a, b in itertools.pairwise(positions))
        hands, talons = deal_cards(form, cards, [1, 2, 0], random.Random(seed))
        rest = [c for i, c in enumerate(cards) if i not in positions]
        assert talons == [[cards[i] for i in positions]]
        assert hands[1] == rest[0:2] + rest[6:8] + rest[12:14] + rest[18:19]
        assert hands[0] == rest[4:6] + rest[10:12] + rest[16:18] + rest[20:21]


@pytest.mark.parametrize(("n", "k"), [(18, 3), (21, 3), (22, 3), (24, 2), (21, 0), (40, 6), (300, 6), (5, 5)])
def test_sample_draws_as_the_standard_library(n: int, k: int) -> None:
    # dealing.sample is random.sample(range(n), k) of CPython 3.11 written out (the pool for a
    # small n, rejected draws in a set for a large one): the same numbers in the same order,
    # and the generator left in the same state.
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert dealing.sample(ours, n, k) == theirs.sample(range(n), k)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(ValueError, match="Sample larger than population"):
        dealing.sample(random.Random(0), 2, 3)


@pytest.mark.parametrize("ruleset", ["ru-online", "ru-classic", str(HOUSE / "deal-in-pairs.yaml"), "pl-standard"])
def test_talon_positions_as_drawn_before(ruleset: str) -> None:
    # The positions compiled once per form are those drawn before (rng.sample on the allowed
    # range, spread apart when no two may be consecutive), from the same seeds.
    form = load_ruleset(ruleset).form(3)
    d, k = form.deal, sum(form.table.talons)
    lo, hi = d.talon_not_first, 24 - d.talon_not_last
    if d.talon_within_first:
        hi = min(hi, d.talon_within_first)
    for seed in range(100):
        rng = random.Random(seed)
        if not (d.talon_not_first or d.talon_not_last or d.talon_not_consecutive or d.talon_within_first):
            expected = list(range(24 - k, 24))
        elif d.talon_not_consecutive:
            picked = sorted(rng.sample(range(hi - lo - (k - 1)), k))
            expected = [lo + s + i for i, s in enumerate(picked)]
        else:
            expected = sorted(rng.sample(range(lo, hi), k))
        assert talon_positions(form, 24, random.Random(seed)) == expected


def test_talon_without_room_is_refused_when_dealt() -> None:
    form = load_ruleset("ru-online").form(3)
    with pytest.raises(ValueError, match=r"no room for 3 talon cards in positions 3\.\.4"):
        talon_positions(form, 8, random.Random(0))


def test_redeal_condition_without_the_base_builds_none() -> None:
    # A condition that reads no name of the player's base (four nines: `hand` only) is
    # checked without building the base: `env` is never called; the offer is the same.
    game = _game("ru-classic", hands=NINES, talons=NINES_TALON)
    _do(game, "bid 100", "pass", "pass", "give QC to 2", "give JC to 0")

    def no_base(player: int) -> dict[str, object]:
        raise AssertionError(f"the base of player {player} was built")

    assert dealing.redeal_check(game.form, game.deal, no_base, "after_exchange") == (None, [(2, 0)])
    assert dealing.redeal_check(game.form, game.deal, no_base, "after_deal") == (None, [])
    compiled = game.form.compiled.redeal_checks
    assert compiled["after_deal"] is compiled["after_talon"]  # no condition: nothing checked


def test_first_dealer_by_the_first_ace() -> None:
    # S002: cards are turned one at a time until the first ace; its receiver deals.
    deck = load_ruleset("ru-online").deck
    cards = deck.parse_many("9H KS TD QC AS 9S")
    assert first_ace_dealer(cards, 3, 1, "ace") == 1
    assert first_ace_dealer(cards, 4, 1, "ace") == 0
    assert first_ace_dealer(cards[:4] + deck.parse_many("JH AH"), 4, 1, "ace") == 1
    # The game turns the cards of its own seeded pack.
    shuffled = list(deck.cards)
    random.Random(9).shuffle(shuffled)
    expected = first_ace_dealer(shuffled, 3, 1, "ace")
    assert Game(load_ruleset("ru-online"), players=3, seed=9).deal.dealer == expected


# --------------------------------------------------------------------------- auction


def test_house_auction_comeback() -> None:
    # examples/house/auction-comeback.yaml: `reentries: 1` over pl-standard (pass is final).
    parent = _game("pl-standard")
    _do(parent, "bid 100", "pass", "bid 110", "pass")
    assert parent.phase == "exchange" and parent.deal.declarer == 0  # player 2 passed for good
    game = _game(str(HOUSE / "auction-comeback.yaml"))
    _do(game, "bid 100", "pass", "bid 110", "pass")
    assert game.current_player == 2 and _legal(game) == ["bid 120", "pass"]
    _do(game, "bid 120", "pass", "pass")  # 2 comes back; 0 and 1 pass
    assert game.phase == "exchange" and game.deal.declarer == 2


def test_house_comeback_used_up() -> None:
    game = _game(str(HOUSE / "auction-comeback.yaml"))
    # 2 and 1 pass and come back (one comeback each); 2 passes again and is out for good.
    _do(game, "bid 100", "pass", "bid 110", "pass", "bid 120", "pass", "bid 130", "pass")
    assert game.current_player == 0
    _do(game, "bid 140", "pass")  # 0 comes back; 1 passes again: both 1 and 2 are out
    assert game.phase == "exchange" and game.deal.declarer == 0


def test_house_all_pass_redeal() -> None:
    # examples/house/all-pass-redeal.yaml: nobody over the compulsory 100 -> dealt again.
    parent = _game("pl-standard")
    _do(parent, "bid 100", "pass", "pass")
    assert parent.deal.declarer == 1
    game = _game(str(HOUSE / "all-pass-redeal.yaml"))
    _do(game, "bid 100", "pass", "pass")
    assert game.events[-1].kind == "redeal" and game.phase == "auction" and game.deal_scores == []
    # A bid over the compulsory 100 is played as usual.
    game = _game(str(HOUSE / "all-pass-redeal.yaml"))
    _do(game, "bid 100", "bid 110", "pass", "pass")
    assert game.deal.declarer == 2 and game.phase == "exchange"


def test_house_nobody_opens() -> None:
    # examples/house/nobody-opens.yaml: `forced_seat: null` (nobody must open, the value none
    # of the merge language) and `all_pass: redeal` over pl-standard (seat 1 opens at 100).
    parent = _game("pl-standard")
    assert parent.current_player == 1 and _legal(parent) == ["bid 100"]
    game = _game(str(HOUSE / "nobody-opens.yaml"))
    assert game.deal.forced is None
    # Player 1 (hearts and spades marriages: 120 + 100 + 40) may bid 100..260 or pass.
    assert game.current_player == 1
    assert _legal(game) == [f"bid {b}" for b in range(100, 261, 10)] + ["pass"]
    _do(game, "pass", "pass", "pass")
    assert game.events[-1].kind == "redeal" and game.phase == "auction" and game.deal_scores == []


def test_bidding_in_minus() -> None:
    # S002 "Торговля в минусе": a player with a negative score passes until his score is
    # no longer negative; the forced 100 of the player on the hundred stands.
    game = _game("ru-online", golden_round=False, bidding_in_minus=True)
    game.set_match_state(scores=[0, -40, -5])
    assert game.phase == "auction" and game.current_player == 2 and _legal(game) == ["pass"]
    _do(game, "pass", "bid 105")
    assert game.current_player == 1 and _legal(game) == ["pass"]  # may not raise his 100
    # Without the variation he may.
    game = _game("ru-online", golden_round=False)
    game.set_match_state(scores=[0, -40, -5])
    assert _legal(game)[0] == "bid 105"


def test_house_silenced_forced_opener_still_bids_the_compulsory_100() -> None:
    # PAGx2: a silenced player may not bid except his compulsory 100
    # (examples/house/silenced-in-minus.yaml over pl-standard).
    game = _game("pl-standard")
    game.set_match_state(scores=[0, -30, -10])
    assert _legal(game) == ["bid 100"]
    _do(game, "bid 100")
    assert _legal(game)[:2] == ["bid 110", "bid 120"]  # pl-standard: a score in minus may bid
    game = _game(str(HOUSE / "silenced-in-minus.yaml"))
    game.set_match_state(scores=[0, -30, -10])
    assert _legal(game) == ["bid 100"]
    _do(game, "bid 100")
    assert _legal(game) == ["pass"]


# --------------------------------------------------------------------------- ace marriage


def _ace_position(ruleset: str, *, won: bool, **options: object) -> Game:
    hands = {1: "AH AD AC AS KH 9H 9S", 2: "TH JH TS JS QS QH TD", 0: "KD QD JD 9D TC KC QC"}
    game = _game(ruleset, hands=hands, talons=["JC 9C KS"], golden_round=False, dark_game=False, **options)
    deal = game.deal
    deal.phase, deal.declarer, deal.current, deal.high_bid, deal.contract = "play", 1, 1, 100, 100
    deal.trick_number = 1 if won else 0
    deal.tricks = {1: 1} if won else {}
    return game


def test_ace_marriage_after_a_won_trick() -> None:
    # S002 "Тузовый марьяж": four aces, 200, declared like a marriage, not on the first move;
    # 1KC: it sets no trump (ru-online `sets_trump: false`).
    game = _ace_position("ru-online", won=True, ace_marriage=True)
    assert _legal(game)[:2] == ["play AH", "play AH aces"]
    _do(game, "play AH aces")
    assert game.deal.marriages == {1: 200} and game.deal.trump is None
    assert "aces" not in " ".join(_legal(_ace_position("ru-online", won=False, ace_marriage=True)))
    assert "aces" not in " ".join(_legal(_ace_position("ru-online", won=True)))


def test_house_ace_marriage_sets_trump() -> None:
    game = _ace_position(str(HOUSE / "ace-marriage-trump.yaml"), won=True)
    _do(game, "play AD aces")
    assert game.deal.marriages == {1: 200} and game.deal.trump == "diamonds"


def _house(tmp_path: Path, name: str, body: str, parent: str = "ru-online") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\nkind: house\nextends: {parent}\nname: {{en: {name}}}\n{body}", encoding="utf-8")
    return str(path)


def test_the_ace_marriage_rank_is_data(tmp_path: Path) -> None:
    # `marriages.ace_marriage.rank`: the position of test_ace_marriage_after_a_won_trick with
    # the aces and the tens swapped; with `rank: ten` the four tens are the marriage.
    hands = {1: "TH TD TC TS KH 9H 9S", 2: "AH JH AS JS QS QH AD", 0: "KD QD JD 9D AC KC QC"}
    tens = _house(tmp_path, "four-tens",
                  "options:\n  ace_marriage: {default: true}\nmarriages:\n  ace_marriage: {rank: ten}\n")

    def position(ruleset: str) -> Game:
        game = _game(ruleset, hands=hands, talons=["JC 9C KS"], golden_round=False, dark_game=False,
                     **({"ace_marriage": True} if ruleset == "ru-online" else {}))
        deal = game.deal
        deal.phase, deal.declarer, deal.current, deal.high_bid, deal.contract = "play", 1, 1, 100, 100
        deal.trick_number, deal.tricks = 1, {1: 1}
        return game

    assert "aces" not in " ".join(_legal(position("ru-online")))  # four tens are nothing there
    game = position(tens)
    assert _legal(game)[:2] == ["play TH", "play TH aces"]
    _do(game, "play TH aces")
    assert game.deal.marriages == {1: 200} and game.deal.declared == [(1, "ten")]


def test_the_first_dealer_rank_is_data(tmp_path: Path) -> None:
    # `deal.first_dealer_rank`: with `first_dealer: first_ace`, the first king turned deals.
    kings = _house(tmp_path, "first-king", "deal:\n  first_dealer: first_ace\n  first_dealer_rank: king\n",
                   parent="pl-standard")
    deck = load_ruleset("pl-standard").deck
    differs = 0
    for seed in range(8):
        shuffled = list(deck.cards)
        random.Random(seed).shuffle(shuffled)
        dealer = Game(load_ruleset(kings), players=3, seed=seed).deal.dealer
        assert dealer == first_ace_dealer(shuffled, 3, 1, "king")
        differs += dealer != first_ace_dealer(shuffled, 3, 1, "ace")
    assert differs  # the rank changes who deals first


def test_new_actions_print_and_parse() -> None:
    deck = load_ruleset("ru-online").deck
    for text in ("forfeit", "dark", "cancel dark", "redeal", "play AH aces", "play QH marriage"):
        assert str(parse_action(text, deck)) == text


# --------------------------------------------------------------------------- barrel


def test_barrel_player_takes_the_prikup_without_an_auction() -> None:
    # S002 "Бочка": on the barrel there is no auction, the prikup is opened at once and the
    # player must make 121.
    game = _game("ru-online", golden_round=False)
    game.set_match_state(scores=[0, 0, 890], barrel=[False, False, True])
    deal = game.deal
    assert (deal.declarer, deal.high_bid, game.phase) == (2, 121, "exchange")
    assert set(game.view(0).talon) == set(game.ruleset.deck.parse_many(TALON[0]))
    # Variation "Торговля на бочке": he bids as usual.
    game = _game("ru-online", golden_round=False, barrel_bidding=True)
    game.set_match_state(scores=[0, 0, 890], barrel=[False, False, True])
    assert game.phase == "dark"


def test_barrel_contract_stays_at_the_goal() -> None:
    game = _game("ru-online", golden_round=False)
    game.set_match_state(scores=[0, 0, 890], barrel=[False, False, True])
    _do(game, "give 9S to 0", "give JS to 1")
    assert _legal(game) == ["contract 121", "forfeit"]


# --------------------------------------------------------------------------- claims


def _claim_position(ruleset: str, hand: str, others: dict[int, str], *, trump: str | None = None) -> Game:
    game = _game(ruleset)
    deal, deck = game.deal, game.ruleset.deck
    deal.phase, deal.declarer, deal.current, deal.high_bid, deal.contract = "play", 1, 1, 100, 100
    deal.trump = trump
    deal.hands = {1: sorted(deck.parse_many(hand), key=lambda c: c.index)}
    deal.hands.update({p: sorted(deck.parse_many(h), key=lambda c: c.index) for p, h in others.items()})
    deal.talons, deal.taken = [], []
    return game


def test_claim_with_four_aces_and_four_tens() -> None:
    # S000 ("wykładane"): after the exchange, with e.g. four aces and four tens nobody can
    # stop the declarer taking every card, whatever the order: he may show his hand.
    others = {2: "KH QH JH 9H KS QS JS 9S", 0: "KD QD JD 9D KC QC JC 9C"}
    game = _claim_position("pl-standard", "AH TH AS TS AD TD AC TC", others)
    assert _legal(game)[-1] == "claim"
    _do(game, "claim")
    # 120 card points, the contract of 100 is made; defenders 0.
    assert game.last_deal is not None and game.last_deal.tricks == {1: 8}
    assert game.deal_scores[-1] == (0, 100, 0)


def test_claim_credits_safe_marriages_only() -> None:
    # Complete hearts (S000: "complete suits"): the heart marriage counts — no opponent holds
    # a heart, so making hearts trump cannot help them: 120 + 100 = 220, contract 100 made.
    others = {2: "KS QS JS 9S KC QC JC 9C", 0: "KD QD JD 9D AC TC AD TD"}
    game = _claim_position("pl-standard", "AH TH KH QH JH 9H AS TS", others)
    _do(game, "claim")
    assert game.last_deal is not None and game.last_deal.marriages == {1: 100}
    # The spade marriage with JS 9S still out: the claim stands, the marriage is not credited.
    others = {2: "KH QH JH 9H JS 9S KC QC", 0: "KD QD JD 9D AC TC JC 9C"}
    game = _claim_position("pl-standard", "AS TS KS QS AH TH AD TD", others)
    _do(game, "claim")
    assert game.last_deal is not None and game.last_deal.marriages == {}
    # A king with the ten of its suit still out: not sure of every trick.
    others = {2: "KH QH JH 9H TS JS 9S KC", 0: "KD QD JD 9D QC TC JC 9C"}
    assert "claim" not in _legal(_claim_position("pl-standard", "AS KS QS AH TH AD TD AC", others))


def test_claim_not_allowed_elsewhere() -> None:
    others = {2: "KH QH JH 9H KS QS JS 9S", 0: "KD QD JD 9D KC QC JC 9C"}
    game = _claim_position("cz-standard", "AH TH AS TS AD TD AC TC", others)
    assert "claim" not in _legal(game)
    with pytest.raises(IllegalActionError, match="the ruleset allows no claim"):
        _do(game, "claim")


def test_house_dark_declared_before_seeing_the_hand() -> None:
    # MET: the dark player sees neither his cards nor the prikup
    # (examples/house/blind-dark.yaml: `sees_own_hand: false`).
    game = _game(str(HOUSE / "blind-dark.yaml"), golden_round=False)
    assert game.view(1).hand == () and len(game.view(2).hand) == 7
    _do(game, "pass")
    assert len(game.view(1).hand) == 7
    parent = _game("ru-online", golden_round=False)
    assert len(parent.view(1).hand) == 7


def test_four_players_dark_first_hand_is_left_of_the_sitting_dealer() -> None:
    # S002: "Темнить разрешено, если раздающий сидит справа от объявляющего"; with four the
    # dealer sits on the prikup.
    hands = {1: HANDS[1], 2: HANDS[2], 3: HANDS[0]}
    game = _game("ru-online", players=4, hands=hands, golden_round=False)
    assert game.deal.sitter == 0 and game.phase == "dark" and game.current_player == 1


def test_house_claim() -> None:
    # examples/house/claim.yaml: `claim_allowed: true` over cz-standard.
    others = {2: "KH QH JH 9H KS QS JS 9S", 0: "KD QD JD 9D KC QC JC 9C"}
    game = _claim_position(str(HOUSE / "claim.yaml"), "AH TH AS TS AD TD AC TC", others)
    assert _legal(game)[-1] == "claim"


def test_house_first_ace_deals() -> None:
    # examples/house/first-ace-deals.yaml over pl-standard (by lot).
    deck = load_ruleset("pl-standard").deck
    for seed in range(5):
        shuffled = list(deck.cards)
        random.Random(seed).shuffle(shuffled)
        game = Game(load_ruleset(str(HOUSE / "first-ace-deals.yaml")), players=3, seed=seed)
        assert game.deal.dealer == first_ace_dealer(shuffled, 3, 1, "ace")
    # The parent draws the first dealer by lot.
    for seed in range(5):
        assert Game(load_ruleset("pl-standard"), players=3, seed=seed).deal.dealer == random.Random(
            seed
        ).randrange(3)


def test_house_rospis_only_before_the_exchange() -> None:
    # examples/house/rospis-before-exchange.yaml: `forfeit.when: before_exchange` over
    # ru-online; the same deal as test_rospis_at_the_contract: the rospis is offered on
    # seeing the prikup, and refused once the first card is passed.
    game = _game(str(HOUSE / "rospis-before-exchange.yaml"), golden_round=False, dark_game=False)
    _do(game, "bid 105", "pass", "pass")
    assert game.deal.declarer == 2 and _legal(game)[-1] == "forfeit"
    _do(game, "give 9S to 0")
    assert "forfeit" not in _legal(game)
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match="only on seeing the talon, before the exchange"):
        _do(game, "forfeit")
    assert game.snapshot() == before
    _do(game, "give JS to 1")
    assert game.phase == "contract" and "forfeit" not in _legal(game)


# --------------------------------------------------------------------------- give order


def test_give_order_clockwise_gives_in_turn() -> None:
    # pl-tysiac-hd, option `give_order` (S001: the two cards go to the opponents "clockwise";
    # the reading `clockwise` fixes who gets which card).  Dealer 0, player 1 declares at the
    # forced 100; the first card goes to player 2 (after the declarer), the second to player 0.
    game = _game("pl-tysiac-hd", give_order="clockwise")
    _do(game, "bid 100", "pass", "pass")
    hand = "AH KH QH 9H QC JC 9C AS KS QS".split()
    assert game.deal.declarer == 1
    assert _legal(game) == [f"give {c} to 2" for c in hand]
    with pytest.raises(IllegalActionError, match="the next one goes to player 2"):
        _do(game, "give 9C to 0")
    _do(game, "give 9C to 2")
    assert _legal(game) == [f"give {c} to 0" for c in hand if c != "9C"]
    with pytest.raises(IllegalActionError, match="player 2 has already been given 1 card"):
        _do(game, "give JC to 2")
    _do(game, "give JC to 0")
    assert game.phase == "contract"
    assert "9C" in map(str, game.deal.hands[2]) and "JC" in map(str, game.deal.hands[0])
    # The default reading: the declarer chooses, to either opponent, in any order.
    game = _game("pl-tysiac-hd")
    _do(game, "bid 100", "pass", "pass")
    assert _legal(game) == [f"give {c} to {p}" for p in (2, 0) for c in hand]


def test_give_order_follows_the_direction_of_play(tmp_path: Path) -> None:
    # Counter-clockwise play (deal.direction): the player after the declarer is on his right,
    # so with `give_order: clockwise` the first card goes there (seats from engine/seating.py).
    house = tmp_path / "ccw.yaml"
    house.write_text(
        f"id: ccw\nkind: house\nextends: {HOUSE.parent.parent / 'rulesets' / 'pl-tysiac-hd.yaml'}\n"
        "name: {en: ccw}\ndeal: {direction: counterclockwise}\n",
        encoding="utf-8",
    )
    game = _game(str(house), give_order="clockwise")
    assert game.deal.order == [2, 1, 0]
    _do(game, "bid 100", "pass", "pass")
    assert game.deal.declarer == 2
    assert {a.split()[-1] for a in _legal(game)} == {"1"}
    _do(game, "give 9C to 1")
    assert {a.split()[-1] for a in _legal(game)} == {"0"}


# --------------------------------------------------------------------------- given cards in the views


def _given_views(face_up: bool) -> tuple[Game, list[View]]:
    game = _game("ru-classic", exchange_face_up=face_up)
    _do(game, "bid 100", "pass", "pass", "give 9C to 2", "give JC to 0")
    return game, [game.view(p) for p in range(3)]


def test_given_cards_face_down_are_seen_by_giver_and_receiver() -> None:
    # ru-classic: the two cards are passed face down (PAGx1); player 1 declares at 100 and
    # gives 9C to player 2, JC to player 0.
    game, views = _given_views(False)
    c = game.ruleset.deck.parse
    assert [v.given for v in views] == [
        ((0, c("JC")),),
        ((2, c("9C")), (0, c("JC"))),
        ((2, c("9C")),),
    ]


def test_given_cards_face_up_are_seen_by_everyone_and_nothing_else_changes() -> None:
    # ru-classic, option exchange_face_up (PAGx1: some pass them face up, so both opponents
    # see them).
    game, up = _given_views(True)
    c = game.ruleset.deck.parse
    assert [v.given for v in up] == [((2, c("9C")), (0, c("JC")))] * 3
    _, down = _given_views(False)
    assert [dataclasses.replace(v, given=()) for v in up] == [dataclasses.replace(v, given=()) for v in down]
    # Before the exchange nobody has been given anything.
    assert _game("ru-classic", exchange_face_up=True).view(0).given == ()


# --------------------------------------------------------------------------- the exempt dealer


@pytest.mark.parametrize(("score", "exempt"), [(-50, True), (0, False), (-5, True)])
def test_dealer_below_zero_is_not_forced(score: int, exempt: bool) -> None:
    # MEK `bidding.negative_score_restriction` (examples/house/dealer-exempt-in-minus.yaml):
    # everyone passes; dealer 1 below zero is not made to play 100 and the deal is dealt
    # again by him; at 0 he plays it (ua-standard's `dealer_bolt: if_all_pass`)
    hands = {1: "AH TH AD TD AC TC AS", 2: "JH 9H JD 9D JC 9C TS", 0: "KH QH KD QD KC QC 9S"}
    for ruleset, options in ((str(HOUSE / "dealer-exempt-in-minus.yaml"), None),
                             ("ua-standard", {"dealer_bolt": "if_all_pass"})):
        game = Game(load_ruleset(ruleset), players=3, seed=0, options=options)
        game.set_match_state(scores=[0, score, 0], dealer=1)
        game.start_deal(hands=hands, talons=["KS QS JS"], dealer=1)
        _do(game, "pass", "pass", "pass")
        redealt = exempt and options is None
        assert game.phase == ("auction" if redealt else "exchange")
        assert game.deal.declarer == (None if redealt else 1)
        assert game.deal.dealer == 1 and list(game.match.scores) == [0, score, 0]
        kinds = [e.kind for e in game.events]
        assert kinds.count("redeal") == (1 if redealt else 0)


# --------------------------------------------------------------------------- a golden deal played dark


@pytest.mark.parametrize(("declare", "multiplier", "seen"), [("dark", 4, False), ("pass", 2, True)])
def test_golden_deal_declared_dark(declare: str, multiplier: int, seen: bool) -> None:
    # examples/house/golden-dark.yaml (MEK house rule 46, blind play in the golden round):
    # player 1 must make 120; declared dark, the prikup is shown to nobody else and the deal
    # counts x2 x2; declined, as in ru-online
    game = _game(str(HOUSE / "golden-dark.yaml"), golden_round=True, dark_game=True)
    assert game.phase == "dark" and _legal(game) == ["dark", "pass"] and game.deal.current == 1
    _do(game, declare)
    deal = game.deal
    assert game.phase == "exchange" and deal.declarer == 1 and deal.mode == "golden"
    assert deal.multiplier == multiplier and deal.high_bid == 120
    assert " ".join(str(c) for c in game.view(0).talon) == (" ".join(TALON) if seen else "")
    # ru-online itself offers no dark game in a golden deal
    base = _game("ru-online", golden_round=True, dark_game=True)
    assert base.phase == "exchange" and base.deal.multiplier == 2


# --------------------------------------------------------------------------- the talon handed out


def test_talon_handed_out_and_the_reserved_card() -> None:
    # MEK talon.size 2, talon.distribution pass_without_taking (examples/house/talon-handed-out.yaml):
    # the declarer gives only the two talon cards, then the reserved card comes to him unseen
    hands = {1: "AH KH QH TC AS KS QS", 2: "TH 9H AC KD QD 9D 9S", 0: "AD TD JD KC QC JC TS"}
    game = Game(load_ruleset(HOUSE / "talon-handed-out.yaml"), players=3, seed=0)
    game.start_deal(hands=hands, talons=["JH 9C", "JS"], dealer=0)
    _do(game, "bid 100", "bid 110", "pass", "bid 120", "pass")
    assert game.phase == "exchange" and _legal(game) == ["give JH to 2", "give 9C to 2", "give JH to 0", "give 9C to 0"]
    with pytest.raises(IllegalActionError, match="AH is not a talon card: only the talon's cards are handed out"):
        _do(game, "give AH to 2")
    _do(game, "give 9C to 2", "give JH to 0")
    hand = " ".join(str(c) for c in game.deal.hands[1])
    assert game.phase == "contract" and hand == "AH KH QH TC AS KS QS JS"
    assert [len(game.deal.hands[p]) for p in (0, 1, 2)] == [8, 8, 8]
    for p in (0, 2):  # the others see the handed-out talon, not the reserved card
        assert " ".join(str(c) for c in game.view(p).talon) == "JH 9C"
    # pl-standard with the same talons: the declarer takes all three and gives any two cards
    base = Game(load_ruleset("pl-standard"), players=3, seed=0)
    base.start_deal(hands=hands, talons=["JH 9C JS"], dealer=0)
    _do(base, "bid 100", "bid 110", "pass", "bid 120", "pass")
    assert "give AH to 2" in _legal(base) and len(base.deal.hands[1]) == 10


# --------------------------------------------------------------------------- 2-player layout B


def test_two_player_layout_b_buries_for_the_declarer() -> None:
    # MEK players.two_player_config: fixed_deal_no_draw (examples/house/two-player-fixed-deal.yaml):
    # 7 + 7 + 3 cards dealt, 7 left out; the declarer gives one card, then buries one for himself
    rules = load_ruleset(HOUSE / "two-player-fixed-deal.yaml")
    game = Game(rules, players=2, seed=0)
    game.start_deal(hands={1: "AH KH QH TH AS KS QS", 0: "AD KD QD TD AC KC QC"}, talons=["JH JD 9C"], dealer=0)
    _do(game, "bid 100", "pass", "give 9C to 0")
    with pytest.raises(IllegalActionError, match="bury a card"):
        _do(game, "give JD to 0")
    _do(game, "discard AH")
    deal = game.deal
    assert game.phase == "contract" and [len(deal.hands[p]) for p in (0, 1)] == [8, 8]
    assert [str(c) for c in deal.won[1]] == ["AH"] and deal.tricks == {}
    # a shuffled deal leaves 7 cards out
    dealt = Game(rules, players=2, seed=3)
    cards = [c for h in dealt.deal.hands.values() for c in h] + [c for t in dealt.deal.talons for c in t]
    assert len(cards) == len(set(cards)) == 17
    with pytest.raises(IllegalActionError, match=r"AH is dealt twice: in player 0's hand and in player 1's hand$"):
        dealt.start_deal(hands={1: "AH KH QH TH AS KS QS", 0: "AH KD QD TD AC KC QC"}, talons=["JH JD 9C"])


# --------------------------------------------------------------------------- discards


@pytest.mark.parametrize(("discards_to", "declarer_points", "set_aside"), [
    ("nobody", 82, "AH TH"),  # pl-online: the discards score for nobody
    ("same", 82, "AH TH"),  # `same` as `to: nobody`
    ("declarer", 103, ""),  # 82 + the discarded AH (11) and TH (10)
])
def test_discards_score_as_leftover_discards_to_says(
    tmp_path: Path, discards_to: str, declarer_points: int, set_aside: str
) -> None:
    # talon.leftover.discards_to (with cards: unchosen_talon) is played, not only printed:
    # one home, engine.outcome.discards_to, read by the play and by sets_aside.
    house = tmp_path / "h.yaml"
    house.write_text(
        "id: h\nextends: pl-online\nname: {en: h}\n"
        f"players: {{2: {{talon: {{leftover: {{discards_to: {discards_to}}}}}}}}}\n", encoding="utf-8"
    )
    game = Game(load_ruleset(house), players=2, seed=0)
    game.start_deal(hands={0: "AH TH KH QH AS TS KS QS AD TD", 1: "JH 9H JS 9S KD QD JD 9D AC TC"},
                    talons=["KC QC", "JC 9C"], dealer=0)
    deal = game.deal
    while deal.phase != "over":  # the first legal action each time: player 0 declares
        game.apply(game.legal_actions()[0])
    assert deal.declarer == 0
    assert {p: sum(c.rank.points for c in won) for p, won in deal.won.items()} == {0: declarer_points, 1: 15}
    assert " ".join(str(c) for c in deal.discards) == set_aside
    assert " ".join(str(c) for c in deal.leftover) == "JC 9C"  # the unchosen talon: `to: nobody`
