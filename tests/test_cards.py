"""Cards, ranks and suits are built from the ruleset's deck data; notation parses and prints in pairs."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tysiac_spec import Card, Deck, NotationError, load_ruleset
from tysiac_spec.ruleset import core_deck


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_ruleset("core").deck


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QH", "QH"),
        ("Q♥", "QH"),
        ("10H", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        (" 9s ", "9S"),
        ("A♣", "AC"),
        ("jd", "JD"),
        ("K♠", "KS"),
        ("10♦", "TD"),
    ],
)
def test_notation_parses_to_canonical_form(deck: Deck, text: str, canonical: str) -> None:
    assert str(deck.parse(text)) == canonical


def test_card_parse_and_str_are_a_pair(deck: Deck) -> None:
    for card in deck.cards:
        assert deck.parse(str(card)) == card
        assert deck.parse(card.symbol()) == card
        assert Card.parse(str(card), deck) is card
        assert repr(card) == f"Card.parse({str(card)!r})"
        # the repr pastes back with the pack given
        assert eval(repr(card)[:-1] + ", deck)", {"Card": Card, "deck": deck}) is card


def test_deck_is_built_from_data(deck: Deck) -> None:
    # S000/S002/S003: 24 cards 9..A; A 11, T 10, K 4, Q 3, J 2, 9 0; 120 in all
    assert len(deck) == 24
    assert [r.letter for r in deck.ranks] == ["A", "T", "K", "Q", "J", "9"]
    assert {r.letter: r.points for r in deck.ranks} == {
        "A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0,
    }
    assert deck.total_points == 120
    assert [c.index for c in deck.cards] == list(range(24))
    # the ten ranks above the king in trick order
    assert deck.rank("ten").strength > deck.rank("king").strength


def test_suit_and_rank_names_come_from_data(deck: Deck) -> None:
    hearts = deck.suit("H")
    assert hearts.id == "hearts" and hearts.symbol == "♥"
    assert hearts.name("pl") == "kier" and hearts.name("ru") == "черви"
    assert deck.rank("10").name("cs") == "desítka"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QX", "`QX` is not a card: write a rank (A T K Q J 9, or 10) then a suit (H D C S or its symbol), e.g. `AH`"),
        ("", "`` is not a card: write a rank (A T K Q J 9, or 10) then a suit (H D C S or its symbol), e.g. `AH`"),
        ("8H", "`8H` is not a card: write a rank (A T K Q J 9, or 10) then a suit (H D C S or its symbol), e.g. `AH`"),
    ],
)
def test_parse_errors_name_the_text(deck: Deck, text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        deck.parse(text)
    assert info.value.diagnostic.message == message
    assert info.value.diagnostic.code == "notation.card"
    assert isinstance(info.value, ValueError)


def test_unknown_suit_lists_the_known_ones(deck: Deck) -> None:
    with pytest.raises(NotationError, match=r"unknown suit `X`; expected one of H \(hearts\)"):
        deck.suit("X")


def test_parse_many_and_format(deck: Deck) -> None:
    cards = deck.parse_many("QH, K♥ 10s")
    assert deck.format(cards) == "QH KH TS"


@functools.cache
def _core_deck() -> Deck:
    return load_ruleset("core").deck


@pytest.mark.slow  # about 2 s of CPU (quick-loop budget, issue 25)
@given(st.text(max_size=6))
def test_parse_never_raises_anything_but_notation_error(text: str) -> None:
    deck = _core_deck()
    try:
        card = deck.parse(text)
    except NotationError:
        return
    assert deck.parse(str(card)) == card


def test_a_deck_from_other_data() -> None:
    # the same code builds any pack the data describes (here: no nines, 20 cards, PAGx1)
    deck = Deck.from_data(
        {
            "suits": [{"id": "hearts", "letter": "H"}, {"id": "spades", "letter": "S"}],
            "ranks": [{"id": "ace", "letter": "A", "points": 11}, {"id": "ten", "letter": "T", "points": 10}],
        }
    )
    assert [str(c) for c in deck.cards] == ["AH", "TH", "AS", "TS"]
    assert deck.total_points == 42


def test_suits_and_ranks_equal_their_ids(deck: Deck) -> None:
    # formulas see suits and ranks by id (docs/dsl.md); the Python objects compare the same way
    card = deck.parse("QH")
    assert card.suit == "hearts" and card.rank == "queen"
    assert {"hearts": 100}[card.suit] == 100
    assert card.suit != "spades" and card.suit == deck.suit("hearts")


def test_core_deck_is_the_core_rulesets_pack() -> None:
    # the ruleset layer provides the shipped pack; cards.py reads no file (S000: 24 cards, 120)
    core = core_deck()
    assert core is load_ruleset("core").deck
    assert len(core) == 24 and core.total_points == 120
    assert Card.parse("TH", core) == load_ruleset("pl-standard").deck.parse("10♥")
    assert Card.parse("Q♥", core) is core.cards[3]


def test_card_parse_needs_a_deck() -> None:
    with pytest.raises(TypeError, match="deck"):
        Card.parse("QH")  # type: ignore[call-arg]


def test_a_decks_cards_are_built_complete(deck: Deck) -> None:
    """Each card carries its values from construction: bit, its suit's bits, its pack."""
    assert deck.suit_bits == {"hearts": 0x3F, "diamonds": 0xFC0, "clubs": 0x3F000, "spades": 0xFC0000}
    for i, card in enumerate(deck.cards):
        assert card.index == i and card.bit == 1 << i
        assert card.suit_bits == deck.suit_bits[card.suit_id]
        assert card.pack is deck.cards
        assert (card.suit_id, card.strength, card.points) == (card.suit.id, card.rank.strength, card.rank.points)
    ten = deck.parse("TD")
    assert (ten.index, ten.bit, ten.suit_bits, ten.points, ten.strength) == (7, 0x80, 0xFC0, 10, 4)


def test_a_card_is_an_immutable_value(deck: Deck) -> None:
    import copy
    import pickle
    from dataclasses import FrozenInstanceError

    qh = deck.parse("QH")
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'points'"):
        qh.points = 5  # type: ignore[misc]
    outside = Card(qh.rank, qh.suit)
    assert (outside.index, outside.bit, outside.suit_bits, outside.pack) == (-1, 0, 0, ())
    assert outside == qh and hash(outside) == hash(qh) == hash(("queen", "hearts"))
    assert outside != deck.parse("KH") and qh != "QH"
    for clone in (copy.copy(qh), pickle.loads(pickle.dumps(qh))):
        assert clone == qh and str(clone) == "QH" and clone.bit == qh.bit and len(clone.pack) == 24
    with pytest.raises(TypeError):
        _ = qh < deck.parse("KH")  # type: ignore[operator]


def test_the_pack_has_one_home_and_two_views() -> None:
    """``ruleset.deck`` is the pack; the DSL's view (``DeckInfo.of``) and the deprecated
    ``ruleset.deck_spec`` are made from it, with the facts of ``rulesets/core.yaml``."""
    from tysiac_spec.dsl import DeckInfo
    from tysiac_spec.scoresheet.carry import rules_fingerprint

    rules = load_ruleset("pl-standard")
    deck = rules.deck
    info = DeckInfo.of(deck, marriage_values={"hearts": 100}, marriage_ranks=("king", "queen"))
    assert info.suits == ("hearts", "diamonds", "clubs", "spades")
    assert info.ranks == ("ace", "ten", "king", "queen", "jack", "nine")
    assert info.rank_points == {"ace": 11, "ten": 10, "king": 4, "queen": 3, "jack": 2, "nine": 0}
    assert info.pack is deck.cards and info.marriage_values == {"hearts": 100}
    with pytest.warns(DeprecationWarning, match=r"read Ruleset\.deck"):
        spec = rules.deck_spec
    assert [(s.id, s.letter, s.symbol) for s in spec.suits] == [
        ("hearts", "H", "♥"), ("diamonds", "D", "♦"), ("clubs", "C", "♣"), ("spades", "S", "♠")]
    assert spec.suits[0].names["pl"] == "kier"
    assert [(r.letter, r.points, r.aliases) for r in spec.ranks][:2] == [("A", 11, ()), ("T", 10, ("10",))]
    assert spec.total_points == 120
    # a scoresheet's record of the rules hashes the pack as it did when it read it as written
    assert rules_fingerprint(rules, rules.form(3))["deck"] == "1a34415b62c72789"
