"""An OpenSpiel Python game of any ruleset and player count (needs the ``[openspiel]`` extra, or ``[rl]``).

Importing this module registers ``python_tysiac`` with ``pyspiel``::

    import pyspiel
    import tysiac_spec.adapters.openspiel  # registers the game
    game = pyspiel.load_game("python_tysiac", {"ruleset": "ru-classic", "players": 4})

Parameters: ``ruleset`` (a shipped id or alias, or a path; default ``pl-standard``),
``players`` (default 3; 0: the ruleset's default count), ``options`` (the ruleset's option
values, ``"five_rounds:up;barrel:false"``, or with ``=`` and ``,`` in a parameter dict;
default none), ``seeds`` (default 0: a 64-bit seed, see below; ``N > 0``: one of ``N``).

Game strings: the game keeps its options as ``NAME:VALUE`` items separated by ``;`` (the
characters ``=``, ``,``, ``(`` and ``)`` end a value in OpenSpiel's game strings), so
``pyspiel.load_game(str(game))``, ``serialize_game_and_state`` and pickling (the game and
its states) round-trip with options::

    python_tysiac(options=five_rounds:up,players=3,ruleset=pl-standard,seeds=0)

One game is one deal: the first deal of a new match, from the deal to its settlement (or
its abandonment for a redeal).  The chance nodes at the root draw the deal's seed, and the
cards are dealt by the engine's own seeded dealing (``Game(rules, players=, seed=)``), so a
history (the seed's draws, then the players' actions) replays exactly, and serializing a
state is its history.  With ``seeds`` 0 the seed is drawn as :data:`SEED_BYTES` (8) chance
nodes of 256 equally likely outcomes, its bytes (most significant first): 2**64 seeds, far
more than the distinct deals of a pack of 24 (about 10**12 for three players), so deals do
not repeat by the seed's choice and the deal is as random as the engine's shuffle; the
probabilities are 1/256, whose sum is exactly 1.  (The engine deals, redeals included,
from the seed: it stays the one home of dealing, where card-by-card chance nodes would
deal a second time here.)  With ``seeds`` ``N`` one chance node picks the seed ``0 … N − 1``
(a small tree for exhaustive algorithms).  (Where a match opens with a golden round,
``ru-online``, the first deal is a golden one, without an auction: set the option off,
``"options": "golden_round:false"``, to play auctions.)  Every later random event of the
deal (a redeal's new cards) comes from the same seed.

Actions are the numbers of the form's :class:`~tysiac_spec.adapters._core.ActionIndex`
(``state.action_to_string`` prints the engine's text: ``bid 120``).  Returns: each player's
change of match score over the deal at the end, in units of the pack's card points
(:func:`utility_scale`, 120 in every shipped ruleset: in ``pl-standard`` a made contract
of 120 is ``+1.0`` to the declarer, a failed one ``-1.0``); the game is general-sum, its
utility bounds are ``±`` :func:`utility_bound` (in the same units).  ``max_game_length``
is :func:`max_deal_length`.

Search: :meth:`TysiacState.resample_from_infostate` gives OpenSpiel's Python ``ISMCTSBot``
its worlds (use the Python ``MCTSBot`` and ``ISMCTSBot``: the C++ ones crash on Python
games in open-spiel 2.0.2).

Tensors (``float32``):
    observation: the flat vector of :class:`~tysiac_spec.adapters._core.ObservationLayout`
        (what the player sees now; seats relative to the player).
    information state: the observation, then what the player remembers of the deal
        (perfect recall): ``start_hand`` (N: his cards when the deal began, once he has looked
        at them: not while he decides on a dark game unseen), ``discarded``
        (N: the cards he discarded), ``play_order`` (N: for each card played this deal,
        ``(k + 1) / N`` where ``k`` is its place in the order of play), ``auction`` (A rows of
        P + 1: the auction's words in order, each the speaker's relative seat and the amount
        divided by the layout's scale, 0 for a pass; A is the longest auction the form allows).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from ..engine.actions import Bid, ChooseTalon, Discard
from ..ruleset import Form, Ruleset
from ._core import ActionIndex, Episode, ObservationLayout, adapter_error, deal_top, load_form

__all__ = [
    "GAME_TYPE", "SEED_BYTES", "TysiacGame", "TysiacObserver", "TysiacState", "format_options",
    "max_deal_length", "parse_options", "point_bound", "utility_bound", "utility_scale",
]

_DEFAULTS = {"ruleset": "pl-standard", "players": 3, "options": "", "seeds": 0}

SEED_BYTES = 8
"""The chance nodes that draw a deal's seed (``seeds`` 0), one byte each: a 64-bit seed."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_tysiac",
    long_name="Tysiąc / Thousand (tysiac-spec rulesets)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


_ITEM = re.compile(r"\s*([^=:;,()\s]+)\s*[=:]\s*([^=:;,()]*?)\s*")


def parse_options(text: str) -> dict[str, str]:
    """``"five_rounds:up;barrel:false"`` (the game string's form, :func:`format_options`) or
    ``"five_rounds=up,barrel=false"`` → ``{"five_rounds": "up", "barrel": "false"}`` (the
    values are checked when the ruleset is loaded).

    Raises:
        AdapterError: ``adapter.options`` for an item that is not ``NAME:VALUE`` (or
            ``NAME=VALUE``), a value holding ``=:;,()`` included.
    """
    out: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in re.split(r"[;,]", text))):
        match = _ITEM.fullmatch(item)
        if match is None:
            raise adapter_error(
                "options", f"expected NAME:VALUE items separated by `;` (or NAME=VALUE by `,`), got {item!r}"
            )
        out[match[1]] = match[2]
    return out


def format_options(options: dict[str, str]) -> str:
    """The options as the game string keeps them: ``{"five_rounds": "up"}`` →
    ``"five_rounds:up"`` (items joined by ``;``; the inverse of :func:`parse_options`)."""
    return ";".join(f"{name}:{value}" for name, value in options.items())


def auction_length(form: Form, index: ActionIndex) -> int:
    """The most words an auction of ``form`` can have: every bid of the index once, and each
    player's passes (``1 + auction.reentries``), plus a forced opening."""
    bids = sum(1 for a in index.actions if type(a) is Bid)
    return bids + form.players * (1 + form.auction.reentries) + 1


def max_deal_length(rules: Ruleset, players: int, index: ActionIndex) -> int:
    """An upper bound of the players' actions in one deal of the form (OpenSpiel's
    ``max_game_length``): the redeal offers at each of the three points they are checked, the
    dark-game offers and cancellations, the auction (:func:`auction_length`), the talon, the
    exchange and the contract (each card of the pack once, and a choice each), the marriages
    announced before play (each suit and a pass per player) and the play (each card, each
    marriage declared from the hand, a claim)."""
    form = rules.form(players)
    n, s = len(rules.deck.cards), len(rules.deck.suits)
    return (
        3 * players * len(form.deal.redeals)
        + 2 * players
        + auction_length(form, index)
        + n + 4
        + players * (s + 1)
        + n + s + 1
    )


def utility_scale(rules: Ruleset) -> int:
    """The unit of the returns (points): the pack's card points (``deck.total_points``, 120
    in every shipped ruleset), so a return of ``1.0`` is a deal's card points."""
    return rules.deck.total_points


def point_bound(rules: Ruleset, players: int) -> int:
    """The bound of a player's change of score over one deal (points), ``±`` this value: twice
    the match target plus the most a deal is worth
    (:func:`~tysiac_spec.adapters._core.deal_top`), times the multipliers of the dark game
    and the golden round where the form has them (``special.*.enabled``).  A deal starts a
    new match here, so a score moves from 0 by a deal's value (times its multipliers) and
    the penalties of that deal."""
    form = rules.form(players)
    sp = form.special
    value = 2 * form.match.target + deal_top(form, rules.deck.total_points)
    for special in (sp.dark, sp.golden_round):
        if special.enabled:
            value *= max(1, special.multiplier)
    return value


def utility_bound(rules: Ruleset, players: int) -> float:
    """The bound of a player's return over one deal, ``±`` this value, in the returns' unit:
    :func:`point_bound` divided by :func:`utility_scale` (20.0 for ``pl-standard``; a
    ruleset with a dark game and a golden round, ``ru-online``, 80.07).  It is checked when a
    state's returns are read (:meth:`TysiacState.returns`)."""
    return point_bound(rules, players) / utility_scale(rules)


class TysiacGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one ruleset and player count (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        players = int(given["players"]) or None
        options = parse_options(str(given["options"]))
        self.rules, self.players = load_form(str(given["ruleset"]), players, options)
        self.seeds = int(given["seeds"])
        if self.seeds < 0:
            raise adapter_error("seeds", f"seeds must be 0 (a 64-bit seed) or a count, got {self.seeds}")
        self.outcomes = self.seeds or 256
        """The chance outcomes of each chance node (``seeds``, or 256: a byte of the seed)."""
        self.draws = 1 if self.seeds else SEED_BYTES
        """The chance nodes that draw a deal's seed."""
        self.scale = utility_scale(self.rules)
        self.resample_misses = 0
        """How often :meth:`TysiacState.resample_from_infostate` found no new world."""
        self.index = ActionIndex(self.rules, self.players)
        form = self.rules.form(self.players)
        self.bound = utility_bound(self.rules, self.players)
        self.auction_rows = auction_length(form, self.index)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.index.size,
            max_chance_outcomes=self.outcomes,
            num_players=self.players,
            min_utility=-float(self.bound),
            max_utility=float(self.bound),
            utility_sum=None,
            max_game_length=max_deal_length(self.rules, self.players, self.index),
        )
        params = {**given, "players": self.players, "options": format_options(options), "seeds": self.seeds}
        super().__init__(GAME_TYPE, info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game string (``pyspiel.load_game(str(game))``)."""
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> TysiacState:
        """The root: the first chance node drawing the seed of the deal."""
        return TysiacState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TysiacObserver:
        """An observer: the information state for ``perfect_recall``, else the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported (got {params})")
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TysiacObserver(self, perfect)


class TysiacState(pyspiel.State):  # type: ignore[misc]
    """A state of :class:`TysiacGame`: the chance node, then the engine's game."""

    def __init__(self, game: TysiacGame) -> None:
        super().__init__(game)
        self.draws: list[int] = []
        """The seed's draws so far (the chance actions)."""
        self.episode: Episode | None = None
        self.start_hands: dict[int, tuple[int, ...]] = {}
        self.discarded: dict[int, list[int]] = {}
        self.actors: list[int] = []
        """The player of each action after the chance nodes (``episode.actions``' order)."""
        self._stacked: tuple[dict[int, list[str]], list[list[str]], int] | None = None
        """A deal to stack in place of the seed's (:meth:`resample_from_infostate`)."""

    def _game(self) -> TysiacGame:
        """The game (``get_game()``; not kept in the state, whose attributes a clone copies)."""
        game: TysiacGame = self.get_game()
        return game

    # -- the pyspiel interface

    def current_player(self) -> int:
        if self.episode is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.episode.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.episode.game.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.episode is not None
        if player != self.episode.game.current_player:
            return []
        return self.episode.legal_numbers()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome of the chance node, equally likely (``1 / game.outcomes``)."""
        n = self._game().outcomes
        p = 1.0 / n
        return [(i, p) for i in range(n)]

    def seed(self) -> int:
        """The deal's seed from the draws so far: the one draw (``seeds`` N), or the bytes,
        most significant first."""
        return self.draws[0] if self._game().seeds else int.from_bytes(bytes(self.draws), "big")

    def _apply_action(self, action: int) -> None:
        g = self._game()
        if self.episode is None:
            if not 0 <= action < g.outcomes:
                raise adapter_error("illegal", f"chance outcome {action} is not in 0 … {g.outcomes - 1}")
            self.draws.append(int(action))
            if len(self.draws) < g.draws:
                return
            self.episode = Episode(g.rules, g.players, self.seed(), "deal", g.index)
            if self._stacked is not None:  # a resampled world: its deal, the rest from the seed
                hands, talons, dealer = self._stacked
                self.episode.game.start_deal(hands=hands, talons=talons, dealer=dealer)
                self.episode = _restarted(self.episode)
                self._stacked = None
            deal = self.episode.game.deal
            self.start_hands = {p: tuple(c.index for c in h) for p, h in deal.hands.items()}
            return
        episode = self.episode
        player = episode.game.current_player
        chosen = g.index.actions[action] if 0 <= action < g.index.size else None
        episode.apply_number(int(action))
        self.actors.append(player)
        if type(chosen) is Discard:
            self.discarded.setdefault(player, []).append(chosen.card.index)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._game().seeds:
                return f"deal of seed {action}"
            return f"seed byte {len(self.draws) + 1} of {SEED_BYTES}: {action}"
        return str(self._game().index.actions[action])

    def is_terminal(self) -> bool:
        return self.episode is not None and self.episode.over

    def returns(self) -> list[float]:
        """Each player's change of score over the deal at the end, divided by
        :func:`utility_scale` (the pack's card points), else zeros.

        Raises:
            AdapterError: ``adapter.utility`` for a return outside :func:`utility_bound`.
        """
        if not self.is_terminal():
            return [0.0] * self._game().players
        assert self.episode is not None
        g = self._game()
        values = [v / g.scale for v in self.episode.returns()]
        if any(abs(v) > g.bound for v in values):
            raise adapter_error("utility", f"a deal's returns {values} lie outside the bound ±{g.bound}")
        return values

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> TysiacState:
        """A state with ``player_id``'s information state and the same actions, the cards
        hidden from him dealt again at random (a determinization: OpenSpiel's Python
        ``ISMCTSBot`` calls it; ``probability_sampler()`` in ``[0, 1)`` seeds the draw).

        The cards he holds or held, discarded, played, sees in a talon or saw given keep
        their dealt places; each other card another player gave, discarded or played goes to
        that player's dealt hand, or (the declarer's, or a full hand's) a talon he took;
        the rest go at random to the piles with room, a hand not to a suit its player did
        not follow.  The deal is stacked (:meth:`Game.start_deal`) and the actions replayed
        (the same actions: the identity of a card given or discarded unseen is kept); a
        world in which an action is illegal or his information state differs is drawn
        again, up to 200 times, then the state itself (a clone) is returned
        (:attr:`TysiacGame.resample_misses` counts these: 4 of 1,572 calls over random
        deals of the 21 shipped forms).  Later random events (a redeal) come from a new
        seed.  Forms with a stock or cards left out return a clone.  A world is for search:
        its history (and so its serialization) does not hold its stacked deal.
        """
        g, ep = self._game(), self.episode
        form = g.rules.form(g.players)
        if ep is None or form.table.stock or form.table.left_out:
            return self._clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        key = self.information_state_string(player_id)
        for _ in range(200):
            world = self._world(player_id, rng)
            if world is not None and world.information_state_string(player_id) == key:
                return world
        g.resample_misses += 1
        return self._clone()

    def _clone(self) -> TysiacState:
        """``clone()``, typed."""
        copy: TysiacState = self.clone()
        return copy

    def _world(self, player: int, rng: random.Random) -> TysiacState | None:
        """One draw of :meth:`resample_from_infostate`, or ``None`` for a world in which an
        action is illegal."""
        g, ep = self._game(), self.episode
        assert ep is not None
        deck = g.rules.deck.cards
        first = ep._first_deal
        sizes = list(g.rules.form(g.players).table.talons)
        where: dict[int, tuple[str, int]] = {}  # card index -> ("hand", seat) / ("talon", k)
        at = 0
        for k, size in enumerate(sizes):
            for c in first.dealt_talon[at:at + size]:
                where[c.index] = ("talon", k)
            at += size
        dealt = {q: [i for i in cards if i not in where] for q, cards in self.start_hands.items()}
        for q, cards in dealt.items():  # (a golden round's declarer has the talon from the start)
            for i in cards:
                where[i] = ("hand", q)
        view = ep.game.view(player)
        known: set[int] = set(self.discarded.get(player, ()))
        if view.hand or view.phase != "dark":  # (a hand not looked at yet is unknown)
            known |= set(self.start_hands.get(player, ()))
        known |= {c.index for c in view.hand} | {c.index for c in view.talon}
        known |= {c.index for _, c in view.given}
        plays = ep.played_cards()
        known |= {c.index for q, c in plays if q == player}
        hands: dict[int, list[int]] = {q: [] for q in self.start_hands}
        talons: list[list[int]] = [[] for _ in sizes]
        for i in known & set(where):
            kind, q = where[i]
            (hands[q] if kind == "hand" else talons[q]).append(i)
        room = {q: len(cards) for q, cards in dealt.items()}
        placed = {i for h in hands.values() for i in h} | {i for t in talons for i in t}
        taker = ep.game.deal.declarer
        chosen = [a.index for a in ep.actions if type(a) is ChooseTalon]  # (the talon taken)
        open_talons = [k for k in range(len(sizes)) if not chosen or k in chosen]
        for q, action in zip(self.actors, ep.actions, strict=True):
            # a card given, discarded or played was the actor's: in his dealt hand or (the
            # declarer's) a talon, unless given to him before
            card = getattr(action, "card", None)
            if card is None or card.index in placed or q not in hands:
                continue
            piles = [hands[q]] if len(hands[q]) < room[q] else []
            if q == taker or not piles:  # (a full hand: the card came with a talon)
                piles += [talons[k] for k in open_talons if len(talons[k]) < sizes[k]]
            if piles:
                rng.choice(piles).append(card.index)
                placed.add(card.index)
        rest = [i for i in where if i not in placed]
        void: dict[int, set[object]] = {q: set() for q in hands}  # (who did not follow a suit led)
        for t in range(0, len(plays), len(hands)):
            trick = plays[t:t + len(hands)]
            led = trick[0][1].suit
            void.update({q: void[q] | {led} for q, c in trick[1:] if c.suit != led and q in void})
        rng.shuffle(rest)
        for i in rest:  # each card to a pile with room, not to a hand void in its suit if can be
            piles = [h for q, h in hands.items() if len(h) < room[q]]
            piles += [t for t, size in zip(talons, sizes, strict=True) if len(t) < size]
            fit = [h for q, h in hands.items() if len(h) < room[q] and deck[i].suit not in void[q]]
            fit += [t for t, size in zip(talons, sizes, strict=True) if len(t) < size]
            rng.choice(fit or piles).append(i)
        world = TysiacState(g)
        world._stacked = (
            {q: [str(deck[i]) for i in h] for q, h in hands.items()},
            [[str(deck[i]) for i in t] for t in talons],
            first.dealer,
        )
        try:
            for b in rng.getrandbits(64).to_bytes(8, "big") if not g.seeds else [rng.randrange(g.seeds)]:
                world.apply_action(b)
            for number in (g.index.number(a) for a in ep.actions):
                world.apply_action(number)
        except Exception:  # an action this world does not allow: draw again
            return None
        return world

    def __str__(self) -> str:
        if self.episode is None:
            return f"chance: the deal's seed ({len(self.draws)} of {self._game().draws} draws)"
        return str(self.episode.game.state_text())


def _restarted(episode: Episode) -> Episode:
    """``episode`` after its game's first deal was replaced (:meth:`Game.start_deal`): the
    replacing deal is the episode's first."""
    episode._first_deal = episode._deal = episode.game.deal
    episode._legal = None
    return episode


class TysiacObserver:
    """OpenSpiel's Python observer: ``tensor`` (flat), ``dict`` (named views) and
    :meth:`set_from`, :meth:`string_from` (see the module docstring for the parts)."""

    def __init__(self, game: TysiacGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        rules = game.rules
        form = rules.form(game.players)
        self.layout = ObservationLayout(
            cards=len(rules.deck.cards), players=game.players, suits=len(rules.deck.suits),
            scale=deal_top(form, rules.deck.total_points), target=form.match.target,
            hand_size=form.table.hand_size,
        )
        n, p = self.layout.cards, game.players
        extra = [("start_hand", (n,)), ("discarded", (n,)), ("play_order", (n,)),
                 ("auction", (game.auction_rows, p + 1))] if perfect_recall else []
        self.parts = [*self.layout.parts(), *extra]
        size = sum(int(np.prod(shape)) for _, shape in self.parts)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in self.parts:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + k].reshape(shape)
            at += k

    def set_from(self, state: TysiacState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` sees (and remembers) in ``state``."""
        self.tensor.fill(0)
        episode = state.episode
        if episode is None:
            return
        episode.observe(player, self.tensor[: self.layout.size])
        if not self.perfect_recall:
            return
        d, n, p = self.dict, self.layout.cards, self.game.players
        view = episode.game.view(player)
        if view.hand or view.phase != "dark":  # (a hand not looked at before a dark game: unseen)
            for i in state.start_hands.get(player, ()):
                d["start_hand"][i] = 1
        for i in state.discarded.get(player, ()):
            d["discarded"][i] = 1
        for k, (_, card) in enumerate(episode.played_cards()):
            d["play_order"][card.index] = (k + 1) / n
        rows = d["auction"]
        for k, (q, text) in enumerate(episode.game.deal.bids[: len(rows)]):
            rows[k, (q - player) % p] = 1
            word, _, amount = text.partition(" ")
            if word == "bid" and amount.isdigit():
                rows[k, p] = int(amount) / self.layout.scale

    def string_from(self, state: TysiacState, player: int) -> str:
        """The same information as a string: ``p<player>`` and the non-zero entries of the
        tensor by part (``hand:3,7,12``)."""
        self.set_from(state, player)
        pieces = [f"p{player}"]
        for name, values in self.dict.items():
            flat = values.reshape(-1)
            nz = np.flatnonzero(flat)
            if len(nz):
                pieces.append(name + ":" + ",".join(f"{i}={flat[i]:g}" for i in nz))
        return " ".join(pieces)


pyspiel.register_game(GAME_TYPE, TysiacGame)
