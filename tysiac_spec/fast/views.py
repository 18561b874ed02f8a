"""Bots that read their view, on the fast path: what the generated code records of a deal,
and the engine's :class:`~tysiac_spec.engine.view.View` built from it.

A module generated with ``K_VIEWS`` (:class:`~tysiac_spec.fast.FastRunner` made with
``views=True``) records, as plain values, what a player may see of the deal in a
:class:`Table` (the hands as bit sets, the talons, the bids, the talon taken, the cards given,
the trick so far and the last one, the tricks taken, the marriages declared, the trump, the
match scores).  At a decision, :meth:`Table.view` hands them to the engine's own
:func:`~tysiac_spec.engine.view.view_from` (the one statement of what a view shows, which
the engine's :func:`~tysiac_spec.engine.view.view_of` calls too), and :func:`bot_policy`
turns a bot's ``choose(view, legal_actions)`` into a policy on action codes.  A module
generated without ``K_VIEWS`` records nothing (the random bots' code is unchanged).

A form whose views the table cannot state falls back to the engine: :func:`views_uncovered`
says why (the talons turned face up in the auction, ``talon.shown_from: second_round``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..cards import Card
from ..engine.talon import shown_when_taken
from ..engine.view import View, view_from
from ..ruleset.model import Form
from .generate import CODES

__all__ = ["Table", "bot_policy", "phase_of", "views_uncovered"]

_K = CODES
_DARK = CODES["K_DARK"]


def phase_of(code: int) -> str:
    """The deal's phase in which the action ``code`` is offered (the first of a decision's
    legal codes): ``auction``, ``talon``, ``exchange``, ``contract``, ``play``, ``redeal``,
    ``dark`` or ``marriages``."""
    if code >= _K["K_CONTRACT"]:
        return "contract"
    if code >= _K["K_BID"]:
        return "auction"
    if code >= _K["K_TALON"]:
        return "talon"
    if code >= _K["K_DISCARD"]:
        return "exchange"
    if code >= _K["K_ACES"]:
        return "play"
    if code >= _K["K_ANNOUNCE"]:
        return "marriages"
    if code == _K["K_REDEAL"]:
        return "redeal"
    if code in (_K["K_DARK"], _K["K_CANCEL_DARK"]):
        return "dark"
    if code == _K["K_PASS"]:
        return "auction"
    return "play"


def views_uncovered(form: Form) -> str | None:
    """Why the fast path cannot show ``form``'s players their views, or ``None``."""
    if form.talon.shown_from == "second_round":
        return ("talon.shown_from = 'second_round' (the views on the fast path show no talon turned up in "
                "the auction)")
    return None


class Table:
    """What the generated code records of the match and the deal (``tv`` in
    ``fast/_template.py``), as plain values: cards are pack indexes, hands bit sets,
    players seats, ``trump`` a suit's bit set (0: none), ``declarer`` -1 before there is one;
    ``bids`` holds ``(player, code)``, ``declared`` ``(player, suit place)`` (-1: the ace
    marriage); ``gifts``, ``trick`` and ``last`` (the last trick) hold ``(player, card)``
    pairs of the pack's cards (:attr:`pack`)."""

    __slots__ = (
        "_bytes",
        "_said",
        "_suit_of_mask",
        "_text",
        "_texts",
        "ace_rank",
        "bids",
        "contract",
        "dealer",
        "declared",
        "declarer",
        "form",
        "gifts",
        "hand",
        "last",
        "order",
        "pack",
        "public",
        "scores",
        "shown",
        "simple",
        "sitter",
        "state",
        "suit_ids",
        "taken",
        "talons",
        "trick",
        "tricks",
        "trump",
    )

    def __init__(self, form: Form, pack: Sequence[Card], text: Callable[[int], str],
                 shared: Table | None = None) -> None:
        self.form, self.pack = form, pack
        self._text = text
        self._said: list[tuple[int, str]] = []
        self.ace_rank = form.marriages.ace_marriage.rank
        self.suit_ids: list[str]
        self._texts: dict[int, str]
        self._suit_of_mask: dict[int, str]
        self._bytes: list[list[tuple[Card, ...]]]
        if shared is not None:  # (the next match of the same runner: the pack's tables made once)
            self.suit_ids, self._suit_of_mask = shared.suit_ids, shared._suit_of_mask
            self._texts, self._bytes = shared._texts, shared._bytes
        else:
            self.suit_ids = []
            for c in pack:
                if c.suit_id not in self.suit_ids:
                    self.suit_ids.append(c.suit_id)
            self._suit_of_mask = {c.suit_bits: c.suit_id for c in pack}
            self._texts = {}
            # the cards of each byte of a hand's bit set, in pack order: a hand read a byte at a time
            n = len(pack)
            self._bytes = [[tuple([pack[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < n])
                            for b in range(256)] for k in range((n + 7) // 8)]
        self.public = form.talon.shown_from == "deal"
        self.scores: list[int] = []
        self.simple = False
        self.state: Any = None
        self.tricks: list[int] | None = None
        self.declared: list[tuple[int, int]] = []
        self.sitter: int | None = None
        self.dealer, self.declarer, self.contract, self.trump = 0, -1, 0, 0
        self.order: list[int] = []
        self.hand: list[int] = []
        self.talons: list[list[int]] = []
        self.bids: list[tuple[int, int]] = []
        self.taken: list[Card] = []
        self.shown = False
        self.gifts: list[tuple[int, Card]] = []
        self.trick: list[tuple[int, Card]] = []
        self.last: list[tuple[int, Card]] = []

    def match(self, scores: list[int], simple: bool) -> None:
        """A match starts: ``scores`` are its scores when settled by the simple settlement
        (``simple``), else the match state's (:attr:`state`)."""
        self.scores, self.simple = scores, simple

    def deal(self, dealer: int, order: list[int], sitter: int | None, hand: list[int],
             talons: list[list[int]], state: Any) -> None:
        """A deal is dealt (``hand``: the players' bit sets, changed in place as cards move)."""
        self.dealer, self.order, self.sitter, self.hand, self.talons = dealer, order, sitter, hand, talons
        self.state = state
        self.bids, self.taken, self.shown, self.gifts = [], [], False, []
        self._said = []
        self.declarer, self.contract, self.trump = -1, 0, 0
        self.trick, self.last, self.tricks, self.declared = [], [], None, []

    def take(self, cards: list[int], contested: bool, dark: bool) -> None:
        """The declarer takes the talon ``cards`` (shown as :func:`.talon.shown_when_taken`)."""
        pack = self.pack
        self.taken = [pack[c] for c in cards]
        self.shown = shown_when_taken(self.form, self.public, dark, contested)

    def play(self, contract: int, tricks: list[int], declared: list[tuple[int, Any]]) -> None:
        """The play starts at ``contract``; ``tricks`` and ``declared`` change in place."""
        self.contract, self.tricks, self.declared = contract, tricks, declared

    def text(self, code: int) -> str:
        """The engine's text of the action ``code``, kept."""
        t = self._texts.get(code)
        if t is None:
            t = self._texts[code] = self._text(code)
        return t

    def view(self, player: int, legal: Sequence[int]) -> View:
        """The engine's view of ``player``, to act on ``legal`` (:func:`.view.view_from`)."""
        pack, hand, order = self.pack, self.hand, self.order
        m = hand[player]
        mine: list[Card] = []
        for cards in self._bytes:
            if m & 255:
                mine += cards[m & 255]
            m >>= 8
        bids, said = self.bids, self._said
        if len(said) != len(bids):  # (the bids' texts, kept as the auction goes; cleared with it)
            if len(said) > len(bids):
                said.clear()
            said += [(p, self.text(a)) for p, a in bids[len(said):]]
        tricks = self.tricks
        first = legal[0]
        talons = [[pack[c] for c in t] for t in self.talons] if self.public and not self.taken else ()
        suit_ids, ace = self.suit_ids, self.ace_rank
        return view_from(
            self.form, player, phase_of(first), player, self.dealer, self.sitter, order, mine,
            [hand[p].bit_count() for p in order], self.taken, self.shown, self.public, talons,
            self.gifts, said,
            None if self.declarer < 0 else self.declarer, self.contract,
            self._suit_of_mask.get(self.trump) if self.trump else None,
            self.trick, [tricks[p] for p in order] if tricks else [0] * len(order),
            [(p, suit_ids[s] if s >= 0 else ace) for p, s in self.declared] if self.declared else (),
            self.scores if self.simple else self.state.scores,
            self.last, first == _DARK,
        )


def bot_policy(view: Callable[[int, Sequence[int]], View], action: Callable[[int], Any],
               choose: Callable[[View, list[Any]], Any],
               illegal: Callable[[Any, list[Any]], Exception] | None = None,
               ) -> Callable[[int, list[int]], int]:
    """A policy on action codes from a bot's ``choose(view, legal_actions)``: the view from
    ``view(player, legal)`` (:meth:`Table.view`), the actions from ``action(code)`` (the
    engine's action objects, one per code).  A choice that is none of the legal actions (by
    identity, else by equality) raises ``illegal(choice, legal_actions)``, else a
    ``ValueError`` naming it."""
    actions: dict[int, Any] = {}

    known = actions.get

    def made(code: int) -> Any:
        a = actions[code] = action(code)
        return a

    def policy(player: int, legal: list[int]) -> int:
        objs = [known(code) or made(code) for code in legal]
        chosen = choose(view(player, legal), objs)
        for code, a in zip(legal, objs, strict=True):
            if a is chosen:
                return code
        for code, a in zip(legal, objs, strict=True):
            if a == chosen:
                return code
        raise illegal(chosen, objs) if illegal is not None else ValueError(f"not a legal action: {chosen!r}")

    return policy
