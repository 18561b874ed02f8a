"""A match of Tysiąc under any ruleset: deals from shuffle to score until the target.

The engine reads only the resolved :class:`~tysiac_spec.ruleset.model.Form`; it
never looks at the ruleset's id or name.  All randomness (first dealer, shuffles)
comes from one ``random.Random(seed)`` per game.

A deal runs the steps of :data:`.flow.STEPS` (from the deal and its redeal checks to the
play) in that order: when a step ends, the game opens the form's next steps one after
another until one waits for an action (``Game._advance``).  The match level
(:mod:`.match`) settles each deal.

The engine deals exactly as ``deal`` says, so a dealing error cannot happen by itself; the
mistakes a real table calls (a misdeal, an exposed card, a look at the talon, a shown hand)
are table incidents, called with :meth:`Game.incident` (or an
:class:`~.actions.Incident` handed to :meth:`Game.apply`) and settled by the ruleset's
``deal.incidents``: a penalty, and the redeal or play on.  They are never legal actions, so
bots never commit them, and they are kept in :attr:`Game.history` so that a record replays them.

A game receives its form's :class:`~.compiled.CompiledForm` (:func:`~.compiled.compile_form`,
shared by every game of the form) and keeps only its play state.  The identity fast path
for :meth:`Game.apply` lives here in ``Game``, not in the compiled form: it remembers the last
list :meth:`Game.legal_actions` handed out with its position (deal, action count, player,
phase), and an action object of that list (the compiled form's interned actions) is applied
without computing the list again, because that is the loop of every bot and benchmark (ask,
pick one, apply); any other action is checked by value against a fresh list.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from operator import attrgetter, sub
from typing import Any, cast

from ..cards import Card
from ..errors import Diagnostic, IllegalActionError
from ..ruleset import Ruleset
from ..text import shorten, signed
from . import (
    all_pass,
    announcing,
    auction,
    contra,
    contracts,
    dealing,
    flow,
    incidents,
    naming,
    play,
    rebuy,
    scoring,
    setup,
    talon,
)
from . import env as envs
from .actions import (
    Action,
    ChooseTalon,
    Claim,
    DeclareContract,
    DeclareMarriage,
    Forfeit,
    Incident,
    NamedBid,
    Pass,
    PlayCard,
    Redeal,
)
from .compiled import CompiledForm, compile_form
from .deal_notation import Deal
from .events import MatchEvent
from .match import MatchState, charge_seat, dealt_by, settle_all_pass, settle_valid_deal, winners
from .phase import Phase, no_actions
from .pickling import copied, packed, unpacked
from .position import Position
from .record import Record, record_error, record_of, ruleset_of
from .seating import next_dealer, redeal_dealer
from .simple_settle import compile_simple_settle, settle_played
from .state import Around, DealState, cards_text
from .view import View, view_of

__all__ = ["Game", "View"]

_INDEX = attrgetter("index")


_REDEAL_CHOICES: list[Action] = [Redeal(), Pass()]


def _unanswered(player: int, index: int) -> bool | None:
    """No answer to a redeal offer yet (:func:`~.dealing.redeal_decided`'s ``ask`` for a
    check that asks nobody)."""
    return None


def _redeal_legal(deal: DealState) -> list[Action]:
    """Phase ``redeal``: call the redeal the condition offers, or play on."""
    return _REDEAL_CHOICES


def _auction_waits(deal: DealState) -> bool:
    """The step ``auction``: the deal waits for the bids, unless the opening declared it (its
    phase is then ``talon``)."""
    return deal.phase == "auction"


def _settled_at_the_end(deal: DealState) -> bool:
    """The step ``settlement``: never opened by a step before it (the play waits for its
    cards); a deal is settled when its phase becomes ``over`` (``Game._end_deal``)."""
    raise AssertionError("the settlement is reached by the end of the deal, not opened")


def _explain_redeal(deal: DealState, action: Action) -> str:
    return "call a redeal (`redeal`) or play on (`pass`)"


def _explain_dark(deal: DealState, action: Action) -> str:
    return auction.explain_dark(deal, action)


def _explain_rebuy(deal: DealState, action: Action) -> str:
    return rebuy.explain(deal)


class Game:
    """A match: ``Game(rules, players=3, seed=7)``; drive it with :meth:`legal_actions` and
    :meth:`apply` until :attr:`is_over`.

    Args:
        ruleset: a loaded ruleset.
        players: players at the table (one of ``ruleset.player_counts``).
        seed: seed of the game's random generator (shuffles, first dealer).
        options: option values over the ruleset's (:meth:`~.model.Ruleset.with_options`).

    A game copies cheaply (``copy.copy``, ``copy.deepcopy``, :meth:`clone`: the ruleset,
    its forms and their :class:`~.compiled.CompiledForm` are shared, only the play state
    is copied) and pickles (the ruleset by reference, as a record names it); either way
    the copy's future is the original's (the same legal actions, views, scores and
    events after the same actions: the random generator's state is copied too).

    Raises:
        OptionError: no form for ``players``, or an unknown option value.
    """

    stacked_deals: tuple[tuple[int, Deal], ...] = ()
    """The deals set by hand (:meth:`start_deal`), each with the number of actions applied
    before it (``len(history)`` then); the game's :attr:`record` keeps them."""

    start_position: Position | None = None
    """The position the game started from (:meth:`from_position`), else ``None``; the game's
    :attr:`record` keeps it, and its replay starts there."""

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        if options:  # (in the ruleset layer: a ruleset from text takes options too)
            ruleset = ruleset.with_options(options)
        self._bind(ruleset, players)
        self.seed = seed
        self._rng = random.Random(seed)
        self.deal_scores: list[tuple[int, ...]] = []
        """Each finished deal's score changes, by player."""
        self.history: list[str] = []
        """Every applied action, in compact text (``bid 110``), oldest first."""
        self.events: list[MatchEvent] = []
        """What happened beyond the actions (contracts, barrel, bolts, forfeits, …), in order."""
        self.last_deal: DealState | None = None
        """The most recently finished deal (for inspection after it was scored)."""
        self.passed_out = 0
        """Deals everyone passed and that were dealt again (``auction.all_pass: redeal``), in
        the whole match: a simulation counts them against its most deals."""
        self._passed_run = 0
        self._over = False
        self._dealer = self._first_dealer()
        self._match = MatchState.new(
            self.form, options=self._options, dealer=self._dealer, deck_points=self._deck_points
        )
        self.deal = self._new_deal()

    _BOUND: frozenset[str] | None = None
    """The attributes :meth:`_bind` makes (found by the first call, not kept by hand): what
    a game makes from its ruleset and player count, not its state; a pickle leaves them out
    and a loaded game makes them again (:func:`_unpickled_game`).  Every other attribute is
    the game's state and is pickled."""

    # ------------------------------------------------------------------ setup

    def _bind(self, ruleset: Ruleset, players: int) -> None:
        """Make what a game makes from its ruleset and player count: the form, its compiled
        form (:func:`~.compiled.compile_form`, shared by every game of the form) and switches
        (:class:`~.compiled.Switches`), the table of phases bound to this game, the caches of
        :meth:`legal_actions`.  Every attribute set here is set for every form (their names
        are :attr:`_BOUND`)."""
        self.ruleset = ruleset
        self.form = form = ruleset.form(players)
        self.players = players
        self._options = dict(ruleset.selected)
        self._active = form.active
        self.compiled: CompiledForm = compile_form(form, ruleset.deck.cards)
        """The form's compilation, shared by every game of the form (:mod:`.compiled`)."""
        on = self.compiled.switches
        assert on is not None
        self._on = on
        """The form's switches (:class:`~.compiled.Switches`), decided once per form."""
        self._direction = on.direction
        self._table = self.compiled.table
        self._score_played = self.compiled.score_played
        self._kinds = self.compiled.kinds
        """The named contract kinds compiled (``contract.kinds``, :mod:`.contracts`); empty: none."""
        self._revoke = on.revoke
        self._settle_simple: partial[tuple[MatchState, list[MatchEvent]]] | None = None
        """The settlement of a finished deal of a match with nothing beyond the target and
        ``finishing`` (:mod:`.simple_settle`; ``None``: another form)."""
        if on.simple_settle:
            settlement = self.compiled.settlement
            assert settlement is not None
            self._settle_simple = partial(
                settle_played, compile_simple_settle(form, self._options, ruleset.deck.cards),
                settlement.next_dealer,
            )
        self._deck_points = ruleset.deck.total_points
        self._deck_cards = ruleset.deck.cards
        self._after = flow.after(form)
        """For each step of a deal (:data:`.flow.STEPS`), the form's steps that follow it."""
        self._openers = self._step_table()
        """Each step of a deal after the deal itself, as the game opens it: True when the deal
        waits there (a phase awaiting an action, a redeal), False when it goes on."""
        self._phases = self._phase_table()
        """Each phase (:data:`~tysiac_spec.engine.state.PHASES`) as a :class:`~.phase.Phase`
        bound to this game: its legal actions, the application of one and the reason of a
        refusal."""
        self._play_apply = on.play_apply
        self._play_form, self._deal_marriages = form, form.marriages
        """The play of a card, the form the current deal's play follows and its marriage rules:
        the form's own, or a named kind's (:meth:`_point_play`, set per deal)."""
        self._legal_deal: DealState | None = None
        """The deal, and its action count, player and phase (the next attributes) when
        :attr:`_legal` was computed by :meth:`legal_actions` (see :meth:`apply`)."""
        self._legal_count = self._legal_current = -1
        self._legal_phase = ""
        self._legal: list[Action] = []
        if Game._BOUND is None:  # (made on a game with no other attribute: __init__, a load)
            Game._BOUND = frozenset(vars(self))

    def _phase_table(self) -> dict[str, Phase]:
        """The phases of a deal bound to this game (the one dispatch of :meth:`legal_actions`,
        :meth:`apply` and the reason of a refused action)."""
        form, table, env, on = self.form, self._table, self._env, self._on
        auction_legal = (
            contracts.compile_legal_auction(form, table, env) if on.named
            else auction.compile_legal(form, table, env)
        )
        talon_explain = self._explain_talon
        return {
            "redeal": Phase(_redeal_legal, self._answer_redeal, _explain_redeal),
            "dark": Phase(auction.legal_dark, self._apply_dark, _explain_dark),
            "auction": Phase(auction_legal, self._apply_auction, self._explain_auction),
            "rebuy": Phase(rebuy.legal, self._apply_rebuy, _explain_rebuy),
            "contra": Phase(contra.legal, self._apply_contra, self._explain_contra),
            "trump": Phase(partial(naming.legal, form), self._apply_naming,
                           partial(naming.explain, form)),
            # (the talon's steps: each applied, then the steps after it opened, Game._advance)
            "talon": Phase(lambda deal: talon.legal_choice(deal, table), self._apply_talon, talon_explain),
            "exchange": Phase(self.compiled.exchange_legal, self._apply_exchange, talon_explain),
            "contract": Phase(lambda deal: talon.legal_contract(form, deal, env, table),
                              self._apply_contract, talon_explain),
            "marriages": Phase(self._legal_announcements, self._apply_marriages, announcing.explain),
            "play": Phase(on.play_legal, self._apply_play, self._explain_play),
            "over": Phase(no_actions, self._apply_play, self._explain_play),
            "redealt": Phase(no_actions, self._apply_play, self._explain_play),
        }

    def _step_table(self) -> dict[str, Callable[[DealState], bool]]:
        """How this game opens each step of a deal after the deal (:data:`.flow.STEPS`; the
        order is :mod:`.flow`'s, :meth:`_advance`)."""
        form, env = self.form, self._env
        return {
            "redeal.after_deal": partial(dealing.redeal_point, form, env=env, timing="after_deal"),
            "opening": self._open,
            "auction": _auction_waits,
            "rebuy": partial(rebuy.opened, form, env=env),
            "contra.after_auction": partial(contra.opened, form),
            "trump": partial(naming.opened, form),
            "talon": partial(talon.start, form, env=env),
            "redeal.after_talon": partial(dealing.redeal_point, form, env=env, timing="after_talon"),
            "exchange": partial(talon.open_exchange, form),
            "redeal.after_exchange": partial(dealing.redeal_point, form, env=env, timing="after_exchange"),
            "contract": partial(talon.open_contract, form, env=env),
            "play": self._open_play,
            "settlement": _settled_at_the_end,
        }

    def _advance(self, deal: DealState, done: str) -> None:
        """The step ``done`` of ``deal`` has ended: open the form's next steps in the order of
        :mod:`.flow`, one after another, until one makes the deal wait."""
        openers = self._openers
        for step in self._after[done]:
            if openers[step](deal):
                return

    def _open_play(self, deal: DealState) -> bool:
        """The step ``play``: opened (:meth:`_start_play`); the deal waits for its cards."""
        self._start_play(deal)
        return True

    def _env(self, player: int) -> dict[str, Any]:
        """The formula base of ``player`` (a new dict, :func:`.env.base`): ``player`` (score, counters,
        forfeits, bolts, on_barrel: :meth:`MatchState.player_record`),
        ``players`` (active in a deal) and ``options``."""
        return envs.base(self._match.player_record(player), self._active, self._options)

    # ------------------------------------------------------------------ match state

    @property
    def match(self) -> MatchState:
        """The match state between deals: scores, counters, barrel, forfeits, bolts, dealer,
        golden round, winner (see :class:`~tysiac_spec.engine.match.MatchState`)."""
        return self._match

    @property
    def scores(self) -> list[int]:
        """Match scores by player (points); assigning a list sets them (tests, scenarios)."""
        return list(self._match.scores)

    @scores.setter
    def scores(self, values: Sequence[int]) -> None:
        self.set_match_state(scores=values)

    def dealt(self) -> Deal:
        """The current deal as it was dealt, in deal notation (``str()`` of it is the one line
        ``1:9S TS … / … | QC KC AC``), whatever has been played since: the hands before the
        talon was taken, the talons, the stock; a golden-round or barrel deal (whose talon is
        taken at once) too.  ``Game.start_deal(game.dealt())`` deals it again.  Shape:
        :class:`~tysiac_spec.engine.deal_notation.Deal`."""
        hands, talons, stock = self.deal.dealt
        return Deal(
            dealer=self.deal.dealer,
            hands=tuple([tuple([str(c) for c in h]) for h in hands]),
            talons=tuple([tuple([str(c) for c in t]) for t in talons]),
            stock=tuple([str(c) for c in stock]),
        )

    @classmethod
    def from_position(cls, ruleset: Ruleset, position: Position | str, *, seed: int = 0) -> Game:
        """A game that starts at ``position`` (a :class:`~.position.Position` or its text, for
        ``ruleset`` with its options in force; the players are the position's seats): the same
        legal actions, and after the same actions the same rest of the deal, as the game the
        position was taken from (:meth:`position`).  ``seed`` shuffles the deals after it.

        The game's :attr:`history`, :attr:`events` and :attr:`deal_scores` start empty; its
        :attr:`record` keeps the position (:attr:`start_position`), the seed and the actions
        from the position on, and replays from there.  Its :meth:`dealt` gives the cards as
        they lay in the position (the deal before it is not known).

        Raises:
            NotationError: ``notation.position`` (and ``notation.card``, ``notation.deal``)
                for a text, or a position, that is not a position of the ruleset
                (:meth:`.Position.parse`), or one the engine fails on: each legal action is
                applied to a copy first, and a failure that is not a clear error refuses the
                position, naming the action.
        """
        game: Game = setup.from_position(cls, ruleset, position, seed=seed)
        return game

    def position(self) -> Position:
        """The current position in position notation (:class:`~.position.Position`; ``str()``
        of it is one line): every hand, the talons, the trick, the scores, the player to move,
        and the rest of the deal's state.  It shows every card, hidden ones included: a
        notation for analysis and bug reports, not a player's view (:meth:`view`).
        ``Game.from_position(rules, game.position())`` goes on as this game does."""
        return Position.of_state(self.deal, self._match, self.form, self.ruleset.deck, self.compiled,
                                 self._options)

    @property
    def golden_deal(self) -> bool:
        """Whether the next deal (or the current one, before it is settled) belongs to the
        golden round (``special.golden_round``): ``match.golden_left > 0``."""
        return self._match.golden_left > 0

    # (methods whose signature and docstring are the setup functions': :mod:`.setup`)
    set_match_state = setup.set_match_state

    def _seating(self, dealer: int) -> tuple[list[int], int | None]:
        """The active players in bidding order and the sitter, for ``dealer`` (a new list;
        :func:`~tysiac_spec.engine.seating.seating`, kept per dealer)."""
        order, sitter = self._on.seatings[dealer]
        return list(order), sitter

    def _first_dealer(self) -> int:
        """The first dealer (:func:`~tysiac_spec.engine.dealing.first_dealer`)."""
        return dealing.first_dealer(self.form, self.ruleset.deck.cards, self._rng)

    _MAX_REDEALS = dealing.MAX_REDEALS

    def _new_deal(
        self,
        hands: Mapping[int, Sequence[Card]] | None = None,
        talons: Sequence[Sequence[Card]] | None = None,
        stock: Sequence[Card] = (),
    ) -> DealState:
        """Deal (or stack) a new deal by the current dealer and open it: the redeal checks
        after the deal, then a golden-round deal, the dark-game offer or the auction.  A
        mandatory redeal deals again at once (event ``redeal``)."""
        deal = self._dealt(hands, talons, stock, 0)
        redeals = 0
        while deal.phase == "redealt":
            if self._plays_on(deal):
                break
            self._redealt(deal)
            redeals += 1
            deal = self._dealt(None, None, (), redeals)
        return deal

    def _dealt(
        self,
        hands: Mapping[int, Sequence[Card]] | None,
        talons: Sequence[Sequence[Card]] | None,
        stock: Sequence[Card],
        redeals: int,
    ) -> DealState:
        """The step ``deal`` (:mod:`.flow`), then the steps after it opened: the redeal checks
        after the deal (passed after ``redeals`` automatic redeals in a row reach the cap,
        :func:`.dealing.redeals_capped`: the deal is played as dealt), the opening, the
        auction."""
        on = self._on
        if hands is None or talons is None:
            cards = list(self._deck_cards)
            dealing.shuffle(cards, self._rng)
            if on.cuts:
                for _ in range(self._MAX_REDEALS):  # a skipped deal passes on (deal.cut.then)
                    if not self._cut(cards):
                        break
                    self._dealer = next_dealer(self.form, self._dealer)
                    dealing.shuffle(cards, self._rng)
        order, sitter = self._seating(self._dealer)
        if hands is None or talons is None:
            plan = on.dealing_plan
            if plan is not None and len(order) == self.form.active:
                hands, talons = plan.deal(cards, order)
            else:
                hands, talons = dealing.deal_cards(self.form, cards, order, self._rng)
            if on.stock:  # the cards after the hands and talons
                stock = cards[len(cards) - on.stock :]
        deal = DealState(
            dealer=self._dealer,
            order=order,
            sitter=sitter,
            hands={p: sorted(hands[p], key=_INDEX) for p in order},
            talons=[list(t) for t in talons],
            dealt_talon=tuple([c for t in talons for c in t]),
            deck_points=self._deck_points,
            aces=on.aces,
            talon_public=on.talon_from_deal,
        )
        held = deal.hands
        deal.dealt = (tuple([tuple(held[p]) if p in held else () for p in range(self.players)]),
                      tuple([tuple(t) for t in talons]), tuple(stock))
        if on.around:  # (contract.kinds, contract.contra, talon.rebuy)
            deal.around = Around()
        if stock:
            deal.stock = list(stock)
            if on.stock_trump:
                deal.trump = stock[-1].suit_id
        if self._golden_auction():  # golden_round.auction: a golden deal bid for from its contract
            auction.golden_floor(self.form, deal)
        auction.start(self.form, deal, self._env, self._direction)
        self._advance(deal, "redeal.after_deal" if dealing.redeals_capped(redeals) else "deal")
        return deal

    def _open(self, deal: DealState) -> bool:
        """The step ``opening`` (:mod:`.flow`): a golden-round deal (while the match's golden
        round is on), else a barrel deal without bidding (the first active player on the
        barrel, in bidding order, takes the talon), else the dark-game offer
        (``special.dark``: True, the deal waits for it), else the auction as started."""
        form = self.form
        if self._golden_auction():
            return False  # the golden deal's auction, opened at its contract (auction.golden_floor)
        g, special = form.special.golden_round, form.special
        golden = self._match.golden_left > 0 and g.enabled
        taker = None if golden else auction.barrel_taker(form, [s.on for s in self._match.barrel], deal.order)
        mode, declarer, contract, multiplier, barrel, dark = auction.opening_of(
            golden, g.dark_allowed, g.contract, g.multiplier, -1 if taker is None else taker,
            special.barrel.goal, special.dark.enabled, deal.order[0])
        if declarer >= 0:
            auction.declare_opening(deal, mode, declarer, contract, multiplier, barrel)
        return dark and auction.start_dark(form, deal, self._env)

    def _golden_auction(self) -> bool:
        """Whether the deal is a golden-round deal that keeps its auction
        (``special.golden_round.auction``, while the match's golden round is on)."""
        g = self.form.special.golden_round
        return g.enabled and g.auction and self._match.golden_left > 0

    def _redealt(self, deal: DealState, penalty: int | None = None, dealer: str | None = None) -> None:
        """Record an abandoned deal (event ``redeal``), charge the caller's penalty (that of
        the redeal condition ``deal.redeal_id``, unless ``penalty`` is given) and pass the deal
        on when ``dealer`` (``same``/``next``), else ``deal.redeal_dealer``, says so."""
        self._match, event = dealing.redealt(
            self.form, self._match, len(self.deal_scores), deal.redeal_caller, deal.redeal_id, penalty
        )
        self.events.append(event)
        self._dealer = redeal_dealer(self.form, deal.dealer, dealer)
        if deal.redeal_id == "all-pass":
            self._passed_out()

    def _passed_out(self) -> None:
        """Count a deal everyone passed; after :data:`.auction.PASSED_OUT_MAX` in a row no deal
        can be expected (nobody may bid), and the match stops without a winner (event
        ``all-pass.stopped``)."""
        self._passed_run, self.passed_out, stops = auction.passed_out_count(
            self._passed_run, self.passed_out, auction.PASSED_OUT_MAX)
        if stops:
            self._event("all-pass.stopped", None, None, auction.passed_out_text(self._passed_run))
            self._over = True

    def _cut(self, cards: list[Card]) -> bool:
        """Cut the shuffled pack (:func:`~tysiac_spec.engine.dealing.cut_pack`): an event
        ``cut.bad`` per bad cut, and ``cut.penalty`` (value: minus the penalty) charged to
        ``deal.cut.payer`` for the penalised one; whether the deal is skipped (``cut.skip``,
        :func:`~tysiac_spec.engine.dealing.cut_skips`)."""
        self._match, events = dealing.cut(self.form, self._match, cards, self._rng, self._dealer,
                                          len(self.deal_scores))
        self.events += events
        return dealing.cut_skips(events)

    def _charge(self, player: int, penalty: int) -> None:
        """Take ``penalty`` points off ``player``'s match score (a negative one adds); with
        fixed partnerships his side pays (:func:`~tysiac_spec.engine.match.charge_seat`, the
        one home of every per-seat payment outside a deal's settlement)."""
        self._match = charge_seat(self.form, self._match, player, penalty)

    def _called_on(self, deal: DealState, player: int, index: int) -> None:
        """``player`` called the ``effect: play_on`` condition ``index``: charge its penalty
        (event ``redeal.play_on``; value: the points he gains, negative for a loss)."""
        self._match, event = dealing.played_on(self.form, self._match, len(self.deal_scores), player, index)
        self.events.append(event)

    def _plays_on(self, deal: DealState) -> bool:
        """For a mandatory condition with ``effect: play_on`` (``deal.phase`` ``redealt``):
        charge the caller and resume the deal where it was checked; False for a redeal."""
        for index, r in enumerate(self.form.deal.redeals):
            if r.id == deal.redeal_id:
                what, _, _ = dealing.redeal_decided(
                    self.form, (deal.redeal_caller, index), [], _unanswered,
                    lambda player, index: self._called_on(deal, player, index))
                if what == dealing.REDEAL_PLAY:
                    deal.redeal_caller, deal.redeal_id = None, ""
                    self._resume(deal)
                    return True
                return False
        return False

    def _resume(self, deal: DealState) -> None:
        """Play on after the redeal checks of ``deal.resume_phase`` (``after_deal``: the golden
        round, the dark game or the auction; later: where the talon step stopped)."""
        deal.current = deal.resume_current
        if deal.resume_phase == "after_deal":
            deal.phase = "auction"
        self._advance(deal, "redeal." + deal.resume_phase)

    start_deal = setup.start_deal

    # ------------------------------------------------------------------ queries

    @property
    def record(self) -> Record:
        """The game as data (:class:`~tysiac_spec.engine.record.Record`): ruleset, options,
        players, seed and every action so far;
        ``tysiac_spec.engine.replay.replay(game.record)`` rebuilds the game."""
        return record_of(self)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: someone reached ``match.target``, or the engine stopped
        it without a winner after :data:`.auction.PASSED_OUT_MAX` deals in a row were passed
        out and dealt again (event ``all-pass.stopped``)."""
        return self._over

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match, in seat order (``()`` while it goes on): the winner,
        with fixed partnerships his whole side (:func:`~tysiac_spec.engine.match.winners`)."""
        return winners(self.form, self._match)

    @property
    def phase(self) -> str:
        """``auction``, ``talon``, ``exchange``, ``contract``, ``marriages`` (announced before the
        first trick), ``play``; ``over`` after the match (:data:`.state.PHASES`)."""
        return "over" if self._over else self.deal.phase

    @property
    def current_player(self) -> int:
        """The player to act (0-based)."""
        return self.deal.current

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in a fixed order (deck order for cards,
        ascending amounts, pass last).  A new list each call; the actions in it are shared
        (immutable) objects, which :meth:`apply` recognises without computing the list again."""
        if self._over:
            return []
        deal = self.deal
        phase = deal.phase
        try:
            legal_of = self._phases[phase].legal
        except KeyError:  # a phase set by hand (tests): nothing to do
            legal_of = no_actions
        legal = legal_of(deal)
        self._legal_deal, self._legal_count, self._legal = deal, deal.actions, legal
        self._legal_current, self._legal_phase = deal.current, phase
        return legal[:]

    def playable_actions(self) -> list[Action]:
        """The actions the player to act can make: :meth:`legal_actions`, and, when a revoke is
        played and punished (``play.revoke.handling: penalise``), in the play phase the plain
        play of every other card in hand (a revoke; on a lead only when ``exempt_lead_rule``
        is false), in hand order after the legal ones.  Bots choose among the legal actions,
        so they never revoke; a table (a person) may play any of these."""
        legal = self.legal_actions()
        revoke, deal = self._revoke, self.deal
        if revoke is None or self._over or deal.phase != "play":
            return legal
        if not deal.trick and revoke.exempt_lead_rule:
            return legal
        played = {a.card for a in legal if type(a) is PlayCard}
        plain = self._table.plain
        return legal + [plain(c) for c in deal.hands[deal.current] if c not in played]

    def state_text(self) -> str:
        """A compact one-line text of the whole state (scores, then the deal)."""
        scores = ",".join(map(str, self.scores))
        return f"scores={scores} deals={len(self.deal_scores)} {self.deal.text()}"

    def snapshot(self) -> tuple[Any, ...]:
        """A value equal for equal states (state text, generator state, history)."""
        return (self.state_text(), self._rng.getstate(), tuple(self.history), tuple(self.deal_scores))

    def view(self, player: int) -> View:
        """What ``player`` sees: own hand, public cards (a shown talon, cards given face up);
        other hands, hidden talons and cards given face down to others hidden
        (:func:`.view.view_of`)."""
        return view_of(self.form, self.deal, self._match.scores, player, over=self._over)

    def public_view(self) -> View:
        """What a watcher who sits at no seat sees: the public cards only (no hand; the talon
        only when turned face up; given cards only when given face up), the bids, the trick,
        the tricks taken and the scores.  ``player`` is ``-1``."""
        return self.view(-1)

    # ------------------------------------------------------------------ acting

    def _reason(self, action: Action) -> str:
        """Why ``action`` is not legal now: the explanation of the deal's phase."""
        deal = self.deal
        phase = self._phases.get(deal.phase)
        return (phase.explain if phase is not None else self._explain_play)(deal, action)

    def _explain_auction(self, deal: DealState, action: Action) -> str:
        if self._kinds or type(action) is NamedBid:  # (named bids: contract.kinds)
            return contracts.explain_bid(self.form, deal, action, self._env) or auction.explain(
                self.form, deal, action, self._env
            )
        return auction.explain(self.form, deal, action, self._env)

    def _explain_talon(self, deal: DealState, action: Action) -> str:
        return talon.explain(self.form, deal, action, self._env)

    def _explain_contra(self, deal: DealState, action: Action) -> str:
        return contra.explain(self.form, deal, action)

    def _explain_play(self, deal: DealState, action: Action) -> str:
        """The play phase's reason (and that of a phase with no action: ``over``, ``redealt``,
        or one set by hand): all-pass play's, a named kind's, or the play's own."""
        if deal.phase == "play" and deal.declarer is None and self.compiled.all_pass is not None:
            if type(action) is DeclareMarriage or type(action) is Claim or (
                type(action) is PlayCard and action.declares
            ):
                return "a deal everyone passed is played out without marriages or a claim (all-pass play)"
        if self._kinds and deal.kind is not None:  # (contract.kinds) the kind's own play
            why = contracts.explain_play(contracts.kind_of(self.form, deal.kind), deal, action)
            return why or play.explain(self._play_form, deal, action)
        return play.explain(self.form, deal, action)

    def apply(self, action: Action) -> None:
        """Apply a legal action of the current player.

        An action object from the last :meth:`legal_actions` list of this position (the same
        deal, count of actions, player and phase) is accepted without computing the list
        again; after changing ``game.deal`` by hand (tests), call :meth:`legal_actions` again
        before applying an object from an old list.

        Raises:
            IllegalActionError: ``action.illegal`` naming the action, the phase, the reason
                (``must follow hearts``) and the state text; the game is left unchanged.
        """
        if self._over:
            raise IllegalActionError(Diagnostic("action.illegal", f"`{action}`: the match is over"))
        deal = self.deal
        # The identity fast path (see the module docstring): an action object handed out by
        # the last legal_actions() for this very position (the deal, its action count, the
        # player to act, the phase) is legal without computing the list again; any other
        # action is compared by value with a freshly computed list.
        if (
            self._legal_deal is deal
            and self._legal_count == deal.actions
            and self._legal_current == deal.current
            and self._legal_phase == deal.phase
        ):
            for allowed in self._legal:
                if allowed is action:
                    break
            else:
                if type(action) is Incident:
                    self.incident(action.kind, action.player)
                    return
                self._refuse_unless_legal(action)
        else:
            if type(action) is Incident:
                self.incident(action.kind, action.player)
                return
            self._refuse_unless_legal(action)
        # the action is legal: the one step of every phase
        deal.actions += 1
        if type(action) is PlayCard:  # the usual case first: a card played (the play phase)
            self.history.append(action.text)
            self._play_apply(deal, action)
            if deal.phase == "over":
                self._end_deal()
            return
        phase = deal.phase
        self.history.append(action.text)
        if isinstance(action, Forfeit):  # (offered in the talon's phases)
            talon.apply_forfeit(deal)
        elif self._phases[phase].apply(deal, action):
            return  # (the phase opened what comes next itself)
        if deal.phase == "redealt":
            if not self._plays_on(deal):
                self._redealt(deal)
                if not self._over:
                    self.deal = self._new_deal()
        elif deal.phase == "over":
            self._end_deal()

    def _apply_auction(self, deal: DealState, action: Action) -> None:
        """Phase ``auction``: a bid or a pass (named bids beside the numeric ones:
        ``contract.kinds``); the talon turned up in the auction (``talon.shown_from:
        second_round``); once it has a declarer, the contract offered for sale, contra or the
        talon."""
        form, on = self.form, self._on
        if on.named:  # (contract.kinds) named bids beside the numeric ones
            contracts.apply_bid(form, deal, action, action.text)
        else:
            auction.apply(form, deal, action, action.text)
        if on.talon_from_round:
            talon.reveal_in_auction(deal)
        if deal.phase == "talon":  # a declarer: the steps after the auction
            self._advance(deal, "auction")
        elif deal.phase == "play":  # all-pass play: no talon, no contract
            self._advance(deal, "contract")

    def _apply_dark(self, deal: DealState, action: Action) -> None:
        """Phase ``dark``: the dark game declared, cancelled or declined; then the steps after
        the opening (the auction as started, or the talon of a dark game declared)."""
        auction.apply_dark(self.form, deal, action)
        if deal.phase == "talon":
            self._advance(deal, "opening")

    def _apply_talon(self, deal: DealState, action: Action) -> None:
        """Phase ``talon``: the talon chosen (:func:`.talon.apply_choice`), then the steps after it."""
        talon.apply_choice(self.form, deal, cast(ChooseTalon, action), self._env)
        self._advance(deal, "talon")

    def _apply_exchange(self, deal: DealState, action: Action) -> None:
        """Phase ``exchange``: a card given or discarded; once the exchange is done, the steps
        after it."""
        if talon.apply_exchange(self.form, deal, action, self._env):
            self._advance(deal, "exchange")

    def _apply_contract(self, deal: DealState, action: Action) -> None:
        """Phase ``contract``: the contract fixed, then the play (the steps after it)."""
        talon.apply_contract(deal, cast(DeclareContract, action))
        self._advance(deal, "contract")

    def _apply_marriages(self, deal: DealState, action: Action) -> bool:
        """Phase ``marriages``: :func:`.announcing.apply`, which opens the play itself."""
        announcing.apply(self._deal_marriages, self._on.leader, deal, action)
        return True

    def _apply_rebuy(self, deal: DealState, action: Action) -> None:
        """Phase ``rebuy`` (``talon.rebuy``): once the contract is bought or kept (event
        ``rebuy`` for a sale), contra after the auction or the talon."""
        if rebuy.apply(self.form, deal, action, self._env):
            assert deal.around is not None
            if deal.around.sold_by is not None:
                self._event("rebuy", deal.declarer, deal.high_bid,
                            f"player {deal.declarer} buys the contract at {deal.high_bid} "
                            f"from player {deal.around.sold_by}")
            self._advance(deal, "rebuy")

    def _apply_naming(self, deal: DealState, action: Action) -> None:
        """Phase ``trump`` (``contract.names_trump``): the named suit is trump (event
        ``trump``); then the steps after it (the talon)."""
        naming.apply(deal, action)
        self._event("trump", deal.declarer, None, f"player {deal.declarer} names {deal.trump} trump")
        self._advance(deal, "trump")

    def _apply_contra(self, deal: DealState, action: Action) -> None:
        """Phase ``contra`` (``contract.contra``): once decided (event ``contra`` for a doubled
        contract), the talon (after the auction) or the play."""
        if contra.apply(self.form, deal, action):
            a = deal.around
            assert a is not None
            if a.contra != 1:
                self._event("contra", a.contra_by, a.contra,
                            f"contract {'redoubled' if a.redoubled else 'doubled'}: ×{a.contra}")
            if self._on.contra_after:
                deal.phase = "talon"
                self._advance(deal, "contra.after_auction")
            else:  # (before the play) the play's opening goes on
                deal.phase = "play"
                self._start_play(deal)

    def _apply_play(self, deal: DealState, action: Action) -> None:
        """Phase ``play``, an action other than a card (a card is played by :meth:`apply`
        itself): a marriage declared from the hand, or a claim."""
        if type(action) is DeclareMarriage:
            play.declare_marriage(self._deal_marriages, deal, deal.current, action.suit)
        else:
            assert isinstance(action, Claim)
            play.apply_claim(self.form, deal)

    def incident(self, kind: str, player: int | None = None) -> None:
        """Call the table incident ``kind`` against ``player`` and apply the ruleset's rule for
        it (``deal.incidents``): the offender loses the rule's ``penalty`` (context
        ``deal.incident``), which its ``to`` hands to his opponents (each the whole penalty,
        or equal shares rounded down), then the deal is abandoned and dealt again without a
        score (``effect: redeal``; by the same or the next dealer, ``dealer``, else as
        ``deal.redeal_dealer`` says) or played on (``play_on``).  An incident is a table call,
        not a move: it is never among :meth:`legal_actions`, any active player may be named
        at any point of a deal, and it is kept in :attr:`history` (``incident talon_look 1``)
        so that a record replays it.  Events: ``incident.<kind>`` (player: the offender;
        value: minus the penalty), ``incident.gain`` per player who gains, ``redeal`` for a
        redeal.

        Args:
            kind: ``misdeal``, ``exposed_card``, ``talon_look`` or ``showing_hand``.
            player: the offender (an int: a seat), an active player of the deal; for a rule
                with ``who: dealer``, the dealer (``None`` names him, as a record's ``incident
                misdeal`` without a player does).

        Raises:
            IllegalActionError: ``incident.refused`` — a player that is not an int (``True``,
                ``"1"``), a kind the ruleset does not list, the
                match over, a player who is not active in the deal, or another player than
                the dealer for a rule charging the dealer; the game is left unchanged.
        """
        deal = self.deal
        rule, player = incidents.incident_rule(self.form, deal, kind, player, over=self._over,
                                               hint=self.state_text())
        amount = incidents.penalty(rule.penalty, deal, player, self._env)
        self.history.append(f"incident {kind} {player}")
        deal.actions += 1
        self._pay(deal, player, amount, rule.to, f"incident.{kind}", kind.replace("_", " "))
        if rule.effect == "redeal":
            deal.redeal_caller, deal.redeal_id = player, kind
            deal.redeal_offers = []
            deal.phase = "redealt"
            self._redealt(deal, 0, rule.dealer)
            self.deal = self._new_deal()

    def _refuse_unless_legal(self, action: Action) -> None:
        """Raise ``action.illegal`` unless ``action`` equals one of the legal actions now
        (:meth:`legal_actions`, which keeps that list for the identity fast path)."""
        deal = self.deal
        legal = self.legal_actions()
        if action not in legal:
            if self._revoke is not None and self._revoked(deal, action, legal):
                return
            raise IllegalActionError(
                Diagnostic(
                    "action.illegal",
                    f"`{action}` is not legal for player {deal.current} in the "
                    f"{deal.phase} phase: {self._reason(action)}",
                    hint=self.state_text(),
                )
            )

    def _revoked(self, deal: DealState, action: Action, legal: Sequence[Action]) -> bool:
        """Whether ``action``, not legal, is a revoke to be played (``play.revoke.handling:
        penalise``, :func:`.incidents.revoke_of`).  If so the revoke is noted with its penalty
        (``deal.revokes``, paid by :meth:`_end_deal`; event ``revoke``)."""
        assert self._revoke is not None
        revoke = incidents.revoke_of(self.form, self._revoke, deal, action, legal, self._env)
        if revoke is None:
            return False
        player, card, amount, reason = revoke
        deal.revokes = (*deal.revokes, (player, card, amount))
        self._event("revoke", player, -amount,
                    f"revoke by player {player}: {card} ({reason}), {signed(-amount)} at the deal's end")
        return True

    def _pay(self, deal: DealState, player: int, amount: int, to: str, kind: str, label: str) -> None:
        """``player`` loses ``amount`` (event ``kind``: value minus it) and, by ``to``, his
        opponents gain it (:func:`.incidents.gainers`): ``opponents`` each the whole of it,
        ``opponents_share`` equal shares rounded down (events ``<kind's first part>.gain``);
        both through :meth:`_charge`, so partners keep one score."""
        (_, paid), *gains = incidents.payments(self.form, deal.declarer, deal.order, player, amount, to)
        self._event(kind, player, -paid, f"{label}: player {player} {signed(-paid)}")
        self._charge(player, paid)
        for p, lost in gains:
            self._event(kind.split(".")[0] + ".gain", p, -lost, f"{label}: player {p} {signed(-lost)}")
            self._charge(p, lost)

    def _answer_redeal(self, deal: DealState, action: Action) -> None:
        """``redeal`` abandons the deal (or, for an ``effect: play_on`` condition, charges the
        caller and goes on like ``pass``); ``pass`` declines, and play resumes after the last
        offer (``after_deal``: the golden round, the dark game or the auction)."""
        answers = [isinstance(action, Redeal)]  # (this action answers the first offer only)
        what, player, index = dealing.redeal_decided(
            self.form, None, deal.redeal_offers, lambda p, i: answers.pop() if answers else None,
            lambda p, i: self._called_on(deal, p, i))
        if what == dealing.REDEAL_ASK:
            assert player is not None
            deal.current = player
        elif what == dealing.REDEAL_DEALT:
            deal.redeal_caller, deal.redeal_id = player, self.form.deal.redeals[index].id
            deal.redeal_offers = []
            deal.phase = "redealt"
        else:
            self._resume(deal)

    def _start_play(self, deal: DealState | None = None) -> None:
        """Open the play: the first leader (``play.leader``, :func:`.announcing.first_leader`)
        to act; with marriages announced before the first trick (``marriages.declared_by:
        before_play``), first the phase ``marriages`` for the players holding one, in turn from
        the leader (:func:`.announcing.start`, called only in a form that has them)."""
        deal = self.deal if deal is None else deal
        on = self._on
        if on.play_hooks and self._hooked_play(deal):
            return
        deal.current = announcing.first_leader(on.leader, deal)
        if on.before_play:
            announcing.start(self._deal_marriages, deal)

    def _hooked_play(self, deal: DealState) -> bool:
        """Before the play of a form with a mechanism acting on it (decided once:
        ``Switches.play_hooks``): the play of the deal's named kind (``contract.kinds``); then
        all-pass play opened (``auction.all_pass: play``) or contra before the play
        (``contract.contra``), True when one of these opened (the leader is not chosen now)."""
        if self._kinds:  # (contract.kinds) the play of the deal's kind
            self._play_kind(deal)
        if self.compiled.all_pass is not None and deal.declarer is None:  # all-pass play
            assert self.form.auction.all_pass_play is not None
            all_pass.start(self.form.auction.all_pass_play, deal)
            return True
        if self._on.contra_before_play and contra.opens(self.form, deal):  # contra before the play
            contra.start(self.form, deal)
            return True
        return False

    def _play_kind(self, deal: DealState) -> None:
        """Play the deal as its contract kind says (a form with named kinds only): a named
        kind's own legal plays, play of a card, form and marriage rules
        (:class:`.contracts.KindPlay`; :func:`.contracts.start_play`), else the form's own."""
        kind = self._kinds.get(deal.kind) if deal.kind is not None else None
        if kind is not None:
            contracts.start_play(kind.kind, deal)
        self._point_play(kind)

    def _point_play(self, kind: contracts.KindPlay | None) -> None:
        """Point the play phase at a named kind's legal plays, play of a card, form and
        marriage rules, or (``None``) at the form's own; also done when a pickled game is
        loaded (:meth:`__setstate__`), since these are rebuilt, not pickled."""
        if kind is None:  # the form's own (with all-pass play's dispatch, when it has one)
            legal, apply_card, form = self._on.play_legal, self._on.play_apply, self.form
        else:
            legal, apply_card, form = kind.play_legal, kind.play_apply, kind.form
        self._phases["play"] = replace(self._phases["play"], legal=legal)
        self._play_apply = apply_card
        self._play_form, self._deal_marriages = form, form.marriages

    def _legal_announcements(self, deal: DealState) -> list[Action]:
        """Phase ``marriages``: :func:`.announcing.legal` under the deal's marriage rules."""
        return announcing.legal(self._deal_marriages, deal)

    def _event(self, kind: str, player: int | None = None, value: int | None = None, text: str = "") -> None:
        self.events.append(MatchEvent(len(self.deal_scores), kind, player, value, text))

    def _end_deal(self) -> None:
        """Settle the finished (or forfeited) deal into the match (:func:`settle_deal`), then
        deal the next one unless the match is over."""
        deal = self.deal
        state = start = self._match
        if self._revoke is not None and deal.revokes:  # (play.revoke: penalise) paid first
            revoke = self._revoke
            for player, _, amount in deal.revokes:
                self._pay(deal, player, amount, revoke.to, "revoke.penalty", "revoke")
            state = self._match
        state = dealt_by(state, self._dealer)
        simple = self._settle_simple
        if simple is not None:  # (the one settlement of such a form's deals, the fast path's too)
            new, events = simple(deal, state)
        elif self._on.end_hooks:  # (all-pass play; contract.kinds, contract.contra: decided once)
            new, events = self._hooked_settle(deal, state)
        else:
            # the engine's outcome is valid by construction: settled without validate_outcome
            new, events, deal.made = settle_valid_deal(
                self.form, state, scoring.plain_outcome_of(deal), played=self._score_played,
                team=self._on.team,
            )
        row = tuple(map(sub, new.scores, start.scores))
        deal.scores = dict(enumerate(row))
        self._match = new
        self.events.extend(events)
        self.deal_scores.append(row)
        self.last_deal = deal
        self._passed_run = 0
        if new.winner is not None:
            self._over = True
            return
        self._dealer = new.dealer
        self.deal = self._new_deal()

    def _hooked_settle(self, deal: DealState, state: MatchState) -> tuple[MatchState, list[MatchEvent]]:
        """Settle a deal of a form with all-pass play or a mechanism around the contract
        (``Switches.end_hooks``): a deal without a declarer by :func:`.match.settle_all_pass`
        (the one pipeline, without the declarer's steps), a deal of a named kind with the
        kind's own scores, its outcome with the contract's terms (:func:`.scoring.outcome_of`)."""
        if deal.declarer is None:  # all-pass play: each player scored for what he took
            return settle_all_pass(self.form, state, all_pass.outcome_of(deal))
        played = self._score_played
        kind = deal.kind
        if kind is not None:  # (contract.kinds) the kind's own scores
            played = self._kinds[kind].score_played
        new, events, deal.made = settle_valid_deal(
            self.form, state, scoring.outcome_of(deal), played=played, team=self._on.team
        )
        return new, events

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.id} players={self.players} seed={self.seed} "
            f"phase={self.phase} hand={cards_text(self.deal.hands.get(self.deal.current, []))}>"
        )

    # ------------------------------------------------------------------ copy and pickle

    def clone(self) -> Game:
        """A copy of the game with the same future (also ``copy.copy(game)`` and
        ``copy.deepcopy(game)``): applying the same actions to both gives the same legal
        actions, views, scores, events and history; the random generator's state is copied.

        Cheap (within a few times the cost of a new game, ``benchmarks/clone_speed.py``): the
        ruleset, its forms and their :class:`~.compiled.CompiledForm`, the cards, the match
        state (immutable) and the finished events are shared; the lists, dicts and sets of the
        state, the deals (:class:`~.state.DealState`) and the generator are copied; the
        per-game functions of the phases are bound to the copy.
        """
        new = Game.__new__(Game)
        memo: dict[int, Any] = {id(self): new}
        new.__dict__.update({k: copied(v, memo) for k, v in self.__dict__.items() if k != "_legal_deal"})
        # the fast path's deal: the copy of the deal it names, or none when that deal is gone
        new._legal_deal = memo.get(id(self._legal_deal))
        return new

    def __copy__(self) -> Game:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        new = memo[id(self)] = self.clone()  # (a structure holding the game twice: one copy)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the game: its ruleset by reference (id, or file, with the options in force
        and the content hash: :func:`~.record.record_of`'s header, loaded again by
        :func:`~.record.ruleset_of`), its player count and seed, and its state with every card
        written as its index in the pack.  Loading checks that the ruleset is unchanged
        (``record.hash``) and shares the loaded ruleset's compiled forms.  A ruleset file is
        named by its absolute path, so the game loads again after a change of directory.

        Raises:
            RecordError: ``record.pickle`` for a ruleset loaded from text
                (``load_ruleset(name, text=...)``): nothing could load it again.
        """
        header = replace(record_of(self), actions=(), deals=())
        named = header.ruleset_file
        if named is not None and not os.path.isabs(named):  # (a file is named absolute)
            raise record_error(
                "pickle",
                f"a game of the ruleset `{shorten(header.ruleset)}` loaded from text (as "
                f"`{shorten(named, 120)}`) cannot be pickled: a pickled game names its ruleset "
                "by its file or shipped id, to load it again",
                hint="write the text to a .yaml file and load it with load_ruleset(path)",
            )
        bound = Game._BOUND or frozenset()
        state = {k: v for k, v in self.__dict__.items() if k not in bound}
        memo: dict[int, Any] = {}
        return _unpickled_game, (header,), {k: packed(v, memo) for k, v in state.items()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        memo: dict[int, Any] = {}
        pack = self._deck_cards
        self.__dict__.update({k: unpacked(v, pack, memo) for k, v in state.items()})
        deal = self.deal
        if self._kinds and deal.kind is not None:  # (contract.kinds) the deal's kind's play
            self._point_play(self._kinds.get(deal.kind))


def _unpickled_game(header: Record) -> Game:
    """A game of the pickled game's ruleset (reloaded by reference and checked:
    :func:`~.record.ruleset_of`) and player count, with the attributes a game makes from them
    (:meth:`Game._bind`) and no state yet: :meth:`Game.__setstate__` sets it."""
    game = Game.__new__(Game)
    game._bind(ruleset_of(header), header.players)
    return game
