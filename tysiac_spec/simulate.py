"""Many bot matches of one ruleset, and statistics over them (``tysiac simulate``).

Every match is seeded from ``(seed, match index)`` alone (:func:`match_seed`), and the
per-match results are combined in match order, so a run split over worker processes
gives exactly the statistics of a single-process run.  Counting reads the match events
(:mod:`tysiac_spec.engine.events`): every event kind is counted, and the well-known kinds
(contracts made and failed, forfeits, barrel entries and falls, bolts, ``rule.<id>``
firings) are also reported under their own names.

A match that has not ended after ``max_deals`` deals is stopped and reported as
unfinished (it has no winner), so a ruleset whose matches cannot end never hangs a run.

A match is played on the generic engine or on the fast path (:mod:`tysiac_spec.fast`: the
form compiled to specialised code), which plays exactly the engine's games: the same
:class:`MatchResult` for the same seed (:data:`ENGINES`).  The fast path plays a run when
every seat's bot plays there (:data:`FAST_BOTS`: the random bot, by a policy of its own;
:data:`VIEW_BOTS`: the shipped bots that read their view, shown the engine's view by the
generated code, :mod:`tysiac_spec.fast.views`) and the generator covers the form;
``engine="auto"`` (the default) falls back to the engine otherwise and the statistics say why.

Table incidents (``incidents``, ``tysiac simulate --incidents revoke=0.01,misdeal=0.005``)
are injected into the generic engine's matches at a given rate, so that the rules for them
(``deal.incidents``, ``play.revoke``) are exercised and studied: before each bot decision a
table incident of each kind is called with its probability (:meth:`Game.incident
<tysiac_spec.engine.game.Game.incident>`, against the dealer for a rule with ``who: dealer``,
else against a random active player), at most one per decision point (the decision is then
taken without another), and a deal an incident abandons (``effect: redeal``) counts against
``max_deals`` as an all-pass redeal does, so that a rate of 1 still ends; ``revoke`` is,
at each card to be played, the chance
that the player plays a card in hand that is not legal instead (one of
:meth:`Game.playable_actions <tysiac_spec.engine.game.Game.playable_actions>` beyond the legal
ones).  The draws come from a generator of their own, seeded from the match's seed, so the
bots' choices are unchanged between incidents.  The fast path does not play incidents: with
``incidents`` the run is played by the engine (``auto`` says so), and ``engine="fast"`` is
refused.

Worker processes never outlive the run: Ctrl-C, SIGTERM and SIGHUP stop them at once
(:func:`simulate` with ``stop_on_interrupt``), and on Linux each worker is also told by the
kernel to stop when the process that started it dies, even by SIGKILL.
"""

from __future__ import annotations

import ctypes
import importlib
import itertools
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from .bots import (
    BUILTIN,
    Bot,
    BotActionError,
    BotRaisedError,
    illegal_action,
    make_bot,
    raised_by,
    seat_bots,
    short_repr,
    user_seat_names,
)
from .engine.actions import PlayCard
from .engine.events import MatchEvent
from .engine.game import Game
from .engine.seating import sides as seat_sides
from .errors import ClusterError, DistributedMissing, EngineUnavailable, IllegalActionError, IncidentsError
from .fast import FastRunner, Policy, random_policy
from .fast import compile as compile_fast
from .fast.views import bot_policy
from .ruleset import Ruleset, load_ruleset
from .ruleset.model import INCIDENT_KINDS, Form
from .run_choices import BACKENDS, DEFAULT_MAX_DEALS, ENGINES
from .stopping import STOP_SIGNALS, stop_signals
from .text import printable

__all__ = [
    "BACKENDS",
    "BOTS",
    "ENGINES",
    "FAST_BOTS",
    "SCHEDULER_TIMEOUT",
    "VIEW_BOTS",
    "ClusterError",
    "DistributedMissing",
    "EngineUnavailable",
    "IncidentsError",
    "MatchResult",
    "Statistics",
    "make_bots",
    "match_seed",
    "play_match",
    "seat_seeds",
    "simulate",
    "usable_cpus",
    "why_not_fast",
]

BOTS = tuple(BUILTIN)
"""Names of the shipped bots; a seat list (``heuristic,random,heuristic``) and a user's bot
(``mymodule:MyBot``, ``path/to/bots.py:MyBot``) are described in :mod:`tysiac_spec.bots`."""

FAST_BOTS: Mapping[str, Callable[[int], Policy]] = {"random": random_policy}
"""The bots the fast path plays, by name: the policy making, from the seat's seed, the choices
the bot makes (:func:`tysiac_spec.fast.random_policy` draws as
:class:`~tysiac_spec.bots.RandomBot` does).  The shipped bots that read the player's view are
:data:`VIEW_BOTS`; a user's bot is played on the engine."""

VIEW_BOTS = tuple(name for name in BUILTIN if name not in FAST_BOTS)
"""The shipped bots that read their player's view (``heuristic``, ``strong``), played on the
fast path by a module that records the views (:mod:`tysiac_spec.fast.views`): each seat's bot
made as :func:`make_bots` makes it, shown the engine's own view."""


def usable_cpus() -> int:
    """The CPUs this process may run on, at least 1: ``os.process_cpu_count()`` (Python
    3.13+), else the size of the scheduler's affinity mask where the system has one, else
    ``os.cpu_count()``.  More worker processes than this only add memory, not speed."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        n = counter()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - systems without affinity masks
        n = os.cpu_count()
    return max(1, n or 1)


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` (0-based) of a run seeded with ``seed``: a 63-bit number
    depending only on the two (stable across processes and Python runs)."""
    return random.Random(f"tysiac-simulate/{seed}/{index}").getrandbits(63)


def seat_seeds(seed: int, players: int) -> list[int]:
    """The seed of each seat's bot in the match seeded with ``seed`` (63-bit numbers)."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(players)]


def make_bots(kind: str, rules: Ruleset, players: int, seed: int) -> list[Bot]:
    """One bot per seat, each with its own seed (:func:`seat_seeds`); ``kind`` is a seat
    list (:func:`tysiac_spec.bots.seat_bots`: one name for every seat, or one per seat).

    Raises:
        BotError: a bad bot name or seat list (a ``ValueError``).
    """
    form = rules.form(players)
    seeds = seat_seeds(seed, players)
    return [make_bot(name, s, form) for name, s in zip(seat_bots(kind, players), seeds, strict=True)]




_RUNNERS: dict[tuple[int, int, bool], tuple[Ruleset, FastRunner | str]] = {}
"""The fast runner of a loaded ruleset and player count (or why the form is not covered), made
once per process: keyed by the ruleset object, which is kept alive with it."""


def _runner(rules: Ruleset, players: int, views: bool = False) -> FastRunner | str:
    """The fast runner of ``rules`` with ``players`` (made once per process and ruleset; with
    ``views``, the one recording the views), or the reason the generator does not cover the form."""
    key = (id(rules), players, views)
    made = _RUNNERS.get(key)
    if made is not None and made[0] is rules:
        return made[1]
    runner = compile_fast(rules, players, views)
    value: FastRunner | str = (
        runner if isinstance(runner, FastRunner)
        else f"the form is not covered: {runner.fallback_reason}"
    )
    if len(_RUNNERS) >= 16:
        _RUNNERS.clear()
    _RUNNERS[key] = (rules, value)
    return value


def why_not_fast(rules: Ruleset, players: int, seats: Sequence[str],
                 names: Sequence[str] | None = None) -> str | None:
    """Why the fast path cannot play matches of ``rules`` with ``players`` and the bots
    ``seats`` (:func:`tysiac_spec.bots.seat_bots`; ``names``: the same as the user spelled
    them, for the message), or ``None`` when it can.  Compiles the form (once per process)."""
    for p, name in enumerate(seats):
        if name not in FAST_BOTS and name not in VIEW_BOTS:
            shown = names[p] if names is not None else name
            return (f"seat {p} plays the bot `{shown}`; the fast path plays only the shipped bots "
                    f"{', '.join(f'`{b}`' for b in (*FAST_BOTS, *VIEW_BOTS))}")
    made = _runner(rules, players, _views(seats))
    return made if isinstance(made, str) else None


Incidents = tuple[tuple[str, float], ...]
"""Table incidents injected into a run: ``(kind, rate)`` pairs (:func:`parse_incidents`)."""

NO_INCIDENTS_FAST = "the fast path does not play table incidents (--incidents)"
"""Why a run with incidents is not played on the fast path."""


def parse_incidents(text: str) -> Incidents:
    """``"revoke=0.01,misdeal=0.005"`` as ``(("misdeal", 0.005), ("revoke", 0.01))`` (sorted by
    kind): each a table incident (:data:`~tysiac_spec.ruleset.model.INCIDENT_KINDS`) or
    ``revoke``, and its rate, a probability from 0 to 1 per decision; an empty text: none.

    Raises:
        IncidentsError: not ``KIND=RATE`` pairs, an unknown kind, a kind twice, or a rate that
            is not a number from 0 to 1.
    """
    kinds = (*INCIDENT_KINDS, "revoke")
    out: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        kind, eq, rate = part.partition("=")
        kind = kind.strip()
        if not eq or kind not in kinds:
            raise IncidentsError(f"`{printable(part)}`: write KIND=RATE with KIND one of {', '.join(kinds)}")
        if kind in out:
            raise IncidentsError(f"`{kind}` is given twice")
        try:
            value = float(rate)
        except ValueError:
            value = -1.0
        if not 0.0 <= value <= 1.0:
            raise IncidentsError(f"`{printable(part)}`: the rate must be a number from 0 to 1")
        out[kind] = value
    return tuple(sorted(out.items()))


def check_incidents(form: Form, incidents: Incidents) -> None:
    """Refuse incidents the ruleset has no rule for.

    Raises:
        IncidentsError: a table incident that ``deal.incidents`` does not list, or ``revoke``
            where revokes are refused (``play.revoke.handling: refuse``: a card not legal is
            no move).
    """
    listed = {r.kind for r in form.deal.incidents}
    for kind, _ in incidents:
        if kind == "revoke":
            if form.play.revoke.handling != "penalise":
                raise IncidentsError("`revoke`: the ruleset refuses a card that is not legal "
                                     "(`play.revoke.handling: refuse`); no revoke can be played")
        elif kind not in listed:
            shown = ", ".join(f"`{k}`" for k in sorted(listed)) or "none"
            raise IncidentsError(f"`{kind}`: the ruleset has no rule for it (`deal.incidents` lists {shown})")


def _engine_for(engine: str, rules: Ruleset, players: int, seats: Sequence[str],
                names: Sequence[str] | None = None, incidents: Incidents = ()) -> tuple[str, str | None]:
    """The engine that plays the run (``fast`` or ``generic``) and, when ``auto`` fell back to
    the engine, why (the fast path plays no ``incidents``).

    Raises:
        EngineUnavailable: ``fast`` for a run the fast path cannot play.
        ValueError: an unknown engine.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    if engine == "generic":
        return "generic", None
    why = NO_INCIDENTS_FAST if incidents else why_not_fast(rules, players, seats, names)
    if why is None:
        return "fast", None
    if engine == "fast":
        raise EngineUnavailable(f"the fast path cannot play this run: {why}")
    return "generic", why


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of one simulated match.

    ``winner`` is ``None`` for an unfinished match; ``winners`` the seats that won (the
    winner's side with fixed partnerships, ``()`` unfinished); ``contracts`` lists the contract of
    every scored deal (points), ``made`` how many of them were made; ``bids`` the winning
    bid of every scored deal that had an auction winner (points, before any raise to the
    contract); ``events`` counts the match events by kind; ``scores`` are the final match
    scores (points).
    """

    index: int
    seed: int
    deals: int
    actions: int
    winner: int | None
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    contracts: tuple[int, ...]
    made: int
    events: Mapping[str, int]
    bids: tuple[int, ...] = ()


def _winner(game: Game) -> int | None:
    match = getattr(game, "match", None)
    winner = getattr(match, "winner", None)
    if isinstance(winner, int):
        return winner
    if not game.is_over or match is not None:  # (stopped without a winner: all-pass.stopped)
        return None
    best = max(game.scores)
    return game.scores.index(best)


def _winners(game: Game) -> tuple[int, ...]:
    """The seats that won (:attr:`Game.winners <tysiac_spec.engine.game.Game.winners>`)."""
    winner = _winner(game)
    if winner is None:
        return ()
    return game.winners or (winner,)


def _among(action: object, legal: Sequence[object]) -> bool:
    """Whether ``action`` equals one of ``legal`` (False when comparing a user's object fails)."""
    try:
        return action in legal
    except Exception:
        return False


def play_match(
    rules: Ruleset,
    players: int,
    seed: int,
    *,
    bots: str = "heuristic",
    index: int = 0,
    max_deals: int = DEFAULT_MAX_DEALS,
    engine: str = "auto",
    incidents: Incidents = (),
) -> MatchResult:
    """Play one whole match with ``bots`` (a seat list, :func:`tysiac_spec.bots.seat_bots`);
    stop after ``max_deals`` deals; ``incidents`` injected at their rates (the module's
    docstring; the generic engine plays them).

    This is the one function every way of running matches calls (one process, the process
    pool, a Dask cluster, :mod:`tysiac_spec.study`): the match is played on the fast path
    (:mod:`tysiac_spec.fast`, the form's compiled code, made once per process) or on the
    generic engine as ``engine`` (:data:`ENGINES`) says, with the same :class:`MatchResult`.

    Raises:
        OptionError: no form for ``players``.
        DslError: a formula of the ruleset left the range of formula numbers while the match
            was played (``dsl.runtime``, at the formula's file:line:col).
        BotError: a bad bot name (a ``ValueError``).
        BotActionError: a bot returned something that is not one of the legal actions it was
            given (``bot.illegal``, naming the bot and its seat).
        BotRaisedError: a bot's ``choose`` raised an exception (``bot.raised``, naming the
            bot, its seat, the exception and the line of the bot's file it was raised at).
        EngineUnavailable: ``engine="fast"`` and the fast path cannot play the match (a
            ``ValueError``); ValueError: an unknown engine.
    """
    if engine != "generic":
        seats = seat_bots(bots, players)
        if _engine_for(engine, rules, players, seats, incidents=incidents)[0] == "fast":
            runner = _runner(rules, players, _views(seats))
            assert isinstance(runner, FastRunner)
            return _play_fast(runner, seats, seed, index, max_deals)
    return _play_generic(rules, players, seed, bots, index, max_deals, incidents)


def _views(seats: Sequence[str]) -> bool:
    """Whether a seat plays a bot that reads its view (:data:`VIEW_BOTS`)."""
    return any(name in VIEW_BOTS for name in seats)


def _view_policy(runner: FastRunner, name: str, seed: int, player: int) -> Policy:
    """The policy of the shipped bot ``name`` (:data:`VIEW_BOTS`) made with ``seed`` for
    ``player``'s seat, shown the engine's view (:func:`tysiac_spec.fast.views.bot_policy`); its
    errors reported as on the engine (``bot.raised``, ``bot.illegal``)."""
    bot = make_bot(name, seed, runner.form)

    def choose(view: Any, legal: list[Any]) -> Any:
        try:
            return bot.choose(view, legal)
        except Exception as exc:  # the bot's own error: one line naming it (bot.raised)
            raise raised_by(bot, player, name, exc) from None

    def illegal(action: Any, legal: list[Any]) -> Exception:
        return illegal_action(player, name, short_repr(action), type(action).__name__, len(legal))

    return bot_policy(runner.view, runner.action, choose, illegal)


def _play_fast(runner: FastRunner, seats: Sequence[str], seed: int, index: int,
               max_deals: int) -> MatchResult:
    """The match on the fast path: each seat's policy (:data:`FAST_BOTS`) or bot
    (:data:`VIEW_BOTS`) from its seed, every decision counted as one action."""
    chosen = [FAST_BOTS[name](s) if name in FAST_BOTS else _view_policy(runner, name, s, p)
              for p, (name, s) in enumerate(zip(seats, seat_seeds(seed, len(seats)), strict=True))]
    actions = 0

    def choose(player: int, legal: list[int]) -> int:
        nonlocal actions
        actions += 1
        return chosen[player](player, legal)

    played = runner.play_match(seed, choose, max_deals=max_deals)
    passed = set(played.passed_out)
    winner = played.state.winner
    return _result(
        index, seed, len(played.deal_scores), actions, winner,
        (played.winners or (winner,)) if winner is not None else (), played.scores, played.events,
        tuple(o.bid for i, o in enumerate(played.outcomes) if i not in passed),
    )


def _result(index: int, seed: int, deals: int, actions: int, winner: int | None, winners: tuple[int, ...],
            scores: Sequence[int], events: Sequence[MatchEvent], bids: tuple[int, ...]) -> MatchResult:
    """The :class:`MatchResult` of a played match (the events counted by kind, the contracts
    read from them)."""
    kinds = Counter(e.kind for e in events)
    contracts = tuple(e.value or 0 for e in events if e.kind in ("contract.made", "contract.failed"))
    return MatchResult(
        index=index,
        seed=seed,
        deals=deals,
        actions=actions,
        winner=winner,
        winners=winners,
        scores=tuple(scores),
        contracts=contracts,
        made=kinds.get("contract.made", 0),
        events=dict(sorted(kinds.items())),
        bids=bids,
    )


def _incident(game: Game, incidents: Incidents, draw: random.Random) -> str:
    """Call a table incident drawn at its rate (``revoke`` aside: :func:`_revoke`) before the
    next decision: ``""`` when none was called, else the rule's ``effect`` (``redeal``: the
    deal was abandoned and dealt again; ``play_on``).  The caller asks for the decision again
    and calls no other incident before it is taken: at most one incident per decision point,
    so that a rate of 1 still lets the match move."""
    for kind, rate in incidents:
        if kind == "revoke" or draw.random() >= rate:
            continue
        rule = next(r for r in game.form.deal.incidents if r.kind == kind)
        order = sorted(game.deal.order)
        game.incident(kind, None if rule.who == "dealer" else order[draw.randrange(len(order))])
        return rule.effect
    return ""


def _revoke(game: Game, rate: float, draw: random.Random) -> PlayCard | None:
    """At the rate of ``revoke``: a card in hand that is not legal, played as a revoke
    (:meth:`Game.playable_actions` beyond the legal ones); ``None`` when none is drawn."""
    if game.deal.phase != "play" or draw.random() >= rate:
        return None
    legal = game.legal_actions()
    others = [a for a in game.playable_actions()[len(legal):] if type(a) is PlayCard]
    return others[draw.randrange(len(others))] if others else None


def _play_generic(rules: Ruleset, players: int, seed: int, bots: str, index: int,
                  max_deals: int, incidents: Incidents = ()) -> MatchResult:
    """The match on the generic engine, each seat's bot choosing from the player's view;
    ``incidents`` injected at their rates, drawn from a generator of their own."""
    game = Game(rules, players=players, seed=seed)
    seats = make_bots(bots, rules, players, seed)
    actions = 0
    bids: list[int] = []
    last = game.last_deal
    draw = random.Random(f"incidents {seed}")
    revoke_rate = dict(incidents).get("revoke", 0.0)
    abandoned = 0  # deals an injected incident abandoned and dealt again (they count, as redeals)
    called = False  # an incident was called at this decision point: the decision comes next
    while not game.is_over and len(game.deal_scores) + game.passed_out + abandoned < max_deals:
        if incidents and not called:
            effect = _incident(game, incidents, draw)
            if effect:
                abandoned += effect == "redeal"
                actions += 1
                called = True
                continue
        called = False
        player = game.current_player
        revoke = _revoke(game, revoke_rate, draw) if revoke_rate else None
        if revoke is not None:
            game.apply(revoke)
            actions += 1
            continue
        legal = game.legal_actions()
        try:
            action = seats[player].choose(game.view(player), legal)
        except Exception as exc:  # the bot's own error: one line naming it (bot.raised)
            raise raised_by(seats[player], player, seat_bots(bots, players)[player], exc) from None
        try:
            game.apply(action)
        except IllegalActionError:
            if _among(action, legal):
                raise  # the engine refused one of its own legal actions: not the bot's fault
            name, kind = seat_bots(bots, players)[player], type(action).__name__
            raise illegal_action(player, name, short_repr(action), kind, len(legal)) from None
        actions += 1
        if game.last_deal is not last:  # a deal was scored
            last = game.last_deal
            if last is not None and last.high_bidder is not None:
                bids.append(last.high_bid)
    return _result(index, seed, len(game.deal_scores), actions, _winner(game), _winners(game), game.scores,
                   game.events, tuple(bids))


@dataclass(slots=True)
class Statistics:
    """Statistics over a run of matches (see :meth:`as_dict` for the reported figures)."""

    ruleset: str
    players: int
    options: Mapping[str, Any]
    bots: str
    seed: int
    max_deals: int
    results: list[MatchResult] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    interrupted: bool = False
    backend: str = "local"
    engine: str = "generic"
    fallback_reason: str | None = None
    sides: tuple[int, ...] | None = None
    """The side of each seat with fixed partnerships (:func:`tysiac_spec.engine.seating.sides`,
    ``(0, 1, 0, 1)``), else ``None``."""
    incidents: Mapping[str, float] = field(default_factory=dict)
    """The table incidents injected, kind → rate (``simulate``'s ``incidents``)."""

    def side_seats(self) -> list[tuple[int, ...]] | None:
        """The seats of each side, sides in order (``[(0, 2), (1, 3)]`` for ``across``), or
        ``None`` when every player plays for himself."""
        if self.sides is None:
            return None
        return [tuple(p for p, s in enumerate(self.sides) if s == side) for side in sorted(set(self.sides))]

    def engine_text(self) -> str:
        """What played the matches, in words: ``fast path``, ``generic engine``, or
        ``generic engine (not the fast path: REASON)`` when ``auto`` fell back."""
        if self.engine == "fast":
            return "fast path"
        why = self.fallback_reason
        return "generic engine" + (f" (not the fast path: {why})" if why else "")

    def add(self, result: MatchResult) -> None:
        """Add one match's result (results are kept in match order)."""
        self.results.append(result)

    def as_dict(self) -> dict[str, Any]:
        """The statistics as plain JSON data.

        Keys: ``ruleset``, ``players``, ``options``, ``bots``, ``seed``, ``matches``,
        ``finished``, ``unfinished``, ``deals`` (total), ``deals_per_match`` (``mean``,
        ``max``), ``actions``, ``contracts`` (``declared``, ``made``, ``failed``, ``rate``
        made/declared, ``average`` contract in points), ``forfeits``, ``barrel``
        (``entries``, ``falls``), ``bolts``, ``bolt_penalties``, ``redeals``, ``rules``
        (``rule.<id>`` firings by id), ``events`` (every kind counted), ``wins`` (per
        seat; with fixed partnerships a side's win counts for each of its seats),
        ``sides`` (the side of each seat with fixed partnerships, else ``None``),
        ``mean_scores`` (final match score per seat, points), and the timing
        fields ``seconds``, ``deals_per_second``, ``workers`` and ``backend``; ``engine``
        (``fast`` or ``generic``: what played the matches) and ``fallback_reason`` (why not
        the fast path, when ``auto`` fell back to the engine; else ``None``); ``bids``
        (``count`` of scored deals with an auction winner, their ``average`` winning bid in
        points); ``incidents`` (per kind injected, its ``rate`` and how often it was
        ``called``: events ``incident.<kind>``, ``revoke``); ``interrupted`` is true when
        the run was stopped (Ctrl-C) and the figures cover the matches finished before.
        """
        results = sorted(self.results, key=lambda r: r.index)
        n = len(results)
        deals = sum(r.deals for r in results)
        events: Counter[str] = Counter()
        for r in results:
            events.update(r.events)
        contracts = [c for r in results for c in r.contracts]
        bids = [b for r in results for b in r.bids]
        made = sum(r.made for r in results)
        wins = [0] * self.players
        for r in results:
            for p in r.winners:
                wins[p] += 1
        finished = sum(1 for r in results if r.winner is not None)
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "options": dict(self.options),
            "bots": self.bots,
            "seed": self.seed,
            "max_deals": self.max_deals,
            "matches": n,
            "finished": finished,
            "unfinished": n - finished,
            "deals": deals,
            "deals_per_match": {
                "mean": round(deals / n, 2) if n else 0.0,
                "max": max((r.deals for r in results), default=0),
            },
            "actions": sum(r.actions for r in results),
            "contracts": {
                "declared": len(contracts),
                "made": made,
                "failed": len(contracts) - made,
                "rate": round(made / len(contracts), 4) if contracts else 0.0,
                "average": round(sum(contracts) / len(contracts), 2) if contracts else 0.0,
            },
            "bids": {
                "count": len(bids),
                "average": round(sum(bids) / len(bids), 2) if bids else 0.0,
            },
            "forfeits": events.get("forfeit", 0),
            "barrel": {"entries": events.get("barrel.enter", 0), "falls": events.get("barrel.fall", 0)},
            "bolts": events.get("bolt", 0),
            "bolt_penalties": events.get("bolt.penalty", 0),
            "redeals": events.get("redeal", 0),
            "rules": {k.removeprefix("rule."): v for k, v in sorted(events.items()) if k.startswith("rule.")},
            "events": dict(sorted(events.items())),
            "incidents": {
                kind: {"rate": rate, "called": events.get(_incident_event(kind), 0)}
                for kind, rate in sorted(self.incidents.items())
            },
            "wins": wins,
            "sides": list(self.sides) if self.sides is not None else None,
            "mean_scores": [
                round(sum(r.scores[p] for r in results) / n, 2) if n else 0.0 for p in range(self.players)
            ],
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(deals / self.seconds, 1) if self.seconds > 0 else 0.0,
            "workers": self.workers,
            "backend": self.backend,
            "engine": self.engine,
            "fallback_reason": self.fallback_reason,
            "interrupted": self.interrupted,
        }


def _incident_event(kind: str) -> str:
    """The event kind counting an injected incident: ``revoke``, else ``incident.<kind>``."""
    return kind if kind == "revoke" else f"incident.{kind}"


TIMING_FIELDS = ("seconds", "deals_per_second", "workers", "backend", "engine", "fallback_reason")
"""Keys of :meth:`Statistics.as_dict` that vary from run to run (timing, parallelism, where
and by what engine the matches ran); every other key depends only on the ruleset, options,
players, bots, matches, seed and ``max_deals``."""


@lru_cache(maxsize=16)
def _rules(ref: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return load_ruleset(ref, options=dict(options))


def _run_chunk(
    ref: str,
    options: tuple[tuple[str, Any], ...],
    players: int,
    bots: str,
    seed: int,
    indices: Sequence[int],
    max_deals: int,
    engine: str = "generic",
    incidents: Incidents = (),
) -> list[MatchResult]:
    """Worker entry point: play the matches ``indices`` (the ruleset is loaded, and compiled for
    the fast path, once per process)."""
    rules = _rules(ref, options)
    return [
        play_match(rules, players, match_seed(seed, i), bots=bots, index=i, max_deals=max_deals,
                   engine=engine, incidents=incidents)
        for i in indices
    ]


_PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal the kernel sends a process when its parent dies (Linux)."""


def _worker_init(parent: int) -> None:
    """Start of every worker process: default SIGTERM and SIGHUP (a terminated worker
    stops, whatever the parent had installed), and, on Linux, SIGTERM from the kernel when
    the parent dies, so that no worker is left running after a parent killed by SIGKILL."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the parent's cleanup remains
            return
        if os.getppid() != parent:  # the parent died before the request was in place
            os._exit(1)


def _chunks(games: int, workers: int) -> Iterator[list[int]]:
    size = max(1, min(50, games // (workers * 4) or 1))
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def _collect(
    results: list[MatchResult],
    stats: Statistics,
    progress: Callable[[int], None] | None,
    chunks: Iterator[list[int]],
    submit: Callable[[list[int]], object],
) -> None:
    """A finished chunk's ``results`` added to ``stats`` and counted for ``progress``; the
    next chunk, if any, handed to ``submit`` (a pool's or a cluster's)."""
    for result in results:
        stats.add(result)
    if progress:
        progress(len(results))
    for chunk in itertools.islice(chunks, 1):
        submit(chunk)


def _run_in_pool(
    workers: int,
    chunks: Iterator[list[int]],
    run_chunk: Callable[[list[int]], list[MatchResult]],
    stats: Statistics,
    progress: Callable[[int], None] | None,
) -> None:
    """Run the chunks in ``workers`` processes, at most two chunks per worker in flight (a
    huge ``games`` never queues millions of tasks); on an interruption (Ctrl-C) or an error
    the pending chunks are cancelled and the workers stopped at once, never waited for."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=(os.getpid(),))
    try:
        pending = set()

        def submit(chunk: list[int]) -> None:
            pending.add(pool.submit(run_chunk, chunk))

        for chunk in itertools.islice(chunks, 2 * workers):
            submit(chunk)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                _collect(future.result(), stats, progress, chunks, submit)
    except BaseException:
        for process in list(pool._processes.values()):
            process.terminate()  # the workers stop now; the pool then sees them gone
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()


def _run_on_dask(
    scheduler: str | None,
    workers: int,
    chunks: Iterator[list[int]],
    run_chunk: Callable[[list[int]], list[MatchResult]],
    stats: Statistics,
    progress: Callable[[int], None] | None,
) -> None:
    """Run the chunks on a Dask distributed cluster: the scheduler at ``scheduler``, or a new
    local cluster of ``workers`` processes (one thread each, no dashboard; the scheduler's
    HTTP server on a free port of 127.0.0.1, never the shared 8787) that is closed at the
    end.  With a scheduler, ``stats.workers`` becomes the cluster's worker count (what ran
    the matches; ``workers`` is not used).  At most two chunks per worker are in flight; the
    results are merged by match index (:meth:`Statistics.as_dict` sorts them), so the
    figures are those of a local run.

    Raises:
        DistributedMissing: the ``distributed`` package is not installed.
        ClusterError: the scheduler cannot be reached within :data:`SCHEDULER_TIMEOUT` seconds, or
            its address is not one.
    """
    try:
        dask: Any = importlib.import_module("distributed")  # untyped: used as Any
    except ImportError:
        raise DistributedMissing() from None
    Client, LocalCluster, as_completed = dask.Client, dask.LocalCluster, dask.as_completed
    with ExitStack() as stack:
        if scheduler is None:
            cluster = stack.enter_context(LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=LOCAL_DASHBOARD, scheduler_kwargs={"dashboard": False},
            ))
            client = stack.enter_context(Client(cluster))
        else:
            _probe_scheduler(scheduler)  # a port that never answers, or answers HTTP: said at once
            try:
                client = stack.enter_context(Client(scheduler, timeout=SCHEDULER_TIMEOUT))
            except (OSError, ValueError, TypeError) as exc:
                raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            stats.workers = workers
        futures = [client.submit(run_chunk, chunk, pure=False)
                   for chunk in itertools.islice(chunks, 2 * workers)]
        flow = as_completed(futures)
        try:
            for future in flow:
                _collect(future.result(), stats, progress, chunks,
                         lambda chunk: flow.add(client.submit(run_chunk, chunk, pure=False)))
        except BaseException:
            client.cancel(list(flow.futures))
            raise


LOCAL_DASHBOARD = "127.0.0.1:0"
"""Where the local Dask cluster's scheduler serves HTTP (``dashboard_address``): port 0, a
free port chosen by the system (``None`` would bind the default 8787, which a second run or
another program may hold), on the loopback interface; the dashboard itself is off."""

SCHEDULER_TIMEOUT = 10
"""Seconds to wait for a Dask scheduler named by address before giving up: to connect and
to hear its first words (:func:`_probe_scheduler`)."""

PROBE_QUIET = 2.0
"""Seconds of silence after which the address is asked whether it speaks HTTP (a Dask
scheduler speaks at once when connected to)."""


def _probe_scheduler(scheduler: str) -> None:
    """Check that the TCP address ``scheduler`` answers as a Dask scheduler does, before the
    Dask client is made (whose ``timeout`` covers only the TCP connection: a port that accepts
    and never answers would hang it for ever, and a web server's answer is read as a length
    of 3 EiB).  A scheduler sends its handshake as soon as it accepts; an address silent for
    :data:`PROBE_QUIET` seconds is sent an HTTP request, which the Dask dashboard (a web
    server, typed by mistake for the scheduler's port) answers.  Addresses of other protocols
    (``tls://``, ``ucx://``) are left to Dask.

    Raises:
        ClusterError: the address cannot be connected to, answers HTTP (the status line is
            quoted), answers something else, or says nothing within :data:`SCHEDULER_TIMEOUT`
            seconds.
    """
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        protocol, location = parse_address(scheduler, strict=False)
        if protocol != "tcp":
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError):
        return  # (Dask says what is wrong with the address)
    deadline = time.monotonic() + SCHEDULER_TIMEOUT
    where = f"the Dask scheduler at {scheduler}"
    try:
        with socket.create_connection((host, port), timeout=SCHEDULER_TIMEOUT) as sock:
            sock.settimeout(max(0.1, min(PROBE_QUIET, deadline - time.monotonic())))
            try:
                first = sock.recv(64)
            except TimeoutError:
                first = None
            if first is None:  # silent: a web server waits for a request
                sock.sendall(f"GET / HTTP/1.0\r\nHost: {host}\r\n\r\n".encode("ascii", "replace"))
                sock.settimeout(max(0.1, deadline - time.monotonic()))
                try:
                    first = sock.recv(256)
                except TimeoutError:
                    raise ClusterError(
                        f"cannot reach {where}: it accepts connections but sent nothing in "
                        f"{SCHEDULER_TIMEOUT} s (a Dask scheduler answers at once); is it the "
                        "scheduler's address and port (usually 8786)?"
                    ) from None
    except ClusterError:
        raise
    except OSError as exc:
        raise ClusterError(f"cannot reach {where}: {exc.strerror or exc}") from None
    if first.startswith(b"HTTP/"):
        status = printable(first.split(b"\r\n", 1)[0].decode("latin-1"))
        raise ClusterError(
            f"cannot use {scheduler} as a Dask scheduler: it answers HTTP ({status}), as a web "
            "server such as the Dask dashboard (usually port 8787) does; give the scheduler's own "
            "port (usually 8786)"
        )
    if not first:
        raise ClusterError(f"cannot reach {where}: it closed the connection without a word")
    if len(first) < 8 or int.from_bytes(first[:8], "little") > 1 << 16:
        shown = printable(repr(first[:16]))
        raise ClusterError(
            f"cannot use {scheduler} as a Dask scheduler: it answers, but not in the Dask "
            f"protocol (its first bytes: {shown})"
        )






def simulate(
    ruleset: str | Path | Ruleset,
    *,
    players: int,
    games: int,
    seed: int = 0,
    bots: str = "heuristic",
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    max_deals: int = DEFAULT_MAX_DEALS,
    progress: Callable[[int], None] | None = None,
    stop_on_interrupt: bool = False,
    backend: str = "local",
    scheduler: str | None = None,
    engine: str = "auto",
    incidents: Incidents | str = (),
) -> Statistics:
    """Play ``games`` matches and collect their statistics.

    Args:
        ruleset: a shipped id, a path, or a loaded ruleset (its id or file is reloaded in
            worker processes).
        players: players at the table.
        games: number of matches (>= 1).
        seed: the run's seed; match ``i`` is seeded by ``match_seed(seed, i)``.
        bots: a seat list (:func:`tysiac_spec.bots.seat_bots`): ``heuristic`` in every seat,
            ``heuristic,random,heuristic``, or a user's bot ``mymodule:MyBot``.
        options: option values of the ruleset.
        workers: processes to use (1 with ``local``: play in this process); results do not
            depend on it.
        max_deals: deals after which a match is stopped as unfinished.
        progress: called with the number of matches just finished.
        stop_on_interrupt: on Ctrl-C (KeyboardInterrupt), SIGTERM or SIGHUP stop the worker
            processes and return the statistics of the matches finished so far, marked
            ``interrupted``, instead of raising.  The two signals are caught only while the
            run lasts and only when called from the main thread.
        backend: one of :data:`BACKENDS`: ``local`` (the default), or ``dask`` (a new local
            Dask cluster of ``workers`` processes, or the one whose scheduler is at
            ``scheduler``, e.g. ``tcp://127.0.0.1:8786``); results do not depend on it.
        scheduler: the address of a running Dask scheduler (implies ``dask``).
        engine: one of :data:`ENGINES`: ``auto`` (the default: the fast path where it can
            play every seat's bot and the form, else the generic engine, the statistics saying
            why), ``fast`` or ``generic``; results do not depend on it.  The fast path's code is
            made once per worker process.
        incidents: table incidents injected at a rate (:func:`parse_incidents`' pairs, or its
            text ``"revoke=0.01,misdeal=0.005"``; the module's docstring); played by the
            generic engine only.

    Raises:
        RulesetError, OptionError: a bad ruleset, option or player count.
        DslError: a formula left the range of formula numbers in a match (``dsl.runtime``;
            raised again here when it happened in a worker).
        BotError: a bad bot name or seat list (a ``ValueError``).
        BotActionError: a bot returned something that is not one of the legal actions it was
            given (``bot.illegal``; one line naming the bot as ``bots`` spells it, and its seat).
        BotRaisedError: a bot's ``choose`` raised an exception (``bot.raised``; one line
            naming the bot as ``bots`` spells it, its seat, the exception and its file:line).
        DistributedMissing: ``dask`` without the ``distributed`` package (an ``ImportError``).
        ClusterError: the scheduler at ``scheduler`` cannot be reached.
        EngineUnavailable: ``engine="fast"`` for a run the fast path cannot play (a
            ``ValueError`` naming the seat's bot or the rule of the form, or the incidents).
        IncidentsError: bad ``incidents``, or one the ruleset has no rule for (a ``ValueError``).
        ValueError: an unknown backend or engine, or ``games``/``workers``/``max_deals`` below 1.
    """
    if isinstance(incidents, str):
        incidents = parse_incidents(incidents)
    if scheduler is not None:
        backend = "dask"
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    if games < 1 or workers < 1 or max_deals < 1:
        raise ValueError("games, workers and max_deals must be at least 1")
    if isinstance(ruleset, Ruleset):
        opts = {**ruleset.selected, **(options or {})}
        ref = ruleset.file or ruleset.id
    else:
        opts = dict(options or {})
        ref = str(ruleset)
    rules = load_ruleset(ref, options=opts)
    form = rules.form(players)  # raises OptionError for an unknown player count
    seats = seat_bots(bots, players)  # raises BotError before any match starts
    check_incidents(form, incidents)
    spelled = bots
    used, why = _engine_for(engine, rules, players, seats, user_seat_names(spelled, players), incidents)
    bots = seats[0] if len(set(seats)) == 1 else ",".join(seats)
    key = tuple(sorted(opts.items()))
    stats = Statistics(
        ruleset=rules.id, players=players, options=dict(rules.selected), bots=bots, seed=seed,
        max_deals=max_deals, workers=workers, backend=backend, engine=used, fallback_reason=why,
        sides=seat_sides(form), incidents=dict(incidents),
    )
    started = time.perf_counter()
    received: list[int] = []
    try:
        with stop_signals(received) if stop_on_interrupt else nullcontext():
            run_chunk = partial(_run_chunk, ref, key, players, bots, seed, max_deals=max_deals, engine=used,
                                incidents=incidents)
            if backend == "dask":
                _run_on_dask(scheduler, workers, _chunks(games, workers), run_chunk, stats, progress)
            elif workers == 1:
                for i in range(games):
                    seed_i = match_seed(seed, i)
                    stats.add(play_match(rules, players, seed_i, bots=bots, index=i, max_deals=max_deals,
                                         engine=used, incidents=incidents))
                    if progress:
                        progress(1)
            else:
                _run_in_pool(workers, _chunks(games, workers), run_chunk, stats, progress)
    except (BotActionError, BotRaisedError) as exc:  # name the bot as the caller spelled it, not its path
        raise exc.named(user_seat_names(spelled, players)[exc.seat]) from None
    except KeyboardInterrupt:
        if not stop_on_interrupt:
            raise
        stats.interrupted = True
    except BrokenProcessPool:
        if not received:  # a worker died on its own
            raise
        stats.interrupted = True  # the signal reached the workers (a process group) first
    stats.seconds = time.perf_counter() - started
    return stats
