"""The fixed function library of the rules DSL, and the deck data it needs.

Formulas may call only these functions.  Each is described by a
:class:`FunctionSpec` (parameters, result type, documentation, an example) and
implemented by a factory that receives the :class:`DeckInfo` at compile time.
The card functions are the only code that reads attributes of run-time values,
and they read only ``.suit`` and ``.rank`` (id strings, or the host's suits and ranks, each
equal to its id; ``count`` reads their ``.id``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .bounds import LIMIT
from .types import BOOL, CARDS, INT, RANK, SUIT, ChoiceType, TextType, Type

if TYPE_CHECKING:  # the DSL reads a host's cards by their attributes only
    from ..cards import Card, Deck

__all__ = [
    "FUNCTIONS",
    "HALF_MODES",
    "NO_TRUMP",
    "DeckInfo",
    "Fault",
    "FunctionSpec",
    "KeywordSpec",
    "Param",
    "marriage_env",
    "round_to",
]

HALF_MODES = ("down", "up", "even")
"""How :func:`round_to` breaks ties: toward the smaller multiple, the larger, or the even one."""


class Fault(Exception):
    """A run-time fault inside a library function; the compiler turns it into a
    :class:`~tysiac_spec.errors.DslError` at the call's position."""


@dataclass(frozen=True, slots=True)
class MarriageValue:
    """How a declared marriage is valued when it depends on the deal: the ruleset's
    ``marriages.value`` formula (context ``marriage.value``) and what it reads besides a
    suit's points.  ``marriages(cards)`` counts the marriages of ``cards`` with it.

    Attributes:
        text: the formula as written (with ``origin``, where it is written, what makes two
            equal: ``compiled`` does not take part in comparisons).
        compiled: the formula compiled in its context (``env -> points``; its errors at run
            time point at ``origin``).
        sets_trump: ``marriages.sets_trump``.
        first_only: ``marriages.trump_change`` is ``first_only`` (only the first marriage of
            a deal sets trump).
        players: the active players of a deal (``players`` in the formula).
    """

    text: str
    origin: Any
    compiled: Callable[[Mapping[str, Any]], Any] = field(compare=False, hash=False)
    sets_trump: bool = True
    first_only: bool = False
    players: int = 3


@dataclass(frozen=True, slots=True)
class DeckInfo:
    """What the card functions know of the pack and its marriages, given by the host at
    compile time: the DSL's view of a :class:`~tysiac_spec.cards.Deck`, made from it by
    :meth:`of` (a ruleset's formulas); written out by hand only where a formula is compiled
    without a pack (the DSL's own tests and benchmarks, cards as id strings).

    Attributes:
        rank_points: card points per rank id (``{"ace": 11, "ten": 10, ...}``).
        marriage_values: marriage value per suit id (``{"hearts": 100, ...}``), points.
        suits: the suit ids, which formulas may name (``hearts``).
        ranks: the rank ids, which formulas may name (``ace``).
        marriage_ranks: the two rank ids whose cards of one suit make a marriage
            (the ruleset's ``marriages.ranks``, such as ``("king", "queen")``).
        pack: the host's cards (``deck.cards``), when they carry a bit (``card.bit``,
            :class:`~tysiac_spec.cards.Card`): card functions then work on bit sets for a
            hand of cards whose ``card.pack is pack`` (``None``: by rank and suit only).
        marriage_value: the ruleset's ``marriages.value`` formula, the one home of a declared
            marriage's points, or ``None`` (a marriage is worth its suit's value).
    """

    rank_points: Mapping[str, int]
    marriage_values: Mapping[str, int]
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    marriage_ranks: tuple[str, str]
    pack: tuple[Card, ...] | None = None
    marriage_value: MarriageValue | None = None

    @classmethod
    def of(
        cls,
        deck: Deck,
        *,
        marriage_values: Mapping[str, int],
        marriage_ranks: tuple[str, str],
        marriage_value: MarriageValue | None = None,
    ) -> DeckInfo:
        """The view of ``deck`` (a ruleset's ``deck``): its suit and rank ids, each rank's
        card points and its cards (with their bits), with a form's marriage facts."""
        return cls(
            rank_points={r.id: r.points for r in deck.ranks},
            marriage_values=marriage_values,
            suits=tuple(s.id for s in deck.suits),
            ranks=tuple(r.id for r in deck.ranks),
            marriage_ranks=marriage_ranks,
            pack=deck.cards,
            marriage_value=marriage_value,
        )


@dataclass(frozen=True, slots=True)
class Param:
    """A positional parameter: its name, the types it accepts, a description, and whether
    its value must be positive (a rounding unit: the checker refuses a constant ``<= 0``
    with ``dsl.bad-step``; the function itself raises :class:`Fault` at run time)."""

    name: str
    types: tuple[Type, ...]
    doc: str = ""
    positive: bool = False

    def describe(self) -> str:
        """The accepted types as text: ``suit or rank``."""
        return " or ".join(t.describe() for t in self.types)


@dataclass(frozen=True, slots=True)
class KeywordSpec:
    """A keyword parameter with a fixed set of string values and a default."""

    name: str
    values: tuple[str, ...]
    default: str
    doc: str = ""


Impl = Callable[..., object]

Bound = Callable[[DeckInfo, Sequence[int]], int]
"""``bound(deck, arg_bounds)``: the largest magnitude of a function's int result, given the
largest magnitude of each positional argument (0 for one that is not an int)."""


def _host_bound(_deck: DeckInfo, _args: Sequence[int]) -> int:
    return LIMIT  # a count or sum of the host's cards: taken to be in range, as host values are


def _largest_arg(_deck: DeckInfo, args: Sequence[int]) -> int:
    return max(args)


def _rounded(_deck: DeckInfo, args: Sequence[int]) -> int:
    return args[0] + args[1]  # a multiple of the unit within one unit of x


def _marriage_total(deck: DeckInfo, _args: Sequence[int]) -> int:
    if deck.marriage_value is not None:  # the formula's values: checked at run time
        return LIMIT
    return sum(abs(v) for v in deck.marriage_values.values())


NO_TRUMP = ""
"""``trump`` in the context ``marriage.value`` while no suit is trump: equal to no suit."""


def marriage_env(
    value: int, declarer: bool, first: bool, sets_trump: bool, number: int, players: int,
    suit: str = NO_TRUMP, trump: str | None = None,
) -> dict[str, Any]:
    """The environment of the context ``marriage.value`` (the one statement of it: the engine's
    ``env.marriage_value`` is this function, and ``marriages(cards)`` calls it): the marriage's
    ``value`` by suit, whether the declaring player is the ``declarer``, whether it is the
    ``first`` marriage of the deal, whether it ``sets_trump``, the ``number`` of marriages
    declared before it, the active ``players``, its ``suit`` (an id) and the ``trump`` suit as
    it is declared (``None``: no trump, :data:`NO_TRUMP`)."""
    return {
        "value": value,
        "declarer": declarer,
        "first": first,
        "sets_trump": sets_trump,
        "number": number,
        "players": players,
        "suit": suit,
        "trump": NO_TRUMP if trump is None else trump,
    }


def _valuer(deck: DeckInfo) -> Callable[[int, int, str], int] | None:
    """``points(value, number, suit)``: what the ``marriages.value`` formula makes of the
    marriage of ``suit`` worth ``value`` declared as the deal's ``number``-th (0 first) by
    the declarer, no suit trump yet (:func:`marriage_env`); ``None`` without a formula."""
    how = deck.marriage_value
    if how is None:
        return None
    formula = how.compiled

    def points(value: int, number: int, suit: str) -> int:
        sets = how.sets_trump and (number == 0 or not how.first_only)
        return int(formula(marriage_env(value, True, number == 0, sets, number, how.players, suit)))

    return points


@dataclass(frozen=True, slots=True)
class FunctionSpec:
    """One library function.

    Attributes:
        name: the name formulas call it by.
        params: positional parameters; with ``variadic`` the last one repeats.
        result: the result type.
        doc: one sentence for the reference page.
        example: a call, as written in a formula.
        build: ``build(deck, arg_types)`` returns the implementation, taking the
            positional values then the keyword values (in ``keywords`` order).
        keywords: keyword parameters.
        variadic: whether the last parameter may repeat (``min``, ``max``).
        min_args: the fewest positional arguments accepted.
        bound: the largest magnitude of an int result (see :data:`Bound`), from which the
            compiler decides whether the result needs a range check
            (:mod:`~tysiac_spec.dsl.bounds`); by default the range's :data:`~.bounds.LIMIT`.
    """

    name: str
    params: tuple[Param, ...]
    result: Type
    doc: str
    example: str
    build: Callable[[DeckInfo, tuple[Type, ...]], Impl] = field(repr=False, compare=False)
    keywords: tuple[KeywordSpec, ...] = ()
    variadic: bool = False
    min_args: int = -1
    bound: Bound = field(default=_host_bound, repr=False, compare=False)

    @property
    def least(self) -> int:
        """The fewest positional arguments accepted."""
        return self.min_args if self.min_args >= 0 else len(self.params)

    def signature(self) -> str:
        """``round_to(x: int, unit: int, half="up")``."""
        parts = [f"{p.name}: {p.describe()}" for p in self.params]
        if self.variadic:
            parts.append("...")
        parts += [f'{k.name}="{k.default}"' for k in self.keywords]
        return f"{self.name}({', '.join(parts)}) -> {self.result.describe()}"


def round_to(x: int, unit: int, half: str = "up") -> int:
    """``x`` rounded to the nearest multiple of ``unit`` (> 0); a tie (exactly half way)
    goes to the smaller multiple (``half="down"``), the larger (``"up"``) or the even one.

    Raises:
        Fault: for a unit that is not positive, or an unknown ``half`` at a tie.
    """
    if unit <= 0:
        raise Fault(f"the unit of `round_to` must be positive (got {unit})")
    q, r = divmod(x, unit)
    twice = 2 * r
    if twice < unit:
        return q * unit
    if twice > unit:
        return (q + 1) * unit
    if half == "down" or (half == "even" and q % 2 == 0):
        return q * unit
    if half == "up" or half == "even":
        return (q + 1) * unit
    raise Fault(f'`half` of `round_to` must be "down", "up" or "even" (got "{half}")')


def _round_up(x: int, unit: int) -> int:
    if unit <= 0:
        raise Fault(f"the unit of `round_up` must be positive (got {unit})")
    return -(-x // unit) * unit


def _round_down(x: int, unit: int) -> int:
    if unit <= 0:
        raise Fault(f"the unit of `round_down` must be positive (got {unit})")
    return x // unit * unit


def _build_min(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    return min


def _build_max(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    return max


def _build_abs(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    return abs


def _build_round_to(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    return round_to


def _build_round_up(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    return _round_up


def _build_round_down(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    return _round_down


_SUIT_ID, _RANK_ID = attrgetter("suit.id"), attrgetter("rank.id")


def _build_count(_deck: DeckInfo, types: tuple[Type, ...]) -> Impl:
    # A card's suit or rank is a Suit or Rank (equal to its id) or an id string.  Against an
    # id, the ids of a tuple or list of cards are counted without a Python-level comparison
    # per card (the usual case: a host's cards); cards without them, by comparing as the
    # formula reads it.
    if types and types[-1] == SUIT:

        def by_suit(cards: Iterable[Any], suit: str) -> int:
            if suit.__class__ is str and (cards.__class__ is tuple or cards.__class__ is list):
                try:
                    return list(map(_SUIT_ID, cards)).count(suit)
                except AttributeError:  # (a card whose suit is an id string)
                    pass
            return sum(1 for c in cards if c.suit == suit)

        return by_suit

    def by_rank(cards: Iterable[Any], rank: str) -> int:
        if rank.__class__ is str and (cards.__class__ is tuple or cards.__class__ is list):
            try:
                return list(map(_RANK_ID, cards)).count(rank)
            except AttributeError:  # (a card whose rank is an id string)
                pass
        return sum(1 for c in cards if c.rank == rank)

    return by_rank


def _build_points(deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    rank_points = dict(deck.rank_points)

    def points(cards: Iterable[Any]) -> int:
        return sum(rank_points.get(c.rank, 0) for c in cards)

    return points


def _build_marriages(deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    values = dict(deck.marriage_values)
    king, queen = deck.marriage_ranks
    # The last tuple of cards seen and its value: a formula evaluated for many bids reads the
    # same hand each time.  Tuples (of immutable cards) cannot change, and the one kept here
    # stays alive, so its identity is never reused by another object.
    last: list[tuple[Any, int]] = [((), 0)]
    # With the pack's bits: each marriage as the bits of its king and queen, and its value.
    pack = deck.pack
    card_bits = {(c.rank.id, c.suit.id): c.bit for c in pack or ()}
    pairs = [
        (card_bits[(king, s)] | card_bits[(queen, s)], v, s)
        for s, v in values.items()
        if (king, s) in card_bits and (queen, s) in card_bits
    ]
    points = _valuer(deck)
    # the value by the kings and queens held (bits & paired): a function of them alone (the
    # pairs' values and marriage.value's points are the deck's); at most 2 ** (2 * pairs) entries
    paired = 0
    for both, _, _ in pairs:
        paired |= both
    by_pairs: dict[int, int] = {}

    def declared(held: list[tuple[int, str]]) -> int:
        """The points of the marriages ``held`` (value and suit) as the declarer scores them
        declaring them in turn, the most valuable suit first (``marriages.value``)."""
        assert points is not None
        ordered = sorted(held, key=lambda vs: vs[0], reverse=True)
        return sum(points(v, k, suit) for k, (v, suit) in enumerate(ordered))

    def marriages(cards: Iterable[Any]) -> int:
        seen = last[0]
        if seen[0] is cards:
            return seen[1]
        if pairs and pack is not None and type(cards) is tuple:
            bits = 0
            try:
                for c in cards:
                    if c.pack is not pack:  # another pack's cards: their bits may differ
                        bits = -1
                        break
                    bits |= c.bit
            except AttributeError:  # not the host's cards
                bits = -1
            if bits >= 0 and bits.bit_count() == len(cards):  # each card once
                held = bits & paired
                known = by_pairs.get(held)
                if known is not None:
                    last[0] = (cards, known)
                    return known
                if points is not None:
                    total = declared([(v, s) for both, v, s in pairs if bits & both == both])
                else:
                    total = 0
                    for both, value, _ in pairs:
                        if bits & both == both:
                            total += value
                by_pairs[held] = total
                last[0] = (cards, total)
                return total
        kings: set[str] = set()
        queens: set[str] = set()
        for c in cards:
            rank = c.rank
            if rank.__class__ is not str:  # a card's Rank (else a rank id)
                rank = rank.id
            if rank == king:
                kings.add(getattr(c.suit, "id", c.suit))
            elif rank == queen:
                queens.add(getattr(c.suit, "id", c.suit))
        total = 0
        if points is not None:
            total = declared([(values.get(s, 0), s) for s in kings if s in queens])
        else:
            for s in kings:
                if s in queens:
                    total += values.get(s, 0)
        if type(cards) is tuple:
            last[0] = (cards, total)
        return total

    return marriages


def _build_has_marriage(deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    king, queen = deck.marriage_ranks

    def has_marriage(cards: Iterable[Any], suit: str) -> bool:
        ranks = {c.rank for c in cards if c.suit == suit}
        return king in ranks and queen in ranks

    return has_marriage


def _build_len(_deck: DeckInfo, _types: tuple[Type, ...]) -> Impl:
    def length(cards: Iterable[Any]) -> int:
        return sum(1 for _ in cards)

    return length


_X = Param("x", (INT,), "a number")
_UNIT = Param("unit", (INT,), "a positive number", positive=True)
_CARDS = Param("cards", (CARDS,), "a set of cards")

FUNCTIONS: Mapping[str, FunctionSpec] = {
    spec.name: spec
    for spec in (
        FunctionSpec(
            "abs",
            (_X,),
            INT,
            "The absolute value of `x`.",
            "abs(player.score)",
            _build_abs,
            bound=_largest_arg,
        ),
        FunctionSpec(
            "count",
            (_CARDS, Param("what", (RANK, SUIT), "a rank or a suit")),
            INT,
            "How many of `cards` have the rank (or suit) `what`.",
            "count(hand, ace)",
            _build_count,
        ),
        FunctionSpec(
            "has_marriage",
            (_CARDS, Param("suit", (SUIT,), "a suit")),
            BOOL,
            "Whether `cards` hold both marriage cards (king and queen) of `suit`.",
            "has_marriage(hand, hearts)",
            _build_has_marriage,
        ),
        FunctionSpec(
            "len", (_CARDS,), INT, "How many cards `cards` holds.", "len(talon)", _build_len
        ),
        FunctionSpec(
            "marriages",
            (_CARDS,),
            INT,
            "The points of the marriages in `cards` (both cards of `marriages.ranks` in one "
            "suit): each suit's `marriages.values`, or, when `marriages.value` is written, "
            "what it gives each marriage declared by the declarer, the most valuable suit "
            "first (points).",
            "120 + marriages(hand)",
            _build_marriages,
            bound=_marriage_total,
        ),
        FunctionSpec(
            "max",
            (Param("a", (INT,)), Param("b", (INT,))),
            INT,
            "The largest of two or more numbers.",
            "max(0, points - contract)",
            _build_max,
            variadic=True,
            bound=_largest_arg,
        ),
        FunctionSpec(
            "min",
            (Param("a", (INT,)), Param("b", (INT,))),
            INT,
            "The smallest of two or more numbers.",
            "min(300, 120 + marriages(hand))",
            _build_min,
            variadic=True,
            bound=_largest_arg,
        ),
        FunctionSpec(
            "points",
            (_CARDS,),
            INT,
            "The card points of `cards` (the ruleset's rank points summed).",
            "points(talon)",
            _build_points,
        ),
        FunctionSpec(
            "round_down",
            (_X, _UNIT),
            INT,
            "`x` rounded down to a multiple of `unit`.",
            "round_down(points, 10)",
            _build_round_down,
            bound=_rounded,
        ),
        FunctionSpec(
            "round_to",
            (_X, _UNIT),
            INT,
            "`x` rounded to the nearest multiple of `unit`; `half` says where an exact "
            'half goes: "down" (the smaller multiple), "up" (the larger) or "even".',
            'round_to(points, 10, half="down")',
            _build_round_to,
            keywords=(KeywordSpec("half", HALF_MODES, "up", "how a tie is broken"),),
            bound=_rounded,
        ),
        FunctionSpec(
            "round_up",
            (_X, _UNIT),
            INT,
            "`x` rounded up to a multiple of `unit`.",
            "round_up(points, 10)",
            _build_round_up,
            bound=_rounded,
        ),
    )
}


def keyword_accepts(spec: KeywordSpec, found: Type) -> bool:
    """Whether a keyword of ``spec`` accepts a value of type ``found`` (text or a choice
    whose values are all allowed)."""
    if isinstance(found, TextType):
        return True
    return isinstance(found, ChoiceType) and set(found.values) <= set(spec.values)
