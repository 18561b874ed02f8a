"""The deal's own scores from the ruleset's formulas (``form.scoring``, ``contract.forfeit``,
``table.sitter``), computed from a :class:`DealOutcome` — the one code path used by the
engine (built from a played deal) and by a real-table scoresheet (typed in by users).

Points are card points won in tricks (plus any leftover cards awarded at the end of
play) plus the marriages the player declared.  Cards discarded face down and leftover
cards that ``talon.leftover`` gives to nobody score for nobody.  The match-level
adjustments (multiplier, the 800 rule, the barrel, bolts, match rules, finishing) are
applied afterwards by :func:`tysiac_spec.engine.match.settle_deal`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from operator import itemgetter
from typing import Any, ClassVar, Literal

from ..cards import Card
from ..dsl.contexts import DEAL_FACTS
from ..errors import Diagnostic, MatchError
from ..ruleset.model import Form
from . import contracts
from . import env as envs
from .seating import direction
from .state import DealState

__all__ = [
    "AllPassOutcome",
    "ContractOutcome",
    "DealOutcome",
    "ForfeitCost",
    "compile_formula_scores",
    "compile_played",
    "deal_facts",
    "facts_read",
    "forfeit_cost",
    "outcome_from",
    "outcome_of",
    "plain_outcome_of",
    "pooled",
    "scores_and_made",
    "seat_after",
    "sitter_talon_score",
    "with_terms",
]

Mode = Literal["normal", "dark", "golden"]


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """What happened in one deal, as a scoresheet records it (no cards in hand needed).

    Attributes:
        declarer: the player who won the auction (0-based).
        bid: the winning bid (points).
        contract: the final contract after the exchange (points, at least ``bid``).
        card_points: card points each active player won in tricks, leftover cards
            included (points; absent players count 0); ignored for a forfeited deal.
        marriages: declared marriage points by player (points; absent: 0).
        tricks: tricks won by player; ``None`` when not recorded (then bolts that count
            "no trick" cannot be decided and :class:`~tysiac_spec.errors.MatchError` is
            raised if the ruleset counts them).
        forfeited: the declarer gave up the deal after seeing the talon (rospis / bomb).
        mode: ``normal``, ``dark`` (declared blind) or ``golden`` (a golden-round deal).
        multiplier: the deal's points are multiplied by this; ``None``: from the mode
            (``special.dark.multiplier``, ``special.golden_round.multiplier``, else 1).
        sitter: the player sitting out (four players), or ``None``.
        sitter_talon: the dealt talon the sitter scores (``table.sitter.score``), or
        sitter_points: the sitter's score given directly (points), instead of the talon.
        players: the active players; by default every player at the table but the sitter.
        won: the cards each player won in tricks (leftover cards included); ``None`` when
            not recorded (then a scoring formula reading ``won`` raises
            :class:`~tysiac_spec.errors.MatchError`).
        last_trick: the player who won the last trick; ``None`` when not recorded (likewise
            for ``last_trick``).
        declarations: the marriages declared, in order: the player and the suit id (the rank id
            ``marriages.ace_marriage.rank``, ``ace``,
            for the ace marriage); ``None``: not recorded (then a formula reading
            ``declared`` or ``drowned`` raises :class:`~tysiac_spec.errors.MatchError`).
        dealer: the player who dealt (0-based); ``None`` when not recorded (then a formula
            reading ``dealer_seat`` raises :class:`~tysiac_spec.errors.MatchError`).

    A deal of a named contract or a doubled one is recorded by the subclass
    :class:`ContractOutcome` (:func:`with_terms`), which adds ``kind`` and ``contra``; a plain
    :class:`DealOutcome` reads them as the class defaults (``None``, 1), so a deal of a form
    without those mechanisms carries, makes and copies nothing for them.
    """

    declarer: int
    bid: int
    contract: int
    card_points: Mapping[int, int] = field(default_factory=dict)
    marriages: Mapping[int, int] = field(default_factory=dict)
    tricks: Mapping[int, int] | None = None
    forfeited: bool = False
    mode: Mode = "normal"
    multiplier: int | None = None
    sitter: int | None = None
    sitter_talon: tuple[Card, ...] | None = None
    sitter_points: int | None = None
    players: tuple[int, ...] = ()
    won: Mapping[int, Sequence[Card]] | None = None
    last_trick: int | None = None
    declarations: tuple[tuple[int, str], ...] | None = None
    dealer: int | None = None
    kind: ClassVar[str | None] = None
    """The named contract (``contract.kinds``): none here (see :class:`ContractOutcome`)."""
    contra: ClassVar[int] = 1
    """The factor of contra and redouble: 1 here (see :class:`ContractOutcome`)."""

    def active(self, seated: int) -> tuple[int, ...]:
        """The active players, ascending, of a table of ``seated`` players."""
        if self.players:
            return tuple(sorted(self.players))
        return tuple(p for p in range(seated) if p != self.sitter)

    def points(self, player: int) -> int:
        """Card points plus declared marriages of ``player``."""
        return self.card_points.get(player, 0) + self.marriages.get(player, 0)


@dataclass(frozen=True, slots=True)
class ContractOutcome(DealOutcome):
    """A :class:`DealOutcome` of a deal whose contract is more than its points: a named
    contract (``contract.kinds``) or a doubled one (``contract.contra``); made by
    :func:`with_terms` (the engine's :func:`outcome_of`, a scoresheet) only for such a deal.

    Attributes:
        kind: the named contract the deal was played as (an id of ``contract.kinds``, scored
            by its own formulas, :func:`~tysiac_spec.engine.contracts.scored_form`); ``None``:
            the numeric contract.
        contra: the factor of contra and redouble on the contract (``contract.contra``; 1:
            nobody doubled).
        top_bid: under a named ``kind``, the highest numeric bid of the auction before the
            named bid won it (points; 0: none); ``None``: not recorded (then a formula reading
            ``top_bid`` raises :class:`~tysiac_spec.errors.MatchError`).  A numeric contract's
            ``top_bid`` is its ``bid``.
    """

    kind: str | None = None  # type: ignore[misc]
    contra: int = 1  # type: ignore[misc]
    top_bid: int | None = None


_OUTCOME_FIELDS = tuple(f.name for f in fields(DealOutcome))


def with_terms(
    outcome: DealOutcome, kind: str | None, contra: int, top_bid: int | None = None
) -> DealOutcome:
    """``outcome`` with the contract's named ``kind``, ``contra`` factor and the auction's
    ``top_bid`` under a named kind (:class:`ContractOutcome`), or ``outcome`` itself for the
    numeric contract undoubled (``None``, 1)."""
    if kind is None and contra == 1:
        return outcome
    values: dict[str, Any] = {name: getattr(outcome, name) for name in _OUTCOME_FIELDS}
    values["kind"], values["contra"], values["top_bid"] = kind, contra, top_bid
    return ContractOutcome(**values)


@dataclass(frozen=True, slots=True)
class AllPassOutcome:
    """What happened in a deal played out without a declarer (all-pass play,
    :mod:`.all_pass`), as a scoresheet records it.

    Attributes:
        card_points: card points each active player won (points; absent: 0).
        tricks: tricks each active player won (absent: 0); ``None`` when not recorded (a
            scoresheet): then a formula reading ``tricks``, ``most_tricks`` or ``fewest_tricks``
            raises :class:`~tysiac_spec.errors.MatchError`.
        players: the active players; by default every player but the ``sitter``.
        sitter: the player sitting out (four players), or ``None``; he scores 0.
        won: the cards each player won; ``None`` when not recorded (then a formula reading
            ``won`` raises :class:`~tysiac_spec.errors.MatchError`).
        last_trick: the player who won the last trick; ``None`` when not recorded.
    """

    card_points: Mapping[int, int]
    tricks: Mapping[int, int] | None = None
    players: tuple[int, ...] = ()
    sitter: int | None = None
    won: Mapping[int, Sequence[Card]] | None = None
    last_trick: int | None = None

    def active(self, seated: int) -> tuple[int, ...]:
        """The active players, ascending, of a table of ``seated`` players."""
        if self.players:
            return tuple(sorted(self.players))
        return tuple(p for p in range(seated) if p != self.sitter)


@dataclass(frozen=True, slots=True)
class ForfeitCost:
    """How a forfeit is charged to the declarer under ``contract.forfeit.mode``.

    ``kind`` is ``formula`` (``contract.forfeit.declarer`` applies), ``free`` (costs
    nothing) or ``penalty`` (costs ``mode.penalty`` *instead of* the formula);
    ``count`` is the declarer's forfeits in the match, this one included.
    """

    kind: Literal["formula", "free", "penalty"]
    count: int


def forfeit_cost(form: Form, count: int) -> ForfeitCost:
    """Which charge the ``count``-th forfeit of a player carries (see :class:`ForfeitCost`).

    The first ``mode.free`` forfeits are free; after them every ``mode.penalty_every``-th
    costs ``mode.penalty`` in place of the declarer formula (S002, rospis modes: the
    "penalty" names what the declarer loses — the bid in one mode, 120 in another,
    nothing in a third — so the penalty replaces the formula, it does not add to it).
    ``S002`` is a key of a ruleset's ``sources:`` list.
    """
    mode = form.contract.forfeit.mode
    free = mode.free or 0
    if mode.free is not None and count <= free:
        return ForfeitCost("free", count)
    if mode.penalty_every is not None and (count - free) % mode.penalty_every == 0:
        return ForfeitCost("penalty", count)
    return ForfeitCost("formula", count)


def facts_read(form: Form) -> frozenset[str]:
    """The deal facts (:data:`~tysiac_spec.dsl.contexts.DEAL_FACTS`) that ``form``'s scoring
    formulas read; empty for every form that reads none (no fact is then built)."""
    s = form.scoring
    reads = s.made.reads | s.declarer.reads | s.defender.reads
    return reads & _FACTS


_FACTS = frozenset(DEAL_FACTS)


def deal_facts(
    form: Form, outcome: DealOutcome, player: int, active: tuple[int, ...], need: frozenset[str]
) -> dict[str, Any]:
    """The deal facts named in ``need`` about ``player`` (one of the ``active`` players), for
    the scoring contexts: ``won`` (cards), ``last_trick`` (bool), ``declared`` (count),
    ``drowned``, ``others_points`` and ``declarer_points`` (points), ``seat`` (count: see
    :func:`seat_after`), ``mode``, ``others_tricks`` (count: the other active players' tricks),
    ``top_bid`` (points: the auction's highest numeric bid, ``outcome.bid`` for a numeric
    contract), ``player_seat``, ``dealer_seat``, ``declarer_seat`` (the seats of ``player``,
    the dealer and the declarer at the table, 0-based as the game numbers players).

    ``drowned`` is the value (``form.marriages.values``) of the king–queen marriages
    ``player`` declared of which another player won the king or the queen in a trick (the
    ace marriage is never drowned).

    Raises:
        MatchError: (code ``match.outcome``) when a needed fact is not in ``outcome`` (a
            scoresheet that does not record the cards won, the last trick or the declarations).
    """
    out: dict[str, Any] = {}
    for name in need:
        if name == "mode":
            out[name] = outcome.mode
        elif name == "others_points":
            out[name] = sum(outcome.points(q) for q in active if q != player)
        elif name == "declarer_points":
            out[name] = outcome.points(outcome.declarer)
        elif name == "won":
            out[name] = tuple(_recorded(outcome.won, name).get(player, ()))
        elif name == "last_trick":
            out[name] = _recorded(outcome.last_trick, name) == player
        elif name == "seat":
            out[name] = seat_after(form, outcome, player)
        elif name == "others_tricks":
            tricks = _recorded(outcome.tricks, name)
            out[name] = sum(tricks.get(q, 0) for q in active if q != player)
        elif name == "declared":
            out[name] = sum(1 for q, _ in _recorded(outcome.declarations, name) if q == player)
        elif name == "top_bid":
            out[name] = outcome.bid if outcome.kind is None else _recorded(
                getattr(outcome, "top_bid", None), name)
        elif name == "player_seat":
            out[name] = player
        elif name == "dealer_seat":
            out[name] = _recorded(outcome.dealer, name)
        elif name == "declarer_seat":
            out[name] = outcome.declarer
        else:  # drowned
            out[name] = _drowned(form, outcome, player)
    return out


def seat_after(form: Form, outcome: DealOutcome, player: int) -> int:
    """``player``'s place after the declarer in the direction of play (``deal.direction``),
    counting only the deal's active players: 1 for the next one, 2 for the one after; 0
    for the declarer himself."""
    active, n, d = outcome.active(form.players), form.players, direction(form)
    steps, q = 0, outcome.declarer
    while q != player:
        q = (q + d) % n
        if q in active:
            steps += 1
        if steps > n:  # pragma: no cover - a player not at the table
            raise MatchError(Diagnostic("match.outcome", f"player {player} is not in the deal"))
    return steps


def pooled(outcome: DealOutcome, team: Sequence[int]) -> DealOutcome:
    """``outcome`` with each side playing as one player (``table.partnerships``; ``team``
    from :func:`~tysiac_spec.engine.seating.sides`): every seat's card points, marriages,
    tricks and cards won become its side's (the partners' added up), so the declarer's
    partner makes the contract with him and the scoring formulas see a side's points
    (mekedron/thousand's ``fixed_across_table`` checks the contract against the side's
    points).  Who took the last trick and who declared which marriage stay as played."""

    def added(values: Mapping[int, int]) -> dict[int, int]:
        side: dict[int, int] = {}
        for p, v in values.items():
            side[team[p]] = side.get(team[p], 0) + v
        return {p: side.get(team[p], 0) for p in range(len(team))}

    won = outcome.won
    if won is not None:
        cards: dict[int, list[Card]] = {}
        for p, w in sorted(won.items()):
            cards.setdefault(team[p], []).extend(w)
        won = {p: tuple(cards.get(team[p], ())) for p in range(len(team))}
    return replace(
        outcome,
        card_points=added(outcome.card_points),
        marriages=added(outcome.marriages),
        tricks=None if outcome.tricks is None else added(outcome.tricks),
        won=won,
    )


def _recorded(value: Any, name: str) -> Any:
    if value is None:
        raise MatchError(
            Diagnostic(
                "match.outcome",
                f"the ruleset's scoring formulas read `{name}`, which this deal's record does not give",
            )
        )
    return value


def _drowned(form: Form, outcome: DealOutcome, player: int) -> int:
    values, ranks = form.marriages.values, form.marriages.ranks
    won = _recorded(outcome.won, "drowned")
    lost = {
        c.suit.id for q, cards in won.items() if q != player for c in cards if c.rank.id in ranks
    }
    return sum(
        values[suit]
        for q, suit in _recorded(outcome.declarations, "drowned")
        if q == player and suit in values and suit in lost
    )


PlayedScores = Callable[
    [DealOutcome, tuple[int, ...], Callable[[int], Mapping[str, Any]], Mapping[str, Any]],
    tuple[dict[int, int], bool],
]
"""``played(outcome, active, player_env, options)`` -> ``(scores, made)``: see
:func:`compile_played`."""


_INPUTS = ("card_points", "marriages", "points", "tricks", "contract", "made")
"""The names of a deal's scoring contexts a value can be kept by (:func:`_kept_by`)."""

_KEPT_LIMIT = 100_000
"""Values a kept formula holds before it starts again (a bound on memory, never reached by
the shipped rules: their inputs take a few thousand values)."""


def _kept_by(formula: Any, fixed_options: bool = False) -> Callable[[tuple[Any, ...]], Any] | None:
    """The key a scoring formula's value is kept under, from the tuple of the deal's inputs
    (:data:`_INPUTS`, in order): the values it reads, when it reads no other name than
    ``players`` (the form's, the same for every deal) and, with ``fixed_options`` (the caller
    passes the same options every time), ``options``; ``None`` when it reads the ``player``
    record, ``options`` (not fixed) or a deal fact, and is evaluated each time.  A formula is a
    function of what it reads, so a kept value is the value it would give again."""
    reads = formula.reads
    if not reads <= (_KEPT_WITH_OPTIONS if fixed_options else _KEPT_NAMES):
        return None
    at = [i for i, name in enumerate(_INPUTS) if name in reads]
    if not at:
        return lambda inputs: ()
    return itemgetter(*at)


_KEPT_NAMES = frozenset({*_INPUTS, "players"})
_KEPT_WITH_OPTIONS = _KEPT_NAMES | {"options"}


MadeOf = Callable[[int, int, int, int, Mapping[str, Any], Mapping[str, Any]], bool]
"""``made(card_points, marriages, tricks, contract, options, facts)``: ``scoring.made`` for
the declarer's numbers of a deal (:func:`compile_formula_scores`)."""

ScoreOf = Callable[[int, int, int, int, bool, Mapping[str, Any], Mapping[str, Any], Any], int]
"""``score(card_points, marriages, tricks, contract, made, options, facts, record)``:
``scoring.declarer`` or ``scoring.defender`` for one player's numbers of a deal, ``record``
his ``player`` record (:func:`compile_formula_scores`)."""


def compile_formula_scores(
    form: Form, options: Mapping[str, Any] | None = None
) -> tuple[MadeOf, ScoreOf, ScoreOf]:
    """``scoring.made``, ``scoring.declarer`` and ``scoring.defender`` as functions of one
    player's numbers of a played deal (card points, marriages, tricks), the contract, whether
    it was made, the options, the deal facts (:func:`deal_facts`, ``envs.NO_FACTS`` when the
    form reads none) and the ``player`` record (``envs.UNREAD_BASE["player"]`` when the
    formula does not read it).  A formula that reads only the deal's card points, marriages,
    points, tricks, contract, ``made`` and ``players`` has its values kept by what it reads
    (:func:`_kept_by`): its environment is built and it is evaluated once for each of them.
    ``options``: the options every call passes, when the caller's are fixed (the fast path's
    form); a formula that also reads ``options`` is then kept too.
    The one statement of the deal's scores by the formulas: :func:`compile_played` calls
    them, and so does the settlement of a simple form (:mod:`.simple_settle`)."""
    s = form.scoring
    made_of, declarer_of, defender_of = s.made.evaluator(), s.declarer.evaluator(), s.defender.evaluator()
    players = form.active
    made_env, declarer_env, defender_env = envs.scoring_made, envs.scoring_declarer, envs.scoring_defender
    fixed = options is not None
    made_key, declarer_key, defender_key = (_kept_by(s.made, fixed), _kept_by(s.declarer, fixed),
                                            _kept_by(s.defender, fixed))
    made_kept: dict[Any, bool] = {}
    declarer_kept: dict[Any, int] = {}
    defender_kept: dict[Any, int] = {}
    limit = _KEPT_LIMIT

    def made(cp: int, m: int, t: int, contract: int, options: Mapping[str, Any],
             facts: Mapping[str, Any]) -> bool:
        if made_key is None:
            return bool(made_of(made_env(players, options, cp, m, t, contract, facts)))
        key = made_key((cp, m, cp + m, t, contract, False))
        got = made_kept.get(key)
        if got is None:
            got = bool(made_of(made_env(players, options, cp, m, t, contract, facts)))
            if len(made_kept) >= limit:
                made_kept.clear()
            made_kept[key] = got
        return got

    def declarer(cp: int, m: int, t: int, contract: int, made: bool, options: Mapping[str, Any],
                 facts: Mapping[str, Any], record: Any) -> int:
        if declarer_key is None:
            return int(declarer_of(declarer_env(record, players, options, cp, m, t, contract, made, facts)))
        key = declarer_key((cp, m, cp + m, t, contract, made))
        value = declarer_kept.get(key)
        if value is None:
            value = int(declarer_of(declarer_env(record, players, options, cp, m, t, contract, made, facts)))
            if len(declarer_kept) >= limit:
                declarer_kept.clear()
            declarer_kept[key] = value
        return value

    def defender(cp: int, m: int, t: int, contract: int, made: bool, options: Mapping[str, Any],
                 facts: Mapping[str, Any], record: Any) -> int:
        if defender_key is None:
            return int(defender_of(defender_env(record, players, options, cp, m, t, contract, made, facts)))
        key = defender_key((cp, m, cp + m, t, contract, made))
        value = defender_kept.get(key)
        if value is None:
            value = int(defender_of(defender_env(record, players, options, cp, m, t, contract, made, facts)))
            if len(defender_kept) >= limit:
                defender_kept.clear()
            defender_kept[key] = value
        return value

    return made, declarer, defender


def compile_played(form: Form) -> PlayedScores:
    """The scores of a played (not forfeited) deal under ``form``, as one function with the
    rules read once: the declarer by ``scoring.made`` (evaluated once) then
    ``scoring.declarer``, each defender by ``scoring.defender`` (points, by player, for the
    ``active`` players), and whether the declarer made the contract
    (:func:`compile_formula_scores`).  The deal facts are built only when the form's formulas
    read some (:func:`facts_read`, decided here: a form that reads none never tests for them);
    ``player_env(p)`` gives the ``player`` record, called only when the declarer's or the
    defender's formula reads it (decided here too).
    Kept in the engine's :class:`~tysiac_spec.engine.compiled.CompiledForm`
    (``score_played``); :func:`scores_and_made` calls it."""
    s = form.scoring
    need = facts_read(form)
    no_facts = envs.NO_FACTS
    # a player's record is built only for a formula that reads it
    unread = envs.UNREAD_BASE["player"]
    declarer_record, defender_record = "player" in s.declarer.reads, "player" in s.defender.reads
    made_score, declarer_score, defender_score = compile_formula_scores(form)

    def played(
        outcome: DealOutcome,
        active: tuple[int, ...],
        player_env: Callable[[int], Mapping[str, Any]],
        options: Mapping[str, Any],
    ) -> tuple[dict[int, int], bool]:
        out: dict[int, int] = {}
        tricks = outcome.tricks or {}
        card_points, marriages, contract = outcome.card_points, outcome.marriages, outcome.contract
        d = outcome.declarer
        facts = deal_facts(form, outcome, d, active, need) if need else no_facts
        made = made_score(card_points.get(d, 0), marriages.get(d, 0), tricks.get(d, 0), contract, options,
                          facts)
        for p in active:
            cp, m, t = card_points.get(p, 0), marriages.get(p, 0), tricks.get(p, 0)
            if p == d:
                record = player_env(p) if declarer_record else unread
                out[p] = declarer_score(cp, m, t, contract, made, options, facts, record)
            else:
                if need:
                    facts = deal_facts(form, outcome, p, active, need)
                record = player_env(p) if defender_record else unread
                out[p] = defender_score(cp, m, t, contract, made, options, facts, record)
        return out, made

    return played


def scores_and_made(
    form: Form,
    outcome: DealOutcome,
    player_env: Callable[[int], Mapping[str, Any]],
    options: Mapping[str, Any],
    *,
    forfeit_count: int = 1,
    played: PlayedScores | None = None,
) -> tuple[dict[int, int], bool]:
    """Each player's score for the deal from the ruleset's formulas, before the multiplier
    and every match-level mechanism (points), and whether the declarer made the contract
    (``scoring.made``, evaluated once; false for a forfeit).

    A played deal: the declarer by ``scoring.made`` then ``scoring.declarer``; each defender
    by ``scoring.defender``.  A forfeited deal: the declarer by ``contract.forfeit.declarer``
    (or free / ``mode.penalty``, see :func:`forfeit_cost`), each opponent by
    ``contract.forfeit.defender``.  The sitter by ``table.sitter.score`` on the dealt talon
    (or ``outcome.sitter_points``).  ``player_env(p)`` gives the ``player`` record
    (``score``, counters, …), called only for a formula that reads it; ``forfeit_count`` the
    declarer's forfeits, this one included;
    ``played`` the form's :func:`compile_played` (else the engine's kept one, ``form.compiled``,
    or one compiled now; for a deal of a named kind, ``outcome.kind``, that kind's).
    """
    made: bool | None = None
    out: dict[int, int] = {}
    active = outcome.active(form.players)
    players, contract = form.active, outcome.contract
    if outcome.forfeited:
        f = form.contract.forfeit
        unread = envs.UNREAD_BASE["player"]  # (a record is built only for a formula that reads it)
        for p in active:
            if p == outcome.declarer:
                cost = forfeit_cost(form, forfeit_count)
                if cost.kind == "free":
                    out[p] = 0
                elif cost.kind == "penalty":
                    out[p] = -f.mode.penalty
                elif f.declarer is None:
                    out[p] = -contract
                else:
                    record = player_env(p) if "player" in f.declarer.reads else unread
                    e = envs.forfeit_declarer(record, players, options, outcome.bid, contract, forfeit_count)
                    out[p] = int(f.declarer(e))
            elif f.defender is None:
                out[p] = 0
            else:
                seat = seat_after(form, outcome, p)
                record = player_env(p) if "player" in f.defender.reads else unread
                e = envs.forfeit_defender(
                    record, players, options, outcome.bid, contract, forfeit_count, seat
                )
                out[p] = int(f.defender(e))
    else:
        if played is None and outcome.kind is not None:  # a named kind: its own formulas
            played = _kind_played(form, outcome.kind)
        if played is None:  # the engine's CompiledForm keeps compile_played(form)
            compiled = form.compiled
            played = compiled.score_played if compiled is not None else compile_played(form)
        out, made = played(outcome, active, player_env, options)
    if outcome.sitter is not None:
        out[outcome.sitter] = sitter_score(form, outcome, player_env, options)
    return out, bool(made) and not outcome.forfeited


def _kind_played(form: Form, kind: str) -> PlayedScores:
    """The scores of a deal played as the named kind ``kind``: the engine's compiled ones
    (``CompiledForm.kinds``), else compiled now from :func:`.contracts.scored_form`."""
    compiled = form.compiled
    if compiled is not None and kind in compiled.kinds:
        return compiled.kinds[kind].score_played  # type: ignore[no-any-return]
    return compile_played(contracts.scored_form(form, contracts.kind_of(form, kind)))


def sitter_score(
    form: Form,
    outcome: DealOutcome,
    player_env: Callable[[int], Mapping[str, Any]],
    options: Mapping[str, Any],
) -> int:
    """The sitter's score (points): ``outcome.sitter_points`` if given, else
    ``table.sitter.score`` on ``outcome.sitter_talon``, else 0."""
    if outcome.sitter is None:
        return 0
    if outcome.sitter_points is not None:
        return outcome.sitter_points
    spec = form.table.sitter
    if spec is None or spec.score is None or outcome.sitter_talon is None:
        return 0
    record = player_env(outcome.sitter) if "player" in spec.score.reads else envs.UNREAD_BASE["player"]
    return sitter_talon_score(form, outcome.sitter_talon, record, options)


def sitter_talon_score(form: Form, talon: tuple[Card, ...], record: Any, options: Mapping[str, Any]) -> int:
    """The sitter's score (points) by ``table.sitter.score`` on the dealt ``talon`` (0 without
    the formula), ``record`` his ``player`` record.  The one statement (:func:`sitter_score`
    and the fast path's settlement call it)."""
    spec = form.table.sitter
    if spec is None or spec.score is None:
        return 0
    return int(spec.score(envs.scoring_sitter(record, form.active, options, talon)))


def outcome_of(deal: DealState) -> DealOutcome:
    """The :class:`DealOutcome` of a finished (or forfeited) engine deal: a
    :class:`ContractOutcome` for a deal of a named or doubled contract (``deal.around``)."""
    out = plain_outcome_of(deal)
    a = deal.around
    if a is not None:  # (contract.kinds, contract.contra) the contract's terms
        return with_terms(out, a.kind, a.contra, a.top_bid)
    return out


def plain_outcome_of(deal: DealState) -> DealOutcome:
    """:func:`outcome_of` for a deal without ``deal.around`` (a form with no mechanism acting
    around the contract: the game calls this one directly for such a form)."""
    assert deal.declarer is not None
    card_points, marriages, tricks = {}, {}, {}
    for p in deal.order:
        total = 0
        for c in deal.won.get(p, ()):
            total += c.points
        card_points[p] = total
        marriages[p] = deal.marriages.get(p, 0)
        tricks[p] = deal.tricks.get(p, 0)
    return outcome_from(
        deal.declarer, deal.high_bid, deal.contract, deal.order, card_points, marriages, tricks,
        deal.forfeited, deal.mode, deal.multiplier, deal.sitter, deal.dealt_talon, deal.last_trick_winner,
        tuple(deal.declared), deal.dealer, deal.won,  # (the finished deal's piles, not copied: read only)
    )


def outcome_from(
    declarer: int, bid: int, contract: int, order: Sequence[int], card_points: Mapping[int, int],
    marriages: Mapping[int, int], tricks: Mapping[int, int], forfeited: bool, mode: str,
    multiplier: int | None, sitter: int | None, dealt_talon: tuple[Card, ...], last_trick: int | None,
    declarations: tuple[tuple[int, str], ...], dealer: int | None, won: Mapping[int, Sequence[Card]] | None,
) -> DealOutcome:
    """The :class:`DealOutcome` of a finished (or forfeited) deal from its figures: the
    declarer, the winning ``bid`` and the ``contract`` (points); each active player's card
    points, declared ``marriages`` (points) and ``tricks``, by player, for every player of the
    order of play ``order`` (the active players); the deal's ``mode`` (``normal``, ``dark``,
    ``golden``) and ``multiplier``; the ``sitter`` (or ``None``), who scores the dealt talon
    (``dealt_talon``, recorded only when there is one); the last trick's winner, the marriages
    declared (player, suit id; the rank id for the ace marriage), the dealer and the cards won
    (``None`` each when not recorded: the fast path records neither ``dealer`` nor ``won``).

    The one constructor of a played deal's outcome: :func:`plain_outcome_of` calls it for an
    engine deal, the fast path (``H_outcome``) for its own."""
    return DealOutcome(
        declarer=declarer,
        bid=bid,
        contract=contract,
        card_points=card_points,
        marriages=marriages,
        tricks=tricks,
        forfeited=forfeited,
        mode=mode,  # type: ignore[arg-type]
        multiplier=multiplier,
        sitter=sitter,
        sitter_talon=dealt_talon if sitter is not None else None,
        players=tuple(order),
        won=won,
        last_trick=last_trick,
        declarations=declarations,
        dealer=dealer,
    )

