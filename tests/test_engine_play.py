"""Exact legal cards (the duties of ``form.play``) and auction openings, on stacked states."""

from __future__ import annotations

import pytest

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.engine import Game, Pass, parse_action

# A full 3-player deal: hands of players 1, 2, 0 (bidding order with dealer 0) and the talon.
HANDS = {1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"}
TALON = ["QC JC 9C"]


def _game(ruleset_id: str, players: int = 3) -> Game:
    game = Game(load_ruleset(ruleset_id), players=players, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    return game


def _play_position(ruleset_id: str, *, trump: str | None, trick: str, hand: str) -> list[str]:
    """Legal actions of player 0 holding ``hand`` after ``trick`` (played by 1 then 2)."""
    game = _game(ruleset_id)
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 1, trump, 3
    deal.trick = list(zip((1, 2), deck.parse_many(trick), strict=False))
    deal.hands[0] = sorted(deck.parse_many(hand), key=lambda c: c.index)
    deal.current = 0
    return [str(a) for a in game.legal_actions()]


@pytest.mark.parametrize(
    ("ruleset_id", "trump", "trick", "hand", "expected"),
    [
        # `must_beat`, S000's example: Q♥ led, trumped with J♦; J♥ and A♥ both legal (cannot beat the trick).
        ("pl-standard", "diamonds", "QH JD", "AH JH 9S", ["play AH", "play JH"]),
        # `must_beat`: beat the best card of the suit led when able.
        ("pl-standard", None, "QH", "AH KH JH 9S", ["play AH", "play KH"]),
        ("pl-standard", None, "9H KH", "AH QH 9S", ["play AH"]),
        # `must_beat` with `led_card`: beating the card led is enough.
        ("pl-online", None, "9H KH", "AH QH 9S", ["play AH", "play QH"]),
        # `must_beat: no` (follow suit only).
        ("cz-standard", None, "QH", "AH JH 9S", ["play AH", "play JH"]),
        ("ru-classic", None, "QH", "AH JH 9S", ["play AH", "play JH"]),
        # `must_trump`: void in the suit led must trump; no trump yet: any card.
        ("pl-standard", "spades", "AH", "9S 9C", ["play 9S"]),
        ("cz-standard", "spades", "AH", "9S 9C", ["play 9S"]),
        ("cz-standard", None, "AH", "9S 9C", ["play 9C", "play 9S"]),
        # `must_overtrump`: overtrump when able.
        ("pl-standard", "spades", "AH KS", "AS 9S 9C", ["play AS"]),
        ("cz-standard", "spades", "AH KS", "AS 9S 9C", ["play AS", "play 9S"]),
        # `cannot_overtrump`: only lower trumps: S000 any card; others still a trump.
        ("pl-standard", "spades", "AH KS", "9S 9C", ["play 9C", "play 9S"]),
        ("pl-tysiac-hd", "spades", "AH KS", "9S 9C", ["play 9S"]),
    ],
)
def test_legal_cards(ruleset_id: str, trump: str | None, trick: str, hand: str, expected: list[str]) -> None:
    assert _play_position(ruleset_id, trump=trump, trick=trick, hand=hand) == expected


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("play 9C", "must follow hearts"),
        ("play JH", "must beat QH with a higher hearts card"),
        ("play QS", "QS is not in player 0's hand"),
        ("bid 120", "play a card"),
    ],
)
def test_illegal_play_reason(action: str, reason: str) -> None:
    game = _game("pl-standard")
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.trick_number, deal.current = "play", 1, 3, 0
    deal.trick = [(1, deck.parse("QH"))]
    deal.hands[0] = list(deck.parse_many("AH JH 9C"))
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(parse_action(action, deck))
    assert str(info.value).startswith(
        f"error[action.illegal]: `{action}` is not legal for player 0 in the play phase: {reason}"
    )
    assert game.snapshot() == before


def test_marriage_spoken_and_automatic() -> None:
    # pl-standard: spoken, allowed on the declarer's first lead.
    game = _game("pl-standard")
    deal = game.deal
    deal.phase, deal.declarer, deal.current = "play", 1, 1
    assert [str(a) for a in game.legal_actions()][1:5] == [
        "play KH",
        "play KH marriage",
        "play QH",
        "play QH marriage",
    ]
    game.apply(parse_action("play QH marriage", game.ruleset.deck))
    assert deal.trump == "hearts" and deal.marriages == {1: 100}
    # ru-classic: automatic, not on the declarer's first lead, only after winning a trick.
    game = _game("ru-classic")
    deal = game.deal
    deal.phase, deal.declarer, deal.current = "play", 1, 1
    assert "play QH marriage" not in [str(a) for a in game.legal_actions()]
    deal.trick_number, deal.tricks = 1, {1: 1}
    legal = [str(a) for a in game.legal_actions()]
    assert "play QH marriage" in legal and "play QH" not in legal


def test_stacked_auction_and_exchange() -> None:
    game = _game("pl-standard")
    deck = game.ruleset.deck
    # Player 1 (dealer's left) must open at exactly 100 (S000: "sto", whatever his cards); no pass.
    legal = [str(a) for a in game.legal_actions()]
    assert game.current_player == 1 and legal == ["bid 100"]
    assert Pass() not in game.legal_actions()
    for text in ("bid 100", "pass", "pass"):
        game.apply(parse_action(text, deck))
    # The talon goes to the declarer (10 cards), who gives one card to each opponent.
    assert game.phase == "exchange" and len(game.deal.hands[1]) == 10
    assert game.view(0).talon == ()  # everyone passed: the talon is not shown (shown_when_unopposed)
    game.apply(parse_action("give 9H to 2", deck))
    with pytest.raises(IllegalActionError, match="already been given"):
        game.apply(parse_action("give 9C to 2", deck))
    game.apply(parse_action("give 9C to 0", deck))
    assert game.phase == "contract"
    amounts = [a.amount for a in game.legal_actions()]  # type: ignore[union-attr]
    assert amounts[0] == 100 and amounts[-1] == 120 + 100 + 40 and all(a % 10 == 0 for a in amounts)
    game.apply(parse_action("contract 100", deck))
    assert game.phase == "play" and game.current_player == 1


KING_JACK = "id: king-jack\nkind: house\nextends: pl-standard\nname: {en: King and jack}\nmarriages: {ranks: [king, jack]}\n"


def _king_jack(tmp_path) -> Game:  # type: ignore[no-untyped-def]
    path = tmp_path / "king-jack.yaml"
    path.write_text(KING_JACK, encoding="utf-8")
    game = Game(load_ruleset(path), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    return game


def test_the_marriage_ranks_are_the_rulesets(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``marriages.ranks: [king, jack]``: K♥ J♥ is the heart marriage, K♠ Q♠ is none."""
    game = _king_jack(tmp_path)
    assert game.form.marriages.ranks == ("king", "jack")
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, None, 3
    deal.hands[0] = sorted(deck.parse_many("KH JH KS QS 9C"), key=lambda c: c.index)
    deal.current = 0
    # pl-standard's marriages are spoken: the lead is offered with and without the declaration
    assert [str(a) for a in game.legal_actions()] == [
        "play KH", "play KH marriage", "play JH", "play JH marriage", "play 9C", "play KS", "play QS",
    ]
    game.apply(parse_action("play JH marriage", deck))
    assert game.deal.trump == "hearts" and game.deal.marriages == {0: 100}


def test_pl_standard_marriages_are_king_and_queen() -> None:
    game = _game("pl-standard")
    assert game.form.marriages.ranks == ("king", "queen")
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", 0, None, 3
    deal.hands[0] = sorted(deck.parse_many("KH JH KS QS 9C"), key=lambda c: c.index)
    deal.current = 0
    assert [str(a) for a in game.legal_actions()] == [
        "play KH", "play JH", "play 9C", "play KS", "play KS marriage", "play QS", "play QS marriage",
    ]


def test_a_claim_and_a_dark_cancel_read_the_marriage_ranks(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tysiac_spec.engine import auction
    from tysiac_spec.engine import play as play_mod

    game = _king_jack(tmp_path)
    deck, deal, form = game.ruleset.deck, game.deal, game.form
    # the declarer holds every heart and the king and jack of spades (and the queen of hearts,
    # no marriage with these ranks)
    deal.phase, deal.declarer, deal.trump, deal.trick_number, deal.current = "play", 0, None, 1, 0
    deal.hands = {
        0: list(deck.parse_many("AH TH KH QH JH 9H KS JS")),
        1: list(deck.parse_many("AD TD KD QD JD 9D AC TC")),
        2: list(deck.parse_many("KC QC JC 9C AS TS QS 9S")),
    }
    # player 2 holds spades: declaring K♠ J♠ could give him trump, so only hearts is credited
    assert play_mod.claim_marriages(form, deal) == ["hearts"]
    deal.hands[2] = list(deck.parse_many("KC QC JC 9C"))
    assert sorted(play_mod.claim_marriages(form, deal)) == ["hearts", "spades"]
    pairs = auction.marriage_masks(form, deck.cards)

    def holds(text: str) -> bool:
        return auction.marriage_holders([sum(c.bit for c in deck.parse_many(text))], [0], pairs) == 1

    assert holds("KS JS")
    assert not holds("KS QS")


def test_bid_steps_are_one_statement_for_the_auction_the_contract_and_the_outcome() -> None:
    from tysiac_spec.engine.auction import BidSteps, bid_steps, round_up
    from tysiac_spec.engine.outcome import iter_bid_errors, iter_contract_errors

    form = load_ruleset("pl-standard").form(3)
    steps = bid_steps(form)
    assert steps == BidSteps(step=10, min_bid=100, forced_bid=100, cap=360, contract_step=10)
    assert (steps.lowest, round_up(101, 10), round_up(110, 10), round_up(105 + 1, 10), round_up(110 + 1, 10)) == (
        100, 110, 110, 110, 120)
    assert (steps.on_step(115), steps.over_cap(370), steps.over_cap(360)) == (False, True, False)
    assert (steps.contract_on_step(105, 105), steps.contract_on_step(105, 115)) == (True, False)
    # the outcome's checks say it in the same words as before
    assert [e.diagnostic.message for e in iter_bid_errors(form, mode="normal", bid=375)] == [
        "bids are multiples of 10 (got 375)", "no bid above 360 in this game (got 375)"]
    assert [e.diagnostic.message for e in iter_contract_errors(form, bid=100, contract=115)] == [
        "a raised contract is a multiple of 10 (got 115)"]
    # the auction offers the same: from the forced 100 in tens up to the cap (bid_limit off)
    game = Game(load_ruleset("pl-standard", options={"bid_limit": False}), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    game.apply(parse_action("bid 100", game.ruleset.deck))
    bids = [str(a) for a in game.legal_actions()]
    assert bids[0] == "bid 110" and bids[-2:] == ["bid 360", "pass"] and len(bids) == 27
    ru = bid_steps(load_ruleset("ru-online").form(3))
    assert (ru.step, ru.contract_step, ru.cap) == (5, 5, 420)


@pytest.mark.parametrize("ruleset_id", ["pl-tysiac-hd", "cz-standard", "pl-online"])
def test_first_lead_marriage_is_a_table_option(ruleset_id: str) -> None:
    # Their sources are silent on a marriage led to the first trick (declared: the reading
    # chosen); S002 and pagat forbid it: option `first_lead_marriage=false`.
    for allowed in (True, False):
        game = Game(load_ruleset(ruleset_id, options={"first_lead_marriage": allowed}), players=3, seed=0)
        game.start_deal(hands=HANDS, talons=TALON, dealer=0)
        deal = game.deal
        deal.phase, deal.declarer, deal.current = "play", 1, 1
        legal = [str(a) for a in game.legal_actions()]
        lead = "play QH marriage" if allowed else "play QH"  # automatic: the lead declares it
        assert legal == [
            "play AH", f"play KH{' marriage' * allowed}", lead, "play 9H", "play AS",
            f"play KS{' marriage' * allowed}", f"play QS{' marriage' * allowed}",
        ]
        game.apply(parse_action(lead, game.ruleset.deck))
        assert deal.marriages == ({1: 100} if allowed else {})
        assert deal.trump == ("hearts" if allowed else None)


def test_the_bid_cap_formula_counts_the_rulesets_marriages(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """pl-standard's cap ``120 + marriages(hand)`` reads ``marriages.ranks``: holding K♥ J♥ and
    K♠ Q♠, the cap is 120 + 100 (hearts) with king and jack, 120 + 40 (spades) with king and queen."""
    king_jack = _king_jack(tmp_path)
    standard = _game("pl-standard")
    hand = standard.ruleset.deck.parse_many("KH JH KS QS 9C")
    env = {"hand": hand, "player": {"score": 0}, "players": 3, "options": {}}
    assert king_jack.form.auction.max_bid is not None and standard.form.auction.max_bid is not None
    assert king_jack.form.auction.max_bid(env) == 220
    assert standard.form.auction.max_bid(env) == 160
