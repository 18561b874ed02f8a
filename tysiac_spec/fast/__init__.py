"""The fast path: a form compiled to specialised Python for whole matches.

``compile_form(ruleset, players, options)`` (or :func:`compile` of a loaded ruleset) returns a
runner: a :class:`FastRunner` when the generator covers every rule of the form
(:mod:`.coverage`), else an :class:`EngineRunner` that plays the same calls on the generic
engine and says why in ``fallback_reason``.  Both have the same interface::

    runner = compile_form("pl-standard", 3)
    result = runner.play_match(seed=7, policies=random_policies(7, 3))
    result.scores, result.deal_scores, result.outcomes, result.events, result.winners

A policy is a callable ``policy(player, legal) -> action``: ``legal`` is a list of action
codes (ints, :data:`~.generate.CODES`; the same actions in the same order as the engine's
``Game.legal_actions()``), and it returns one of them.  ``runner.text(code)`` is an action's
text (``play QH marriage``), from the engine's own action objects.  A seeded
:func:`random_policy` makes the choices :class:`~tysiac_spec.bots.RandomBot` makes.
A bot that reads its view (``choose(view, legal_actions)``: heuristic, strong) plays on a runner
made with ``views=True``, whose code records what the players see: ``runner.view(player, legal)``
is the engine's own view of the position, and :func:`.views.bot_policy` makes the bot a policy.

The generated module is made once per form content (:func:`.generate.source_key`) and kept in
memory; its source is also written under :func:`cache_dir` (``TYSIAC_FAST_CACHE``, else
the platform's cache folder), where ``python -m tysiac_spec.fast.build`` compiles it with
mypyc when the ``[fast]`` extra is installed; a compiled module found there is used.

It plays exactly the games of the engine (same legal actions in the same order, scores,
events): checked by ``tests/test_fast_path.py`` (step by step) and by
``benchmarks/engine_fingerprint.py --fast`` (the same hashes as the engine's).
"""

from __future__ import annotations

import builtins
import gc
import os
import random
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..cards import Card
from ..engine import auction, talon
from ..engine import env as envs
from ..engine.actions import ActionTable, ChooseTalon
from ..engine.auction import allowed_bids
from ..engine.compiled import compile_form as engine_compile
from ..engine.events import MatchEvent
from ..engine.match import MatchState, dealt_by
from ..engine.scoring import DealOutcome, outcome_from, outcome_of
from ..engine.seating import opponents_after, redeal_dealer, seating, turn_after
from ..engine.seen import seen_cards
from ..ruleset import Ruleset, load_ruleset
from ..ruleset.model import Form
from . import generate as _gen
from . import settle
from .coverage import uncovered
from .generate import CODES, deal_function, source_key
from .views import Table, views_uncovered

__all__ = [
    "CODES",
    "EngineRunner",
    "FastRunner",
    "MatchResult",
    "Policy",
    "cache_dir",
    "compile",
    "compile_form",
    "random_policies",
    "random_policy",
]

Policy = Callable[[int, list[int]], int]
"""``policy(player, legal) -> one of legal`` (action codes)."""


def random_policy(seed: int) -> Policy:
    """A policy choosing uniformly among the legal actions from its own
    ``random.Random(seed)``: the same draws as :class:`~tysiac_spec.bots.RandomBot`
    (``randrange(len(legal))`` is CPython's rejection on ``getrandbits``, written out)."""
    return _drawn(random.Random(seed))


def _drawn(rng: random.Random) -> Policy:
    """:func:`random_policy` drawing from ``rng`` itself."""
    getrandbits = rng.getrandbits

    def choose(player: int, legal: list[int]) -> int:
        n = len(legal)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal[r]

    return choose


def random_policies(seed: int, players: int) -> list[Policy]:
    """One :func:`random_policy` shared by every seat (as one ``RandomBot(seed)`` choosing for
    every player, as the benchmarks and the fingerprint do)."""
    one = random_policy(seed)
    return [one] * players


@dataclass(slots=True)
class MatchResult:
    """One match: ``scores`` (final, by seat), ``deal_scores`` (each deal's changes),
    ``outcomes`` (each deal's :class:`~tysiac_spec.engine.scoring.DealOutcome`), ``events``
    (:class:`~tysiac_spec.engine.events.MatchEvent`), ``winners`` (seats), ``state`` (the final
    :class:`~tysiac_spec.engine.match.MatchState`), with ``trace`` the ``steps`` as
    ``(player, legal codes, chosen code)``, and ``passed_out``: the deals (indices into
    ``deal_scores``) scored without an auction winner (everyone passed and no bid was forced:
    ``auction.all_pass`` gave the deal to a player; the engine's ``high_bidder`` is ``None``)."""

    seed: int
    scores: tuple[int, ...]
    deal_scores: list[tuple[int, ...]]
    outcomes: list[DealOutcome]
    events: list[MatchEvent]
    winners: tuple[int, ...]
    state: MatchState
    steps: list[tuple[int, list[int], int]] | None = field(default=None, repr=False)
    passed_out: tuple[int, ...] = ()


def cache_dir() -> Path:
    """Where generated modules are written: ``$TYSIAC_FAST_CACHE``, else ``fast`` in the
    platform's cache folder for ``tysiac-spec`` (:func:`platformdirs.user_cache_dir`:
    ``~/.cache/tysiac-spec/fast`` or ``$XDG_CACHE_HOME/tysiac-spec/fast`` on Linux,
    ``~/Library/Caches/tysiac-spec/fast`` on macOS, ``%LOCALAPPDATA%\\tysiac-spec\\Cache\\fast``
    on Windows)."""
    env = os.environ.get("TYSIAC_FAST_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("tysiac-spec", appauthor=False)) / "fast"


def _suits(pack: Sequence[Card]) -> list[str]:
    """The suit ids of ``pack`` in pack order."""
    out: list[str] = []
    for c in pack:
        if c.suit_id not in out:
            out.append(c.suit_id)
    return out


class _Texts:
    """Action code → the engine action's text (``bid 120``, ``play QH marriage``)."""

    def __init__(self, pack: Sequence[Card]) -> None:
        self.pack = pack
        self.table = ActionTable(pack)
        self.suits = _suits(pack)

    def action(self, code: int) -> Any:
        from ..engine import actions as A

        t, pack = self.table, self.pack
        if code >= CODES["K_CONTRACT"]:
            return t.contract(code - CODES["K_CONTRACT"])
        if code >= CODES["K_BID"]:
            return t.bid(code - CODES["K_BID"])
        if code >= CODES["K_TALON"]:
            return ChooseTalon(code - CODES["K_TALON"])
        if code >= CODES["K_GIVE"]:
            rest = code - CODES["K_GIVE"]
            return t.give(pack[rest & 63], rest >> 6)
        if code >= CODES["K_DISCARD"]:
            return t.discard(pack[code - CODES["K_DISCARD"]])
        if code >= CODES["K_ACES"]:
            return t.play(pack[code - CODES["K_ACES"]], False, True)
        if code >= CODES["K_ANNOUNCE"]:
            return A.DeclareMarriage(self.suits[code - CODES["K_ANNOUNCE"]])
        special = {
            CODES["K_CLAIM_CODE"]: t.claim, CODES["K_PASS"]: t.pass_, CODES["K_FORFEIT"]: t.forfeit,
            CODES["K_REDEAL"]: A.Redeal(), CODES["K_DARK"]: A.Dark(), CODES["K_CANCEL_DARK"]: A.CancelDark(),
        }
        if code in special:
            return special[code]
        if code >= CODES["K_MARRIAGE"]:
            return t.play(pack[code - CODES["K_MARRIAGE"]], True)
        return t.plain(pack[code])

    def text(self, code: int) -> str:
        return str(self.action(code).text)


class FastRunner:
    """A form played by its generated code (see the module's docstring).

    Attributes:
        form: the form; ``ruleset``: its ruleset; ``key``: the content hash of the code;
        ``compiled``: whether the module is the mypyc build; ``fallback_reason``: ``None``;
        ``views``: the code records the players' views (:meth:`view`, :func:`.views.bot_policy`:
        bots that read their view; the code of ``views=False`` records nothing).
    """

    fallback_reason: str | None = None

    def __init__(self, ruleset: Ruleset, players: int, views: bool = False) -> None:
        self.ruleset = ruleset
        self.players = players
        self.form = form = ruleset.form(players)
        pack = tuple(ruleset.deck.cards)
        self.pack = pack
        self._texts = _Texts(pack)
        self.views = views
        self.key = source_key(form, pack, views)
        made, self.compiled = _module(self.key, form, pack, views)
        self._helpers = _helpers(ruleset, form, pack)
        self._tables = threading.local()  # (views) this thread's match's table
        self._first_table: Table | None = None
        self._actions: dict[int, Any] = {}  # (views) the action objects shown to bots, by code
        self._helpers["H_views"] = self._table
        self._passed = threading.local()  # the deals passed out in this thread's match
        self._helpers["H_passed_out"] = self._passed_out
        self._bind: Callable[[dict[str, Any]], None] | None = None
        if self.compiled:  # one extension module per key: its helpers bound before each match
            self.module: dict[str, Any] = made
            self._bind = made["bind"]
        else:  # the code object run in a namespace of this runner's own
            self.module = {"__name__": f"tysiac_fast_{self.key}", **self._helpers}
            exec(made, self.module)  # the compiled tree of our own template (no ruleset text in it)
        self._play = self.module["play_match"]
        _settled()  # (the start-up heap out of the collector's passes, once per process)

    def _table(self) -> Table:
        """A new :class:`.views.Table` for this thread's match (``H_views``)."""
        first = self._first_table
        t = self._tables.table = Table(self.form, self.pack, self.text, first)
        if first is None:
            self._first_table = t
        return t

    def view(self, player: int, legal: Sequence[int]) -> Any:
        """The engine's :class:`~tysiac_spec.engine.view.View` of ``player``, to act on the
        codes ``legal``, in the match this thread plays (a runner made with ``views=True``;
        called from a policy)."""
        table: Table = self._tables.table
        return table.view(player, legal)

    def _passed_out(self, deal: int) -> None:
        self._passed.deals.append(deal)

    def text(self, code: int) -> str:
        """The engine's text of the action ``code``."""
        return self._texts.text(code)

    def action(self, code: int) -> Any:
        """The engine's action object of ``code`` (an ``ActionTable`` one, made once per runner)."""
        made = self._actions.get(code)
        if made is None:
            made = self._actions[code] = self._texts.action(code)
        return made

    def play_match(self, seed: int, policies: Sequence[Policy] | Policy | random.Random,
                   trace: bool = False, max_deals: int | None = None, outcomes: bool = True) -> MatchResult:
        """Play the match ``Game(ruleset, players, seed)`` would, each decision by
        ``policies[player]`` (or one policy for every seat), until it is won or ``max_deals``
        deals are played; ``outcomes=False`` keeps no :class:`DealOutcome` (faster).

        ``policies`` may also be a ``random.Random``: every decision is then drawn from it,
        uniformly among the legal actions, inside the generated code (the choices of a
        :class:`~tysiac_spec.bots.RandomBot` with that generator; no call per decision)."""
        draw = None
        if isinstance(policies, random.Random):
            draw, policies = policies.getrandbits, []
        elif callable(policies):
            policies = [policies] * self.players
        limit = max_deals if max_deals is not None else 1 << 62
        if self._bind is not None:
            self._bind(self._helpers)
        passed: list[int] = []
        self._passed.deals = passed
        state, deal_scores, events, kept, steps = self._play(seed, policies, trace, limit, outcomes, draw)
        from ..engine.match import winners

        return MatchResult(seed, tuple(state.scores), deal_scores, kept, events,
                           winners(self.form, state), state, steps, tuple(passed))

    def play_deal(self, seed: int, policies: Sequence[Policy] | Policy | random.Random
                  ) -> tuple[tuple[int, ...], DealOutcome, list[MatchEvent]]:
        """The first deal of match ``seed``: its score changes, its outcome and its events."""
        r = self.play_match(seed, policies, max_deals=1)
        return r.deal_scores[0], r.outcomes[0], r.events

    def history(self, result: MatchResult) -> list[str]:
        """The texts of a traced match's actions (``Game.history``)."""
        assert result.steps is not None, "play the match with trace=True"
        return [self.text(a) for _, _, a in result.steps]


class EngineRunner:
    """The same interface on the generic engine, for a form the generator does not cover:
    ``fallback_reason`` says which rule."""

    compiled = False

    def __init__(self, ruleset: Ruleset, players: int, reason: str) -> None:
        self.ruleset = ruleset
        self.players = players
        self.form = ruleset.form(players)
        self.pack = tuple(ruleset.deck.cards)
        self.fallback_reason: str | None = reason
        self._texts = _Texts(self.pack)

    def text(self, code: int) -> str:
        return self._texts.text(code)

    def play_match(self, seed: int, policies: Sequence[Policy] | Policy | random.Random,
                   trace: bool = False, max_deals: int | None = None, outcomes: bool = True) -> MatchResult:
        """Play ``Game(ruleset, players, seed)`` with ``policies`` choosing among the codes of
        the engine's legal actions (every action the engine offers has a code), until it is
        won or ``max_deals`` deals are played."""
        from ..engine.game import Game

        if isinstance(policies, random.Random):
            one = _drawn(policies)
            policies = [one] * self.players
        elif callable(policies):
            policies = [policies] * self.players
        game = Game(self.ruleset, players=self.players, seed=seed)
        codes = _CodeOf(self.pack)
        steps: list[tuple[int, list[int], int]] | None = [] if trace else None
        kept: list[DealOutcome] = []
        passed: list[int] = []
        counted = 0
        limit = max_deals if max_deals is not None else 1 << 62
        while not game.is_over and len(game.deal_scores) + game.passed_out < limit:
            legal = game.legal_actions()
            if not legal:
                break
            player = game.current_player
            ints = [codes(a) for a in legal]
            chosen = policies[player](player, ints)
            if steps is not None:
                steps.append((player, ints, chosen))
            game.apply(legal[ints.index(chosen)])
            if len(game.deal_scores) > counted and game.last_deal is not None:
                counted = len(game.deal_scores)
                if game.last_deal.high_bidder is None:
                    passed.append(counted - 1)
                if outcomes:
                    kept.append(outcome_of(game.last_deal))
        return MatchResult(seed, tuple(game.scores), list(game.deal_scores), kept, list(game.events),
                           game.winners, game.match, steps, tuple(passed))


    def play_deal(self, seed: int, policies: Sequence[Policy] | Policy | random.Random
                  ) -> tuple[tuple[int, ...], DealOutcome, list[MatchEvent]]:
        """The first deal of match ``seed``: its score changes, its outcome and its events."""
        r = self.play_match(seed, policies, max_deals=1)
        return r.deal_scores[0], r.outcomes[0], r.events


class _CodeOf:
    """Engine action → code (an action without one raises ``KeyError``, named)."""

    def __init__(self, pack: Sequence[Card]) -> None:
        self.pack = pack
        self.suits = _suits(pack)

    def __call__(self, action: Any) -> int:
        from ..engine import actions as A

        t = type(action)
        if t is A.PlayCard:
            if action.aces and action.marriage:
                raise KeyError(f"no code for {action}")
            if action.aces:
                return int(CODES["K_ACES"] + action.card.index)
            return int(action.card.index + (CODES["K_MARRIAGE"] if action.marriage else 0))
        simple = {
            A.Forfeit: "K_FORFEIT", A.Redeal: "K_REDEAL", A.Dark: "K_DARK", A.CancelDark: "K_CANCEL_DARK",
        }
        if t in simple:
            return CODES[simple[t]]
        if t is A.DeclareMarriage:
            return CODES["K_ANNOUNCE"] + self.suits.index(action.suit)
        if t is A.Bid:
            return int(CODES["K_BID"] + action.amount)
        if t is A.Pass:
            return CODES["K_PASS"]
        if t is A.Claim:
            return CODES["K_CLAIM_CODE"]
        if t is A.Discard:
            return int(CODES["K_DISCARD"] + action.card.index)
        if t is A.GiveCard:
            return int(CODES["K_GIVE"] + (action.to << 6) + action.card.index)
        if t is A.ChooseTalon:
            return int(CODES["K_TALON"] + action.index)
        if t is A.DeclareContract:
            return int(CODES["K_CONTRACT"] + action.amount)
        raise KeyError(f"no code for {action}")


_MODULES: dict[str, tuple[Any, bool]] = {}
"""Generated code by content hash (:func:`.generate.source_key`): the code object (``False``)
or the mypyc module's namespace (``True``)."""


def _module(key: str, form: Form, pack: tuple[Card, ...], views: bool = False) -> tuple[Any, bool]:
    """The generated module of ``form``: from memory, else the mypyc build in the cache
    directory when there is one (and ``TYSIAC_FAST_PURE`` is not set), else generated and
    compiled here (its source written to the cache directory for a mypyc build)."""
    made = _MODULES.get(key)
    if made is not None:
        return made
    name = f"tysiac_fast_{key}"
    folder = cache_dir()
    if not os.environ.get("TYSIAC_FAST_PURE"):
        from . import mypyc

        built = mypyc.built(folder, name)
        mod = None if built is None else mypyc.load(name, built)
        if mod is not None:
            made = (mod.__dict__, True)
            _MODULES[key] = made
            return made
    tree = _gen.generate(form, pack, views)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.py"
        if not path.exists():
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(_module_source(tree), encoding="utf-8")
            tmp.replace(path)
    except OSError:
        pass  # the cache is a convenience: no folder, no file
    code = builtins.compile(tree, f"<tysiac fast {key}>", "exec")
    made = (code, False)
    _MODULES[key] = made
    return made


_FROZEN: list[bool] = []
"""Whether :func:`_settled` froze the heap in this process (once)."""


def _settled() -> None:
    """Leave what is alive now out of the cyclic garbage collector's passes (``gc.freeze``),
    once per process, when its first form's module is made: the loaded rulesets, the engine,
    the generated code and the compiled form, about 40,000 objects.  A run's matches free
    what they make by reference counts (the generated code makes no cycles); left in, the
    start-up heap is walked by the collector's first full pass, 40 to 70 ms within a run's
    first few thousand deals (about 13,000 instructions a deal in ``benchmarks/instructions.py``'s
    window), and by each full pass after it.  The young generations are collected first
    (cheap), so that no cycle already dead is kept; an object alive now that later becomes
    cyclic garbage is not collected (``gc.unfreeze()`` returns them all to the collector),
    which is why this is done once, not for each form."""
    if _FROZEN:
        return
    _FROZEN.append(True)
    gc.collect(1)
    gc.freeze()


def _module_source(tree: Any) -> str:
    """The source written for the mypyc build: the folded tree, with a ``bind(helpers)``
    that sets the ``H_*`` globals (a compiled module cannot be handed a namespace)."""
    import ast

    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id.startswith("H_")})
    bind = "def bind(h):\n    global " + ", ".join(names) + "\n" + "".join(
        f"    {n} = h[{n!r}]\n" for n in names
    )
    header = "# generated by tysiac_spec.fast from its template; do not edit\nfrom typing import Any\n\n"
    slots = "".join(f"{n}: Any = None\n" for n in names)
    return header + slots + "\n" + bind + "\n" + ast.unparse(tree) + "\n"


def _helpers(ruleset: Ruleset, form: Form, pack: tuple[Card, ...]) -> dict[str, Any]:
    """The ``H_*`` names of the generated code: the engine's functions, bound to the form."""
    from ..engine import dealing
    from ..engine.compiled import CompiledForm
    from ..limits import exceeded

    compiled: CompiledForm = engine_compile(form, ruleset.deck.cards)
    options = dict(ruleset.selected)
    n = form.players
    deck_points = ruleset.deck.total_points
    active = form.active
    a = form.auction
    suit_ids = sorted({c.suit_id for c in pack}, key=lambda s: min(c.index for c in pack if c.suit_id == s))

    def first_dealer(rng: random.Random) -> int:
        return dealing.first_dealer(form, pack, rng)

    def new_state(dealer: int) -> MatchState:
        return MatchState.new(form, options=options, dealer=dealer, deck_points=deck_points)

    seats: dict[int, tuple[list[int], int | None, list[int], list[list[int]]]] = {}

    def seating_of(dealer: int) -> tuple[list[int], int | None, list[int], list[list[int]]]:
        made = seats.get(dealer)
        if made is None:
            order, sitter = seating(form, dealer)
            nxt = [0] * n
            opps: list[list[int]] = [[] for _ in range(n)]
            for p in order:
                nxt[p], opps[p] = turn_after(order, p), opponents_after(order, p)
            made = seats[dealer] = (order, sitter, nxt, opps)
        return made

    def base(state: MatchState, player: int) -> Mapping[str, Any]:
        return envs.base(state.player_record(player), active, options)

    # each player's highest bid (auction.highest_bid), kept by the cards the formula sees
    reads_base = a.max_bid is not None and not a.max_bid.reads.isdisjoint(envs.BASE_NAMES)
    fixed = auction.highest_bid(form, (), envs.UNREAD_BASE, deck_points) if a.max_bid is None else 0

    # the cards of each byte of a hand's bit set, by the byte's value (ascending index)
    bytes_of = [[tuple([pack[8 * k + i] for i in range(8) if v >> i & 1 and 8 * k + i < len(pack)])
                 for v in range(256)] for k in range((len(pack) + 7) // 8)]

    def hand_of(mask: int) -> tuple[Card, ...]:
        """The cards of the bit set ``mask``, ascending by index."""
        out: tuple[Card, ...] = ()
        for table in bytes_of:
            out += table[mask & 255]
            mask >>= 8
        return out

    bids: dict[int, int] = {}
    # the cards of the hand each formula can see (engine/seen.py): its values kept by them
    bid_seen = seen_cards(a.max_bid, "hand", pack, form.marriages) if a.max_bid is not None else 0

    def highest_bid(mask: int, player: int, state: MatchState) -> int:
        if a.max_bid is None:
            return fixed
        if not reads_base:
            known = bids.get(mask & bid_seen)
            if known is not None:
                return known
        b = base(state, player) if reads_base else envs.UNREAD_BASE
        value = auction.highest_bid(form, hand_of(mask), b, deck_points, kept=False)  # (kept here)
        if not reads_base:
            if len(bids) > 200_000:
                bids.clear()
            bids[mask & bid_seen] = value
        return value

    def too_many_bids(player: int, lo: int, hi: int) -> None:
        raise exceeded("bids", (hi - lo) // a.step + 1,
                       subject=f"the bids player {player} may make, {lo} to {hi}")

    class _Deal:
        """What talon.contract_amounts reads of a deal."""

        __slots__ = ("around", "barrel_deal", "deck_points", "declarer", "hands", "high_bid", "mode")
        barrel_deal: bool
        deck_points: int
        declarer: int
        hands: dict[int, tuple[Card, ...]]
        high_bid: int
        around: None  # the mechanisms around the contract (contract.kinds): never on the fast path
        mode: str

    c = form.contract
    contract_reads: set[str] = set()
    contract_seen = 0
    for f in (c.max, c.allowed):
        if f is not None:
            contract_reads |= f.reads
            contract_seen |= seen_cards(f, "hand", pack, form.marriages)
    contract_base = not contract_reads.isdisjoint(envs.BASE_NAMES)
    contracts: dict[tuple[int, int, int, bool], tuple[int, ...]] = {}

    modes = auction.MODES
    ace_rank = form.marriages.ace_marriage.rank

    def contract_amounts(mask: int, bid: int, declarer: int, state: MatchState, mode: int,
                         barrel_deal: bool) -> tuple[int, ...]:
        if not mode and not barrel_deal and not c.raise_allowed:
            return (bid,)
        key = (mask & contract_seen, bid, mode, barrel_deal)
        if not contract_base:
            known = contracts.get(key)
            if known is not None:
                return known
        d = _Deal()
        d.barrel_deal, d.deck_points, d.mode = barrel_deal, deck_points, modes[mode]
        d.declarer, d.high_bid, d.around = declarer, bid, None
        d.hands = {declarer: hand_of(mask)}
        # (kept here, by the same cards and more: not in the engine's kept values too)
        value = tuple(talon.contract_amounts(form, d, lambda p: dict(base(state, p)),  # type: ignore[arg-type]
                                             kept=False))
        if not contract_base:
            if len(contracts) > 200_000:
                contracts.clear()
            contracts[key] = value
        return value

    def outcome(declarer: int, bid: int, contract: int, order: list[int], sitter: int | None,
                points: list[int], married: list[int], tricks: list[int], last: int,
                declared: list[tuple[int, int]], talon_cards: list[int], forfeited: bool, mode: int,
                multiplier: int) -> DealOutcome:
        return outcome_from(
            declarer, bid, contract, order, {p: points[p] for p in order}, {p: married[p] for p in order},
            {p: tricks[p] for p in order}, forfeited, modes[mode], multiplier, sitter,
            tuple([pack[x] for x in talon_cards]) if sitter is not None else (), last if last >= 0 else None,
            tuple([(p, suit_ids[s] if s >= 0 else ace_rank) for p, s in declared]), None, None)

    # the claim's marriages (play.claim_taken): each of the pack's, in marriages.values order
    mar = form.marriages
    first_rank, second_rank = mar.ranks
    by_suit_rank = {(card.suit_id, card.rank.id): card for card in pack}
    claim_pairs: list[int] = []
    claim_suits: list[int] = []
    claim_values: list[int] = []
    claim_suit: list[int] = []  # its suit, as the generated code notes a declaration
    for sid, value in mar.values.items():
        k, q = by_suit_rank.get((sid, first_rank)), by_suit_rank.get((sid, second_rank))
        if k is not None and q is not None:
            claim_pairs.append(k.bit | q.bit)
            claim_suits.append(k.suit_bits)
            claim_values.append(value)
            claim_suit.append(suit_ids.index(sid))
    card_points = [card.points for card in pack]

    def claim(order: list[int], hand: list[int], declarer: int, points: list[int], married: list[int],
              tricks: list[int], declared: list[tuple[int, int]]) -> int:
        """The declarer claims before the first trick (play.claim_taken): his card points, tricks,
        marriages and their declarations added to the fast state's lists; returns the last
        trick's winner, him (the set-aside cards are then awarded as after a last trick)."""
        from ..engine import play

        h = hand[declarer]
        others = 0
        for p in order:
            if p != declarer:
                others |= hand[p]
        barred = play.marriage_barred(tricks[declarer], True, 0, h.bit_count(), mar.requires_won_trick,
                                      not mar.declarer_first_lead, mar.from_trick - 1, mar.min_cards)
        cards, won, kept = play.claim_taken(h, others, claim_pairs, claim_suits, claim_values, 0, barred > 0,
                                            mar.from_trick, mar.min_cards)
        for i in kept:
            married[declarer] += claim_values[i]
            declared.append((declarer, claim_suit[i]))
        while cards:
            low = cards & -cards
            points[declarer] += card_points[low.bit_length() - 1]
            cards ^= low
        tricks[declarer] += won
        return declarer

    score_played = compiled.score_played

    class _Declarer:
        """What talon.may_forfeit reads of a deal."""

        __slots__ = ("declarer", "unopposed")
        declarer: int
        unopposed: bool

    def may_forfeit(declarer: int, unopposed: bool, state: MatchState) -> bool:
        d = _Declarer()
        d.declarer, d.unopposed = declarer, unopposed
        return talon.may_forfeit(form, d, lambda p: dict(base(state, p)))  # type: ignore[arg-type]

    # redeals: the conditions checked by dealing.redeal_check, the flow decided by
    # dealing.redeal_decided (as Game's redeal phase does), the cap dealing.redeals_capped
    redeals = form.deal.redeals

    class _Table:
        """What dealing.redeal_check reads of a deal."""

        __slots__ = ("contract", "dealt_talon", "declarer", "hands", "high_bid", "order")
        contract: int
        dealt_talon: tuple[Card, ...]
        declarer: int | None
        hands: dict[int, tuple[Card, ...]]
        high_bid: int
        order: list[int]

    def redealt(caller: int | None, rid: str, penalty: int | None, state: MatchState,
                events: list[MatchEvent], deals: int) -> MatchState:
        state, event = dealing.redealt(form, state, deals, caller, rid, penalty)
        events.append(event)
        return state

    def passed_out_stopped(events: list[MatchEvent], deals: int, run: int) -> None:
        events.append(MatchEvent(deals, "all-pass.stopped", None, None, auction.passed_out_text(run)))

    def below(draw: Callable[[int], int], n: int) -> int:
        k = n.bit_length()
        r = draw(k)
        while r >= n:
            r = draw(k)
        return r

    redeal_code, pass_code = CODES["K_REDEAL"], CODES["K_PASS"]
    redeal_base = any(not r.when.reads.isdisjoint(envs.BASE_NAMES) for r in redeals)
    redeal_hand_seen = redeal_talon_seen = 0
    for r in redeals:
        redeal_hand_seen |= seen_cards(r.when, "hand", pack, form.marriages)
        redeal_talon_seen |= seen_cards(r.when, "talon", pack, form.marriages)
    redeal_kept: dict[tuple[Any, ...], Any] = {}
    # the winning bid and the contract are in the key only when a condition reads them
    redeal_bid = any("bid" in r.when.reads for r in redeals)
    redeal_contract = any("contract" in r.when.reads for r in redeals)

    def redeal(timing: int, dealer: int, order: list[int], hand: list[int], talon_cards: list[int],
               declarer: int, bid: int, contract: int, current: int, state: MatchState, policies: Any,
               draw: Any, steps: list[Any] | None, events: list[MatchEvent], deals: int,
               auto: int, stopping: bool) -> tuple[MatchState, int]:
        """A redeal point (``timing``: its index in ``dealing.TIMINGS``): the state, and 0 to
        play on, 1 dealt again, 2 dealt again at once (a mandatory condition after the deal,
        ``auto`` of them in a row so far; past the cap, ``dealing.redeals_capped``, the deal is
        played as dealt, unchecked, as ``Game`` plays it)."""
        if timing == 0 and dealing.redeals_capped(auto):
            return state, 0
        key: tuple[Any, ...] = ()
        checked = None
        if not redeal_base:  # the result kept by what the conditions can see (engine/seen.py)
            talon_mask = 0
            if redeal_talon_seen:
                for x in talon_cards:
                    talon_mask |= 1 << x
            # (the order of play is the dealer's: engine/seating.py seating)
            key = (timing, dealer, declarer, bid if redeal_bid else 0, contract if redeal_contract else 0,
                   talon_mask & redeal_talon_seen, *[hand[p] & redeal_hand_seen for p in order])
            checked = redeal_kept.get(key)
        if checked is None:
            t = _Table()
            t.order, t.high_bid, t.contract = order, bid, contract
            t.declarer = declarer if declarer >= 0 else None
            t.hands = {p: hand_of(hand[p]) for p in order}
            t.dealt_talon = tuple([pack[x] for x in talon_cards])
            checked = dealing.redeal_check(form, t, lambda p: dict(base(state, p)),  # type: ignore[arg-type]
                                           dealing.TIMINGS[timing])
            if not redeal_base:
                if len(redeal_kept) > 200_000:
                    redeal_kept.clear()
                redeal_kept[key] = checked
        mandatory, offers = checked
        if mandatory is None and (stopping or not offers):  # (stopping: nobody is asked)
            return state, 0
        now = [state]

        def ask(player: int, index: int) -> bool:
            legal = [redeal_code, pass_code]
            chosen = policies[player](player, legal) if draw is None else legal[below(draw, 2)]
            if steps is not None:
                steps.append((player, legal, chosen))
            return bool(chosen == redeal_code)

        def called_on(player: int, index: int) -> None:
            now[0], event = dealing.played_on(form, now[0], deals, player, index)
            events.append(event)

        what, caller, index = dealing.redeal_decided(form, mandatory, list(offers), ask, called_on)
        if what != dealing.REDEAL_DEALT:
            return now[0], 0
        state = redealt(caller, redeals[index].id, None, now[0], events, deals)
        return state, 2 if timing == 0 and mandatory is not None else 1

    # auction.may_bid, evaluated by the engine's auction.allowed_bids
    may_bid_formula = a.may_bid
    amounts_base = may_bid_formula is not None and not may_bid_formula.reads.isdisjoint(envs.BASE_NAMES)
    may_seen = seen_cards(may_bid_formula, "hand", pack, form.marriages) if may_bid_formula is not None else 0

    may_reads = may_bid_formula.reads if may_bid_formula is not None else frozenset()
    may_high, may_forced = "high_bid" in may_reads, "forced" in may_reads
    may_of = may_bid_formula.evaluator() if may_bid_formula is not None else None

    step, bid_code = a.step, CODES["K_BID"]

    def allowed(bids: range, mask: int, high_bid: int, forced: bool, b: Mapping[str, Any]) -> list[int]:
        """The codes of the ``bids`` that ``auction.may_bid`` allows, ascending, a new list
        (the engine's :func:`~tysiac_spec.engine.auction.allowed_bids`, one call); ``b`` the
        bidder's base."""
        assert may_of is not None
        if not bids:
            return []
        e = envs.auction_may_bid(b, hand_of(mask), bids[0], high_bid, forced)
        return [bid_code + x for x in allowed_bids(may_of, e, bids)]

    bids_kept: dict[Any, tuple[int, int, list[int]]] = {}
    by_hand = not amounts_base and not may_high and not may_forced  # (the generated code reads it)

    def may_bids(lo: int, hi: int, mask: int, high_bid: int, forced: bool, player: int,
                 state: MatchState) -> list[int]:
        """The codes of the bids ``lo`` to ``hi`` (in steps) that ``auction.may_bid`` allows
        (:func:`allowed`), ascending, a new list.  Kept by what the formula reads: per hand
        (its seen cards) the codes allowed over the widest range of bids asked so far, from
        which a narrower range is a slice; a wider one evaluates only the bids not kept."""
        if amounts_base:
            return allowed(range(lo, hi + 1, step), mask, high_bid, forced, base(state, player))
        key: Any = mask & may_seen if by_hand else (mask & may_seen, high_bid if may_high else 0,
                                                     forced if may_forced else False)
        known = bids_kept.get(key)
        unread = envs.UNREAD_BASE
        if known is not None and (lo - known[0]) % step == 0:  # (the bids of one grid)
            klo, khi, codes = known
            if klo <= lo and hi <= khi:
                return codes[bisect_left(codes, bid_code + lo):bisect_right(codes, bid_code + hi)]
            # the range widened (any gap between the two filled): the new bids only
            first, last = min(lo, klo), max(hi, khi)
            codes = (allowed(range(first, klo, step), mask, high_bid, forced, unread) + codes
                     + allowed(range(khi + step, last + 1, step), mask, high_bid, forced, unread))
        else:
            first, last = lo, hi
            codes = allowed(range(lo, hi + 1, step), mask, high_bid, forced, unread)
        if len(bids_kept) > 200_000:
            bids_kept.clear()
        bids_kept[key] = (first, last, codes)
        return codes[bisect_left(codes, bid_code + lo):bisect_right(codes, bid_code + hi)]

    def barrel_taker(state: MatchState, order: list[int]) -> int:
        """The player who takes the deal on the barrel without an auction, or -1 (the engine's
        :func:`~tysiac_spec.engine.auction.barrel_taker`)."""
        taker = auction.barrel_taker(form, [seat.on for seat in state.barrel], order)
        return -1 if taker is None else taker

    def dealer_exempt(mask: int, dealer: int, state: MatchState) -> bool:
        return auction.dealer_exempt(form, hand_of(mask), base(state, dealer))

    def cut_pack(cards: list[int], rng: random.Random, dealer: int, state: MatchState,
                 events: list[MatchEvent], deals: int) -> MatchState:
        held = [pack[x] for x in cards]  # (the engine's cut on the pack's cards)
        state, cut_events = dealing.cut(form, state, held, rng, dealer, deals)
        cards[:] = [c.index for c in held]
        events += cut_events
        return state

    return {
        "H_cut": cut_pack,
        "H_redeal": redeal,
        "H_redealt": redealt,
        "H_passed_out_stopped": passed_out_stopped,
        "H_next_redeal_dealer": partial(redeal_dealer, form),
        "H_dealt_by": dealt_by,
        "H_barrel_taker": barrel_taker,
        "H_may_bids": may_bids,
        "H_may_known": bids_kept,
        "H_bid_known": bids,
        "H_dealer_exempt": dealer_exempt,
        "H_Random": random.Random,
        "H_first_dealer": first_dealer,
        "H_new_state": new_state,
        "H_seating": seating_of,
        "H_deal": deal_function(form),
        "H_max_bid": highest_bid,
        "H_too_many_bids": too_many_bids,
        "H_contract_amounts": contract_amounts,
        "H_outcome": outcome,
        "H_may_forfeit": may_forfeit,
        "H_claim": claim,
        **settle.bound(form, options, pack, score_played, new_state(0)),
    }


def compile(ruleset: Ruleset, players: int, views: bool = False) -> FastRunner | EngineRunner:
    """The runner of ``ruleset`` (loaded, options applied) with ``players``: generated code
    when the generator covers the form (with ``views``, also its views: :mod:`.views`), else
    the engine (``fallback_reason`` set)."""
    form = ruleset.form(players)
    reason = uncovered(form, len(ruleset.deck.cards))
    if reason is None and views:
        reason = views_uncovered(form)
    if reason is not None:
        return EngineRunner(ruleset, players, reason)
    return FastRunner(ruleset, players, views)


def compile_form(ruleset: str | Ruleset, players: int, options: Mapping[str, Any] | None = None,
                 views: bool = False) -> FastRunner | EngineRunner:
    """:func:`compile` of ``ruleset`` (an id, alias or path, or a loaded ruleset) with
    ``options`` applied.

    Raises:
        RulesetError, OptionError: as :func:`~tysiac_spec.load_ruleset` does.
    """
    if isinstance(ruleset, str):
        rules = load_ruleset(ruleset, options=dict(options)) if options else load_ruleset(ruleset)
    elif options:
        rules = load_ruleset(ruleset.file or ruleset.id, options={**ruleset.selected, **options})
    else:
        rules = ruleset
    return compile(rules, players, views)
