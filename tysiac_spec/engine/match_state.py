"""The state of a match between deals: :class:`MatchState` (scores, counters, barrel seats,
forfeits, bolts, dealer, golden round, raised target, falls) and its checked construction from
a table's values (:meth:`MatchState.new`, :meth:`MatchState.with_values`), with the two reads
of it every tool shares: :func:`charge_seat` (a side pays as one) and :func:`winners`.
:mod:`.match` settles deals into it and re-exports these names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict, Unpack

from ..errors import Diagnostic, MatchError
from ..ruleset.model import Form
from . import env as envs
from .seating import side_of, sides

__all__ = [
    "BarrelSeat", "MatchState", "MatchValues", "charge_seat", "fail", "golden_deals", "ordinal", "winners",
]


_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()


def ordinal(n: int) -> str:
    """``3`` -> ``third``; beyond twelve ``13th``."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def golden_deals(form: Form) -> int:
    """Deals in a golden round (``golden_round.deals``; 0 there: one per seated player)."""
    return form.special.golden_round.deals or form.players


def fail(message: str, code: str = "match.outcome") -> MatchError:
    """A :class:`~tysiac_spec.errors.MatchError` with one diagnostic ``code``."""
    return MatchError(Diagnostic(code, message))


class MatchValues(TypedDict, total=False):
    """The values a table sets a match to (:meth:`MatchState.with_values`,
    :meth:`.Game.set_match_state`), each optional (absent or ``None``: unchanged); lists by
    player."""

    scores: Sequence[int] | None
    """Match scores (points)."""
    counters: Mapping[str, Sequence[int]] | None
    """The ruleset's counters (``match.counters``) as ``{name: [per player]}``."""
    dealer: int | None
    """The dealer of the next deal (a seat ``0..N-1``)."""
    barrel: Sequence[Any] | None
    """Per player ``False``/``None`` (off), ``True`` (on, no attempt used), an int (on, that
    many failed attempts) or ``{"on": bool, "attempts": int}``."""
    forfeits: Sequence[int] | None
    """Forfeits made in the match, 0 or more."""
    bolts: Sequence[int] | None
    """Bolts collected in the match, 0 or more."""
    golden: int | None
    """The golden-round deals left (0: no golden round)."""
    falls: Sequence[int] | None
    """The falls from the barrel counted towards ``barrel.falls_reset``, each below it."""


@dataclass(frozen=True, slots=True)
class BarrelSeat:
    """One player's barrel state: ``on`` the barrel, and the failed ``attempts`` used there."""

    on: bool = False
    attempts: int = 0


@dataclass(frozen=True, slots=True)
class MatchState:
    """The state of a match between deals (immutable; :func:`settle_deal` returns a new one).

    Attributes:
        scores: match scores by player (points).
        counters: the ruleset's counters (``match.counters``) by id, each a tuple by player.
        barrel: each player's :class:`BarrelSeat`.
        forfeits: forfeits each player has made in the match.
        bolts: bolts each player has collected in the match.
        dealer: the dealer of the next deal.
        deals: deals settled so far.
        winner: the winner once the match is over, else ``None``.
        golden_left: deals left in the golden round (0: the golden round is not on).
        golden_made: whether a declarer made the contract in the current golden round.
        falls: falls from the barrel by player since his last reset (``barrel.falls_reset``;
            empty when falls are not counted).
        raised: points the target has risen by in this match (``finishing.tie_raise``); the
            target in force is :meth:`target`.
        options: the table's option values (``ruleset.selected``), read by formulas.
        deck_points: card points in the pack (120), for validating outcomes.
    """

    scores: tuple[int, ...]
    counters: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    barrel: tuple[BarrelSeat, ...] = ()
    forfeits: tuple[int, ...] = ()
    bolts: tuple[int, ...] = ()
    dealer: int = 0
    deals: int = 0
    winner: int | None = None
    golden_left: int = 0
    golden_made: bool = False
    raised: int = 0
    falls: tuple[int, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    deck_points: int = 120
    _records: dict[int, dict[str, Any]] = field(init=False, default_factory=dict, compare=False, repr=False)
    """Each player's formula record, once made (see :meth:`player_record`)."""

    @property
    def players(self) -> int:
        """Players at the table."""
        return len(self.scores)

    @property
    def is_over(self) -> bool:
        """Whether the match has a winner."""
        return self.winner is not None

    @classmethod
    def new(
        cls,
        form: Form,
        *,
        options: Mapping[str, Any] | None = None,
        dealer: int = 0,
        deck_points: int = 120,
    ) -> MatchState:
        """The state at the start of a match for ``form`` (scores 0, counters at their
        ``initial`` values, the golden round pending if ``special.golden_round`` is on)."""
        n = form.players
        golden = form.special.golden_round
        return cls(
            scores=(0,) * n,
            counters={c.id: (c.initial,) * n for c in form.match.counters},
            barrel=(BarrelSeat(),) * n,
            forfeits=(0,) * n,
            bolts=(0,) * n,
            dealer=dealer % n,
            golden_left=golden_deals(form) if golden.enabled else 0,
            options=dict(options or {}),
            deck_points=deck_points,
        )

    def target(self, form: Form) -> int:
        """The target in force (points): ``match.target`` plus what ties have raised it by."""
        return form.match.target + self.raised

    def player_record(self, player: int) -> dict[str, Any]:
        """The formula record ``player`` of a player: ``score``, each counter, ``forfeits``,
        ``bolts`` and ``on_barrel``.  Made once per state: the same dict each time, not to be
        changed."""
        record = self._records.get(player)
        if record is not None:
            return record
        record = self._records[player] = envs.player_record(
            self.scores[player],
            self.forfeits[player] if self.forfeits else 0,
            self.bolts[player] if self.bolts else 0,
            bool(self.barrel and self.barrel[player].on),
            [(name, values[player]) for name, values in self.counters.items()],
        )
        return record

    def with_values(self, form: Form, **values: Unpack[MatchValues]) -> MatchState:
        """A copy with the given values (:class:`MatchValues`: lists by player), validated.

        Raises:
            TypeError: a keyword that is not one of :class:`MatchValues`.
            MatchError: ``match.state`` — a list of the wrong length, an unknown counter, a
                dealer outside the table, a negative count, the barrel when it is off, falls
                when they are not counted, partners with different values
                (``table.partnerships``).
        """
        unknown = sorted(values.keys() - MatchValues.__optional_keys__)
        if unknown:
            raise TypeError(f"unexpected keyword argument {unknown[0]!r} (the match values: "
                            f"{', '.join(MatchValues.__annotations__)})")
        n = self.players

        def ints(name: str, values: Sequence[int], *, minimum: int | None = None) -> tuple[int, ...]:
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
                raise fail(f"`{name}` must be a list of {n} integers (got {values!r})", "match.state")
            if len(values) != n:
                raise fail(
                    f"`{name}` must give one value per player: {n} (got {len(values)})", "match.state"
                )
            out = []
            for v in values:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise fail(f"`{name}` values must be integers (got {v!r})", "match.state")
                if minimum is not None and v < minimum:
                    raise fail(f"`{name}` values must be at least {minimum} (got {v})", "match.state")
                out.append(v)
            return tuple(out)

        new = self
        if (scores := values.get("scores")) is not None:
            new = replace(new, scores=ints("scores", scores))
        if (counters := values.get("counters")) is not None:
            known = {c.id for c in form.match.counters}
            merged = dict(new.counters)
            for name, per_player in counters.items():
                if name not in known:
                    names = ", ".join(sorted(known)) or "none"
                    raise fail(f"unknown counter `{name}`; the ruleset declares: {names}", "match.state")
                merged[name] = ints(f"counters.{name}", per_player)
            new = replace(new, counters=merged)
        if (dealer := values.get("dealer")) is not None:
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
                raise fail(f"`dealer` must be a player 0..{n - 1} (got {dealer!r})", "match.state")
            new = replace(new, dealer=dealer)
        if (forfeits := values.get("forfeits")) is not None:
            new = replace(new, forfeits=ints("forfeits", forfeits, minimum=0))
        if (bolts := values.get("bolts")) is not None:
            new = replace(new, bolts=ints("bolts", bolts, minimum=0))
        if (barrel := values.get("barrel")) is not None:
            new = replace(new, barrel=_barrel_seats(form, barrel, n))
        if (golden := values.get("golden")) is not None:
            if isinstance(golden, bool) or not isinstance(golden, int) or golden < 0:
                raise fail(f"`golden` must be a number of deals, 0 or more (got {golden!r})", "match.state")
            if golden and not form.special.golden_round.enabled:
                raise fail("`golden`: the ruleset has no golden round", "match.state")
            new = replace(new, golden_left=golden, golden_made=False)
        if (falls := values.get("falls")) is not None:
            every = form.special.barrel.falls_reset
            counted = ints("falls", falls, minimum=0)
            if not every or not form.special.barrel.enabled:
                raise fail("`falls`: the ruleset (with these options) counts no falls from the barrel",
                            "match.state")
            if max(counted) >= every:
                raise fail(f"`falls` values must be 0..{every - 1} (got {max(counted)})", "match.state")
            new = replace(new, falls=counted)
        team = sides(form)
        if team is not None:
            _check_sides(new, team)
        return new


def charge_seat(form: Form, state: MatchState, player: int, points: int) -> MatchState:
    """The one place a seat's match score changes outside the settlement of a deal: take
    ``points`` (a negative number adds) off ``player``'s score, and with fixed partnerships
    (``table.partnerships``, sides from :func:`.seating.sides`) off every seat of his side —
    the side pays, so partners keep one score (what :func:`_share_sides` keeps after a
    settlement).  Returns the new state; ``state`` is not changed.

    Every per-seat payment outside :func:`settle_deal` must go through here: the cut's
    penalty (``deal.cut.payer``), a redeal's or a played-on condition's penalty
    (``deal.redeals[].penalty``), and any new one (a table incident's penalty).  Changing
    ``scores`` by hand would split a side and be refused (``match.state``).

    Raises:
        IndexError: ``player`` is not a seat ``0..N-1``.
    """
    scores = list(state.scores)
    for p in side_of(form, player):
        scores[p] -= points
    return replace(state, scores=tuple(scores))


def winners(form: Form, state: MatchState) -> tuple[int, ...]:
    """The seats that won the match, in seat order: ``()`` while it goes on, else the
    winner (``state.winner``) with his partners — with fixed partnerships
    (``table.partnerships``) a side wins, not a seat (:func:`.seating.side_of`).  The one
    home of who won: simulate counts a win for each of these seats, play and the transcript
    name them."""
    if state.winner is None:
        return ()
    return side_of(form, state.winner)


def _check_sides(state: MatchState, team: Sequence[int]) -> None:
    """Fixed partnerships: partners carry one score, barrel seat, count of forfeits, bolts,
    falls and counters (``table.partnerships``); a state that splits them is refused."""
    values: list[tuple[str, Sequence[Any]]] = [
        ("scores", state.scores), ("barrel", state.barrel), ("forfeits", state.forfeits),
        ("bolts", state.bolts), ("falls", state.falls),
        *((f"counters.{k}", v) for k, v in state.counters.items()),
    ]
    for name, by_player in values:
        for p, q in enumerate(team):
            first = team.index(q)
            if by_player and by_player[p] != by_player[first]:
                raise fail(
                    f"`{name}`: partners share one value (table.partnerships), but player {first} "
                    f"has {by_player[first]!r} and player {p} {by_player[p]!r}",
                    "match.state",
                )


def _barrel_seats(form: Form, barrel: Sequence[Any], n: int) -> tuple[BarrelSeat, ...]:
    if isinstance(barrel, (str, bytes)) or not isinstance(barrel, Sequence) or len(barrel) != n:
        raise fail(f"`barrel` must give one value per player: {n} (got {barrel!r})", "match.state")
    seats = []
    for v in barrel:
        if v is None or v is False:
            seats.append(BarrelSeat())
            continue
        if v is True:
            seat = BarrelSeat(True, 0)
        elif isinstance(v, int):
            seat = BarrelSeat(True, v)
        elif isinstance(v, Mapping) and set(v) <= {"on", "attempts"}:
            seat = BarrelSeat(bool(v.get("on", True)), int(v.get("attempts", 0)))
        else:
            raise fail(
                f"`barrel` values must be true/false, a number of failed attempts or "
                f"{{on, attempts}} (got {v!r})",
                "match.state",
            )
        b = form.special.barrel
        if seat.on and not b.enabled:
            raise fail("`barrel`: the ruleset (with these options) plays no barrel", "match.state")
        if seat.attempts < 0 or (not b.attempts_unlimited and seat.on and seat.attempts >= b.attempts):
            raise fail(
                f"`barrel`: failed attempts must be 0..{b.attempts - 1} (got {seat.attempts})",
                "match.state",
            )
        seats.append(seat)
    return tuple(seats)
