"""A double-dummy solver: the card play of a deal with every hand known, solved exactly.

The solver plays out the rest of a deal for both sides — the declarer (with his partners,
``table.partnerships``) against the defenders — and returns the exact optimum of what the
declarer's contract depends on (:class:`Objective`): his card points plus his marriages
plus the cards set aside that he scores at the end (the unchosen talon, the discards:
``talon.leftover``), or, in a deal of a named contract kind scored by tricks
(``contract.kinds``: its goal reads ``tricks`` and no points), his tricks — as many as he can
take, or as few when the kind's goal is met by taking none (misère,
:func:`~tysiac_spec.engine.contracts.avoids_tricks`).

Every rule of the play is the engine's, called, never restated: the duties of the players
(follow, beat, trump, overtrump and their variants) are
:func:`~tysiac_spec.engine.play.compile_duties`' function of bit sets, the lead after a
marriage :func:`~tysiac_spec.engine.play.leads`, the trick's winner
:func:`~tysiac_spec.engine.play.takes`, the timing of a marriage
:func:`~tysiac_spec.engine.play.compile_marriage_bar` and its points and trump
:func:`~tysiac_spec.engine.play.declare_marriage` (these two read a
:class:`~tysiac_spec.engine.state.DealState`: the solver keeps one scratch deal for them and
remembers their answers by what they read), the claim
:func:`~tysiac_spec.engine.play.may_claim` and :func:`~tysiac_spec.engine.play.claim_marriages`.

Search: alpha-beta over the future gain of the declarer, a transposition table at the start
of each trick (bounded: cleared when it holds :data:`TABLE_ENTRIES` positions), equivalent
cards merged (cards of one suit held by one player with no live card between them and the
same worth), move ordering (winning cards first, points smeared onto a partner's trick),
bounds from the points left (no more than every point still in play), and principal
variation search (after the first move of a position, and of the root when only the optimum
is asked for, a null window asks whether a move beats the best so far; it is searched again
with the whole window only when it does).

What it does not solve (:class:`Unsupported`, with the reason): a deal without a declarer
(all-pass play), a deal with a stock still to draw (``table.stock``), marriages declared
from the hand (``marriages.declared_by: hand``), the ace marriage, and a named kind that
stops the play once decided (``ends_when_decided``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..cards import Card
from ..engine import contracts
from ..engine.actions import Action, Claim, PlayCard
from ..engine.outcome import discards_to
from ..engine.play import (
    apply_claim,
    binds,
    compile_duties,
    compile_marriage_bar,
    declare_marriage,
    leads,
    may_claim,
    never_barred,
    takes,
)
from ..engine.seating import side_of
from ..engine.state import DealState
from ..ruleset.model import Form

__all__ = [
    "TABLE_ENTRIES",
    "Objective",
    "Position",
    "Solution",
    "Solver",
    "Unsupported",
    "objective_of",
    "position_of",
    "solve_deal",
    "solver_class",
    "solver_for",
    "solver_of",
    "unsupported",
    "unsupported_form",
]

TABLE_ENTRIES = 200_000
"""The most positions the transposition table keeps (it is cleared when full): a bound on
its memory, about 200 bytes an entry."""

_INF = 1 << 30


_Args = tuple[int, str | None, str | None, int, int | None, int, int, int]
"""A position's search arguments before the window: the player, trump, pending trump, trick
number, marriage trick, seats that won a trick, marriages declared, points left."""

_Declared = tuple[int, str | None, str | None]
"""A marriage declared: its points, the trump and the pending trump after it."""


class Unsupported(ValueError):
    """A position the solver does not solve (the message says why: see the module)."""


@dataclass(frozen=True, slots=True)
class Objective:
    """What the declarer's contract depends on: ``tricks`` false — card points, marriages and
    the cards set aside he scores (points); true — tricks taken, as many as he can, or as few
    as he can when ``fewest`` (misère)."""

    tricks: bool = False
    fewest: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """A position of the play with every hand known.

    ``hands``: by seat (0..N-1), a bit set of the cards held (``card.bit``; 0 for a seat
    not playing); ``order``: the active players in turn order; ``current``: the player to
    play; ``trick``: the cards on the table as ``(player, card index)``; ``trump`` and
    ``pending_trump`` (a trump that takes effect after this trick, ``marriages.trump_from``);
    ``trick_number`` (from 0); ``marriage_trick``: the trick of the last marriage (``None``:
    none yet); ``won``: a bit set of the seats that have won a trick; ``declared``: marriages
    declared so far (their number; the marriage formula reads it); ``set_aside``: the points
    of the cards set aside scored at the end by the last trick's winner (``last``) and by the
    declarer whatever happens (``declarer``)."""

    hands: tuple[int, ...]
    order: tuple[int, ...]
    current: int
    declarer: int
    trick: tuple[tuple[int, int], ...] = ()
    trump: str | None = None
    pending_trump: str | None = None
    trick_number: int = 0
    marriage_trick: int | None = None
    won: int = 0
    declared: int = 0
    set_aside_last: int = 0
    set_aside_declarer: int = 0


@dataclass(frozen=True, slots=True)
class Solution:
    """The solved position: ``value`` the optimum of the :class:`Objective` from here on
    (points or tricks still to come, with perfect play by both sides), ``move`` a play
    reaching it (``(card index, marriage declared)``, or ``"claim"``), ``moves`` the value of
    every legal move when asked for (else only the best one's), ``nodes`` the positions
    searched."""

    value: int
    move: tuple[int, bool] | str
    moves: dict[tuple[int, bool] | str, int] = field(default_factory=dict)
    nodes: int = 0


def unsupported(form: Form, deal: DealState) -> str:
    """Why the solver cannot solve the play of ``deal`` under ``form`` (the form the deal is
    played under), or ``""`` when it can."""
    if deal.phase != "play":
        return f"not in the play (phase {deal.phase})"
    if deal.declarer is None:
        return "a deal without a declarer (all-pass play)"
    if deal.stock:
        return "a stock still to draw (table.stock)"
    return unsupported_form(form, deal.kind)


def unsupported_form(form: Form, kind: str | None) -> str:
    """Why the solver cannot solve a deal of ``kind`` (``None``: the numeric contract) played
    under ``form``, whatever its cards, or ``""``."""
    m = form.marriages
    if m.declared_by == "hand":
        return "marriages declared from the hand (marriages.declared_by: hand)"
    if m.ace_marriage.enabled:
        return "the ace marriage (marriages.ace_marriage)"
    if kind is not None and form.contract.kinds:
        k = contracts.kind_of(form, kind)
        if k.ends_when_decided:
            return f"the kind `{k.id}` stops once decided (ends_when_decided)"
    return ""


_POINT_NAMES = frozenset({"card_points", "points", "marriages", "declarer_points", "others_points", "won"})
_TRICK_NAMES = frozenset({"tricks", "others_tricks"})


def objective_of(form: Form, kind: str | None) -> Objective:
    """The :class:`Objective` of a deal of ``kind`` (an id of ``contract.kinds``, ``None``:
    the numeric contract) under ``form`` (the ruleset's form, not the played one): tricks for
    a kind whose goal (``goal``, else ``scoring.made``) reads the tricks and no points, the
    fewest when :func:`~tysiac_spec.engine.contracts.avoids_tricks`; else points."""
    if kind is None:
        return Objective()
    k = contracts.kind_of(form, kind)
    reads = (k.goal or form.scoring.made).reads
    if reads & _TRICK_NAMES and not reads & _POINT_NAMES:
        return Objective(tricks=True, fewest=contracts.avoids_tricks(form, k))
    return Objective()


def played_form(form: Form, deal: DealState) -> Form:
    """The form the play of ``deal`` follows: its named kind's (:func:`~tysiac_spec.engine.
    contracts.played_form`) or ``form`` itself."""
    if deal.kind is None or not form.contract.kinds:
        return form
    return contracts.played_form(form, contracts.kind_of(form, deal.kind))


def position_of(form: Form, deal: DealState) -> Position:
    """The :class:`Position` of ``deal`` (in its play) under ``form`` (its played form).

    Raises:
        Unsupported: :func:`unsupported` says why.
    """
    why = unsupported(form, deal)
    if why:
        raise Unsupported(why)
    assert deal.declarer is not None
    players = form.players
    hands = [0] * players
    for p, cards in deal.hands.items():
        for c in cards:
            hands[p] |= c.bit
    won = 0
    for p, n in deal.tricks.items():
        if n:
            won |= 1 << p
    ace = form.marriages.ace_marriage.rank
    lo = form.talon.leftover.to
    dis = discards_to(form)
    last = decl = 0
    for to, cards in ((lo, deal.leftover), (dis, deal.discards)):
        points = sum(c.points for c in cards)
        if to == "last_trick":
            last += points
        elif to == "declarer":
            decl += points
    return Position(
        hands=tuple(hands),
        order=tuple(deal.order),
        current=deal.current,
        declarer=deal.declarer,
        trick=tuple((p, c.index) for p, c in deal.trick),
        trump=deal.trump,
        pending_trump=deal.pending_trump,
        trick_number=deal.trick_number,
        marriage_trick=deal.marriage_trick,
        won=won,
        declared=sum(1 for _, s in deal.declared if s != ace),
        set_aside_last=last,
        set_aside_declarer=decl,
    )


class Solver:
    """The double-dummy solver of one played form (a ruleset's form, or a named kind's
    :func:`~tysiac_spec.engine.contracts.played_form`) with its pack and an
    :class:`Objective`; made once and used for many positions (:func:`solver_for`).

    Args:
        form: the form the play follows.
        pack: the ruleset's cards (``ruleset.deck.cards``).
        objective: what the declarer's side maximises (or minimises).
        table_entries: the transposition table's bound (positions).
    """

    def __init__(self, form: Form, pack: Sequence[Card], objective: Objective = Objective(),
                 *, table_entries: int = TABLE_ENTRIES) -> None:
        self.form = form
        self.pack = tuple(pack)
        self.objective = objective
        self.table_entries = table_entries
        self._table: dict[tuple[object, ...], tuple[int, int]] = {}
        rules = form.play
        self._duties = compile_duties(rules)
        self._declarer_duties = compile_duties(rules, declarer=True)
        self._by_role = not binds(rules, declarer=True) or not binds(rules, declarer=False) or (
            rules.defenders_may_discard or rules.defenders_overtrump_declarer)
        self._suit_bits: dict[str, int] = {c.suit_id: c.suit_bits for c in self.pack}
        m = form.marriages
        self._marriages = m
        self._lead_rule = rules.lead_after_marriage != "any"
        self._trumps_only = rules.lead_after_marriage == "trump"
        self._bar = compile_marriage_bar(m)
        self._any_time = self._bar is never_barred
        self._on_lead = m.declared_by == "lead"
        self._automatic = m.announcement == "automatic"
        first, second = m.ranks
        pairs = []
        for suit in m.values:
            bits = sum(c.bit for c in self.pack if c.suit_id == suit and c.rank.id in (first, second))
            if suit in self._suit_bits and bits.bit_count() == 2:
                pairs.append((suit, bits))
        self._pairs = tuple(pairs) if self._on_lead else ()
        self._marriage_bits = sum(b for _, b in self._pairs)
        self._formula = m.value is not None
        self._bar_memo: dict[tuple[bool, bool, int, int], bool] = {}
        self._declare_memo: dict[tuple[bool, str, str | None, str | None, int], _Declared] = {}
        self._scratch = DealState(dealer=0, order=[0, 1], sitter=None, hands={0: []}, talons=[],
                                  dealt_talon=(), deck_points=0)
        self.nodes = 0

    # ---------------------------------------------------------------- the engine's answers

    def _barred(self, player: int, declarer: int, won: int, trick_number: int, size: int) -> bool:
        """Whether ``player``, leading now, may not declare a marriage
        (:func:`~tysiac_spec.engine.play.compile_marriage_bar` on a scratch deal)."""
        if self._any_time:
            return False
        key = (player == declarer, bool(won >> player & 1), trick_number, size)
        got = self._bar_memo.get(key)
        if got is None:
            d = self._scratch
            d.declarer = player if key[0] else -1
            d.tricks = {player: 1} if key[1] else {}
            d.trick_number = trick_number
            d.hands = {player: list(self.pack[:size])}
            got = self._bar_memo[key] = bool(self._bar(d, player))
        return got

    def _declare(self, player: int, declarer: int, suit: str, trump: str | None, pending: str | None,
                 declared: int, order: Sequence[int]) -> _Declared:
        """The points of the marriage of ``suit`` declared by ``player`` now, and the trump and
        pending trump after it (:func:`~tysiac_spec.engine.play.declare_marriage`)."""
        key = (player == declarer, suit, trump, pending, declared)
        got = self._declare_memo.get(key)
        if got is None:
            d = self._scratch
            d.declarer = player if key[0] else -1
            d.order = list(order)
            d.trump, d.pending_trump = trump, pending
            d.declared = [(-1, "")] * declared
            d.marriages = {}
            declare_marriage(self._marriages, d, player, suit)
            got = self._declare_memo[key] = (d.marriages.get(player, 0), d.trump, d.pending_trump)
        return got

    # ---------------------------------------------------------------- moves

    def moves(self, pos: Position) -> list[tuple[int, bool]]:
        """The legal moves of ``pos`` as ``(card index, marriage declared)``, in the engine's
        order (deck order; a marriage card led with the declaration, and also without it when
        the announcement is spoken); the claim is not among them (see :meth:`solve_deal`)."""
        hands = list(pos.hands)
        trick = [(p, self.pack[i]) for p, i in pos.trick]
        return self._moves(hands, pos.current, pos.declarer, trick, pos.trump, pos.trick_number,
                           pos.marriage_trick, pos.won)

    def _moves(self, hands: list[int], cur: int, declarer: int, trick: list[tuple[int, Card]],
               trump: str | None, tn: int, mtrick: int | None, won: int) -> list[tuple[int, bool]]:
        hand = hands[cur]
        pack = self.pack
        if trick:
            if self._by_role and cur == declarer:
                legal = self._declarer_duties(hand, trick, trump, self._suit_bits, declarer)[0]
            else:
                legal = self._duties(hand, trick, trump, self._suit_bits, declarer)[0]
            return [(i, False) for i in _indices(legal)]
        lead = hand
        if self._lead_rule and trump is not None:
            lead = leads(hand, self._trumps_only, self._suit_bits.get(trump, 0), mtrick, tn)
        out = [(i, False) for i in _indices(lead)]
        if self._pairs and not self._barred(cur, declarer, won, tn, hand.bit_count()):
            for _suit, bits in self._pairs:
                if lead & bits == bits:
                    marked = []
                    for i, plain in out:
                        if pack[i].bit & bits:
                            if not self._automatic:
                                marked.append((i, False))
                            marked.append((i, True))
                        else:
                            marked.append((i, plain))
                    out = marked
        return out

    # ---------------------------------------------------------------- search

    def solve(self, pos: Position, *, every_move: bool = False) -> Solution:
        """The optimum of ``pos`` (future points or tricks of the declarer's side, with
        :attr:`Position.set_aside_declarer` included) and a move reaching it; with
        ``every_move`` the exact value of each legal move (in :attr:`Solution.moves`)."""
        self.nodes = 0
        if len(self._table) > self.table_entries:
            self._table.clear()
        form = self.form
        side = 0
        for p in side_of(form, pos.declarer):
            side |= 1 << p
        obj = self.objective
        tricks, fewest = obj.tricks, obj.fewest
        pack = self.pack
        points = [c.points for c in pack]
        hands = list(pos.hands)
        order = pos.order
        declarer = pos.declarer
        nxt = {p: order[(k + 1) % len(order)] for k, p in enumerate(order)}
        suit_bits = self._suit_bits
        trick: list[tuple[int, Card]] = [(p, pack[i]) for p, i in pos.trick]
        last_bonus = 0 if tricks else pos.set_aside_last
        table = self._table
        moves_of = self._moves
        declare = self._declare
        formula = self._formula
        values = self._marriages.values
        pairs = self._pairs
        marriage_bits = self._marriage_bits
        lead_rule = self._lead_rule
        bar_reads = not self._any_time and bool(pairs)

        def gain(cards_points: int) -> int:
            return 1 if tricks else cards_points

        def upper(left: int) -> int:
            """The most the declarer's side can still gain (points left in play)."""
            if tricks:
                return max(bin(h).count("1") for h in hands) + (1 if trick else 0)
            bound = left + last_bonus
            if pairs:
                if formula:
                    return _INF
                for suit, bits in pairs:
                    for p in order:
                        if side >> p & 1 and hands[p] & bits == bits:
                            bound += values[suit]
            return bound

        def ordered(mv: list[tuple[int, bool]], cur: int, trump: str | None) -> list[tuple[int, bool]]:
            mine = bool(side >> cur & 1) != fewest
            if not trick:
                others = 0
                for p in order:
                    if p != cur:
                        others |= hands[p]

                def lead_key(m: tuple[int, bool]) -> tuple[bool, bool, int]:
                    c = pack[m[0]]
                    top = not others & c.suit_bits & (c.bit - 1)  # no higher card of its suit out
                    return (not m[1], not top, -c.points if top or mine else c.points)

                return sorted(mv, key=lead_key)
            # who wins so far, and which of my cards would take it
            best_p, best = trick[0]
            trump_bits = 0
            if trump is not None:
                for _, c in trick:
                    if c.suit_id == trump:
                        trump_bits = c.suit_bits
                        break
            tb = suit_bits.get(trump, 0) if trump is not None else 0
            for p, c in trick[1:]:
                if takes(c.index, c.bit, best.index, best.suit_bits, trump_bits):
                    best_p, best = p, c
            ours = bool(side >> best_p & 1) == bool(side >> cur & 1)
            if ours:  # smear points on a partner's trick (or duck cheaply in misère)
                return sorted(mv, key=lambda m: -points[m[0]])

            def key(m: tuple[int, bool]) -> tuple[int, int]:
                c = pack[m[0]]
                tbits = trump_bits or (c.bit & tb)
                wins = takes(c.index, c.bit, best.index, best.suit_bits, tbits)
                return (0, c.points) if wins else (1, c.points)

            return sorted(mv, key=key)

        def merged(mv: list[tuple[int, bool]], cur: int, live: int) -> list[tuple[int, bool]]:
            """Equivalent cards merged: of two cards of a suit held by ``cur`` with no live card
            between them and the same worth, only the higher is tried."""
            if len(mv) < 2:
                return mv
            hand = hands[cur]
            out: list[tuple[int, bool]] = []
            prev = -1
            for m in mv:
                i, decl = m
                if not decl and prev >= 0 and not (pack[i].bit & marriage_bits):
                    c, q = pack[i], pack[prev]
                    if c.suit_id == q.suit_id and (tricks or c.points == q.points):
                        between = (c.bit - 1) & ~((q.bit << 1) - 1)
                        if not live & between and hand & q.bit:
                            prev = i
                            continue
                out.append(m)
                prev = i if not decl and not (pack[i].bit & marriage_bits) else -1
            return out

        def _scout(cur: int, trump_: str | None, pending: str | None, tn: int, mtrick: int | None,
                   won: int, declared: int, left: int, alpha: int, beta: int, maximise: bool,
                   first: bool) -> int:
            """Principal variation search: the first move with the whole window, the others
            first with a null window (do they beat the best so far?), searched again with the
            whole window only when they do."""
            if first or beta - alpha <= 1:
                return search(cur, trump_, pending, tn, mtrick, won, declared, left, alpha, beta)
            if maximise:
                v = search(cur, trump_, pending, tn, mtrick, won, declared, left, alpha, alpha + 1)
            else:
                v = search(cur, trump_, pending, tn, mtrick, won, declared, left, beta - 1, beta)
            if alpha < v < beta:
                v = search(cur, trump_, pending, tn, mtrick, won, declared, left, alpha, beta)
            return v

        def search(cur: int, trump_: str | None, pending: str | None, tn: int, mtrick: int | None,
                   won: int, declared: int, left: int, alpha: int, beta: int,
                   only: tuple[int, bool] | None = None) -> int:
            self.nodes += 1
            key: tuple[object, ...] | None = None
            if only is None and not trick:
                h = hands[cur]
                if not h:
                    return 0
                if not h & (h - 1):  # the last trick: one card each, no choice, no marriage
                    t = trump_
                    p = cur
                    wp, wc = cur, pack[h.bit_length() - 1]
                    tbits = wc.suit_bits if t is not None and wc.suit_id == t else 0
                    total = wc.points
                    for _ in range(len(order) - 1):
                        p = nxt[p]
                        c = pack[hands[p].bit_length() - 1]
                        total += c.points
                        if not tbits and t is not None and c.suit_id == t:
                            tbits = c.suit_bits
                        if takes(c.index, c.bit, wc.index, wc.suit_bits, tbits):
                            wp, wc = p, c
                    if not side >> wp & 1:
                        return 0
                    return 1 if tricks else total + last_bonus
                hi = upper(left)
                if hi <= alpha:
                    return hi
                if beta <= 0:
                    return 0
                key = (tuple(hands), cur, side, last_bonus, trump_, pending,
                       lead_rule and mtrick is not None and mtrick == tn - 1,
                       won if bar_reads else 0, declared if formula else 0)
                got = table.get(key)
                if got is not None:
                    lo, up = got
                    if lo >= beta:
                        return lo
                    if up <= alpha:
                        return up
                    if lo == up:
                        return lo
                    alpha, beta = max(alpha, lo), min(beta, up)
            a0, b0 = alpha, beta
            if only is None:
                mv = moves_of(hands, cur, declarer, trick, trump_, tn, mtrick, won)
                if len(mv) > 1:
                    live = 0
                    for h in hands:
                        live |= h
                    for _, c in trick:
                        live |= c.bit
                    mv = ordered(merged(mv, cur, live), cur, trump_)
            else:
                mv = [only]
            maximise = bool(side >> cur & 1) != fewest
            best = -_INF if maximise else _INF
            first = True
            for i, decl in mv:
                card = pack[i]
                hands[cur] &= ~card.bit
                t2: str | None = trump_
                p2: str | None = pending
                m2, d2, bonus = mtrick, declared, 0
                if decl:
                    suit = card.suit_id
                    pts, t2, p2 = declare(cur, declarer, suit, trump_, pending, declared, order)
                    m2, d2 = tn, declared + 1
                    if side >> cur & 1 and not tricks:
                        bonus = pts
                trick.append((cur, card))
                if len(trick) < len(order):
                    v = bonus + _scout(nxt[cur], t2, p2, tn, m2, won, d2, left, alpha - bonus, beta - bonus,
                                       maximise, first)
                else:
                    closed = trick[:]
                    winner, wcard = closed[0]
                    tbits = 0
                    if t2 is not None:
                        for _, c in closed:
                            if c.suit_id == t2:
                                tbits = c.suit_bits
                                break
                    for p, c in closed[1:]:
                        if takes(c.index, c.bit, wcard.index, wcard.suit_bits, tbits):
                            winner, wcard = p, c
                    tp = 0
                    for _, c in closed:
                        tp += points[c.index]
                    if side >> winner & 1:
                        bonus += gain(tp)
                    trick.clear()
                    t3: str | None = t2
                    p3: str | None = p2
                    if p2 is not None:
                        t3, p3 = p2, None
                    if not hands[winner]:  # the last trick
                        if side >> winner & 1:
                            bonus += last_bonus
                        v = bonus
                    else:
                        v = bonus + _scout(winner, t3, p3, tn + 1, m2, won | 1 << winner, d2, left - tp,
                                           alpha - bonus, beta - bonus, maximise, first)
                    trick[:] = closed
                trick.pop()
                hands[cur] |= card.bit
                first = False
                if maximise:
                    if v > best:
                        best = v
                    if best > alpha:
                        alpha = best
                else:
                    if v < best:
                        best = v
                    if best < beta:
                        beta = best
                if alpha >= beta:
                    break
            if key is not None:
                if best <= a0:
                    lo, up = table.get(key, (-_INF, _INF))
                    table[key] = (lo, min(up, best))
                elif best >= b0:
                    lo, up = table.get(key, (-_INF, _INF))
                    table[key] = (max(lo, best), up)
                else:
                    table[key] = (best, best)
            return best

        left = 0
        for h in hands:
            for i in _indices(h):
                left += points[i]
        for _, c in trick:
            left += points[c.index]
        root_moves = self._moves(hands, pos.current, declarer, trick, pos.trump, pos.trick_number,
                                 pos.marriage_trick, pos.won)
        maximise = bool(side >> pos.current & 1) != fewest
        base = 0 if tricks else pos.set_aside_declarer
        results: dict[tuple[int, bool] | str, int] = {}
        best_move: tuple[int, bool] | str = root_moves[0]
        best_value = -_INF if maximise else _INF
        if not trick and not hands[pos.current]:
            return Solution(base, best_move, {}, 0)
        for move in ordered(root_moves, pos.current, pos.trump):
            if every_move:
                lo_, hi_ = -_INF, _INF
            else:
                lo_, hi_ = (best_value, _INF) if maximise else (-_INF, best_value)
            args: _Args = (pos.current, pos.trump, pos.pending_trump, pos.trick_number, pos.marriage_trick,
                    pos.won, pos.declared, left)
            if every_move or abs(best_value) == _INF:
                v = search(*args, lo_, hi_, move)
            else:  # does it beat the best so far? (a null window), then its value
                null = (best_value, best_value + 1) if maximise else (best_value - 1, best_value)
                v = search(*args, *null, move)
                if (v > best_value) if maximise else (v < best_value):
                    v = search(*args, lo_, hi_, move)
            results[move] = v + base
            if (v > best_value) if maximise else (v < best_value):
                best_value, best_move = v, move
        shown = results if every_move else {best_move: best_value + base}
        return Solution(best_value + base, best_move, shown, self.nodes)


def _indices(bits: int) -> list[int]:
    """The indices of the set bits of ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


_SOLVERS: dict[tuple[int, str | None, int], Solver] = {}


def solver_of(form: Form, kind: str | None, pack: Sequence[Card]) -> Solver:
    """The :class:`Solver` of a deal of ``kind`` (``None``: the numeric contract) under
    ``form`` (the ruleset's form; the kind picks the played form and the objective), made
    once per form, kind and pack and kept (a small cache, cleared past 64 solvers)."""
    key = (id(form), kind, id(pack))
    got = _SOLVERS.get(key)
    if got is None or got.pack[0] is not pack[0]:
        if len(_SOLVERS) > 64:
            _SOLVERS.clear()
        played = form
        if kind is not None and form.contract.kinds:
            played = contracts.played_form(form, contracts.kind_of(form, kind))
        got = _SOLVERS[key] = solver_class()(played, pack, objective_of(form, kind))
    return got


def solver_class() -> type[Solver]:
    """The :class:`Solver` that :func:`solver_of` makes: the mypyc-compiled copy of this
    module's when it has been built for this source (``python -m
    tysiac_spec.bots.solver_build``, :func:`~tysiac_spec.bots.solver_build.compiled_module`;
    the same results, faster), else this pure-Python one; the environment variable
    ``TYSIAC_SOLVER=pure`` asks for the pure one."""
    if os.environ.get("TYSIAC_SOLVER") == "pure":
        return Solver
    if not _COMPILED:
        from .solver_build import compiled_module

        module = compiled_module()
        _COMPILED.append(getattr(module, "Solver", Solver) if module is not None else Solver)
    return _COMPILED[0]


_COMPILED: list[type[Solver]] = []
"""The class :func:`solver_class` found (looked up once)."""


def solver_for(form: Form, deal: DealState, pack: Sequence[Card]) -> Solver:
    """:func:`solver_of` the deal's kind."""
    return solver_of(form, deal.kind, pack)


def solve_deal(form: Form, deal: DealState, pack: Sequence[Card], *, every_move: bool = False) -> tuple[
        Solution, dict[Action, int]]:
    """Solve the play of ``deal`` under ``form`` (the ruleset's form) with ``pack``: the
    :class:`Solution` and the value of each legal play as an engine action (a
    :class:`~tysiac_spec.engine.actions.PlayCard`; the claim, when the declarer may claim,
    as :class:`~tysiac_spec.engine.actions.Claim`, valued by playing it on a copy of the deal
    with :func:`~tysiac_spec.engine.play.apply_claim`).

    Raises:
        Unsupported: a position the solver does not solve (:func:`unsupported`).
    """
    solver = solver_for(form, deal, pack)
    pos = position_of(solver.form, deal)
    sol = solver.solve(pos, every_move=every_move)
    actions: dict[Action, int] = {}
    for (i, decl), v in ((m, v) for m, v in sol.moves.items() if not isinstance(m, str)):
        actions[PlayCard(pack[i], decl)] = v
    at_first_lead = not deal.trick_number and not deal.trick and deal.declarer == deal.current
    if form.contract.claim_allowed and at_first_lead and may_claim(deal):
        v = _claim_value(solver, deal)
        actions[Claim()] = v
        better = v > sol.value if not solver.objective.fewest else v < sol.value
        if better:
            sol = replace(sol, value=v, move="claim", moves={**sol.moves, "claim": v})
    return sol, actions


def _claim_value(solver: Solver, deal: DealState) -> int:
    """The declarer's gain from claiming now: :func:`~tysiac_spec.engine.play.apply_claim` on a
    copy of the deal's piles."""
    assert deal.declarer is not None
    copy = replace(deal, hands={p: list(h) for p, h in deal.hands.items()},
                   won={p: list(w) for p, w in deal.won.items()}, tricks=dict(deal.tricks),
                   marriages=dict(deal.marriages), declared=list(deal.declared),
                   leftover=list(deal.leftover), discards=list(deal.discards))
    before_points = sum(c.points for c in deal.won.get(deal.declarer, []))
    before_m = deal.marriages.get(deal.declarer, 0)
    before_t = deal.tricks.get(deal.declarer, 0)
    apply_claim(solver.form, copy)
    if solver.objective.tricks:
        return copy.tricks.get(deal.declarer, 0) - before_t
    return (sum(c.points for c in copy.won.get(deal.declarer, [])) - before_points
            + copy.marriages.get(deal.declarer, 0) - before_m)

