"""``strong``: a determinized bot — it draws the hidden cards, solves each world double-dummy,
and plays the card that does best on average.

At each play of a deal with a declarer, once its hand holds no more than ``depth`` cards, the
bot draws ``samples`` worlds consistent with what it has seen (:class:`~.sampler.Memory`:
cards held and seen, cards given, voids shown, marriages declared, a hand played face up),
solves each with the double-dummy solver (:mod:`.solver`: every legal play's exact value of
what the contract depends on), and plays the legal card with the best mean — the highest for
the declarer's side, the lowest for the defenders (the other way round in a kind won by
taking no trick), the number of worlds in which the contract is made deciding first (the
declarer's side still needing the contract less the points it was seen to take).  Ties go
to the first in the engine's order.

Everything else — the auction, the talon, the exchange, the contract, contra, rebuy,
forfeits, a deal without a declarer (all-pass play), a position the solver does not solve
(:func:`~.solver.unsupported_form`), and the plays before ``depth`` — is played by
:class:`~.heuristic.HeuristicBot`, which the bot consults at every turn so that its memory
stays whole.

Budget: ``samples`` worlds per decision (1 to the limit ``bot_samples``); ``ms``, when
given, stops drawing once that many milliseconds have passed (1 to the limit ``bot_ms``;
at least one world is solved).  With ``samples`` alone the same seed gives the same
choices; with ``ms`` the number of worlds depends on the machine.  The bot only ever
returns an element of the legal actions it is given.

Cost (``benchmarks/README.md``): with 5 cards in hand at a 3-player table a world is solved
(every legal play valued) in about 6 ms of CPU (median); a whole deal from the first lead in
about a quarter of a second; with the defaults a deal of pl-standard costs the ``strong`` seat
about 0.1 s of CPU.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from .. import limits
from ..engine.actions import Action, PlayCard
from ..engine.seating import side_of
from ..engine.view import View
from ..errors import Diagnostic, LimitError
from ..ruleset.model import Form
from .heuristic import HeuristicBot
from .sampler import Memory
from .solver import Position, solver_of, unsupported_form

__all__ = ["DEFAULT_DEPTH", "DEFAULT_SAMPLES", "StrongBot"]

DEFAULT_SAMPLES = 8
"""Worlds drawn per decision by default."""

DEFAULT_DEPTH = 5
"""By default the solver plays once the hand holds this many cards or fewer."""


def _refuse(name: str, found: int) -> LimitError:
    if found < 1:
        spec = limits.LIMITS[name]
        text = f"{spec.what}: {found}, expected at least 1 {spec.unit[:-1]}"
        return LimitError(Diagnostic(f"limit.{name}", text))
    return limits.exceeded(name, found)


class StrongBot:
    """The determinized bot (see the module).

    Args:
        seed: seed of its own generator (the worlds drawn; the heuristic's ties).
        form: the rules it plays (``game.form``).
        samples: worlds per decision.
        ms: milliseconds per decision at most (``None``: no time bound).
        depth: the solver plays from this many cards in hand.

    Raises:
        LimitError: ``limit.bot_samples`` or ``limit.bot_ms`` for a budget below 1 or over
            its limit (:mod:`tysiac_spec.limits`), naming the limit.
    """

    def __init__(self, seed: int, form: Form, *, samples: int = DEFAULT_SAMPLES, ms: int | None = None,
                 depth: int = DEFAULT_DEPTH) -> None:
        if not 1 <= samples <= limits.limit("bot_samples"):
            raise _refuse("bot_samples", samples)
        if ms is not None and not 1 <= ms <= limits.limit("bot_ms"):
            raise _refuse("bot_ms", ms)
        self._rng = random.Random(seed)
        self._form = form
        self._samples, self._ms, self._depth = samples, ms, depth
        self._heuristic = HeuristicBot(seed, form)
        self._memory: Memory | None = None
        self.solved = 0
        """Worlds solved so far (for the cost figures)."""

    def observe(self, view: View) -> None:
        """Take in ``view`` without choosing (a hint giver that watches every turn of its
        player, ``tysiac play``'s ``hint``): its memory of the deal stays whole."""
        if view.hand:
            pack = view.hand[0].pack
            if self._memory is None or self._memory.pack[0] is not pack[0]:
                self._memory = Memory(self._form, pack)
            self._memory.observe(view)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """One element of ``legal`` (never empty): the solver's choice at a play it solves,
        else the heuristic's."""
        fallback = self._heuristic.choose(view, legal)
        if not view.hand:
            return fallback
        pack = view.hand[0].pack
        if self._memory is None or self._memory.pack[0] is not pack[0]:
            self._memory = Memory(self._form, pack)
        self._memory.observe(view)
        if (view.phase != "play" or view.declarer is None or view.stock or len(legal) < 2
                or len(view.hand) > self._depth or unsupported_form(self._form, view.kind)):
            return fallback
        return self._play(view, legal) or fallback

    def _play(self, view: View, legal: Sequence[Action]) -> Action | None:
        """The play with the best mean over the worlds drawn, or ``None`` when no legal play
        was solved in every world."""
        memory = self._memory
        assert memory is not None and view.declarer is not None
        pack = memory.pack
        solver = solver_of(self._form, view.kind, pack)
        form = self._form
        order = tuple(p for p, _ in view.hand_sizes)
        trick = tuple((p, c.index) for p, c in view.trick)
        trick_number = sum(n for _, n in view.tricks)
        won = 0
        for p, n in view.tricks:
            if n:
                won |= 1 << p
        ace = form.marriages.ace_marriage.rank
        declared = sum(1 for _, s in view.declared if s != ace)
        pending = self._pending_trump(view, solver.form)
        totals: dict[tuple[int, bool], int] = {}
        counts: dict[tuple[int, bool], int] = {}
        makes: dict[tuple[int, bool], int] = {}
        need = self._need(view, solver.objective.tricks)
        start = time.perf_counter()
        drawn = 0
        while drawn < self._samples:
            hands = memory.draw(view, self._rng)
            pos = Position(
                hands=tuple(hands.get(p, 0) for p in range(form.players)), order=order, current=view.player,
                declarer=view.declarer, trick=trick, trump=view.trump, pending_trump=pending,
                trick_number=trick_number, marriage_trick=memory.marriage_trick, won=won, declared=declared,
            )
            solution = solver.solve(pos, every_move=True)
            for move, value in solution.moves.items():
                if isinstance(move, tuple):
                    totals[move] = totals.get(move, 0) + value
                    counts[move] = counts.get(move, 0) + 1
                    makes[move] = makes.get(move, 0) + (need is not None and value >= need)
            drawn += 1
            self.solved += 1
            if self._ms is not None and (time.perf_counter() - start) * 1000 >= self._ms:
                break
        side = view.player in side_of(form, view.declarer)
        maximise = side != solver.objective.fewest
        best: Action | None = None
        best_score = (0, 0.0)
        for action in legal:
            if type(action) is not PlayCard or action.aces:
                continue
            key = (action.card.index, action.marriage)
            if counts.get(key) != drawn:
                continue
            score = (makes[key], totals[key] / drawn)  # the contract made first, then the points
            if best is None or (score > best_score if maximise else score < best_score):
                best, best_score = action, score
        return best

    def _need(self, view: View, tricks: bool) -> int | None:
        """What the declarer's side must still take to make the contract (points: the
        contract less the card points seen taken and the marriages declared), or ``None``
        when it is not known (no contract yet, a kind scored by tricks)."""
        memory = self._memory
        if tricks or not view.contract or memory is None or view.declarer is None:
            return None
        side = side_of(self._form, view.declarer)
        values = self._form.marriages.values
        taken = sum(memory.points.get(p, 0) for p in side)
        taken += sum(values.get(s, 0) for p, s in view.declared if p in side)
        return view.contract - taken

    @staticmethod
    def _pending_trump(view: View, form: Form) -> str | None:
        """The trump set by a marriage declared on this trick's lead that takes effect after
        the trick (``marriages.trump_from: next_trick``), else ``None``."""
        m = form.marriages
        if not view.trick or not view.declared or m.trump_from == "this_trick" or not m.sets_trump:
            return None
        leader, card = view.trick[0]
        p, suit = view.declared[-1]
        if p != leader or suit != card.suit_id or card.rank.id not in m.ranks or view.trump == suit:
            return None
        if m.trump_change == "first_only" and view.trump is not None:
            return None
        return suit
