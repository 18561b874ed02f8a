"""A match of Tysiąc under any ruleset: deals from shuffle to score until the target.

The engine reads only the resolved :class:`~tysiac_spec.ruleset.model.Form`; it
never looks at the ruleset's id or name.  All randomness (first dealer, shuffles)
comes from one ``random.Random(seed)`` per game.

A deal: the cards are dealt (:mod:`.dealing`: packets, talon restrictions, the
first dealer by ``first_ace``); redeal conditions after the deal are offered
(phase ``redeal``); then a golden-round deal, a barrel deal without bidding, the
dark-game offer (phase ``dark``) or the auction; the talon, the exchange (with the
redeal checks after the talon and after the exchange, and the forfeit), the
contract and the play.  The match level (:mod:`.match`) settles each deal.

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
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter, sub
from types import CellType, FunctionType, MethodType
from typing import Any

from ..cards import Card
from ..errors import Diagnostic, IllegalActionError, MatchError
from ..ruleset import Ruleset, load_ruleset
from ..ruleset.model import Form
from ..ruleset.model import Incident as IncidentRule
from ..text import shorten
from . import all_pass, auction, contra, contracts, dealing, play, rebuy, scoring, talon
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
from .deal_notation import STOCK_NAME, Deal, dealt_twice, hand_name, talon_name
from .events import MatchEvent
from .match import MatchState, charge_seat, settle_all_pass, settle_valid_deal, winners
from .record import Record, record_error, record_of, ruleset_of
from .seating import direction, redeal_dealer, side_of, sides
from .seating import seating as seating_of
from .state import Around, DealState, cards_text

__all__ = ["Game", "View"]

_INDEX = attrgetter("index")


_PASS = Pass()
"""The ``pass`` of the phase ``marriages`` (one shared object)."""


def _no_actions(deal: DealState) -> list[Action]:
    """No action: the deal is over (or abandoned for a redeal)."""
    return []


@dataclass(frozen=True, slots=True)
class View:
    """What one player sees at the table: own hand, public cards, no hidden card of others.

    ``talon`` holds the taken talon's cards only when they were shown (or to the
    declarer who took them), and before it is taken the talons on the table once turned
    face up (``talon.shown_from``, :func:`.talon.visible_talon`); ``given`` the exchange's
    given cards as ``(receiver, card)`` pairs in the order given, all of them when
    ``talon.give_face_up`` (and to the declarer), else only those this player received
    (:func:`.talon.gifts_seen`);
    ``hand_sizes`` and ``tricks`` are ``(player, n)`` pairs.
    """

    player: int
    phase: str
    current_player: int
    dealer: int
    sitter: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[tuple[int, int], ...]
    talon: tuple[Card, ...]
    given: tuple[tuple[int, Card], ...]
    bids: tuple[tuple[int, str], ...]
    declarer: int | None
    contract: int
    trump: str | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[int, int], ...]
    declared: tuple[tuple[int, str], ...]
    scores: tuple[int, ...]
    stock: int = field(default=0, repr=False)
    """Cards left in the stock (``table.stock``; 0: none)."""
    stock_card: Card | None = field(default=None, repr=False)
    """The stock's face-up bottom card while it lies there, seen by everyone (``None``: no
    stock, or drawn); the other cards of the stock are seen by nobody."""
    kind: str | None = field(default=None, repr=False)
    """The named contract (``contract.kinds``) bid highest in the auction, then the one the
    deal is played as (its id, public as the bids are); ``None``: the numeric contract."""
    open_hand: tuple[Card, ...] = field(default=(), repr=False)
    """The declarer's hand, played face up, seen by everyone: in a deal of a named contract
    kind with ``open_hand`` (``contract.kinds``, :func:`.contracts.open_hand`), from the first
    trick to the end; else empty."""
    contra: int = field(default=1, repr=False)
    """The factor of contra and redouble on the contract (``contract.contra``; 1: none), known
    to everyone."""
    price: int = field(default=0, repr=False)
    """In the phase ``rebuy``, the contract the player to act may buy (``talon.rebuy``)."""


def _points(value: int) -> str:
    """A change of score as written in event texts: ``+50``, ``−10`` (a minus sign)."""
    return f"+{value}" if value >= 0 else f"−{-value}"


class Game:
    """A match: ``Game(rules, players=3, seed=7)``; drive it with :meth:`legal_actions` and
    :meth:`apply` until :attr:`is_over`.

    Args:
        ruleset: a loaded ruleset.
        players: players at the table (one of ``ruleset.player_counts``).
        seed: seed of the game's random generator (shuffles, first dealer).
        options: option values; when given, the ruleset is reloaded with them.

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

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        if options:
            ruleset = load_ruleset(ruleset.file or ruleset.id, options={**ruleset.selected, **options})
        self.ruleset = ruleset
        self.form = ruleset.form(players)
        self.players = players
        self.seed = seed
        self._rng = random.Random(seed)
        self._options = dict(ruleset.selected)
        self._direction = direction(self.form)
        self._seatings: dict[int, tuple[list[int], int | None]] = {}
        self.deal_scores: list[tuple[int, ...]] = []
        """Each finished deal's score changes, by player."""
        self.history: list[str] = []
        """Every applied action, in compact text (``bid 110``), oldest first."""
        self.events: list[MatchEvent] = []
        """What happened beyond the actions (contracts, barrel, bolts, forfeits, …), in order."""
        self.last_deal: DealState | None = None
        """The most recently finished deal (for inspection after it was scored)."""
        self._over = False
        self._active = self.form.active
        self.compiled: CompiledForm = compile_form(self.form, ruleset.deck.cards)
        """The form's compilation, shared by every game of the form (:mod:`.compiled`)."""
        self._table = table = self.compiled.table
        self._play_legal, self._play_apply = self.compiled.play_legal, self.compiled.play_apply
        self._score_played = self.compiled.score_played
        form = self.form
        self._kinds = self.compiled.kinds
        """The named contract kinds compiled (``contract.kinds``, :mod:`.contracts`); empty: none,
        and nothing of them runs (decided once)."""
        self._named = bool(self._kinds)
        """Whether the form has named kinds: an auction action is then applied by
        :func:`.contracts.apply_bid`, else by :func:`.auction.apply` (decided once)."""
        self._play_form, self._deal_marriages = form, form.marriages
        """The form the current deal's play follows and its marriage rules: the form's own, or
        a named kind's (:func:`.contracts.played_form`, set per deal by :meth:`_start_play`)."""
        self._legal_of: dict[str, Callable[[DealState], list[Action]]] = {
            "play": self._play_legal,
            "auction": (
                contracts.compile_legal_auction(form, table, self._env) if self._kinds
                else auction.compile_legal(form, table, self._env)
            ),
            "talon": lambda deal: talon.legal_choice(deal, table),
            "exchange": self.compiled.exchange_legal,
            "contract": lambda deal: talon.legal_contract(form, deal, self._env, table),
            "dark": auction.legal_dark,
            "redeal": lambda deal: [Redeal(), Pass()],
            "marriages": self._legal_announcements,
            "contra": contra.legal,
            "rebuy": rebuy.legal,
            "over": _no_actions,
            "redealt": _no_actions,
        }
        """The legal actions of each phase (:data:`~tysiac_spec.engine.state.PHASES`), as a
        function of the deal (a list not to be changed)."""
        self._legal_deal: DealState | None = None
        """The deal, and its action count, player and phase (the next attributes) when
        :attr:`_legal` was computed by :meth:`legal_actions` (see :meth:`apply`)."""
        self._legal_count = self._legal_current = -1
        self._legal_phase = ""
        self._legal: list[Action] = []
        self._deck_points = ruleset.deck.total_points
        self._deck_cards = ruleset.deck.cards
        self._dealing_plan = dealing.dealing_plan(self.form)
        ace_rank = self.form.marriages.ace_marriage.rank
        self._aces = sum(1 for c in ruleset.deck.cards if c.rank.id == ace_rank)
        shown_from = self.form.talon.shown_from
        self._talon_from_deal = shown_from == "deal"
        self._talon_from_round = shown_from == "second_round"
        self._cuts, self._redeals = self.form.deal.cut.enabled, bool(self.form.deal.redeals)
        """(The switches of the deal and the auction, decided once: ``talon.shown_from``,
        ``deal.cut``, ``deal.redeals``; see :mod:`.compiled` for the pattern.)"""
        self._before_play = self.form.marriages.declared_by == "before_play"
        self._post_auction_rules(form)
        self._leader_rule = self.form.play.leader
        self._team = sides(self.form)
        """The sides of fixed partnerships (:func:`.seating.sides`; ``None``: none)."""
        self._stock, self._stock_trump = self.form.table.stock or 0, self.form.table.stock_trump
        """``table.stock`` (0: no stock) and ``table.stock_trump``, decided once."""
        revoke = self.form.play.revoke
        self._revoke = revoke if revoke.handling == "penalise" else None
        """``play.revoke`` when a revoke is played and punished, else ``None`` (refused)."""
        self._dealer = self._first_dealer()
        self._match = MatchState.new(
            self.form, options=self._options, dealer=self._dealer, deck_points=ruleset.deck.total_points
        )
        self.deal = self._new_deal()

    # ------------------------------------------------------------------ setup

    def _env(self, player: int) -> dict[str, Any]:
        """The formula base of ``player`` (a new dict, :func:`.env.base`): ``player`` (score, counters,
        forfeits, bolts, on_barrel: :meth:`MatchState.player_record`),
        ``players`` (active in a deal) and ``options``."""
        return envs.base(self._match.player_record(player), self._active, self._options)

    def _post_auction_rules(self, form: Form) -> None:
        """The switches of the mechanisms acting around the contract, decided once (see
        :mod:`.compiled`): all-pass play (``auction.all_pass: play``, :mod:`.all_pass`: the play
        of a deal without a declarer dispatched to its own compiled plays, only in a form that
        has it), selling the contract (``talon.rebuy``, :mod:`.rebuy`) and contra
        (``contract.contra``, :mod:`.contra`) after the auction or before the play."""
        self._all_pass = self.compiled.all_pass
        if self._all_pass is not None:
            ap, plain_legal, plain_apply = self._all_pass, self._play_legal, self._play_apply

            def legal(deal: DealState) -> list[Action]:
                return (ap.legal if deal.declarer is None else plain_legal)(deal)

            def apply(deal: DealState, action: PlayCard) -> None:
                (ap.apply if deal.declarer is None else plain_apply)(deal, action)

            self._play_legal = self._legal_of["play"] = legal
            self._play_apply = apply
        c = form.contract.contra
        self._contra_after = c.enabled and c.when == "after_auction"
        self._contra_before_play = c.enabled and c.when == "before_play"
        self._after_auction = self._contra_after or form.talon.rebuy.enabled
        self._around = bool(self._kinds) or c.enabled or form.talon.rebuy.enabled
        """Whether each deal carries an :class:`~.state.Around` (named kinds, contra, selling
        the contract); a form with none of them makes none."""
        self._play_hooks = bool(self._kinds) or self._all_pass is not None or self._contra_before_play
        """Whether :meth:`_hooked_play` runs before the play (named kinds, all-pass play, contra
        before the play), decided once."""
        self._end_hooks = self._around or self._all_pass is not None
        """Whether a finished deal is settled by :meth:`_hooked_settle` (all-pass play, or a deal
        that carries an :class:`~.state.Around`), decided once."""
        self._base_play = (self._play_legal, self._play_apply)
        """The form's own legal plays and play of a card, which a named kind's replace for its
        deal (:meth:`_point_play`)."""

    def _auction_over(self, deal: DealState) -> None:
        """The auction has a declarer (phase ``talon``): the contract offered for sale
        (``talon.rebuy``), then contra after the auction, then the talon."""
        if rebuy.opens(self.form, deal) and rebuy.start(self.form, deal, self._env):
            return
        self._after_rebuy(deal)

    def _after_rebuy(self, deal: DealState) -> None:
        """Contra after the auction (``contract.contra.when: after_auction``), else the talon."""
        if self._contra_after and contra.opens(self.form, deal):
            contra.start(self.form, deal)
            return
        talon.start(self.form, deal, self._env)

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

    @property
    def golden_deal(self) -> bool:
        """Whether the next deal (or the current one, before it is settled) belongs to the
        golden round (``special.golden_round``): ``match.golden_left > 0``."""
        return self._match.golden_left > 0

    def set_match_state(
        self,
        *,
        scores: Sequence[int] | None = None,
        counters: Mapping[str, Sequence[int]] | None = None,
        dealer: int | None = None,
        barrel: Sequence[Any] | None = None,
        forfeits: Sequence[int] | None = None,
        bolts: Sequence[int] | None = None,
        golden: int | None = None,
        falls: Sequence[int] | None = None,
    ) -> None:
        """Set a starting match state (scenarios, tests): lists by player, counters as
        ``{name: [per player]}``, ``barrel`` per player ``true``/``false`` or failed attempts,
        ``golden`` the golden-round deals left (0: no golden round), ``falls`` the falls from
        the barrel counted towards ``barrel.falls_reset``.

        The current deal is restarted with the same cards (with a new dealer: dealt anew),
        so that the auction sees the new state; allowed only before its first action.

        Raises:
            MatchError: ``match.state`` — wrong list lengths, an unknown counter, a dealer
                outside the table, the barrel in a ruleset without one, or the current deal
                already under way.
        """
        new = self._match.with_values(
            self.form,
            scores=scores,
            counters=counters,
            dealer=dealer,
            barrel=barrel,
            forfeits=forfeits,
            bolts=bolts,
            golden=golden,
            falls=falls,
        )
        deal = self.deal if hasattr(self, "deal") else None
        started = deal is not None and deal.actions > 0
        if started and not self._over:
            raise MatchError(
                Diagnostic("match.state", "the match state can only be set before the deal's first action")
            )
        self._match = new
        self._over = new.winner is not None
        if deal is None or self._over:
            return
        if dealer is not None and dealer != self._dealer:
            self._dealer = dealer
            self.deal = self._new_deal()
        else:
            hands = {p: list(h) for p, h in deal.hands.items()}
            self.deal = self._new_deal(hands, [list(t) for t in deal.talons], list(deal.stock))

    def _seating(self, dealer: int) -> tuple[list[int], int | None]:
        """The active players in bidding order and the sitter, for ``dealer`` (a new list;
        :func:`~tysiac_spec.engine.seating.seating`, kept per dealer)."""
        seating = self._seatings.get(dealer)
        if seating is None:
            seating = self._seatings[dealer] = seating_of(self.form, dealer)
        return list(seating[0]), seating[1]

    def _first_dealer(self) -> int:
        """The first dealer (``deal.first_dealer``): by lot, or whoever gets the first ace
        (``deal.first_dealer_rank``) of the seeded pack turned card by card (S002)."""
        if self.form.deal.first_dealer == "first_ace":
            cards = list(self.ruleset.deck.cards)
            dealing.shuffle(cards, self._rng)
            rank = self.form.deal.first_dealer_rank
            return dealing.first_ace_dealer(cards, self.players, self._direction, rank)
        return self._rng.randrange(self.players)

    _MAX_REDEALS = 100
    """Automatic redeals in a row after which a deal is played anyway (a ruleset whose
    mandatory condition always holds would otherwise never deal a playable hand)."""

    def _new_deal(
        self,
        hands: Mapping[int, Sequence[Card]] | None = None,
        talons: Sequence[Sequence[Card]] | None = None,
        stock: Sequence[Card] = (),
    ) -> DealState:
        """Deal (or stack) a new deal by the current dealer and open it: the redeal checks
        after the deal, then a golden-round deal, the dark-game offer or the auction.  A
        mandatory redeal deals again at once (event ``redeal``)."""
        deal = self._dealt(hands, talons, stock)
        for _ in range(self._MAX_REDEALS):
            if deal.phase != "redealt" or self._plays_on(deal):
                break
            self._redealt(deal)
            deal = self._dealt(None, None, ())
        else:
            deal.phase = "auction"
        return deal

    def _dealt(
        self,
        hands: Mapping[int, Sequence[Card]] | None,
        talons: Sequence[Sequence[Card]] | None,
        stock: Sequence[Card],
    ) -> DealState:
        order, sitter = self._seating(self._dealer)
        if hands is None or talons is None:
            cards = list(self._deck_cards)
            dealing.shuffle(cards, self._rng)
            if self._cuts:
                self._cut(cards)
            plan = self._dealing_plan
            if plan is not None and len(order) == self.form.active:
                hands, talons = plan.deal(cards, order)
            else:
                hands, talons = dealing.deal_cards(self.form, cards, order, self._rng)
            if self._stock:  # the cards after the hands and talons
                stock = cards[len(cards) - self._stock :]
        deal = DealState(
            dealer=self._dealer,
            order=order,
            sitter=sitter,
            hands={p: sorted(hands[p], key=_INDEX) for p in order},
            talons=[list(t) for t in talons],
            dealt_talon=tuple([c for t in talons for c in t]),
            deck_points=self._deck_points,
            aces=self._aces,
            talon_public=self._talon_from_deal,
        )
        if self._around:  # (contract.kinds, contract.contra, talon.rebuy)
            deal.around = Around()
        if stock:
            deal.stock = list(stock)
            if self._stock_trump:
                deal.trump = stock[-1].suit_id
        auction.start(self.form, deal, self._env, self._direction)
        if not (self._redeals and dealing.redeal_point(self.form, deal, self._env, "after_deal")):
            self._open(deal)
        return deal

    def _open(self, deal: DealState) -> None:
        """After the deal: a golden-round deal (while the match's golden round is on), else a
        barrel deal without bidding (the first active player on the barrel, in bidding
        order, takes the talon), else the dark-game offer (``special.dark``), else the
        auction as started."""
        form, barrel = self.form, self._match.barrel
        if self._match.golden_left > 0 and form.special.golden_round.enabled:
            auction.start_golden(form, deal)
            if form.special.golden_round.dark_allowed and auction.start_dark(form, deal, self._env):
                return
        elif form.special.barrel.enabled and form.special.barrel.bidding == "none" and any(
            s.on for s in barrel
        ):
            on = [p for p in deal.order if barrel[p].on]
            if not on:
                auction.start_dark(form, deal, self._env)
                return
            auction.start_barrel(form, deal, on[0])
        else:
            auction.start_dark(form, deal, self._env)
            return
        talon.start(form, deal, self._env)
        if deal.phase == "play":
            self._start_play(deal)

    def _redealt(self, deal: DealState, penalty: int | None = None, dealer: str | None = None) -> None:
        """Record an abandoned deal (event ``redeal``), charge the caller's penalty (that of
        the redeal condition ``deal.redeal_id``, unless ``penalty`` is given) and pass the deal
        on when ``dealer`` (``same``/``next``), else ``deal.redeal_dealer``, says so."""
        caller = deal.redeal_caller
        if penalty is None:
            penalty = 0
            for r in self.form.deal.redeals:
                if r.id == deal.redeal_id:
                    penalty = r.penalty
        charged = bool(penalty) and caller is not None
        text = f"{deal.redeal_id}: dealt again"
        if charged:
            text += f", player {caller} {_points(-penalty)}"
        self._event("redeal", caller, -penalty if charged else None, text)
        if charged:
            assert caller is not None
            self._charge(caller, penalty)
        self._dealer = redeal_dealer(self.form, deal.dealer, dealer)

    def _cut(self, cards: list[Card]) -> None:
        """Cut the shuffled pack (:func:`~tysiac_spec.engine.dealing.cut_pack`): an event
        ``cut.bad`` per bad cut, and ``cut.penalty`` (value: minus the penalty) charged to
        ``deal.cut.payer`` for the penalised one."""
        cut = self.form.deal.cut
        bad, penalised = dealing.cut_pack(self.form, cards, self._rng, self._dealer)
        for cutter, card in bad:
            self._event("cut.bad", cutter, None, f"bad cut by player {cutter}: {card} at the bottom")
        if penalised:
            payer = bad[-1][0] if cut.payer == "cutter" else self._dealer
            self._event("cut.penalty", payer, -cut.penalty,
                        f"bad cut {len(bad)} in a row: player {payer} {_points(-cut.penalty)}")
            self._charge(payer, cut.penalty)

    def _charge(self, player: int, penalty: int) -> None:
        """Take ``penalty`` points off ``player``'s match score (a negative one adds); with
        fixed partnerships his side pays (:func:`~tysiac_spec.engine.match.charge_seat`, the
        one home of every per-seat payment outside a deal's settlement)."""
        self._match = charge_seat(self.form, self._match, player, penalty)

    def _called_on(self, deal: DealState, player: int, index: int) -> None:
        """``player`` called the ``effect: play_on`` condition ``index``: charge its penalty
        (event ``redeal.play_on``; value: the points he gains, negative for a loss)."""
        r = self.form.deal.redeals[index]
        text = f"{r.id}: played on" + (f", player {player} {_points(-r.penalty)}" if r.penalty else "")
        self._event("redeal.play_on", player, -r.penalty if r.penalty else None, text)
        if r.penalty:
            self._charge(player, r.penalty)

    def _plays_on(self, deal: DealState) -> bool:
        """For a mandatory condition with ``effect: play_on`` (``deal.phase`` ``redealt``):
        charge the caller and resume the deal where it was checked; False for a redeal."""
        for index, r in enumerate(self.form.deal.redeals):
            if r.id == deal.redeal_id and r.effect == "play_on":
                assert deal.redeal_caller is not None
                self._called_on(deal, deal.redeal_caller, index)
                deal.redeal_caller, deal.redeal_id = None, ""
                self._resume(deal)
                return True
        return False

    def _resume(self, deal: DealState) -> None:
        """Play on after the redeal checks of ``deal.resume_phase`` (``after_deal``: the golden
        round, the dark game or the auction; later: where the talon step stopped)."""
        if deal.resume_phase == "after_deal":
            deal.phase, deal.current = "auction", deal.resume_current
            self._open(deal)
        else:
            talon.resume(self.form, deal, self._env)

    def start_deal(
        self,
        deal: Deal | str | None = None,
        *,
        hands: Mapping[int, str | Sequence[str]] | None = None,
        talons: Sequence[str | Sequence[str]] = (),
        dealer: int = 0,
        stock: str | Sequence[str] = (),
    ) -> None:
        """Replace the current deal by a stacked one (tests, scenarios, ``tysiac play --deal``):
        ``hands`` by player, ``talons`` in order, and the ``stock`` (``table.stock``) from its
        top to its face-up bottom card, cards in notation (``"QH KH 9S"``); or the whole deal
        as a :class:`~.deal_notation.Deal` or its one-line text (``"0:AS KS … | 9C TC JC"``),
        in place of the keywords.

        The deal is kept (:attr:`stacked_deals`) with the number of actions applied before
        it, so that the game's :attr:`record` replays it exactly.

        Raises:
            NotationError: a card that is not in the deck; ``notation.deal`` for a deal text
                that is not deal notation (with its column).
            IllegalActionError: ``deal.stack`` — wrong hand or talon sizes, a repeated or
                missing card, or a hand for a player who does not take part.
        """
        deck = self.ruleset.deck
        if deal is not None:
            if hands is not None or talons or stock or dealer:
                raise IllegalActionError(Diagnostic(
                    "deal.stack", "stacked deal: give the deal or its hands and talons, not both"))
            written = deal if isinstance(deal, Deal) else Deal.parse(deal, deck)
            if len(written.hands) != self.players:
                raise IllegalActionError(Diagnostic(
                    "deal.stack", f"stacked deal: the deal gives {len(written.hands)} hand(s) for a "
                    f"{self.players}-player game (one per seat, `-` for a seat dealt none)"))
            args = written.start_args(deck)
            hands, talons, dealer, stock = (
                args["hands"], args["talons"], args["dealer"], args["stock"])  # type: ignore[assignment]
            if not 0 <= dealer < self.players:
                raise IllegalActionError(Diagnostic(
                    "deal.stack", f"stacked deal: dealer {dealer} is not a seat (0 to {self.players - 1})"))
        if hands is None:
            raise IllegalActionError(Diagnostic("deal.stack", "stacked deal: no hands given"))
        self._dealer = dealer % self.players
        order, _ = self._seating(self._dealer)
        parsed = {p: list(deck.parse_many(h)) for p, h in hands.items()}
        tparsed = [list(deck.parse_many(t)) for t in talons]
        sparsed = list(deck.parse_many(stock))
        every = [c for h in parsed.values() for c in h] + [c for t in tparsed for c in t] + sparsed
        problem = ""
        if sorted(parsed) != sorted(order):
            problem = f"hands must be given for players {sorted(order)} (got {sorted(parsed)})"
        elif any(len(h) != self.form.table.hand_size for h in parsed.values()):
            problem = f"each hand must hold {self.form.table.hand_size} cards"
        elif [len(t) for t in tparsed] != list(self.form.table.talons):
            problem = f"talon sizes must be {list(self.form.table.talons)}"
        elif len(sparsed) != (self.form.table.stock or 0):
            problem = f"the stock must hold {self.form.table.stock or 0} cards"
        elif twice := next(dealt_twice([
                *((hand_name(p), h) for p, h in sorted(parsed.items())),
                *((talon_name(k), t) for k, t in enumerate(tparsed)), (STOCK_NAME, sparsed)]), None):
            problem = twice[2]
        elif len(set(every)) != len(deck.cards) - self.form.table.left_out:
            problem = f"the deal must hold each of the {len(deck.cards)} cards once"
            if self.form.table.left_out:
                problem = (f"the deal must hold {len(deck.cards) - self.form.table.left_out} different "
                           f"cards ({self.form.table.left_out} of the {len(deck.cards)} are left out)")
        if problem:
            raise IllegalActionError(Diagnostic("deal.stack", f"stacked deal: {problem}"))
        written = Deal.of(self._dealer, parsed, tparsed, sparsed, players=self.players)
        self.stacked_deals = (*self.stacked_deals, (len(self.history), written))
        self._over = False
        self.deal = self._new_deal(parsed, tparsed, sparsed)

    # ------------------------------------------------------------------ queries

    @property
    def record(self) -> Record:
        """The game as data (:class:`~tysiac_spec.engine.record.Record`): ruleset, options,
        players, seed and every action so far;
        ``tysiac_spec.engine.replay.replay(game.record)`` rebuilds the game."""
        return record_of(self)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (someone reached ``match.target``)."""
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
            legal_of = self._legal_of[phase]
        except KeyError:  # a phase set by hand (tests): nothing to do
            legal_of = _no_actions
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
        other hands, hidden talons and cards given face down to others hidden."""
        d = self.deal
        hands, tricks, order = d.hands, d.tricks, d.order
        unseen = d.phase == "dark" and self._hand_unseen(player)
        view = View(
            player=player,
            phase="over" if self._over else d.phase,
            current_player=d.current,
            dealer=d.dealer,
            sitter=d.sitter,
            hand=() if unseen else tuple(hands.get(player, ())),
            hand_sizes=tuple([(p, len(hands[p])) for p in order]),
            talon=talon.visible_talon(d, player),
            given=talon.gifts_seen(self.form, d, player),
            bids=tuple(d.bids),
            declarer=d.declarer,
            contract=d.contract,
            trump=d.trump,
            trick=tuple(d.trick),
            tricks=tuple([(p, tricks.get(p, 0)) for p in order]),
            declared=tuple(d.declared),
            scores=self._match.scores,
        )
        if d.stock:  # (table.stock) the stock's size and its face-up bottom card
            view = replace(view, stock=len(d.stock), stock_card=d.stock[-1])
        a = d.around
        if a is not None:  # (contract.kinds, contract.contra, talon.rebuy) known to everyone
            if a.kind is not None:  # the kind bid, a hand face up
                view = replace(view, kind=a.kind, open_hand=contracts.open_hand(self.form, d))
            if a.contra != 1 or a.rebuy_price:
                view = replace(view, contra=a.contra, price=a.rebuy_price)
        return view

    def public_view(self) -> View:
        """What a watcher who sits at no seat sees: the public cards only (no hand; the talon
        only when turned face up; given cards only when given face up), the bids, the trick,
        the tricks taken and the scores.  ``player`` is ``-1``."""
        return self.view(-1)

    def _hand_unseen(self, player: int) -> bool:
        """Whether ``player`` has not looked at his hand yet: still to decide on a dark game
        declared before seeing it (``special.dark.sees_own_hand`` false)."""
        d = self.deal
        return d.phase == "dark" and player in d.dark_undecided and not self.form.special.dark.sees_own_hand

    # ------------------------------------------------------------------ acting

    def _reason(self, action: Action) -> str:
        deal, phase = self.deal, self.deal.phase
        if phase == "redeal":
            return "call a redeal (`redeal`) or play on (`pass`)"
        if phase == "dark":
            return auction.explain_dark(deal, action)
        if phase == "marriages":
            return "announce a marriage held (`marriage SUIT`) or `pass`"
        if phase == "auction":
            if self._kinds or type(action) is NamedBid:  # (named bids: contract.kinds)
                return contracts.explain_bid(self.form, deal, action, self._env) or auction.explain(
                    self.form, deal, action, self._env
                )
            return auction.explain(self.form, deal, action, self._env)
        if phase in ("talon", "exchange", "contract"):
            return talon.explain(self.form, deal, action, self._env)
        if phase == "play" and deal.declarer is None and self._all_pass is not None:
            if type(action) is DeclareMarriage or type(action) is Claim or (
                type(action) is PlayCard and action.declares
            ):
                return "a deal everyone passed is played out without marriages or a claim (all-pass play)"
        if phase == "contra":
            return contra.explain(self.form, deal, action)
        if phase == "rebuy":
            return rebuy.explain(deal)
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
        phase, text = deal.phase, action.text
        self.history.append(text)
        form = self.form
        if isinstance(action, Forfeit):
            talon.apply_forfeit(deal)
        elif phase == "redeal":
            self._answer_redeal(deal, action)
        elif phase in ("auction", "dark"):
            if phase == "auction":
                if self._named:  # (contract.kinds) named bids beside the numeric ones
                    contracts.apply_bid(form, deal, action, text)
                else:
                    auction.apply(form, deal, action, text)
                if self._talon_from_round:
                    talon.reveal_in_auction(deal)
            else:
                auction.apply_dark(form, deal, action)
            if deal.phase == "talon":
                if self._after_auction and phase == "auction":
                    self._auction_over(deal)
                else:
                    talon.start(form, deal, self._env)
        elif phase == "talon":
            assert isinstance(action, ChooseTalon)
            talon.apply_choice(form, deal, action, self._env)
        elif phase == "exchange":
            talon.apply_exchange(form, deal, action, self._env)
        elif phase == "contract":
            assert isinstance(action, DeclareContract)
            talon.apply_contract(deal, action)
        elif phase == "marriages":
            self._announced(deal, action)  # (opens the play itself: nothing else to do)
            return
        elif phase == "rebuy":
            if rebuy.apply(form, deal, action, self._env):
                assert deal.around is not None
                if deal.around.sold_by is not None:
                    self._event("rebuy", deal.declarer, deal.high_bid,
                                f"player {deal.declarer} buys the contract at {deal.high_bid} "
                                f"from player {deal.around.sold_by}")
                self._after_rebuy(deal)
        elif phase == "contra":
            if contra.apply(form, deal, action):
                a = deal.around
                assert a is not None
                if a.contra != 1:
                    self._event("contra", a.contra_by, a.contra,
                                f"contract {'redoubled' if a.redoubled else 'doubled'}: ×{a.contra}")
                if self._contra_after:
                    deal.phase = "talon"
                    talon.start(form, deal, self._env)
                else:
                    deal.phase = "play"
        elif type(action) is DeclareMarriage:  # the play phase: a marriage from the hand
            play.declare_marriage(self._deal_marriages, deal, deal.current, action.suit)
        else:  # the play phase: a claim (a card is played above)
            assert isinstance(action, Claim)
            play.apply_claim(form, deal)
        if deal.phase == "play" and phase != "play":
            self._start_play(deal)
        elif deal.phase == "redealt":
            if self._plays_on(deal):
                if deal.phase == "play":
                    self._start_play(deal)
            else:
                self._redealt(deal)
                self.deal = self._new_deal()
        elif deal.phase == "over":
            self._end_deal()

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
        deal, form = self.deal, self.form
        rules: dict[str, IncidentRule] = {r.kind: r for r in form.deal.incidents}
        rule = rules.get(kind)
        problem = ""
        if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
            raise IllegalActionError(Diagnostic(
                "incident.refused",
                f"`incident {kind}` cannot be called: the player must be a seat number, an int "
                f"(got {type(player).__name__} {player!r})",
            ))
        if self._over:
            problem = "the match is over"
        elif rule is None:
            listed = ", ".join(f"`{k}`" for k in rules) or "none"
            problem = f"the ruleset has no rule for it (`deal.incidents` lists {listed})"
        elif rule.who == "dealer":
            if player is None:
                player = deal.dealer
            elif player != deal.dealer:
                problem = f"it is charged to the dealer, player {deal.dealer} (`who: dealer`)"
        elif player is None:
            problem = "name the player who committed it"
        if not problem and player not in deal.order:
            problem = f"player {player} does not take part in the deal (active: {sorted(deal.order)})"
        if problem or rule is None or player is None:
            raise IllegalActionError(
                Diagnostic(
                    "incident.refused",
                    f"`incident {kind}{'' if player is None else f' {player}'}` cannot be called: {problem}",
                    hint=self.state_text(),
                )
            )
        declarer = deal.declarer
        amount = 0
        if rule.penalty is not None:
            env = envs.deal_incident(
                self._env(player), tuple(deal.hands[player]), deal.high_bid, deal.contract, player == declarer
            )
            amount = rule.penalty(env)
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
        penalise``): the plain play of a card in hand that no legal action plays, in the play
        phase, following a trick (or leading, when ``exempt_lead_rule`` is false).  If so the
        revoke is noted with its penalty (``deal.revokes``, paid by :meth:`_end_deal`; event
        ``revoke``)."""
        revoke = self._revoke
        assert revoke is not None
        if deal.phase != "play" or type(action) is not PlayCard or action.marriage or action.aces:
            return False
        player, card = deal.current, action.card
        if card not in deal.hands[player] or (not deal.trick and revoke.exempt_lead_rule):
            return False
        if any(type(a) is PlayCard and a.card == card for a in legal):
            return False  # the card is legal, as another action (a marriage declared with it)
        amount = 0
        if revoke.penalty is not None:
            env = envs.deal_incident(
                self._env(player), tuple(deal.hands[player]), deal.high_bid, deal.contract,
                player == deal.declarer,
            )
            amount = revoke.penalty(env)
        reason = play.explain(self.form, deal, action)
        deal.revokes = (*deal.revokes, (player, card, amount))
        self._event("revoke", player, -amount,
                    f"revoke by player {player}: {card} ({reason}), {_points(-amount)} at the deal's end")
        return True

    def _pay(self, deal: DealState, player: int, amount: int, to: str, kind: str, label: str) -> None:
        """``player`` loses ``amount`` (event ``kind``: value minus it) and, by ``to``, his
        opponents gain it: ``opponents`` each the whole of it, ``opponents_share`` equal shares
        rounded down (events ``<kind's first part>.gain``); the opponents are the defenders of a
        declarer, the declarer of a defender, every other active player with no declarer yet;
        with fixed partnerships the offender's side pays and each other side gains once (both
        through :meth:`_charge`, so partners keep one score)."""
        self._event(kind, player, -amount, f"{label}: player {player} {_points(-amount)}")
        self._charge(player, amount)
        if to == "none" or not amount:
            return
        declarer = deal.declarer
        if declarer is None or player == declarer:
            gainers = [p for p in deal.order if p != player]
        else:
            gainers = [declarer]
        mine = side_of(self.form, player)
        if len(mine) > 1:  # fixed partnerships: the other sides gain, one seat standing for each
            others = {side_of(self.form, p) for p in deal.order if p not in mine}
            gainers = [team[0] for team in sorted(others)]
        gain = amount if to == "opponents" else amount // len(gainers)
        for p in gainers:
            self._event(kind.split(".")[0] + ".gain", p, gain, f"{label}: player {p} {_points(gain)}")
            self._charge(p, -gain)

    def _answer_redeal(self, deal: DealState, action: Action) -> None:
        """``redeal`` abandons the deal (or, for an ``effect: play_on`` condition, charges the
        caller and goes on like ``pass``); ``pass`` declines, and play resumes after the last
        offer (``after_deal``: the golden round, the dark game or the auction)."""
        player, index = deal.redeal_offers.pop(0)
        if isinstance(action, Redeal):
            if self.form.deal.redeals[index].effect == "play_on":
                self._called_on(deal, player, index)
            else:
                deal.redeal_caller, deal.redeal_id = player, self.form.deal.redeals[index].id
                deal.redeal_offers = []
                deal.phase = "redealt"
                return
        if deal.redeal_offers:
            deal.current = deal.redeal_offers[0][0]
            return
        self._resume(deal)

    def _start_play(self, deal: DealState | None = None) -> None:
        """Open the play: the first leader (``play.leader``, as :meth:`_leader`) to act; with
        marriages announced before the first trick (``marriages.declared_by: before_play``),
        first the phase ``marriages`` for the players holding one, in turn from the leader
        (:meth:`_announcements`, called only in a form that has them)."""
        deal = self.deal if deal is None else deal
        if self._play_hooks and self._hooked_play(deal):
            return
        leader = self._leader_rule  # (the leader's rule inline: once per deal)
        if leader == "forced" and deal.forced is not None:
            deal.current = deal.forced
        elif leader == "dealer_left":
            deal.current = deal.order[0]
        else:
            assert deal.declarer is not None
            deal.current = deal.declarer
        if self._before_play:
            self._announcements(deal)

    def _hooked_play(self, deal: DealState) -> bool:
        """Before the play of a form with a mechanism acting on it (decided once:
        ``_play_hooks``): the play of the deal's named kind (``contract.kinds``); then all-pass
        play opened (``auction.all_pass: play``) or contra before the play (``contract.contra``),
        True when one of these opened (the leader is not chosen now)."""
        if self._kinds:  # (contract.kinds) the play of the deal's kind
            self._play_kind(deal)
        if self._all_pass is not None and deal.declarer is None:  # all-pass play
            assert self.form.auction.all_pass_play is not None
            all_pass.start(self.form.auction.all_pass_play, deal)
            return True
        if self._contra_before_play and contra.opens(self.form, deal):  # contra before the play
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
            (legal, apply_card), form = self._base_play, self.form
        else:
            legal, apply_card, form = kind.play_legal, kind.play_apply, kind.form
        self._legal_of["play"], self._play_apply = legal, apply_card
        self._play_form, self._deal_marriages = form, form.marriages

    def _announcements(self, deal: DealState) -> None:
        """Open the phase ``marriages`` (``marriages.declared_by: before_play``) when a player
        holds a marriage to announce, in turn from the first leader (``deal.current``)."""
        order = deal.order
        i = order.index(deal.current)
        turn = order[i:] + order[:i]
        m = self._deal_marriages
        announcers = tuple([p for p in turn if play.announceable(m, deal, p)])
        if announcers:
            deal.phase, deal.announcers, deal.current = "marriages", announcers, announcers[0]

    def _leader(self, deal: DealState) -> int:
        """The leader of the first trick (``play.leader``)."""
        leader = self._leader_rule
        if leader == "forced" and deal.forced is not None:
            return deal.forced
        if leader == "dealer_left":
            return deal.order[0]
        assert deal.declarer is not None
        return deal.declarer

    def _legal_announcements(self, deal: DealState) -> list[Action]:
        """Phase ``marriages``: the marriages the player to act may announce, then ``pass``."""
        suits = play.announceable(self._deal_marriages, deal, deal.current)
        return [*(DeclareMarriage(s) for s in suits), _PASS]

    def _announced(self, deal: DealState, action: Action) -> None:
        """Phase ``marriages``: a marriage announced (:func:`.play.declare_marriage`), or the
        player done (``pass``, or nothing left to announce): the next announcer, or the play
        from its first leader."""
        player = deal.current
        if isinstance(action, DeclareMarriage):
            play.declare_marriage(self._deal_marriages, deal, player, action.suit)
            if play.announceable(self._deal_marriages, deal, player):
                return
        rest = deal.announcers[1:]
        deal.announcers = rest
        if rest:
            deal.current = rest[0]
        else:
            deal.phase, deal.current = "play", self._leader(deal)

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
        if state.dealer != self._dealer:
            state = replace(state, dealer=self._dealer)
        if self._end_hooks:  # (all-pass play; contract.kinds, contract.contra: decided once)
            new, events = self._hooked_settle(deal, state)
        else:
            # the engine's outcome is valid by construction: settled without validate_outcome
            new, events, deal.made = settle_valid_deal(
                self.form, state, scoring.plain_outcome_of(deal), played=self._score_played, team=self._team
            )
        row = tuple(map(sub, new.scores, start.scores))
        deal.scores = dict(enumerate(row))
        self._match = new
        self.events.extend(events)
        self.deal_scores.append(row)
        self.last_deal = deal
        if new.winner is not None:
            self._over = True
            return
        self._dealer = new.dealer
        self.deal = self._new_deal()

    def _hooked_settle(self, deal: DealState, state: MatchState) -> tuple[MatchState, list[MatchEvent]]:
        """Settle a deal of a form with all-pass play or a mechanism around the contract
        (``_end_hooks``): a deal without a declarer by :func:`.match.settle_all_pass`, a deal of
        a named kind with the kind's own scores, its outcome with the contract's terms
        (:func:`.scoring.outcome_of`)."""
        if deal.declarer is None:  # all-pass play: each player scored for what he took
            return settle_all_pass(self.form, state, all_pass.outcome_of(deal))
        played = self._score_played
        kind = deal.kind
        if kind is not None:  # (contract.kinds) the kind's own scores
            played = self._kinds[kind].score_played
        new, events, deal.made = settle_valid_deal(
            self.form, state, scoring.outcome_of(deal), played=played, team=self._team
        )
        return new, events

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.id} players={self.players} seed={self.seed} "
            f"phase={self.phase} hand={cards_text(self.deal.hands.get(self.deal.current, []))}>"
        )

    # ------------------------------------------------------------------ copy and pickle

    _REBUILT = frozenset({
        "ruleset", "form", "players", "seed", "_options", "_direction", "_seatings", "_active",
        "compiled", "_table", "_play_legal", "_play_apply", "_score_played", "_legal_of",
        "_legal_deal", "_legal_count", "_legal_current", "_legal_phase", "_legal",
        "_deck_points", "_deck_cards", "_dealing_plan", "_aces", "_talon_from_deal",
        "_talon_from_round", "_cuts", "_redeals", "_before_play", "_leader_rule", "_team",
        "_stock", "_stock_trump", "_revoke", "_kinds", "_named", "_play_form",
        "_deal_marriages", "_base_play", "_all_pass", "_contra_after", "_contra_before_play",
        "_after_auction", "_around", "_play_hooks", "_end_hooks",
    })
    """The attributes a game makes from its ruleset, player count and seed (and the caches of
    :meth:`legal_actions`): not pickled, made again when a pickled game is loaded.  Every
    other attribute is the game's state and is pickled (a new attribute is state unless it
    is named here)."""

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
        new.__dict__.update({k: _copied(v, memo) for k, v in self.__dict__.items() if k != "_legal_deal"})
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
        state = {k: v for k, v in self.__dict__.items() if k not in self._REBUILT}
        memo: dict[int, Any] = {}
        return _unpickled_game, (header,), {k: _packed(v, memo) for k, v in state.items()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        memo: dict[int, Any] = {}
        pack = self._deck_cards
        self.__dict__.update({k: _unpacked(v, pack, memo) for k, v in state.items()})
        deal = self.deal
        if self._kinds and deal.kind is not None:  # (contract.kinds) the deal's kind's play
            self._point_play(self._kinds.get(deal.kind))


_DEAL_FIELDS = tuple(f.name for f in fields(DealState))
_CONTAINERS = (list, dict, set)


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    """``value`` as a game's copy holds it (:meth:`Game.clone`): lists, dicts and sets copied
    (their contents too), a :class:`DealState` (with its :class:`~.state.Around`, when it has
    one) and a ``random.Random`` copied (each once:
    ``memo``, by id, keeps the game's own references to one deal one), a function or bound
    method that refers to the game rebound to the copy; anything else (cards, actions,
    tuples, frozen values, the ruleset and its compiled form) shared."""
    kind = type(value)
    if kind is list:
        return [_copied(x, memo) if type(x) in _DEEP else x for x in value]
    if kind is dict:
        return {k: _copied(x, memo) if type(x) in _DEEP else x for k, x in value.items()}
    if kind is set:
        return set(value)
    if kind is DealState:
        made = memo.get(id(value))
        if made is None:
            made = memo[id(value)] = DealState.__new__(DealState)
            deep = _DEEP
            for name in _DEAL_FIELDS:
                x = getattr(value, name)
                setattr(made, name, _copied(x, memo) if type(x) in deep else x)
        return made
    if kind is Around:  # (mutable: each deal's own; its values are immutable)
        return replace(value)
    if kind is random.Random:
        rng = random.Random.__new__(random.Random)  # (not seeded from the system: set below)
        rng.setstate(value.getstate())
        return rng
    if kind is MethodType:
        owner = memo.get(id(value.__self__))
        return value if owner is None else MethodType(value.__func__, owner)
    if kind is FunctionType and value.__closure__:
        return _rebound(value, memo)
    return value


def _rebound(function: FunctionType, memo: dict[int, Any]) -> FunctionType:
    """``function`` with the cells of its closure that hold the game or one of its bound
    methods made to hold the copy's; itself when none does.  (A function held in a cell is
    not looked into: the phase functions of ``Game._legal_of`` hold the game directly,
    and ``tests/test_clone.py`` checks that no part of a copy reaches the original.)"""
    assert function.__closure__ is not None
    cells = []
    changed = False
    for cell in function.__closure__:
        try:
            content = cell.cell_contents
        except ValueError:  # an empty cell
            cells.append(cell)
            continue
        kind = type(content)
        made = content
        if kind is Game:
            made = memo.get(id(content), content)
        elif kind is MethodType:
            made = _copied(content, memo)
        changed = changed or made is not content
        cells.append(CellType(made) if made is not content else cell)
    if not changed:
        return function
    new = FunctionType(function.__code__, function.__globals__, function.__name__,
                       function.__defaults__, tuple(cells))
    new.__kwdefaults__ = function.__kwdefaults__
    new.__dict__.update(function.__dict__)
    return new


_DEEP = frozenset({list, dict, set, DealState, Around, random.Random, MethodType, FunctionType})
"""The types :func:`_copied` copies or rebinds (anything else is shared)."""


class _CardAt(int):
    """A card in a pickled game: its index in the pack (made the pack's own card on load)."""

    __slots__ = ()


class _Cards(bytes):
    """A list (or tuple) of cards only, in a pickled game: the cards' indexes in the pack as
    2-byte words, the first byte telling a list (``L``) from a tuple (``T``)."""

    __slots__ = ()


class _PickledDeal:
    """A :class:`DealState` in a pickled game: its field names (one tuple, shared by every
    deal of the pickle) and their values in that order, cards packed (:func:`_packed`)."""

    __slots__ = ("names", "values")

    def __init__(self, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
        self.names, self.values = names, values

    def __reduce__(self) -> tuple[Any, ...]:
        return _PickledDeal, (self.names, self.values)


class _PickledRandom:
    """A game's ``random.Random`` in a pickled game: its state, the 625 words of the
    generator as 4-byte words (a few times quicker to pickle than a tuple of ints)."""

    __slots__ = ("gauss", "internal", "version")

    def __init__(self, version: int, internal: bytes, gauss: float | None) -> None:
        self.version, self.internal, self.gauss = version, internal, gauss

    def __reduce__(self) -> tuple[Any, ...]:
        return _PickledRandom, (self.version, self.internal, self.gauss)


class _PickledEvent(tuple):  # type: ignore[type-arg]
    """A :class:`MatchEvent` in a pickled game: its fields in order (a tuple pickles without
    the dataclass's own state functions, a few times quicker)."""

    __slots__ = ()


_EVENT_FIELDS = attrgetter(*(f.name for f in fields(MatchEvent)))

_PLAIN = frozenset({str, int, bool, type(None)})
"""Values :func:`_packed` and :func:`_unpacked` leave as they are, without a call."""


def _packed(value: Any, memo: dict[int, Any]) -> Any:
    """``value`` with every card replaced by :class:`_CardAt` and every deal by
    :class:`_PickledDeal` (one per deal: ``memo``), inside lists, tuples, dicts and sets."""
    kind = type(value)
    if kind is Card:
        return _CardAt(value.index)
    plain, at = _PLAIN, _CardAt
    if kind is list or kind is tuple:
        if value and type(value[0]) is Card and all([type(x) is Card for x in value]):
            return _Cards((b"L" if kind is list else b"T") + array("H", [c.index for c in value]).tobytes())
        return kind([x if type(x) in plain else at(x.index) if type(x) is Card else _packed(x, memo)
                     for x in value])
    if kind is dict:
        return {k if type(k) in plain else _packed(k, memo):
                x if type(x) in plain else at(x.index) if type(x) is Card else _packed(x, memo)
                for k, x in value.items()}
    if kind is set or kind is frozenset:
        return kind([x if type(x) in plain else at(x.index) if type(x) is Card else _packed(x, memo)
                     for x in value])
    if kind is MatchEvent:
        return _PickledEvent(_EVENT_FIELDS(value))
    if kind is random.Random:
        version, internal, gauss = value.getstate()
        return _PickledRandom(version, array("I", internal).tobytes(), gauss)
    if kind is DealState:
        made = memo.get(id(value))
        if made is None:
            values = []
            for name in _DEAL_FIELDS:
                x = getattr(value, name)
                values.append(x if type(x) in plain or not x else _packed(x, memo))
                # (an empty list, dict or set is pickled as it is: the pickle copies it)
            made = memo[id(value)] = _PickledDeal(_DEAL_FIELDS, tuple(values))
        return made
    return value


def _unpacked(value: Any, pack: Sequence[Card], memo: dict[int, Any]) -> Any:
    """The inverse of :func:`_packed`: cards are the pack's own objects again."""
    kind = type(value)
    if kind is _CardAt:
        return pack[value]
    plain, at = _PLAIN, _CardAt
    if kind is _Cards:
        cards = [pack[i] for i in array("H", value[1:])]
        return cards if value[:1] == b"L" else tuple(cards)
    if kind is list or kind is tuple:
        return kind([pack[x] if type(x) is at else x if type(x) in plain else _unpacked(x, pack, memo)
                     for x in value])
    if kind is dict:
        return {k if type(k) in plain else _unpacked(k, pack, memo):
                pack[x] if type(x) is at else x if type(x) in plain else _unpacked(x, pack, memo)
                for k, x in value.items()}
    if kind is set or kind is frozenset:
        return kind([pack[x] if type(x) is at else x if type(x) in plain else _unpacked(x, pack, memo)
                     for x in value])
    if kind is _PickledEvent:
        return MatchEvent(*value)
    if kind is _PickledRandom:
        rng = random.Random.__new__(random.Random)
        rng.setstate((value.version, tuple(array("I", value.internal)), value.gauss))
        return rng
    if kind is _PickledDeal:
        made = memo.get(id(value))
        if made is None:
            made = memo[id(value)] = DealState.__new__(DealState)
            for name, x in zip(value.names, value.values, strict=True):
                setattr(made, name, x if type(x) in plain or not x else _unpacked(x, pack, memo))
        return made
    return value


_BLANKS: dict[tuple[int, int], Game] = {}
"""A new game per ruleset object (by id: the game keeps its ruleset alive, so the id is not
reused while it is here) and player count, whose :attr:`Game._REBUILT` attributes a loaded
game copies (:func:`_unpickled_game`); at most :data:`_MAX_BLANKS`, the oldest dropped."""

_MAX_BLANKS = 32


def _unpickled_game(header: Record) -> Game:
    """A game of the pickled game's ruleset (reloaded by reference and checked:
    :func:`~.record.ruleset_of`), player count and seed, with the attributes a game makes
    from them (:attr:`Game._REBUILT`, copied from a new game of that ruleset and player count,
    made once: :data:`_BLANKS`) and no state yet: :meth:`Game.__setstate__` sets it."""
    rules = ruleset_of(header)
    key = (id(rules), header.players)
    blank = _BLANKS.get(key)
    if blank is None or blank.ruleset is not rules:
        if len(_BLANKS) >= _MAX_BLANKS:
            del _BLANKS[next(iter(_BLANKS))]
        blank = _BLANKS[key] = Game(rules, players=header.players, seed=0)
    game = Game.__new__(Game)
    memo: dict[int, Any] = {id(blank): game}
    rebuilt = Game._REBUILT
    game.__dict__.update({k: _copied(v, memo) for k, v in blank.__dict__.items() if k in rebuilt})
    game.seed = header.seed
    game._legal_deal = None
    return game
