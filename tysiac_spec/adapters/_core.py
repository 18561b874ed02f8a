"""What the adapters share: the fixed action index of a form, the observation arrays and
their bounds, the episode (a deal or a whole match), the render texts, the checks of their
arguments and the one place a game is copied.

Nothing here states a rule: the legal actions, the views and the scores are the engine's
(:meth:`Game.legal_actions`, :meth:`Game.view`, :attr:`Game.deal_scores`); this module only
numbers and encodes them.  numpy is imported here, so the module is loaded only with one of
the adapters' extras (``[gymnasium]``, ``[pettingzoo]``, ``[openspiel]``) installed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import Card
from ..engine import env as envs
from ..engine.actions import (
    Action,
    Bid,
    Buy,
    CancelDark,
    ChooseTalon,
    Claim,
    Contra,
    Dark,
    DeclareContract,
    DeclareMarriage,
    Discard,
    Forfeit,
    GiveCard,
    NamedBid,
    NameTrump,
    Pass,
    PlayCard,
    Redeal,
    Redouble,
    parse_action,
)
from ..engine.auction import bid_steps, ceiling, round_up
from ..engine.game import Game
from ..engine.state import PHASES, DealState
from ..errors import AdapterError, Diagnostic, TysiacError
from ..ruleset import Form, Ruleset, load_ruleset, registry

__all__ = [
    "ENUMERATIONS",
    "EPISODES",
    "ActionIndex",
    "AdapterError",
    "Episode",
    "ObservationLayout",
    "adapter_error",
    "check_choice",
    "check_render_mode",
    "copy_game",
    "deal_top",
    "load_form",
    "observation_bounds",
    "render_text",
]

EPISODES = ("deal", "match")
"""What one episode is: ``deal`` (from the first deal of a new match until that deal is
settled or abandoned for a redeal) or ``match`` (until a player wins)."""




def adapter_error(code: str, message: str) -> AdapterError:
    """An :class:`AdapterError` with the code ``adapter.<code>``."""
    return AdapterError(Diagnostic(f"adapter.{code}", message))


def load_form(
    ruleset: str | Ruleset, players: int | None, options: Mapping[str, Any] | None = None
) -> tuple[Ruleset, int]:
    """The loaded ruleset (an id, alias, path or a :class:`Ruleset`, with the option values
    ``options``, as ``tysiac play -O``) and its player count (``None``:
    :meth:`Ruleset.default_players`).

    Raises:
        RulesetError, OptionError: as :func:`~tysiac_spec.load_ruleset` and
            :meth:`Ruleset.form` (no form for ``players``).
    """
    if isinstance(ruleset, str):
        rules = load_ruleset(ruleset, options=dict(options or {}))
    elif options:
        rules = load_ruleset(ruleset.file or ruleset.id, options={**ruleset.selected, **options})
    else:
        rules = ruleset
    n = rules.default_players() if players is None else players
    rules.form(n)  # raises option.players for a count the ruleset has no form for
    return rules, n


def deal_top(form: Form, deck_points: int) -> int:
    """The most a deal can be worth (points), read from the data: every card point plus the
    most one player's marriages can give.  Without ``marriages.value`` it is the engine's
    :func:`~tysiac_spec.engine.auction.ceiling` (the suits' ``marriages.values`` summed);
    with the formula (context ``marriage.value``: ``if first then value * 2 else value``) it is
    the formula's largest total over every order of declaring the suits' marriages (each
    term its largest over ``declarer`` and ``sets_trump``, a negative one left out), so a
    ``max_bid`` of ``120 + marriages(hand)`` that the formula lifts above the plain sum (the
    first marriage doubled: 500 in pl-standard) stays inside the index.  The bound of
    unbounded bids and contracts, and the scale of amounts in the observations."""
    plain = ceiling(form, deck_points)
    m = form.marriages
    if m.value is None or not m.values:
        return plain
    active = min(form.active, form.players)
    best = 0
    for order in itertools.permutations(m.values.items()):
        total = 0
        for number, (suit, value) in enumerate(order):
            total += max(0, *(
                int(m.value(envs.marriage_value(value, declarer, number == 0, sets, number, active,
                                                suit, trump)))
                for declarer in (True, False) for sets in (True, False) for trump in (suit, None)
            ))
        best = max(best, total)
    return max(plain, deck_points + best)


@dataclass(frozen=True)
class _Facts:
    """What the enumerations of :data:`ENUMERATIONS` read: the form, the pack's cards, the
    numeric bids and contracts (points) and the player count."""

    form: Form
    rules: Ruleset
    bids: tuple[int, ...]
    contracts: tuple[int, ...]
    players: int


def _amounts(rules: Ruleset, form: Form) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The numeric bids and contracts of a form, ascending (see :class:`ActionIndex`)."""
    sp = form.special
    steps = bid_steps(form)  # (the auction's own statement of its steps, floor and cap)
    top = steps.cap if steps.cap is not None else deal_top(form, rules.deck.total_points)
    bids = {steps.min_bid, *([steps.forced_bid] if steps.forced_bid is not None else [])}
    bids.update(range(round_up(steps.lowest, steps.step), top + 1, steps.step))
    without_auction: set[int | None] = {sp.dark.contract, sp.golden_round.contract, sp.barrel.goal}
    without_auction.update(k.value for k in form.contract.kinds)  # a named kind's fixed contract
    contracts = bids | {x for x in without_auction if x is not None}
    cstep = steps.contract_step
    contracts.update(range(round_up(min(contracts), cstep), max(top, *contracts) + 1, cstep))
    return tuple(sorted(bids)), tuple(sorted(contracts))


ENUMERATIONS: tuple[tuple[type[Action], Callable[[_Facts], Iterable[Action]]], ...] = (
    (Pass, lambda f: [Pass()]),
    (Redeal, lambda f: [Redeal()]),
    (Dark, lambda f: [Dark()]),
    (CancelDark, lambda f: [CancelDark()]),
    (Forfeit, lambda f: [Forfeit()]),
    (Claim, lambda f: [Claim()]),
    (ChooseTalon, lambda f: [ChooseTalon(i) for i in range(max(1, len(f.form.table.talons)))]),
    (Bid, lambda f: [Bid(x) for x in f.bids]),
    (DeclareContract, lambda f: [DeclareContract(x) for x in f.contracts]),
    (DeclareMarriage, lambda f: [DeclareMarriage(s.id) for s in f.rules.deck.suits]),
    (PlayCard, lambda f: [
        *(PlayCard(c) for c in f.rules.deck.cards),
        *(PlayCard(c, marriage=True) for c in f.rules.deck.cards if c.rank.id in f.form.marriages.ranks),
        *(PlayCard(c, aces=True) for c in f.rules.deck.cards
          if c.rank.id == f.form.marriages.ace_marriage.rank),
    ]),
    (Discard, lambda f: [Discard(c) for c in f.rules.deck.cards]),
    (GiveCard, lambda f: [GiveCard(c, p) for c in f.rules.deck.cards for p in range(f.players)]),
    (NamedBid, lambda f: [NamedBid(k.id) for k in f.form.contract.kinds]),
    (Contra, lambda f: [Contra()] if f.form.contract.contra.enabled else []),
    (Redouble, lambda f: [Redouble()] if f.form.contract.contra.enabled and f.form.contract.contra.redouble
     else []),
    (Buy, lambda f: [Buy()] if f.form.talon.rebuy.enabled else []),
    (NameTrump, lambda f: [NameTrump(s) for s in f.form.marriages.values] if f.form.contract.names_trump
     else []),
)
"""Every kind of action a form can produce (each class of :mod:`~tysiac_spec.engine.actions`
but the table incident, :class:`~tysiac_spec.engine.actions.Incident`, never a legal action)
with how to enumerate its actions from the form's data, in the order of the index.  A new
action class gets one line here, at the end (so the numbers of existing forms stay); a test
(``tests/test_adapters.py``) fails while a class of ``engine/actions.py`` has no line."""


class ActionIndex:
    """Every action a form can ever take, numbered once from the ruleset's data
    (:data:`ENUMERATIONS`).

    The index lists, in this order: ``pass``, ``redeal``, ``dark``, ``cancel dark``,
    ``forfeit``, ``claim``; ``talon i`` for each talon of ``table.talons``; ``bid A`` for each
    amount the auction can reach (``auction.min_bid``, ``forced_bid`` and every multiple of
    ``auction.step`` up to ``auction.cap``, or without a cap the most a deal is worth,
    :func:`deal_top`); ``contract A`` for those amounts, the contracts set without an auction
    (``special.dark.contract``, ``golden_round.contract``, ``barrel.goal``, each named kind's
    ``value``) and every multiple of ``contract.step`` in that range; ``marriage S`` for each
    suit; ``play C`` for each card of the pack, ``play C marriage`` for each card of a
    marriage rank (``marriages.ranks``), ``play C aces`` for each card of the ace marriage's
    rank (``marriages.ace_marriage.rank``); ``discard C`` for each card; ``give C to P`` for
    each card and seat; ``bid K`` for each named contract kind (``contract.kinds``), in their
    order.  Table incidents are never legal actions and have no number.

    Attributes:
        actions: the actions by number (``actions[i]``).
        size: ``len(actions)``.

    Raises (:meth:`number`):
        AdapterError: ``adapter.action-outside-index`` for a legal action the index does not
            number (a ruleset whose formulas reach past the amounts above).
    """

    def __init__(self, rules: Ruleset, players: int) -> None:
        form = rules.form(players)
        bids, contracts = _amounts(rules, form)
        facts = _Facts(form, rules, bids, contracts, players)
        actions: list[Action] = [a for _, enumerate_ in ENUMERATIONS for a in enumerate_(facts)]
        self.actions: tuple[Action, ...] = tuple(actions)
        self.size = len(actions)
        self._by_value: dict[Action, int] = {action: i for i, action in enumerate(actions)}
        self._by_id: dict[int, tuple[Action, int]] = {}
        """Number by ``id(action)`` for the engine's shared action objects; each entry keeps
        its object alive, so its id is never reused while the entry stands."""

    def number(self, action: Action) -> int:
        """The number of ``action``.

        Raises:
            AdapterError: ``adapter.action-outside-index`` (see the class).
        """
        known = self._by_id.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        i = self._by_value.get(action)
        if i is None:
            raise adapter_error(
                "action-outside-index",
                f"the legal action `{action}` has no number in the form's action index "
                f"({self.size} actions, enumerated from the ruleset's data)",
            )
        if len(self._by_id) < 8 * self.size:  # (bounded: fresh objects are not kept forever)
            self._by_id[id(action)] = (action, i)
        return i

    def numbers(self, actions: Sequence[Action]) -> list[int]:
        """The numbers of ``actions`` (ascending when the engine lists them in index order;
        callers sort when they need to)."""
        return [self.number(a) for a in actions]


def copy_game(game: Game) -> Game:
    """A copy of ``game`` with an identical future: the one place the adapters copy a game.

    It is :meth:`Game.clone` (the engine's cheap copy: the compiled form shared, the state
    and the random generator copied; about 1.2–1.8 times the cost of a new game, see
    ``benchmarks/clone_speed.py``).
    """
    return game.clone()


@dataclass(frozen=True)
class ObservationLayout:
    """The named parts of a flat observation vector (``float32``); see :meth:`parts`.

    Seats are relative to the observing player: seat 0 is the observer, seat 1 the next
    player in seat number, and so on (``(player - observer) % players``).  Every entry is in
    ``[-1, 1]`` except the amounts and scores, scaled as stated.

    Attributes:
        cards: ``N``, the cards of the pack (``deck.cards``; card ``i`` is column ``i``).
        players: ``P``, players at the table.
        suits: ``S``, suits of the pack.
        scale: points that map to 1.0 for bids and contracts: the most a deal is worth
            (:func:`deal_top`).
        target: points that map to 1.0 for match scores (``match.target``).
        hand_size: cards per hand (``table.hand_size``).
    """

    cards: int
    players: int
    suits: int
    scale: int
    target: int
    hand_size: int

    def parts(self) -> list[tuple[str, tuple[int, ...]]]:
        """``(name, shape)`` in the order they lie in the vector:

        - ``hand`` (N): 1 for each card in the observer's hand.
        - ``trick`` (P, N): the cards of the trick on the table, by the seat that played it.
        - ``played`` (P, N): the cards played to the earlier tricks of this deal, by seat.
        - ``talon`` (N): talon cards the observer sees (:attr:`View.talon`).
        - ``given`` (N): cards the observer saw given in the exchange (:attr:`View.given`).
        - ``stock_card`` (N): the stock's face-up bottom card (``table.stock``).
        - ``trump`` (S + 1): the trump suit, or the last column for none.
        - ``declared`` (P, S): marriages declared, by seat and suit.
        - ``phase`` (len(PHASES)): the phase (:data:`~tysiac_spec.engine.state.PHASES`).
        - ``to_act`` (P): the seat to act.
        - ``dealer`` (P): the dealer's seat.
        - ``declarer`` (P + 1): the declarer's seat, or the last column for none yet.
        - ``amounts`` (2): the high bid and the contract, each divided by ``scale``.
        - ``last_bid`` (P): each seat's last bid divided by ``scale`` (0: none yet).
        - ``passed`` (P): 1 for a seat whose last word in the auction was ``pass``.
        - ``scores`` (P): match scores divided by ``target``.
        - ``hand_sizes`` (P): cards in each hand divided by ``hand_size``.
        - ``tricks`` (P): tricks taken by each seat divided by ``hand_size``.
        - ``stock`` (1): cards left in the stock divided by N.
        """
        n, p, s = self.cards, self.players, self.suits
        return [
            ("hand", (n,)), ("trick", (p, n)), ("played", (p, n)), ("talon", (n,)), ("given", (n,)),
            ("stock_card", (n,)), ("trump", (s + 1,)), ("declared", (p, s)), ("phase", (len(PHASES),)),
            ("to_act", (p,)), ("dealer", (p,)), ("declarer", (p + 1,)), ("amounts", (2,)),
            ("last_bid", (p,)), ("passed", (p,)), ("scores", (p,)), ("hand_sizes", (p,)),
            ("tricks", (p,)), ("stock", (1,)),
        ]

    @cached_property
    def offsets(self) -> dict[str, int]:
        """Where each part begins in the flat vector."""
        out, at = {}, 0
        for name, shape in self.parts():
            out[name] = at
            at += math.prod(shape)
        return out

    @cached_property
    def size(self) -> int:
        """The length of the flat vector."""
        return sum(math.prod(shape) for _, shape in self.parts())

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into ``vector`` (writing to one writes to the vector)."""
        offsets = self.offsets
        return {name: vector[offsets[name]:offsets[name] + math.prod(shape)].reshape(shape)
                for name, shape in self.parts()}


_NUMBERS = ("amounts", "last_bid", "scores", "hand_sizes", "tricks")
"""The parts of the observation that are numbers, not 0/1 flags (bounded by 0 and infinity,
scores by minus infinity too); the rest lie in [0, 1]."""


def observation_bounds(layout: ObservationLayout) -> tuple[np.ndarray, np.ndarray]:
    """The lower and upper bounds of each entry of the observation vector (``float32``,
    shape ``(layout.size,)``): 0 and 1 for the flags, 0 (the scores: minus infinity) and
    infinity for the numbers; the ``Box`` of the Gymnasium and PettingZoo spaces."""
    low = np.zeros(layout.size, np.float32)
    high = np.ones(layout.size, np.float32)
    o = layout.offsets
    for name, shape in layout.parts():
        if name in _NUMBERS:
            size = math.prod(shape)
            low[o[name]:o[name] + size] = -np.inf if name == "scores" else 0
            high[o[name]:o[name] + size] = np.inf
    return low, high


def check_choice(code: str, name: str, value: object, choices: Sequence[object]) -> None:
    """Raise ``adapter.<code>`` unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise adapter_error(code, f"{name} must be one of {', '.join(map(str, choices))} (got {value!r})")


def check_render_mode(mode: str | None, modes: Sequence[str]) -> None:
    """Raise ``adapter.render-mode`` unless ``mode`` is ``None`` or one of ``modes``."""
    if mode is not None:
        check_choice("render-mode", "render_mode", mode, modes)


def _shipped(rules: Ruleset) -> bool:
    """Whether ``rules`` is the shipped ruleset of its id (then a pickle names the id, not the
    file, and loads on another machine)."""
    try:
        return rules.file is not None and registry.find(rules.id).resolve() == Path(rules.file).resolve()
    except TysiacError:
        return False


def _restore(ref: str, options: dict[str, object], players: int, seed: int, kind: str,
             texts: list[str]) -> Episode:
    """An unpickled :class:`Episode` (see :meth:`Episode.__reduce__`)."""
    rules = load_ruleset(ref, options=options)
    episode = Episode(rules, players, seed, kind, ActionIndex(rules, players))
    for text in texts:
        episode.apply(parse_action(text, rules.deck))
    return episode


_PHASE = {name: i for i, name in enumerate(PHASES)}


class Episode:
    """One game driven through the adapters: the game, its action index, the episode's
    actions, and the cards played in earlier tricks of the current deal.

    Args:
        rules, players: the ruleset and player count (:func:`load_form`).
        seed: the game's seed (``Game(..., seed=seed)``: every deal of it, redeals too).
        episode: ``deal`` or ``match`` (:data:`EPISODES`).
        index: the form's :class:`ActionIndex` (shared by the episodes of one environment).

    Raises:
        AdapterError: ``adapter.episode`` for an unknown ``episode``.
    """

    def __init__(self, rules: Ruleset, players: int, seed: int, episode: str, index: ActionIndex) -> None:
        if episode not in EPISODES:
            raise adapter_error("episode", f"episode must be one of {', '.join(EPISODES)} (got {episode!r})")
        self.rules, self.players, self.seed, self.kind, self.index = rules, players, seed, episode, index
        self.game = Game(rules, players=players, seed=seed)
        self.actions: list[Action] = []
        """The actions applied in this episode (the game's whole history)."""
        self.start_scores = tuple(self.game.scores)
        self._first_deal: DealState = self.game.deal
        self._deal: DealState = self.game.deal
        self._played: list[tuple[int, Card]] = []
        self._finished: list[tuple[int, Card]] = []
        """The plays of the last deal that ended (the observation once the episode is over)."""
        self._legal: list[Action] | None = None
        form = rules.form(players)
        self.layout = ObservationLayout(
            cards=len(rules.deck.cards), players=players, suits=len(rules.deck.suits),
            scale=deal_top(form, rules.deck.total_points), target=form.match.target,
            hand_size=form.table.hand_size,
        )
        self._suit = {s.id: i for i, s in enumerate(rules.deck.suits)}

    # ------------------------------------------------------------------ state

    @property
    def over(self) -> bool:
        """Whether the episode has ended: the match is over, or (``deal``) the first deal was
        settled or abandoned (a new deal object is in play)."""
        game = self.game
        return game.is_over or (self.kind == "deal" and game.deal is not self._first_deal)

    def returns(self) -> list[int]:
        """Each player's change of match score since the episode began (points): the settled
        deal's scores, penalties and payments included."""
        return [a - b for a, b in zip(self.game.scores, self.start_scores, strict=True)]

    def legal(self) -> list[Action]:
        """The legal actions now (the engine's list, kept until the next :meth:`apply`)."""
        if self._legal is None:
            self._legal = [] if self.over else self.game.legal_actions()
        return self._legal

    def legal_numbers(self) -> list[int]:
        """The numbers of the legal actions, ascending."""
        return sorted(self.index.numbers(self.legal()))

    def mask(self) -> np.ndarray:
        """The action mask (``int8``, shape ``(index.size,)``): 1 for each legal action."""
        mask = np.zeros(self.index.size, np.int8)
        for i in self.index.numbers(self.legal()):
            mask[i] = 1
        return mask

    def apply_number(self, number: int) -> None:
        """Apply the action numbered ``number`` (it must be legal now).

        Raises:
            AdapterError: ``adapter.illegal`` for a number out of range or not legal now.
        """
        legal = self.legal()
        index = self.index
        for action in legal:
            if index.number(action) == number:
                self.apply(action)
                return
        shown = index.actions[number] if 0 <= number < index.size else "no action"
        raise adapter_error("illegal", f"action {number} ({shown}) is not legal now for player "
                                f"{self.game.current_player} ({self.game.phase} phase)")

    def apply(self, action: Action) -> None:
        """Apply a legal ``action`` (an object of :meth:`legal`, or an equal one)."""
        game = self.game
        if type(action) is PlayCard:
            self._played.append((game.current_player, action.card))
        game.apply(action)
        self.actions.append(action)
        self._legal = None
        if game.deal is not self._deal:
            self._deal, self._finished, self._played = game.deal, self._played, []

    def copy(self) -> Episode:
        """An independent copy with an identical future (:func:`copy_game`)."""
        new = Episode.__new__(Episode)
        new.__dict__.update(self.__dict__)
        new.game = copy_game(self.game)
        new.actions = list(self.actions)
        new._played = list(self._played)
        new._finished = list(self._finished)
        new._legal = None
        # the deal objects of the copy are its own: map the episode's markers onto them
        new._deal = new.game.deal
        ended = self.game.deal is not self._first_deal
        new._first_deal = DealState.__new__(DealState) if ended else new.game.deal
        return new

    def _observe_end(self, player: int, vector: np.ndarray) -> np.ndarray:
        """The observation once the episode is over: the phase ``over``, the cards played in
        the deal that ended (by seat) and the match scores; the rest is zero (the engine
        has dealt the next deal, which belongs to no episode)."""
        layout, o, p = self.layout, self.layout.offsets, self.players
        n = layout.cards
        # a match that ended keeps its last deal (no new one is dealt): its plays are current
        for q, card in self._played if self.game.is_over else self._finished:
            vector[o["played"] + ((q - player) % p) * n + card.index] = 1
        vector[o["phase"] + _PHASE["over"]] = 1
        for q, score in enumerate(self.game.scores):
            vector[o["scores"] + (q - player) % p] = score / layout.target
        return vector

    def __deepcopy__(self, memo: dict[int, object]) -> Episode:
        """:meth:`copy` (the ruleset and the index are shared, never copied)."""
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as the ruleset's reference (its file or id, and the option values), the
        player count, the seed, the kind and the actions' texts; unpickling replays them."""
        rules = self.rules
        ref = rules.id if _shipped(rules) else (rules.file or rules.id)
        texts = [str(a) for a in self.actions]
        return (_restore, (ref, dict(rules.selected), self.players, self.seed, self.kind, texts))

    def played_cards(self) -> list[tuple[int, Card]]:
        """The cards played in this deal so far, in order, with the player of each."""
        return list(self._played)

    # ------------------------------------------------------------------ observation

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``player`` (``float32``, shape ``(layout.size,)``; the parts of
        :meth:`ObservationLayout.parts`), built from :meth:`Game.view` (what the player sees)
        and the cards played to earlier tricks of this deal (public)."""
        layout = self.layout
        vector = np.zeros(layout.size, np.float32) if out is None else out
        if out is not None:
            vector.fill(0)
        o = layout.offsets
        n, p = layout.cards, self.players
        game = self.game
        if self.over:
            return self._observe_end(player, vector)
        view = game.view(player)

        def seat(q: int) -> int:
            return (q - player) % p

        at = o["hand"]
        for card in view.hand:
            vector[at + card.index] = 1
        at = o["trick"]
        in_trick = set()
        for q, card in view.trick:
            vector[at + seat(q) * n + card.index] = 1
            in_trick.add(card.index)
        at = o["played"]
        for q, card in self._played:
            if card.index not in in_trick:
                vector[at + seat(q) * n + card.index] = 1
        at = o["talon"]
        for card in view.talon:
            vector[at + card.index] = 1
        at = o["given"]
        for _, card in view.given:
            vector[at + card.index] = 1
        if view.stock_card is not None:
            vector[o["stock_card"] + view.stock_card.index] = 1
        suit = self._suit
        vector[o["trump"] + (suit[view.trump] if view.trump is not None else layout.suits)] = 1
        at = o["declared"]
        for q, s in view.declared:
            if s in suit:  # (an ace marriage is recorded by its rank, not a suit)
                vector[at + seat(q) * layout.suits + suit[s]] = 1
        vector[o["phase"] + _PHASE.get(view.phase, _PHASE["over"])] = 1
        vector[o["to_act"] + seat(view.current_player)] = 1
        vector[o["dealer"] + seat(view.dealer)] = 1
        vector[o["declarer"] + (seat(view.declarer) if view.declarer is not None else p)] = 1
        at = o["amounts"]
        vector[at] = game.deal.high_bid / layout.scale
        vector[at + 1] = view.contract / layout.scale
        last, passed = o["last_bid"], o["passed"]
        for q, text in view.bids:
            word, _, amount = text.partition(" ")
            if word == "bid" and amount.isdigit():
                vector[last + seat(q)] = int(amount) / layout.scale
                vector[passed + seat(q)] = 0
            elif word == "pass":
                vector[passed + seat(q)] = 1
        at = o["scores"]
        for q, score in enumerate(view.scores):
            vector[at + seat(q)] = score / layout.target
        at = o["hand_sizes"]
        for q, k in view.hand_sizes:
            vector[at + seat(q)] = k / layout.hand_size
        at = o["tricks"]
        for q, k in view.tricks:
            vector[at + seat(q)] = k / layout.hand_size
        vector[o["stock"]] = view.stock / n
        return vector


def render_text(mode: str | None, episode: Episode, seat: int) -> str | None:
    """The text of a render mode: ``ansi``, ``seat``'s view (:func:`tysiac_spec.table.view_lines`,
    the legal cards shown when ``seat`` is to act; once the episode is over, each seat's
    return and the match scores); ``ansi_omniscient``, :meth:`Game.state_text` (every hand);
    ``None`` for no mode."""
    game = episode.game
    if mode == "ansi":
        from ..table import view_lines

        if episode.over:
            returns = "  ".join(f"P{p} {r:+d}" for p, r in enumerate(episode.returns()))
            scores = "  ".join(f"P{p} {s}" for p, s in enumerate(game.scores))
            return "\n".join([f"P{seat}'s view", f"the episode is over: {returns}", f"scores: {scores}"])
        legal = episode.legal() if game.current_player == seat else []
        lines = view_lines(game.view(seat), game.ruleset.deck, legal)
        return "\n".join([f"P{seat}'s view", *lines])
    if mode == "ansi_omniscient":
        text: str = game.state_text()
        return text
    return None
