"""The highest-card duties and whom the duties bind (``play.beat_with_highest``,
``play.trump_with_highest``, ``play.duties_bind``): exact legal cards and refusals, on the
house examples examples/house/beat-with-highest.yaml and defenders-beat.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysiac_spec import IllegalActionError, load_ruleset
from tysiac_spec.engine import Game, parse_action

HOUSE = Path(__file__).parent.parent / "examples" / "house"
HANDS = {1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"}
TALON = ["QC JC 9C"]


def _game(ref: str, text: str | None = None) -> Game:
    rules = load_ruleset(HOUSE / f"{ref}.yaml") if text is None else load_ruleset(ref, text=text)
    game = Game(rules, players=3, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    return game


def _position(game: Game, *, declarer: int, trump: str | None, trick: str, hand: str) -> list[str]:
    """Legal actions of player 0 holding ``hand`` after ``trick`` (played by 1 then 2)."""
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.trump, deal.trick_number = "play", declarer, trump, 3
    deal.trick = list(zip((1, 2), deck.parse_many(trick), strict=False))
    deal.hands[0] = sorted(deck.parse_many(hand), key=lambda c: c.index)
    deal.current = 0
    return [str(a) for a in game.legal_actions()]


@pytest.mark.parametrize(
    ("trump", "trick", "hand", "expected"),
    [
        # beat: pl-standard allows AH, TH or KH over QH; only the highest heart here.
        (None, "QH", "AH TH KH 9H 9S", ["play AH"]),
        (None, "9H KH", "TH AH QH 9S", ["play AH"]),
        # cannot beat: any card of the suit led, as before.
        (None, "AH", "KH 9H 9S", ["play KH", "play 9H"]),
        # trumped trick (`beat_when_trumped: false`): follow with any heart.
        ("spades", "QH 9S", "AH KH 9C", ["play AH", "play KH"]),
        # must trump: the highest trump, not any trump.
        ("spades", "AH", "KS 9S 9C", ["play KS"]),
        # must overtrump: the highest trump (AS), not only one above KS.
        ("spades", "AH KS", "AS TS 9S 9C", ["play AS"]),
        # only lower trumps (S000: any card): unchanged.
        ("spades", "AH KS", "QS 9S 9C", ["play 9C", "play QS", "play 9S"]),
    ],
)
def test_beat_with_highest(trump: str | None, trick: str, hand: str, expected: list[str]) -> None:
    game = _game("beat-with-highest")
    assert _position(game, declarer=1, trump=trump, trick=trick, hand=hand) == expected


def test_shipped_duties_unchanged() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    assert _position(game, declarer=1, trump=None, trick="QH", hand="AH TH KH 9H 9S") == [
        "play AH",
        "play TH",
        "play KH",
    ]
    assert _position(game, declarer=1, trump="spades", trick="AH KS", hand="AS TS 9S 9C") == [
        "play AS",
        "play TS",
    ]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("play TH", "must beat QH with the highest hearts card held, AH"),
        ("play 9H", "must beat QH with the highest hearts card held, AH"),
    ],
)
def test_highest_refusal(action: str, reason: str) -> None:
    game = _game("beat-with-highest")
    _position(game, declarer=1, trump=None, trick="QH", hand="AH TH 9H 9S")
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(parse_action(action, game.ruleset.deck))
    assert str(info.value).startswith(
        f"error[action.illegal]: `{action}` is not legal for player 0 in the play phase: {reason}"
    )
    assert game.snapshot() == before


def test_highest_trump_refusal() -> None:
    game = _game("beat-with-highest")
    _position(game, declarer=1, trump="spades", trick="AH KS", hand="AS TS 9S 9C")
    with pytest.raises(IllegalActionError) as info:
        game.apply(parse_action("play TS", game.ruleset.deck))
    assert "must overtrump KS, with the highest trump held, AS" in str(info.value)


@pytest.mark.parametrize(
    ("declarer", "trump", "trick", "hand", "expected"),
    [
        # player 0 is a defender: beat and overtrump as in pl-standard.
        (1, None, "QH", "AH TH 9H 9S", ["play AH", "play TH"]),
        (1, "spades", "AH KS", "AS 9S 9C", ["play AS"]),
        # player 0 is the declarer: follow suit only; trump when void, any trump.
        (0, None, "QH", "AH TH 9H 9S", ["play AH", "play TH", "play 9H"]),
        (0, "spades", "AH KS", "AS 9S 9C", ["play AS", "play 9S"]),
        # the declarer must still follow suit and trump when void.
        (0, "spades", "AH", "9S 9C", ["play 9S"]),
    ],
)
def test_defenders_bound(
    declarer: int, trump: str | None, trick: str, hand: str, expected: list[str]
) -> None:
    game = _game("defenders-beat")
    assert _position(game, declarer=declarer, trump=trump, trick=trick, hand=hand) == expected


DECLARER_ONLY = (
    "id: declarer-beats\nkind: house\nextends: pl-standard\nname: {en: Declarer beats}\n"
    "play: {duties_bind: declarer, beat_with_highest: true}\n"
)


def test_declarer_bound() -> None:
    game = _game("declarer-beats.yaml", text=DECLARER_ONLY)
    # the declarer beats with his highest heart; a defender need only follow
    assert _position(game, declarer=0, trump=None, trick="QH", hand="AH TH 9H 9S") == ["play AH"]
    assert _position(game, declarer=1, trump=None, trick="QH", hand="AH TH 9H 9S") == [
        "play AH",
        "play TH",
        "play 9H",
    ]
    game.deal.declarer = 0
    with pytest.raises(IllegalActionError, match="must beat QH with the highest hearts card held, AH"):
        game.apply(parse_action("play 9H", game.ruleset.deck))


# ---------------------------------------------------------------- the lead after a marriage
DEAL = {1: "AH KH AD KD QD 9C QS", 2: "TH QH 9H TD JD AC AS", 0: "9D KC QC JC TS JS 9S"}
OPENING = ["bid 100", "pass", "pass", "give 9C to 2", "give QS to 0", "contract 100", "play KD marriage"]


def _after_marriage(text: str) -> Game:
    """Player 1 declares diamonds (KD) in the first trick; player 2 wins it with TD and leads."""
    game = Game(load_ruleset("lead.yaml", text=text), players=3, seed=0)
    game.start_deal(hands=DEAL, talons=["JH TC KS"], dealer=0)
    for action in [*OPENING, "play TD", "play 9D"]:
        game.apply(parse_action(action, game.ruleset.deck))
    return game


LEAD = "id: lead\nkind: house\nextends: pl-standard\nname: {{en: Lead}}\nplay: {{lead_after_marriage: {}}}\n"


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("any", ["play TH", "play QH", "play 9H", "play JD", "play AC", "play 9C", "play AS"]),
        ("trump", ["play JD"]),
        ("not_trump", ["play TH", "play QH", "play 9H", "play AC", "play 9C", "play AS"]),
    ],
)
def test_lead_after_marriage(rule: str, expected: list[str]) -> None:
    game = _after_marriage(LEAD.format(rule))
    assert game.current_player == 2 and game.deal.trump == "diamonds"
    assert [str(a) for a in game.legal_actions()] == expected


@pytest.mark.parametrize(
    ("rule", "action", "reason"),
    [
        ("trump", "play AS", "after a marriage the lead must be a trump (diamonds)"),
        ("not_trump", "play JD", "after a marriage the lead must not be a trump (diamonds)"),
    ],
)
def test_lead_after_marriage_refusal(rule: str, action: str, reason: str) -> None:
    game = _after_marriage(LEAD.format(rule))
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(parse_action(action, game.ruleset.deck))
    assert str(info.value).startswith(
        f"error[action.illegal]: `{action}` is not legal for player 2 in the play phase: {reason}"
    )
    assert game.snapshot() == before


def test_lead_after_marriage_binds_one_trick() -> None:
    game = _after_marriage(LEAD.format("trump"))
    for action in ["play JD", "play KC", "play AD"]:
        game.apply(parse_action(action, game.ruleset.deck))
    # trick 1 had no marriage: player 1 leads freely (trumps and others)
    assert [str(a) for a in game.legal_actions()] == [
        "play AH",
        "play KH",
        "play JH",
        "play QD",
        "play TC",
        "play KS",
    ]
    assert game.deal.marriage_trick == 0 and game.deal.trick_number == 2


def test_lead_after_marriage_without_trumps_held() -> None:
    # the leader holds no trump: any card (mekedron: "if the leader holds one")
    game = _after_marriage(LEAD.format("trump"))
    deck, deal = game.ruleset.deck, game.deal
    deal.hands[2] = sorted(deck.parse_many("TH QH 9H AC AS"), key=lambda c: c.index)
    assert [str(a) for a in game.legal_actions()] == ["play TH", "play QH", "play 9H", "play AC", "play AS"]


# ---------------------------------------------------------------- a defender's discard
@pytest.mark.parametrize(
    ("declarer", "hand", "expected"),
    [
        # a defender whose trumps cannot beat KS: any card (pl-tysiac-hd: still a trump)
        (1, "9S 9C AD", ["play AD", "play 9C", "play 9S"]),
        # the declarer: still a trump
        (0, "9S 9C AD", ["play 9S"]),
        # a defender who can overtrump must still do it
        (1, "AS 9S 9C", ["play AS"]),
    ],
)
def test_defenders_may_discard(declarer: int, hand: str, expected: list[str]) -> None:
    game = _game("partial-trumping")
    assert _position(game, declarer=declarer, trump="spades", trick="AH KS", hand=hand) == expected
    base = Game(load_ruleset("pl-tysiac-hd"), players=3, seed=0)
    base.start_deal(hands=HANDS, talons=TALON, dealer=0)
    if declarer == 1 and hand.startswith("9S"):
        assert _position(base, declarer=declarer, trump="spades", trick="AH KS", hand=hand) == ["play 9S"]


@pytest.mark.parametrize(
    "name",
    ["beat-with-highest", "defenders-beat", "defenders-overtrump-declarer", "lead-trump-after-marriage",
     "partial-trumping"],
)
def test_house_scenarios_pass(name: str) -> None:
    # the scenarios of the house examples (examples/house/scenarios/), as `tysiac check` runs them
    from tysiac_spec.scenarios import load_scenarios, run_file

    scenario_file = load_scenarios(
        HOUSE / "scenarios" / f"{name}.yaml", ruleset=load_ruleset(HOUSE / f"{name}.yaml")
    )
    results = run_file(scenario_file)
    assert results and all(r.passed for r in results), [r.explain() for r in results]


# ---------------------------------------------------------------- a defender beats the declarer's trump
NO_TRUMP_DUTY = (
    "id: over-declarer\nkind: house\nextends: cz-standard\nname: {en: Beat the declarer}\n"
    "play: {must_trump: false, defenders_overtrump_declarer: true}\n"
)


@pytest.mark.parametrize(
    ("ref", "declarer", "expected"),
    [
        # cz-standard + the house rule: the defender must beat the declarer's QS
        ("defenders-overtrump-declarer", 2, ["play AS", "play KS"]),
        # the declarer himself: any trump, as in cz-standard
        ("defenders-overtrump-declarer", 0, ["play AS", "play KS", "play 9S"]),
        # QS is the other defender's: any trump, as in cz-standard
        ("defenders-overtrump-declarer", 1, ["play AS", "play KS", "play 9S"]),
        # MEK's spec (must_trump and must_overtrump off): exactly the two higher trumps
        (NO_TRUMP_DUTY, 2, ["play AS", "play KS"]),
        (NO_TRUMP_DUTY, 1, ["play AS", "play KS", "play 9S", "play 9C"]),
    ],
)
def test_defenders_overtrump_declarer(ref: str, declarer: int, expected: list[str]) -> None:
    game = _game("over-declarer.yaml", text=ref) if ref.startswith("id:") else _game(ref)
    cards = _position(game, declarer=declarer, trump="spades", trick="AH QS", hand="AS KS 9S 9C")
    assert sorted(cards) == sorted(expected)
    base = Game(load_ruleset("cz-standard"), players=3, seed=0)
    base.start_deal(hands=HANDS, talons=TALON, dealer=0)
    assert sorted(_position(base, declarer=2, trump="spades", trick="AH QS", hand="AS KS 9S 9C")) == [
        "play 9S", "play AS", "play KS"
    ]


def test_defenders_overtrump_declarer_refusal() -> None:
    game = _game("defenders-overtrump-declarer")
    _position(game, declarer=2, trump="spades", trick="AH QS", hand="AS KS 9S 9C")
    with pytest.raises(IllegalActionError) as info:
        game.apply(parse_action("play 9S", game.ruleset.deck))
    assert "must overtrump QS" in str(info.value)


def test_defenders_overtrump_declarer_not_the_other_defender() -> None:
    # four cards on a trick (a layout with four active players): the declarer (1) trumps
    # with JS, the other defender (2) with AS; the defender to play, void in hearts and
    # holding KS and 9S, must beat JS, not AS; with must_overtrump binding him he would
    # have to beat AS, which he cannot
    from tysiac_spec.engine.play import compile_duties

    rules = load_ruleset(HOUSE / "defenders-overtrump-declarer.yaml")
    deck = rules.deck
    play = rules.form(3).play
    trick = list(zip((0, 1, 2), deck.parse_many("AH JS AS"), strict=True))
    hand = sum(c.bit for c in deck.parse_many("KS 9S 9C"))
    suit_bits = deck.suit_bits
    legal, _, about = compile_duties(play)(hand, trick, "spades", suit_bits, 1)
    assert [str(c) for c in deck.parse_many("KS 9S 9C") if c.bit & legal] == ["KS"] and str(about) == "JS"
