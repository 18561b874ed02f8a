"""Pure logic of playing at the terminal (``tysiac play``): what the user typed → an action,
and the texts shown at the table (a hand sorted by suit and rank, the trick, the bids).

Nothing here reads or prints; the click command in :mod:`tysiac_spec.commands.play`
does the input and output.  Players are numbered from 0, as in the action texts
(``give 9S to 2``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from .cards import Card, Deck
from .engine.actions import Action, Bid, Pass, PlayCard, parse_action
from .engine.game import View
from .errors import Diagnostic, EntryError, NotationError
from .text import shorten

__all__ = [
    "EntryError",
    "choices_text",
    "complete",
    "declarations",
    "format_card",
    "format_cards",
    "hand_by_suit",
    "legal_summary",
    "resolve_input",
    "said",
    "sort_hand",
    "view_lines",
]


def _entry(code: str, message: str) -> EntryError:
    return EntryError(Diagnostic(f"entry.{code}", message))


def said(action: Action, phase: str, player: int, declarer: int | None) -> str:
    """The action as the table hears it: a pass after the auction names what was declined
    (``pass (no contra)``, ``pass (no redouble)``, ``pass (does not buy)``), so that it is not
    read as a bid passed; every other action as typed (``str(action)``).

    Args:
        phase: the deal's phase when the action was taken (``DealState.phase``).
        player: who took it; ``declarer``: the deal's declarer then (``None`` in the auction).
    """
    if isinstance(action, Pass):
        if phase == "contra":
            return "pass (no redouble)" if player == declarer else "pass (no contra)"
        if phase == "rebuy":
            return "pass (does not buy)"
    return str(action)


def sort_hand(cards: Iterable[Card], deck: Deck) -> list[Card]:
    """Cards sorted by suit (the deck's suit order) then rank, strongest first."""
    suits = {s.id: i for i, s in enumerate(deck.suits)}
    return sorted(cards, key=lambda c: (suits[c.suit.id], -c.rank.strength))


def format_card(card: Card, *, symbols: bool = False) -> str:
    """``QH``, or ``Q♥`` with ``symbols``."""
    return card.symbol() if symbols else str(card)


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Cards separated by blanks, in the given order (``-`` for none)."""
    return " ".join(format_card(c, symbols=symbols) for c in cards) or "-"


def hand_by_suit(cards: Iterable[Card], deck: Deck) -> list[tuple[str, list[Card]]]:
    """The hand grouped by suit in the deck's suit order: ``[(suit id, cards strongest first)]``;
    suits the hand lacks are left out."""
    out: list[tuple[str, list[Card]]] = []
    for suit in deck.suits:
        group = [c for c in sort_hand(cards, deck) if c.suit == suit]
        if group:
            out.append((suit.id, group))
    return out


def choices_text(legal: Sequence[Action], width: int | None = None, indent: int = 0) -> str:
    """The numbered choices, one line: ``1) bid 110  2) bid 120  3) pass``; with ``width``,
    lines of at most ``width`` characters broken between two choices, never inside one (the
    first line after ``indent`` characters already written, the others indented by that)."""
    items = [f"{i}) {a}" for i, a in enumerate(legal, 1)]
    if width is None:
        return "  ".join(items)
    lines: list[str] = []
    line = ""
    for item in items:
        if line and indent + len(line) + 2 + len(item) > width:
            lines.append(line)
            line = item
        else:
            line = f"{line}  {item}" if line else item
    lines.append(line)
    return ("\n" + " " * indent).join(lines)


_SUMMARY_ITEMS = 12
"""Items of :func:`legal_summary` before the rest is left to ``?``."""


def legal_summary(legal: Sequence[Action]) -> str:
    """What the phase takes, in one line: the legal actions' texts, bids as a range when
    they go up in equal steps (``bid 110..360 (steps of 10), pass``), at most
    :data:`_SUMMARY_ITEMS` items (then ``… (`?` lists them all)``); ``nothing`` for none."""
    amounts = [a.amount for a in legal if isinstance(a, Bid)]
    steps = {b - a for a, b in pairwise(amounts)}
    parts: list[str] = []
    for action in legal:
        if isinstance(action, Bid):
            if action.amount != amounts[0]:
                continue
            if len(amounts) >= 3 and len(steps) == 1 and min(steps) > 0:
                parts.append(f"bid {amounts[0]}..{amounts[-1]} (steps of {min(steps)})")
            else:
                parts.extend(f"bid {a}" for a in amounts)
        elif str(action) not in parts:
            parts.append(str(action))
    if len(parts) > _SUMMARY_ITEMS:
        parts = [*parts[:_SUMMARY_ITEMS], "… (`?` lists them all)"]
    return ", ".join(parts) or "nothing"


def declarations(action: Action, legal: Sequence[Action]) -> list[PlayCard]:
    """The legal plays of the same card that declare something (a marriage, the aces) when
    ``action`` is the plain play of a card (``play QS``); ``[]`` otherwise.  Which plays
    declare is the engine's word (``legal``); the table asks before a plain play forgoes
    them."""
    if not isinstance(action, PlayCard) or action.marriage or action.aces:
        return []
    return [
        a for a in legal
        if isinstance(a, PlayCard) and a.card == action.card and (a.marriage or a.aces)
    ]


def _plain_play(candidates: Sequence[Action], legal: Sequence[Action]) -> PlayCard | None:
    """The plain play when ``candidates`` are one card's plays: plain, and declaring."""
    plain = [a for a in candidates if isinstance(a, PlayCard) and not a.marriage and not a.aces]
    if len(plain) == 1 and all(a == plain[0] or a in declarations(plain[0], legal) for a in candidates):
        return plain[0]
    return None


def complete(prefix: str, legal: Sequence[Action]) -> list[str]:
    """Texts of the legal actions starting with ``prefix`` (case-insensitive), for completion."""
    p = " ".join(prefix.lower().split())
    return [str(a) for a in legal if str(a).lower().startswith(p)]


def _card_or_none(word: str, deck: Deck) -> Card | None:
    try:
        return deck.parse(word)
    except NotationError:
        return None


_WORDS = (
    "bid", "pass", "talon", "give", "to", "discard", "contract", "play", "marriage", "aces",
    "forfeit", "dark", "cancel", "redeal", "claim", "quit", "exit", "help", "show", "table", "hand",
    "contra", "redouble", "buy",
)
"""The words of the action texts and of the table's commands: a short beginning of one of them
(``pa``, ``bi``) is a word being typed, not a card."""


def _card_error(word: str, deck: Deck) -> NotationError | None:
    """Why ``word`` is not a card, when it has the shape of one (two or three characters, like
    ``QH``, ``Q♥`` or ``10H``, and not the beginning of a word); ``None`` otherwise."""
    low = word.lower()
    if not 2 <= len(word) <= 3 or any(w.startswith(low) for w in _WORDS):
        return None
    try:
        deck.parse(word)
    except NotationError as exc:
        return exc
    return None


def resolve_input(text: str, legal: Sequence[Action], deck: Deck) -> Action:
    """The action meant by what the user typed, given the legal actions.

    Accepted: a choice number (``3``, counted from 1 in ``legal``); the full action text
    (``bid 120``, ``play QH``, ``give 9S to 2``, any case); a unique beginning of a legal
    action's text (``pl QH`` is not one, ``play Q`` is when only one queen may be played);
    a bare card (``QH``) when exactly one legal action uses it.  A fully written action
    is returned even when it is not legal, so that the game can say why (``must follow
    hearts``).  A card whose lead may declare a marriage (``QH``, ``play QH``, ``play Q``
    when only that queen may be led) is its plain play: :func:`declarations` then names what
    it would forgo, and the caller asks.

    Raises:
        EntryError: ``entry.empty``, ``entry.number`` (out of range), ``entry.ambiguous``
            (the matching actions are listed), ``entry.card`` (a card the deck does not have,
            alone or in an action: ``ZZ``, ``play ZZ``, when the phase takes cards; the
            message is the deck's own, as in :meth:`~tysiac_spec.cards.Deck.parse`),
            ``entry.unknown`` (the message says what the phase takes: :func:`legal_summary`).
    """
    words = text.split()
    if not words:
        raise _entry("empty", "type an action, a choice number, or `?` for the legal actions")
    joined = " ".join(words)
    if any("\udc80" <= c <= "\udcff" for c in joined):  # bytes read with "surrogateescape"
        raise _entry("text", f"`{shorten(joined)}` holds bytes that are not UTF-8 text (shown as "
                     "\\xNN); type the action in plain letters")
    if joined.isascii() and joined.isdigit():
        n = int(joined) if len(joined) <= 6 else 0
        if 1 <= n <= len(legal):
            return legal[n - 1]
        raise _entry("number", f"choice {shorten(joined, 12)} does not exist: choose 1 to {len(legal)}")
    bad_card: NotationError | None = None
    try:
        action = parse_action(joined, deck)
    except NotationError as exc:
        if exc.diagnostic.code == "notation.card":  # the form of an action, with no such card
            bad_card = exc
    else:
        if action not in legal and isinstance(action, PlayCard) and PlayCard(action.card, True) in legal:
            return PlayCard(action.card, True)  # the marriage is announced automatically
        return action
    matches = complete(joined, legal)
    if len(matches) == 1:
        return legal[[str(a) for a in legal].index(matches[0])]
    plain = _plain_play([a for a in legal if str(a) in matches], legal) if matches else None
    if plain is not None:
        return plain
    if len(words) == 1:
        card = _card_or_none(words[0], deck)
        if card is not None:
            uses: list[Action] = [a for a in legal if getattr(a, "card", None) == card]
            if len(uses) == 1:
                return uses[0]
            plain = _plain_play(uses, legal) if uses else None
            if plain is not None:
                return plain
            if not uses:
                if any(isinstance(a, PlayCard) for a in legal):
                    return PlayCard(card)  # the game explains why it may not be played
                raise _entry("unknown", f"no legal action uses {card}; type `?` for the legal actions")
            matches = [str(a) for a in uses]
    if len(matches) > 1:
        listed = ", ".join(f"`{m}`" for m in matches[:8]) + (" …" if len(matches) > 8 else "")
        raise _entry("ambiguous", f"`{shorten(joined)}` could mean {listed}; type more or a choice number")
    takes_cards = any(getattr(a, "card", None) is not None for a in legal)
    if bad_card is None and len(words) == 1 and takes_cards:
        bad_card = _card_error(words[0], deck)
    if bad_card is not None and takes_cards:
        raise _entry("card", bad_card.diagnostic.message)
    raise _entry("unknown", f"`{shorten(joined)}` is not an action here; you can: {legal_summary(legal)}")


_AFTER_EXCHANGE = frozenset({"contract", "marriages", "play"})
"""The phases after the talon was taken and the exchange made: the talon is not shown."""


def _name(player: int, me: int | None, partners: Sequence[int] = ()) -> str:
    return f"P{player}" + (" (you)" if player == me else " (partner)" if player in partners else "")


def view_lines(
    view: View, deck: Deck, legal: Sequence[Action], *, symbols: bool = False, partners: Sequence[int] = (),
    deal_note: str = "",
) -> list[str]:
    """The table as ``player`` sees it, as plain lines: scores (``partners``, the player's
    partners with fixed partnerships, :func:`~tysiac_spec.engine.seating.side_of`, marked
    ``(partner)``), dealer (and ``deal_note``, what kind of deal it is: a golden one,
    :func:`~tysiac_spec.docs.terms.golden_deal`), bids, contract (and its named kind), trump,
    the declarer's hand played face up, the trick on the table, tricks taken, the hand by suit
    and the legal cards."""
    me = view.player
    lines = [
        "scores: " + "  ".join(f"{_name(p, me, partners)} {s}" for p, s in enumerate(view.scores)),
        f"dealer: P{view.dealer}" + (f"  sitting out: P{view.sitter}" if view.sitter is not None else "")
        + f"  phase: {view.phase}" + (f"  ({deal_note})" if deal_note else ""),
    ]
    if view.bids:
        lines.append("bids: " + ", ".join(f"P{p} {b}" for p, b in view.bids))
    if view.declarer is not None:
        kind = f" ({view.kind})" if view.kind is not None else ""  # (a named contract, contract.kinds)
        lines.append(f"declarer: P{view.declarer}  contract: {view.contract or '-'}{kind}"
                     + (f"  contra: ×{view.contra}" if view.contra != 1 else ""))
    elif view.phase == "play":  # all-pass play: nobody declared
        lines.append("everyone passed: the deal is played out without a declarer, trump or marriages")
    if view.price:
        lines.append(f"the contract may be bought at {view.price}")
    lines.append(f"trump: {view.trump or '-'}")
    if view.declared:
        lines.append("marriages: " + ", ".join(f"P{p} {s}" for p, s in view.declared))
    if view.talon and view.phase not in _AFTER_EXCHANGE:  # (then in the declarer's hand)
        lines.append("talon: " + format_cards(view.talon, symbols=symbols))
    if view.stock_card is not None:
        lines.append(f"stock: {view.stock} card(s), the bottom one face up: "
                     + format_card(view.stock_card, symbols=symbols))
    if view.open_hand and view.player != view.declarer:  # (contract.kinds: open_hand) face up
        lines.append(f"P{view.declarer}'s open hand: " + format_cards(view.open_hand, symbols=symbols))
    if view.phase == "play":
        trick = ", ".join(f"P{p} {format_card(c, symbols=symbols)}" for p, c in view.trick) or "-"
        lines.append(f"trick: {trick}")
        lines.append("tricks taken: " + "  ".join(f"P{p} {n}" for p, n in view.tricks))
    groups = hand_by_suit(view.hand, deck)
    hand = "   ".join(
        f"{suit}: " + " ".join(format_card(c, symbols=symbols) for c in cards) for suit, cards in groups
    )
    lines.append(f"your hand: {hand or '-'}")
    playable = [a.card for a in legal if isinstance(a, PlayCard)]
    if playable:
        seen: list[Card] = []
        for c in playable:
            if c not in seen:
                seen.append(c)
        lines.append("legal cards: " + format_cards(sort_hand(seen, deck), symbols=symbols))
    return lines
