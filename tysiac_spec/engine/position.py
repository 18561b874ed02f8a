"""Position notation: one line of text for a position in the middle of a deal, like chess's FEN.

The deal notation (:mod:`.deal_notation`) writes the cards as dealt; a position writes them
where they lie now, and what the deal and the match have come to: the phase and the player
to move, the scores, the auction, the declarer, the contract, trump, the trick on the table,
the cards and tricks each player has taken and the marriages declared.  It opens with the
piles in deal notation, then sections separated by ``;``, each a name and its value::

    0:TH 9H 9S QC JC 9C / AD KD AC TC KC KS / AH KH JH AS QS JS TS | ; play 2
      ; scores 0 0 0 ; bid 100 1 ; passed 0 2 ; declarer 1 ; contract 100 ; trump diamonds
      ; trick 0:QH 1:JD ; won QD 9D TD / - / - ; tricks 1 0 0 ; marriages 1:diamonds

(one line, broken here for the page: pl-standard, three players; player 1 declared the
diamond marriage, player 0 took the first trick and led QH, player 1 trumped it, player 2
is to follow hearts).  The sections, in this order, all but the first two optional:

- the piles: ``DEALER:HAND / HAND / … | TALON / … [| STOCK]`` (:class:`.deal_notation.Deal`):
  each seat's hand now (``-`` empty), the talons still on the table (none once taken), the
  stock;
- ``PHASE PLAYER``: the phase (:data:`.state.PHASES`: ``auction``, ``talon``, ``exchange``,
  ``contract``, ``play``, …) and the player to move;
- ``scores S0 S1 …``: the match scores by seat (points; default all 0);
- ``bid AMOUNT PLAYER``: the highest bid and its bidder; ``passed P …``: the players who
  passed;
- ``declarer P``, ``contract AMOUNT``, ``trump SUIT`` (a suit id, letter or symbol);
- ``trick P:CARD …``: the trick on the table, in the order played;
- ``won PILE / PILE / …``: the cards each seat has taken (``-``: none), seat 0 first;
- ``tricks N N …``: the tricks each seat has taken;
- ``marriages P:SUIT …``: the marriages declared, in order (their points from
  ``marriages.values``);
- ``more NAME=VALUE …``: any other part of the deal's state (:class:`.state.DealState`'s
  field, ``around.`` for :class:`.state.Around`) or of the match's
  (:class:`.match.MatchState`, as ``match.forfeits``) that is not what the sections above
  imply, each value in JSON (cards as their text), e.g. ``more mode="dark" multiplier=2``.

What the sections leave out takes the value a fresh deal of these cards has, its auction
opened as the engine opens it (the seating from the dealer, the forced bid, each player's
highest bid), or the one the sections imply (the trick number from the tricks taken, the
marriage points from the marriages); :meth:`Position.of_state` writes in ``more`` every part
of a deal's state that differs from that, so a position taken from a game starts a game
with the same future to the end of the deal.  The shuffle's generator is not part of a
position: a deal dealt again (a redeal, a bad cut that skips the deal) and the deals after
this one are drawn from the seed given to :meth:`Game.from_position
<tysiac_spec.engine.game.Game.from_position>`, not as the original game would draw them.

Hidden information: a position writes **everything**, every hand and a hidden talon
included.  It is a notation for debugging, analysis, tests and bug reports, as FEN is, not
what one player sees (that is :meth:`Game.view <tysiac_spec.engine.game.Game.view>`).

:meth:`Position.parse` and ``str(position)`` are a pair: ``Position.parse(str(p), rules) ==
p``.  A text that is not a position is refused with a
:class:`~tysiac_spec.errors.NotationError` of code ``notation.position`` (``notation.card``
for a card the pack lacks, ``notation.deal`` for the piles), with the column of the problem
counted from 1.  :meth:`Game.from_position <tysiac_spec.engine.game.Game.from_position>`
starts a game from a position; :meth:`Game.position
<tysiac_spec.engine.game.Game.position>` writes the current one.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any, Union, get_args, get_origin, get_type_hints

from ..cards import Card, Deck
from ..errors import Diagnostic, NotationError
from ..ruleset import Ruleset
from ..ruleset.model import Form
from ..text import shorten
from . import auction, contracts, talon
from . import env as envs
from .actions import NamedBid, parse_action
from .compiled import CompiledForm, compile_form
from .deal_notation import EMPTY, Deal, hand_name, talon_name
from .match import MatchState
from .state import PHASES, Around, DealState

__all__ = ["Position"]

_MAX_CHARS = 20000
"""The longest position text read (a bound on untrusted input)."""

_HINT = "write `DEALER:HANDS | TALONS ; PHASE PLAYER ; scores … ; …`, e.g. `0:AS / KS | - ; play 1`"

_SECTIONS = ("scores", "bid", "passed", "declarer", "contract", "trump", "trick", "won", "tricks",
             "marriages", "more")
"""The named sections, in the order they are written."""

_LEFT_OUT = frozenset({"dealt", "contract_offer", "actions", "scores", "made"})
"""The deal's fields a position does not write: the deal as dealt (:meth:`Game.dealt`), a
cache, the action count, and the deal's result."""

_MATCH_LEFT_OUT = frozenset({"options", "deck_points", "scores"})
"""The match's fields a position does not write: the table's options and the pack's points
come from the ruleset, the scores have their own section."""


def _error(message: str, column: int, code: str = "notation.position") -> NotationError:
    return NotationError(Diagnostic(code, message, line=1, column=column, hint=_HINT))


def _words(part: str, column: int) -> Iterator[tuple[str, int]]:
    """The blank-separated words of ``part`` with their 1-based columns (``part`` starts at
    ``column``)."""
    i = 0
    while i < len(part):
        if part[i].isspace():
            i += 1
            continue
        j = i
        while j < len(part) and not part[j].isspace():
            j += 1
        yield part[i:j], column + i
        i = j


def _sections(text: str, column: int) -> Iterator[tuple[str, int]]:
    """The parts of ``text`` between ``;`` outside JSON strings, each with its column."""
    start, quoted, escaped = 0, False, False
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif quoted and ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            yield text[start:i], column + start
            start = i + 1
    yield text[start:], column + start


def _int(word: str, at: int, what: str, minimum: int | None = None, digits: int = 9) -> int:
    body = word[1:] if word[:1] == "-" else word
    if not (body.isascii() and body.isdigit()) or len(body) > digits:
        raise _error(f"{what} must be an integer (got `{shorten(word)}`)", at)
    value = int(word)
    if minimum is not None and value < minimum:
        raise _error(f"{what} must be at least {minimum} (got {value})", at)
    return value


def _seat(word: str, at: int, what: str, players: int) -> int:
    seat = _int(word, at, what, 0)
    if seat >= players:
        raise _error(f"{what} must be a seat 0 to {players - 1} (got {seat})", at)
    return seat


def _card(word: str, at: int, deck: Deck) -> str:
    try:
        return str(deck.parse(word))
    except NotationError as exc:
        d = exc.diagnostic
        raise NotationError(Diagnostic(d.code, d.message, line=1, column=at, hint=d.hint)) from None


# ---------------------------------------------------------------- values of `more`


def _plain(value: Any) -> Any:
    """``value`` as JSON data: a card as its text, a set as a sorted list, a dataclass as
    an object of its fields."""
    if isinstance(value, Card):
        return str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value) if f.init}
    raise TypeError(f"no position text for {type(value).__name__}")  # (a new kind of field)


def _json(value: Any, *, sort: bool = False) -> str:
    """``value`` as compact JSON, an object's keys in their order (the order of a dict the
    engine iterates is part of the state: ``given`` orders the exchange's actions), or
    sorted (``sort``: to compare a dict the engine only looks up, :data:`_KEYED`)."""
    return json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=False, sort_keys=sort)


_KEYED = frozenset({"hands", "won", "tricks", "marriages"})
"""The deal's dicts by player the engine reads by key only: their order is not written."""


def _decoded(value: Any, hint: Any, deck: Deck, name: str) -> Any:
    """JSON data ``value`` read as the type ``hint`` (a field's annotation).

    Raises:
        ValueError: ``value`` is not of that type (the message names ``name``)."""
    origin, args = get_origin(hint), get_args(hint)

    def wrong(expected: str) -> ValueError:
        return ValueError(f"`{name}` must be {expected} (got {shorten(json.dumps(value))})")

    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decoded(value, inner[0], deck, name)
    if hint is Card:
        if not isinstance(value, str):
            raise wrong("a card text")
        try:
            return deck.parse(value)
        except NotationError as exc:
            raise ValueError(f"`{name}`: {exc.diagnostic.message}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise wrong("true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong("an integer")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise wrong("a string")
        return value
    if origin in (list, set, Sequence, tuple):
        if not isinstance(value, list):
            raise wrong("a list")
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(value) != len(args):
                raise wrong(f"a list of {len(args)}")
            return tuple(_decoded(v, a, deck, name) for v, a in zip(value, args, strict=True))
        items = [_decoded(v, args[0], deck, name) for v in value]
        return set(items) if origin is set else tuple(items) if origin is tuple else items
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise wrong("an object")
        out = {}
        for k, v in value.items():
            if args[0] is int:
                try:
                    key: Any = int(k)
                except ValueError:
                    raise wrong("an object keyed by seat") from None
            else:
                key = k
            out[key] = _decoded(v, args[1], deck, name)
        return out
    if isinstance(hint, type) and is_dataclass(hint):
        if not isinstance(value, dict):
            raise wrong("an object")
        hints = get_type_hints(hint)
        known = {f.name for f in fields(hint) if f.init}
        unknown = sorted(set(value) - known)
        if unknown:
            raise ValueError(f"`{name}` has no part `{shorten(unknown[0])}`; "
                             f"it has: {', '.join(sorted(known))}")
        return hint(**{k: _decoded(v, hints[k], deck, f"{name}.{k}") for k, v in value.items()})
    raise wrong(str(hint))  # (a new kind of field: _plain refuses it first)


_DEAL_HINTS = get_type_hints(DealState)
_MATCH_HINTS = get_type_hints(MatchState)
_DEAL_FIELDS = tuple(f.name for f in fields(DealState) if f.name not in _LEFT_OUT)
_MATCH_FIELDS = tuple(f.name for f in fields(MatchState) if f.init and f.name not in _MATCH_LEFT_OUT)


# ---------------------------------------------------------------- the position


@dataclass(frozen=True, slots=True)
class Position:
    """A position in the middle of a deal, with every card shown (see the module docstring).

    Attributes:
        deal: the piles now as a :class:`~.deal_notation.Deal`: the dealer, each seat's hand
            (seat 0 first), the talons still on the table, the stock.
        phase: the deal's phase (:data:`~.state.PHASES`).
        turn: the player to move (seat).
        scores: the match scores by seat (points).
        bid: the highest bid (0: none); ``bidder`` its bidder.
        passed: the players who passed, in seat order.
        declarer: the declarer (``None``: none yet); ``contract`` the contract (points).
        trump: the trump suit's id (``None``: no trump).
        trick: the trick on the table as ``(player, card text)`` in the order played.
        won: the cards each seat has taken (card texts), seat 0 first.
        tricks: the tricks each seat has taken.
        marriages: the marriages declared as ``(player, suit id)``, in order.
        more: the rest of the state as ``(name, JSON text)``, in the order written.
    """

    deal: Deal
    phase: str
    turn: int
    scores: tuple[int, ...]
    bid: int = 0
    bidder: int | None = None
    passed: tuple[int, ...] = ()
    declarer: int | None = None
    contract: int = 0
    trump: str | None = None
    trick: tuple[tuple[int, str], ...] = ()
    won: tuple[tuple[str, ...], ...] = ()
    tricks: tuple[int, ...] = ()
    marriages: tuple[tuple[int, str], ...] = ()
    more: tuple[tuple[str, str], ...] = ()

    @property
    def players(self) -> int:
        """Seats at the table (one hand per seat)."""
        return len(self.deal.hands)

    def __str__(self) -> str:
        parts = [str(self.deal), f"{self.phase} {self.turn}", "scores " + " ".join(map(str, self.scores))]
        if self.bid or self.bidder is not None:
            parts.append(f"bid {self.bid} {'-' if self.bidder is None else self.bidder}")
        if self.passed:
            parts.append("passed " + " ".join(map(str, self.passed)))
        if self.declarer is not None:
            parts.append(f"declarer {self.declarer}")
        if self.contract:
            parts.append(f"contract {self.contract}")
        if self.trump is not None:
            parts.append(f"trump {self.trump}")
        if self.trick:
            parts.append("trick " + " ".join(f"{p}:{c}" for p, c in self.trick))
        if any(self.won):
            parts.append("won " + " / ".join(" ".join(w) or EMPTY for w in self.won))
        if any(self.tricks):
            parts.append("tricks " + " ".join(map(str, self.tricks)))
        if self.marriages:
            parts.append("marriages " + " ".join(f"{p}:{s}" for p, s in self.marriages))
        if self.more:
            parts.append("more " + " ".join(f"{k}={v}" for k, v in self.more))
        return " ; ".join(parts)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r}, rules)"

    # ------------------------------------------------------------ reading

    @classmethod
    def parse(cls, text: str, rules: Ruleset, players: int | None = None) -> Position:
        """Read a position written in position notation (see the module docstring) for the
        form of ``rules`` with ``players`` seats (default: one per hand written), and check
        that it is one: every card of the pack once (but ``table.left_out``), a trick no
        larger than the players, seats that exist; a phase the form has (no ``dark`` without
        ``special.dark``, no ``rebuy``, ``contra``, ``marriages`` when off; never ``redeal``)
        with what it needs (a declarer, a bid or a contract); the declarer the highest bidder
        (unless the contract may be sold); a bid on the auction's step and under its cap (the
        forced opening and a named contract's rank or value too); a trick on the table only
        in ``play``, where every hand holds as many cards but one less for those who have
        played to it; no cards in hand when ``over``; no marriage declared that another player
        holds; in ``auction`` and ``dark`` hands of one size.  Scores are not checked
        against the match's target (a score above it is taken as written).

        Raises:
            NotationError: ``notation.position`` (a missing or unknown section, a value of the
                wrong kind, a card written twice, cards missing, the wrong number of hands, a
                trick larger than the players…), ``notation.card`` (no card of the pack),
                ``notation.deal`` (the piles); the column is the problem's, counted from 1.
            OptionError: the ruleset has no form for ``players``.
        """
        if not isinstance(text, str):
            raise _error(f"a position is a text (got {type(text).__name__})", 1)
        if len(text) > _MAX_CHARS:
            raise _error(f"the position text is too long ({len(text):,} characters; "
                         f"at most {_MAX_CHARS:,})", 1)
        deck = rules.deck
        parts = list(_sections(text, 1))
        deal = Deal.parse(parts[0][0], deck, empty_hands=True)  # (columns: the piles open the line)
        n = len(deal.hands) if players is None else players
        form = rules.form(n)
        if len(deal.hands) != n:
            raise _error(f"the position gives {len(deal.hands)} hand(s) for a {n}-player game "
                         "(one per seat, `-` for an empty hand)", 1)
        if not 0 <= deal.dealer < n:
            raise _error(f"the dealer must be a seat 0 to {n - 1} (got {deal.dealer})", 1)
        if len(parts) < 2 or not parts[1][0].strip():
            raise _error("the piles are followed by `; PHASE PLAYER` (the phase and the player to move)",
                         len(text) + 1)
        head = list(_words(*parts[1]))
        if len(head) != 2:
            raise _error("the second section is `PHASE PLAYER` (e.g. `play 1`)", parts[1][1])
        if head[0][0] not in PHASES:
            raise _error(f"unknown phase `{shorten(head[0][0])}`; the phases are: {', '.join(PHASES)}",
                         head[0][1])
        values: dict[str, Any] = {
            "deal": deal, "phase": head[0][0], "turn": _seat(*head[1], "the player to move", n),
            "scores": (0,) * n,
        }
        where: dict[str, int] = {"phase": head[0][1]}  # (the column of each section, for later checks)
        done = -1
        for part, at in parts[2:]:
            words = list(_words(part, at))
            if not words:
                raise _error("an empty section (two `;` in a row, or one at the end)", at)
            (name, name_at), rest = words[0], words[1:]
            if name not in _SECTIONS:
                raise _error(f"unknown section `{shorten(name)}`; the sections are: {', '.join(_SECTIONS)}",
                             name_at)
            if _SECTIONS.index(name) <= done:
                raise _error(f"the section `{name}` is out of place or repeated; the order is: "
                             f"{', '.join(_SECTIONS)}", name_at)
            done = _SECTIONS.index(name)
            where[name] = name_at
            if name == "more":
                values["more"] = tuple(_more(part, at, name_at + len(name)))
                continue
            if not rest:
                raise _error(f"the section `{name}` has no value", name_at)
            values.update(_section(name, rest, part, at, n, deck))
        position = cls(**values)
        position._check(form, deck, compile_form(form, deck.cards), where, text)
        return position

    def _check(self, form: Form, deck: Deck, compiled: CompiledForm, where: Mapping[str, int],
               text: str) -> None:
        """Refuse a position that is no position of ``form``: a card twice or missing, a trick
        larger than the players, a player in the trick twice, a hand for a seat sitting out."""
        n = self.players
        end = len(str(self.deal)) + 1
        assert compiled.switches is not None
        order, _ = compiled.switches.seatings[self.deal.dealer]
        for p, hand in enumerate(self.deal.hands):
            if hand and p not in order:
                raise _error(f"player {p} sits this deal out (dealer {self.deal.dealer}) "
                             "and holds no hand", 1)
        if self.turn not in order and self.phase != "over":
            raise _error(f"player {self.turn} sits this deal out (dealer {self.deal.dealer}) "
                         "and cannot be the player to move", end + 1)
        named: tuple[tuple[str, Sequence[int | None]], ...] = (
            ("bid", [self.bidder]), ("declarer", [self.declarer]), ("passed", self.passed))
        for name, seats in named:
            for seat in seats:
                if seat is not None and not 0 <= seat < n:
                    raise _error(f"`{name}`: player {seat} is not a seat (0 to {n - 1})", where[name])
        if len(self.trick) > form.active:
            raise _error(f"the trick holds {len(self.trick)} cards, more than the {form.active} "
                         "players in a deal", where["trick"])
        in_trick = [p for p, _ in self.trick]
        if len(set(in_trick)) != len(in_trick):
            raise _error("a player plays twice to the trick", where["trick"])
        piles = [*((hand_name(p), h) for p, h in enumerate(self.deal.hands)),
                 *((talon_name(k), t) for k, t in enumerate(self.deal.talons)),
                 ("the stock", self.deal.stock), ("the trick", tuple(c for _, c in self.trick)),
                 *((f"player {p}'s won cards", w) for p, w in enumerate(self.won))]
        seen: dict[str, str] = {}
        for name, cards in piles:
            mine: set[str] = set()
            for card in cards:
                if card in mine:
                    raise _error(f"{card} is written twice in {name}", _second(text, card, end))
                if card in seen:
                    raise _error(f"{card} is written twice: in {seen[card]} and in {name}",
                                 _second(text, card, end))
                mine.add(card)
            seen.update(dict.fromkeys(mine, name))
        extra = {c for k, v in self.more if k in ("leftover", "discards") for c in json.loads(v)}
        pack = len(deck.cards) - form.table.left_out
        count = len(seen) + len(extra - set(seen))
        if count != pack:
            missing = [str(c) for c in deck.cards if str(c) not in seen and str(c) not in extra]
            shown = " ".join(missing[:8]) + (" …" if len(missing) > 8 else "")
            lacking = f"; not written: {shown}" if count < pack and not form.table.left_out else ""
            raise _error(f"the position holds {count} cards; a deal holds {pack}{lacking}", end)
        self._check_phase(form, deck, compiled, where, end)

    def _check_phase(self, form: Form, deck: Deck, compiled: CompiledForm, where: Mapping[str, int],
                     end: int) -> None:
        """Refuse a position the engine cannot go on from: a phase the form does not have, a
        phase without what it needs (a declarer, a bid), a bid the auction cannot make,
        contradictions between the sections, hands of the wrong sizes for the phase and the
        trick on the table."""
        switches = compiled.switches
        assert switches is not None
        phase, at = self.phase, where.get("phase", end + 1)
        off = {
            "dark": (form.special.dark.enabled, "special.dark"),
            "rebuy": (form.talon.rebuy.enabled, "talon.rebuy"),
            "contra": (form.contract.contra.enabled, "contract.contra"),
            "redeal": (switches.redeals, "deal.redeals"),
            "marriages": (switches.before_play, "marriages.declared_by: before_play"),
        }
        if phase in off and not off[phase][0]:
            raise _error(f"the phase `{phase}` is not one of this game's ({off[phase][1]} is off)", at)
        if phase == "redeal":
            raise _error("a position cannot start in the phase `redeal` (write the deal before or "
                         "after the redeal is called)", at)
        needs_declarer = ("talon", "exchange", "contract", "contra", "rebuy", "marriages", "trump")
        if self.declarer is None and phase in needs_declarer:
            raise _error(f"the phase `{phase}` needs a `declarer`", at)
        if phase in ("contract", "contra", "rebuy", "marriages", "play") and self.declarer is not None \
                and not (self.bid or self.contract):
            raise _error(f"the phase `{phase}` needs a `bid` (or a `contract`) for declarer "
                         f"{self.declarer}", at)
        if phase in needs_declarer and self.bidder is None and not self.contract:
            raise _error(f"the phase `{phase}` needs a `bid` with its bidder (or a `contract`)", at)
        if (self.declarer is not None and self.bidder is not None and self.declarer != self.bidder
                and not form.talon.rebuy.enabled):
            raise _error(f"the declarer ({self.declarer}) is not the highest bidder ({self.bidder})",
                         where.get("declarer", at))
        if self.bidder is not None:
            self._check_bid(form, deck, where.get("bid", at))
        if self.trick and phase != "play":
            raise _error(f"a trick is on the table in the phase `{phase}` (only in `play`)",
                         where.get("trick", at))
        order, _ = switches.seatings[self.deal.dealer]
        sizes = {p: len(self.deal.hands[p]) for p in order}
        if phase == "over":
            held = [p for p, size in sizes.items() if size]
            if held:
                raise _error(f"the deal is `over` but player {held[0]} still holds cards", at)
        if phase in ("auction", "dark") and len(set(sizes.values())) > 1:
            shown = ", ".join(f"player {p} {sizes[p]}" for p in order)
            raise _error(f"in the `{phase}` every hand holds as many cards, as dealt (here: {shown})", 1)
        if phase == "play":
            played = {p for p, _ in self.trick}
            want = {sizes[p] + (p in played) for p in order}
            if len(want) > 1:
                shown = ", ".join(f"player {p} {sizes[p]}" for p in order)
                raise _error(f"in the play every hand holds as many cards, but one less for a player "
                             f"who has played to the trick (here: {shown})", 1)
        if self.marriages:
            first, second = form.marriages.ranks
            for p, suit in self.marriages:
                pair = {f"{second}{suit}", f"{first}{suit}"} if suit in {s.id for s in deck.suits} else set()
                for q, hand in enumerate(self.deal.hands):
                    if q != p and pair and pair <= {_rank_suit(deck, c) for c in hand}:
                        raise _error(f"`marriages`: player {p} declared {suit} but player {q} holds "
                                     "that marriage", where.get("marriages", at))

    def _check_bid(self, form: Form, deck: Deck, at: int) -> None:
        """Refuse a high bid the auction cannot make: off its step or above its cap (a named
        contract's rank or value, and the forced opening, are bids too)."""
        steps = auction.bid_steps(form)
        named = {v for k in form.contract.kinds for v in (contracts.rank_of(k), k.value) if v is not None}
        if self.bid in named or self.bid == steps.forced_bid:
            return
        if not steps.on_step(self.bid):
            raise _error(f"the bid {self.bid} is not a multiple of the auction's step "
                         f"({steps.step}, auction.step)", at)
        cap = steps.cap if steps.cap is not None else auction.ceiling(form, deck.total_points)
        if self.bid > cap:
            raise _error(f"the bid {self.bid} is above the highest the auction allows ({cap})", at)

    # ------------------------------------------------------------ the engine's state

    def state(self, form: Form, deck: Deck, compiled: CompiledForm,
              options: Mapping[str, Any]) -> tuple[DealState, MatchState]:
        """The deal's and the match's state this position writes, for a game of ``form``
        (its pack ``deck``, compiled form and table options); a new state, owned by the
        caller.  The position is taken as checked (:meth:`parse`).

        Raises:
            NotationError: ``notation.position`` for a ``more`` value of the wrong kind, a
                negative count, a seat that is not one, an auction action in ``bids`` that is
                not one."""
        deal, match = _base(self, form, deck, compiled, options)
        for name, text in self.more:
            value = json.loads(text)
            try:
                if name.startswith("match."):
                    key = name[len("match."):]
                    match = replace(match, **{key: _decoded(value, _MATCH_HINTS[key], deck, name)})
                elif name.startswith("around."):
                    key = name[len("around."):]
                    around = deal.around if deal.around is not None else Around()
                    hint = get_type_hints(Around)[key]
                    decoded = _decoded(value, hint, deck, name)
                    _check_more(name, decoded, form, deck)
                    deal.around = replace(around, **{key: decoded})
                else:
                    decoded = _decoded(value, _DEAL_HINTS[name], deck, name)
                    _check_more(name, decoded, form, deck)
                    setattr(deal, name, decoded)
            except ValueError as exc:
                raise _error(str(exc), 1) from None
        return deal, match

    @classmethod
    def of_state(cls, deal: DealState, match: MatchState, form: Form, deck: Deck,
                 compiled: CompiledForm, options: Mapping[str, Any]) -> Position:
        """The position of ``deal`` in ``match`` (a game of ``form``): the sections, and in
        ``more`` every part of the state that differs from what they imply, so that
        :meth:`state` gives back a state with the same future."""
        n = form.players
        hands = tuple(tuple(str(c) for c in deal.hands.get(p, ())) for p in range(n))
        won = tuple(tuple(str(c) for c in deal.won.get(p, ())) for p in range(n))
        written = cls(
            deal=Deal(dealer=deal.dealer, hands=hands,
                      talons=tuple(tuple(str(c) for c in t) for t in deal.talons),
                      stock=tuple(str(c) for c in deal.stock)),
            phase=deal.phase,
            turn=deal.current,
            scores=tuple(match.scores),
            bid=deal.high_bid,
            bidder=deal.high_bidder,
            passed=tuple(sorted(deal.passed)),
            declarer=deal.declarer,
            contract=deal.contract,
            trump=deal.trump,
            trick=tuple((p, str(c)) for p, c in deal.trick),
            won=won if any(won) else (),
            tricks=tuple(deal.tricks.get(p, 0) for p in range(n)) if any(deal.tricks.values()) else (),
            marriages=tuple(deal.declared),
        )
        base, base_match = _base(written, form, deck, compiled, options)
        more: list[tuple[str, str]] = []
        for name in _DEAL_FIELDS:
            value = getattr(deal, name)
            if name == "around" and value is not None and base.around is not None:
                for f in fields(Around):
                    mine = _json(getattr(value, f.name))
                    if mine != _json(getattr(base.around, f.name)):
                        more.append((f"around.{f.name}", mine))
                continue
            mine, sort = _json(value), name in _KEYED
            if _json(value, sort=sort) != _json(getattr(base, name), sort=sort):
                more.append((name, mine))
        for name in _MATCH_FIELDS:
            mine = _json(getattr(match, name))
            if mine != _json(getattr(base_match, name)):
                more.append((f"match.{name}", mine))
        return replace(written, more=tuple(more))


def _rank_suit(deck: Deck, card: str) -> str:
    """``card``'s rank id then suit id (``KH`` for the king of hearts)."""
    c = deck.parse(card)
    return f"{c.rank.id}{c.suit_id}"


def _second(text: str, card: str, default: int) -> int:
    """The column of the second ``card`` written in ``text`` as a word (``default`` when it is
    written otherwise, as ``10H`` for ``TH``)."""
    found = [m.start() + 1 for m in re.finditer(rf"(?<![^\s:/|]){re.escape(card)}(?![^\s/|;])", text)]
    return found[1] if len(found) > 1 else default


def _more(part: str, at: int, start: int) -> Iterator[tuple[str, str]]:
    """The ``NAME=JSON`` pairs of a ``more`` section (the text after its name starts at
    column ``start``), each value written back canonically."""
    decoder = json.JSONDecoder()
    i = start - at
    names: set[str] = set()
    while True:
        while i < len(part) and part[i].isspace():
            i += 1
        if i >= len(part):
            break
        eq = part.find("=", i)
        name = part[i:eq] if eq >= 0 else part[i:].split()[0]
        if eq < 0 or not name or any(ch.isspace() for ch in name):
            raise _error("`more` holds `NAME=VALUE` pairs, the value in JSON", at + i)
        if not _known(name):
            raise _error(f"`more`: unknown part of the state `{shorten(name)}`", at + i)
        if name in names:
            raise _error(f"`more`: `{name}` is given twice", at + i)
        names.add(name)
        try:
            value, end = decoder.raw_decode(part, eq + 1)
        except json.JSONDecodeError as exc:
            raise _error(f"`more`: the value of `{name}` is not JSON ({exc.msg})", at + exc.pos) from None
        if end < len(part) and not part[end].isspace():
            raise _error(f"`more`: a blank must follow the value of `{name}`", at + end)
        try:
            written = _json(value)
        except TypeError:
            raise _error(f"`more`: the value of `{name}` holds a number that is not an integer "
                         f"(got {shorten(part[eq + 1:end])})", at + eq + 1) from None
        too_big = _too_big(value)
        if too_big is not None:
            raise _error(f"`more`: the value of `{name}` holds {shorten(str(too_big))}, beyond "
                         f"±{_MAX_INT:,}", at + eq + 1)
        yield name, written
        i = end


_MAX_INT = 10**15
"""The largest integer (in size) a ``more`` value may hold (a bound on untrusted input)."""


def _too_big(value: Any) -> int | None:
    """The first integer in JSON data ``value`` beyond :data:`_MAX_INT` in size, or ``None``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) > _MAX_INT else None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for v in items:
        found = _too_big(v)
        if found is not None:
            return found
    return None


def _check_more(name: str, value: Any, form: Form, deck: Deck) -> None:
    """Refuse a ``more`` value of the deal (``value`` decoded) the engine cannot hold: a
    negative count, a seat that is not one, an auction action that is not one.

    Raises:
        ValueError: the message names ``name``."""
    n = form.players
    if name.startswith("match."):
        return
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise ValueError(f"`{name}` must be at least 0 (got {value})")
    if name == "bids":
        kinds = {k.id for k in form.contract.kinds}
        for seat, text in value:
            if not 0 <= seat < n:
                raise ValueError(f"`bids`: player {seat} is not a seat (0 to {n - 1})")
            try:
                action = parse_action(text, deck)
            except NotationError as exc:
                raise ValueError(f"`bids`: {exc.diagnostic.message}") from None
            if isinstance(action, NamedBid) and action.kind not in kinds:
                raise ValueError(f"`bids`: `{shorten(text)}` names no contract of this game "
                                 f"({', '.join(sorted(kinds)) or 'none, contract.kinds'})")


def _known(name: str) -> bool:
    if name.startswith("match."):
        return name[len("match."):] in _MATCH_FIELDS
    if name.startswith("around."):
        return name[len("around."):] in {f.name for f in fields(Around)}
    return name in _DEAL_FIELDS


def _section(name: str, rest: list[tuple[str, int]], part: str, at: int, n: int,
             deck: Deck) -> dict[str, Any]:
    """The attributes of one named section (its words after the name)."""
    if name == "scores":
        if len(rest) != n:
            raise _error(f"`scores` gives {len(rest)} score(s) for {n} players", rest[0][1])
        return {"scores": tuple(_int(w, c, "a score") for w, c in rest)}
    if name == "bid":
        if len(rest) != 2:
            raise _error("`bid` is `AMOUNT PLAYER` (the highest bid and its bidder)", rest[0][1])
        bidder = None if rest[1][0] == EMPTY else _int(*rest[1], "the bidder", 0)
        # (up to 15 digits: a named contract without a rank bids above every number,
        # contracts.ABOVE_NUMBERS)
        return {"bid": _int(*rest[0], "the bid", 0, 15), "bidder": bidder}
    if name == "passed":
        return {"passed": tuple(sorted({_int(w, c, "a player who passed", 0) for w, c in rest}))}
    if name in ("declarer", "contract"):
        if len(rest) != 1:
            raise _error(f"`{name}` takes one value", rest[1][1])
        return {name: _int(*rest[0], f"the {name}", 0)}
    if name == "trump":
        if len(rest) != 1:
            raise _error("`trump` takes one suit", rest[1][1])
        try:
            return {"trump": deck.suit(rest[0][0]).id}
        except NotationError as exc:
            raise _error(exc.diagnostic.message, rest[0][1]) from None
    if name == "trick" or name == "marriages":
        out: list[tuple[int, str]] = []
        for word, column in rest:
            seat, colon, what = word.partition(":")
            if not colon or not what:
                raise _error(f"`{name}` lists `PLAYER:{'CARD' if name == 'trick' else 'SUIT'}` (got "
                             f"`{shorten(word)}`)", column)
            player = _seat(seat, column, "a player", n)
            if name == "trick":
                out.append((player, _card(what, column + len(seat) + 1, deck)))
            else:
                out.append((player, _marriage(what, column + len(seat) + 1, deck)))
        return {name: tuple(out)}
    if name == "won":
        body = rest[0][1] - at
        piles = []
        column = at + body
        for pile in part[body:].split("/"):
            cards = list(_words(pile, column))
            column += len(pile) + 1
            if not cards:
                raise _error("an empty pile of won cards is written `-`", column - len(pile) - 1)
            piles.append(() if [w for w, _ in cards] == [EMPTY] else
                         tuple(_card(w, c, deck) for w, c in cards))
        if len(piles) != n:
            raise _error(f"`won` gives {len(piles)} pile(s) for {n} players", rest[0][1])
        return {"won": tuple(piles)}
    # tricks
    if len(rest) != n:
        raise _error(f"`tricks` gives {len(rest)} count(s) for {n} players", rest[0][1])
    return {"tricks": tuple(_int(w, c, "a trick count", 0) for w, c in rest)}


def _marriage(text: str, column: int, deck: Deck) -> str:
    """A declared marriage's id: a suit (id, letter or symbol), else a rank's id (an ace
    marriage, ``marriages.ace_marriage``)."""
    try:
        return deck.suit(text).id
    except NotationError:
        pass
    try:
        return deck.rank(text).id
    except NotationError:
        raise _error(f"`marriages`: `{shorten(text)}` is no suit (nor rank) of the pack", column) from None


def _base(position: Position, form: Form, deck: Deck, compiled: CompiledForm,
          options: Mapping[str, Any]) -> tuple[DealState, MatchState]:
    """The state the sections of ``position`` imply, before its ``more``: a fresh deal of its
    cards by its dealer with the auction opened as the engine opens it (:func:`.auction.start`:
    the forced bid, each player's highest bid, the first to speak; trump from the stock's
    bottom card, ``table.stock_trump``), then each section written over it (a section left
    out keeps the fresh deal's value); the trick number from the tricks taken, the marriage
    points from ``marriages.values``.  The match: a new match with the scores."""
    switches = compiled.switches
    assert switches is not None
    order, sitter = switches.seatings[position.deal.dealer]
    card = deck.parse
    talons = [[card(c) for c in t] for t in position.deal.talons]
    deal = DealState(
        dealer=position.deal.dealer,
        order=list(order),
        sitter=sitter,
        hands={p: [card(c) for c in position.deal.hands[p]] for p in order},
        talons=talons,
        dealt_talon=tuple(c for t in talons for c in t),
        deck_points=deck.total_points,
        aces=switches.aces,
        talon_public=switches.talon_from_deal,
        stock=[card(c) for c in position.deal.stock],
        around=Around() if switches.around else None,
    )
    deal.dealt = (tuple(tuple(deal.hands.get(p, ())) for p in range(form.players)),
                  tuple(tuple(t) for t in talons), tuple(deal.stock))  # (as dealt: as they lie)
    if deal.stock and switches.stock_trump:
        deal.trump = deal.stock[-1].suit_id
    match = MatchState.new(form, options=options, dealer=position.deal.dealer,
                           deck_points=deck.total_points)
    match = replace(match, scores=tuple(position.scores))
    active = form.active
    auction.start(form, deal, lambda p: envs.base(match.player_record(p), active, options),
                  switches.direction)
    deal.phase, deal.current = position.phase, position.turn
    if position.bid or position.bidder is not None:  # (the forced player's opening is made)
        deal.high_bid, deal.high_bidder, deal.opening = position.bid, position.bidder, False
    if position.passed:
        deal.passed = set(position.passed)
    if position.declarer is not None:
        deal.declarer = position.declarer
        if position.phase == "exchange":  # the exchange as it opens (nothing given yet)
            deal.given = talon.exchange_counts(form, deal)
    if position.contract:
        deal.contract = position.contract
    if position.trump is not None:
        deal.trump = position.trump
    if position.trick:
        deal.trick = [(p, card(c)) for p, c in position.trick]
    if any(position.won):
        deal.won = {p: [card(c) for c in w] for p, w in enumerate(position.won) if w}
    if any(position.tricks):
        deal.tricks = {p: t for p, t in enumerate(position.tricks) if t}
        deal.trick_number = sum(position.tricks)
    if position.marriages:
        values = form.marriages.values
        for p, suit in position.marriages:
            deal.marriages[p] = deal.marriages.get(p, 0) + values.get(suit, 0)
        deal.declared = list(position.marriages)
    return deal, match
