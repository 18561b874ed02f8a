"""The match level: settling a deal's outcome into the match scores, with every match
mechanism a ruleset switches on in data (forfeits, the multiplier of dark and golden
deals, the 800 rule, the barrel, bolts, counters and match rules, finishing, the winner).

:func:`settle_deal` is pure: it takes the resolved :class:`~tysiac_spec.ruleset.model.Form`,
a :class:`MatchState` and a :class:`~tysiac_spec.engine.scoring.DealOutcome`, and returns
the new state and the :class:`~tysiac_spec.engine.events.MatchEvent` list explaining every
adjustment.  The engine's :class:`~tysiac_spec.engine.game.Game` calls it at the end of each
deal; a real-table scoresheet calls it with outcomes typed in by the players.

Order of settlement (each step sees the result of the previous one):

1. validation of the outcome (:mod:`.outcome`; :class:`~tysiac_spec.errors.MatchError` if
   impossible);
2. the deal's own scores from the formulas (``scoring.*``, or ``contract.forfeit.*`` and
   ``forfeit.mode`` for a forfeit), and the sitter's (``table.sitter.score``);
3. the multiplier of the deal (dark game, golden round) on every score of step 2;
4. the 800 rule (``match.threshold``): a player at or above it (per ``inclusive``) who was
   not the declarer scores nothing positive (a forfeit bonus too, if
   ``freezes_forfeit_bonus``);
5. the barrel, for each player who was on it before the deal (``special.barrel``; as a
   defender only if ``defender_scores``);
6. finishing (``match.finishing``): a player who may not finish and would reach the target
   is capped or scores nothing;
7. the scores are added; then bolts (``special.bolts``; one counts ``special.dark.bolt_count``
   in a dark game, ``special.golden_round.bolt_count`` in a golden deal);
8. the match rules (``match.rules``), in order, for each player (e.g. 555 → 0);
9. barrel entries, exits and collisions; 10. golden-round bookkeeping;
11. the winner (``match.target``, ``finishing.tie``; a tie no rule breaks raises the target by
    ``finishing.tie_raise``; a player at or below ``finishing.loss`` loses the match, which the
    highest score then wins); the dealer moves on.

Steps 3-11 are one table, :data:`STEPS` (each step a function and the switch of
:class:`Settlement` that selects it), the one statement of their order: a form runs the steps
it selects, in the table's order (:attr:`Settlement.steps`), and :mod:`.simple_settle` runs
the same selection when all of it are :class:`Deal` steps.

Every deal goes through this one pipeline (:func:`_settle`, steps 3-11): a played or forfeited
deal from :func:`settle_valid_deal`, a deal everyone passed and played out from
:func:`settle_all_pass`, whose own scores (step 2) are ``all_pass_play.score`` and which
switches off the steps that need a declarer (his contract or forfeit, the multiplier, contra,
bolts; on the barrel it is no attempt).

With fixed partnerships (``table.partnerships``, sides from :func:`.seating.sides`) the
outcome is pooled first (:func:`.scoring.pooled`: a side plays as one player), every step
runs per seat, barrel collisions and the winner count one seat per side (the declarer for
his side, else the side's lowest seat: :func:`.seating.standing_for`), and before the winner
each seat takes its standing seat's values (:func:`_share_sides`), whose events alone are
kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..ruleset.model import Form, MatchRule
from ..text import signed as _signed
from . import env as envs
from .all_pass import AllPassOutcome
from .all_pass import scores as all_pass_scores
from .contracts import kind_of
from .events import MatchEvent
from .match_state import BarrelSeat, MatchState, charge_seat, fail, golden_deals, ordinal, winners
from .outcome import validate_outcome
from .scoring import DealOutcome, PlayedScores, forfeit_cost, pooled, scores_and_made
from .seating import next_dealer, side_of, sides, standing_for

__all__ = [
    "STEPS", "BarrelSeat", "Deal", "DealOutcome", "MatchState", "Settlement", "Step", "charge_seat",
    "compile_settlement", "dealt_by", "golden_deals", "settle_all_pass", "settle_deal", "settle_valid_deal",
    "settlement_of", "winner_of", "winners", "won_event",
]

# --------------------------------------------------------------------------- settlement

CompiledRule = tuple[
    MatchRule, Callable[[Any], Any], Callable[[Any], Mapping[str, Any]], "dict[tuple[Any, ...], bool] | None"
]
"""A match rule with its ``when`` and ``then`` fetched once (``evaluator()``), and where
``when``'s answers are kept by the player's record (``None``: evaluated each time; see
:func:`compile_settlement`)."""


_KEPT_LIMIT = 100_000
"""Answers a match rule's ``when`` keeps before it starts again (a bound on memory)."""


@dataclass(frozen=True, slots=True, eq=False)
class Settlement:
    """What :func:`settle_valid_deal` reads of a form, decided once per form
    (:func:`compile_settlement`; kept in the engine's ``CompiledForm.settlement``, made
    again for a form the engine has not compiled, a scoresheet's): which steps a deal's
    settlement runs (a step the form switches off is not called), the sides
    (:func:`.seating.sides`), the dealer after each dealer, and the match rules' formulas."""

    team: tuple[int, ...] | None
    next_dealer: tuple[int, ...]
    """The dealer of the next deal, by the dealer of this one (:func:`.seating.next_dealer`)."""
    multiplier: bool
    """Whether the form's deals may be multiplied (``special.dark``, ``special.golden_round``)."""
    contra: bool
    threshold: bool
    barrel: bool
    bolts: bool
    finishing: bool
    """Whether ``match.finishing`` bars anyone from finishing (``who`` not ``anyone``)."""
    golden: bool
    sides: bool
    """Whether the form has fixed partnerships (``team`` not ``None``)."""
    falls_reset: int
    rules: tuple[CompiledRule, ...]
    loss: int | None
    tie_raise: int
    steps: tuple[Callable[[_Work], None], ...]
    """The steps of :data:`STEPS` whose switch (a field above) is on, in the table's order."""
    steps_any: tuple[Callable[[_Work], None], ...]
    """``steps`` with the steps a deal may ask for beyond its form on (the multiplier and
    contra of a deal typed in with them, the golden round of a carried match state): the
    steps of a deal with a multiplier, contra or golden deals left."""
    deal_steps: tuple[Callable[[Deal], None], ...] | None
    """``steps`` when every one of them is a :class:`Deal` step (it changes the deal's scores,
    events and winner only), else ``None``: what :mod:`.simple_settle` runs."""


def compile_settlement(form: Form) -> Settlement:
    """The :class:`Settlement` of ``form``: its match mechanisms read once, and the steps of
    :data:`STEPS` they select."""
    m, sp = form.match, form.special
    team = sides(form)
    switches = {
        "multiplier": sp.dark.enabled or sp.golden_round.enabled,
        "contra": form.contract.contra.enabled,
        "threshold": m.threshold.enabled,
        "barrel": sp.barrel.enabled,
        "bolts": sp.bolts.enabled,
        "finishing": m.finishing.who != "anyone",
        "rules": bool(m.rules),
        "golden": sp.golden_round.enabled,
        "sides": team is not None,
        "loss": m.finishing.loss is not None,
        "tie_raise": m.finishing.tie_raise != 0,
    }
    steps, deal_steps = _selected(switches)
    any_steps, _ = _selected({**switches, "multiplier": True, "contra": True, "golden": True})
    return Settlement(
        team=team,
        next_dealer=tuple(next_dealer(form, d) for d in range(form.players)),
        multiplier=switches["multiplier"],
        contra=switches["contra"],
        threshold=switches["threshold"],
        barrel=switches["barrel"],
        bolts=switches["bolts"],
        finishing=switches["finishing"],
        golden=switches["golden"],
        sides=switches["sides"],
        falls_reset=sp.barrel.falls_reset,
        rules=tuple((r, r.when.evaluator(), r.then.evaluator(), _kept(form, r)) for r in m.rules),
        loss=m.finishing.loss,
        tie_raise=m.finishing.tie_raise,
        steps=steps,
        steps_any=any_steps,
        deal_steps=deal_steps,
    )


def _selected(
    switches: Mapping[str, bool]
) -> tuple[tuple[Callable[[_Work], None], ...], tuple[Callable[[Deal], None], ...] | None]:
    """The steps of :data:`STEPS` that ``switches`` (by a step's switch) select, in the
    table's order, and the same when every one of them is a :class:`Deal` step (else ``None``)."""
    steps: list[Callable[[_Work], None]] = []
    deal: list[Callable[[Deal], None]] | None = []
    for step in STEPS:
        if step.switch is not None and not switches[step.switch]:
            continue
        if step.deal is not None:
            steps.append(step.deal)
            if deal is not None:
                deal.append(step.deal)
        else:
            assert step.work is not None
            steps.append(step.work)
            deal = None
    return tuple(steps), None if deal is None else tuple(deal)


def _kept(form: Form, rule: MatchRule) -> dict[tuple[Any, ...], bool] | None:
    """Where the answers of ``rule``'s ``when`` are kept by the player's record (score,
    forfeits, bolts, on the barrel), when it reads nothing else but ``players`` (the form's)
    and the form has no counters (which the record would hold too): a formula is a function
    of what it reads, so the answer kept is the one it would give again.  ``None`` otherwise."""
    if form.match.counters or not rule.when.reads <= {"player", "players"}:
        return None
    return {}


def settlement_of(form: Form) -> Settlement:
    """``form``'s :class:`Settlement`: the engine's compiled one, else made here."""
    compiled = form.compiled
    return compiled.settlement if compiled is not None else compile_settlement(form)


@dataclass(slots=True)
class Deal:
    """The scratch of one deal's settlement that a :class:`Deal` step reads and changes: the
    deal's number, declarer, contract and ``made``, the scores, the deal's changes to them,
    the events and the winner.  A step of :data:`STEPS` that needs no more takes a ``Deal``;
    :mod:`.simple_settle` runs such steps on a ``Deal`` of its own, the whole pipeline on a
    ``_Work`` (a ``Deal`` with the rest of the match state)."""

    form: Form
    deals: int
    """The deals settled before this one: this deal's number (its events')."""
    declarer: int
    """The declarer's seat; -1 for a deal without one (all-pass play)."""
    contract: int
    made: bool
    forfeited: bool
    scores: list[int]
    """By seat: the match scores before the deal until the step ``add`` adds ``delta`` (in place)."""
    delta: dict[int, int]
    """The deal's score of each player it scores, by seat, as the steps change it."""
    events: list[MatchEvent]
    raised: int
    """How far ties have raised the target (:attr:`MatchState.raised`)."""
    stand: tuple[int, ...] | None
    """With partnerships, the seat standing for each seat's side (``seating.standing_for``)."""
    winner: int | None
    """The winner, once the step ``winner`` (or ``loss``) has found one."""

    def event(self, kind: str, player: int | None = None, value: int | None = None, text: str = "") -> None:
        self.events.append(MatchEvent(self.deals, kind, player, value, text))


@dataclass(slots=True)
class _Work(Deal):
    """The scratch of one settlement by the whole pipeline: a :class:`Deal` with the rest of
    the match state, as lists the steps change."""

    state: MatchState
    outcome: DealOutcome
    settlement: Settlement
    base: Mapping[int, int]
    """The deal's own scores, before the multiplier."""
    mult: int
    """The deal's multiplier (:func:`_multiplier`)."""
    forfeits: list[int]
    seats: list[BarrelSeat]
    fell: set[int]
    """The players thrown or fallen off the barrel in this deal (who may not enter it again in it)."""
    bolts: list[int]
    counters: dict[str, list[int]]
    golden_left: int
    golden_made: bool
    falls: list[int] | None
    """Falls from the barrel by player in the match, when ``barrel.falls_reset`` counts them."""


def _counted_fall(w: _Work, p: int) -> bool:
    """Count a fall of ``p`` from the barrel; True when it is the one that resets his score
    to 0 (``barrel.falls_reset``; the count then starts again)."""
    falls, every = w.falls, w.form.special.barrel.falls_reset
    if falls is None or not every:
        return False
    falls[p] += 1
    if falls[p] < every:
        return False
    falls[p] = 0
    return True


def _multiplier(form: Form, outcome: DealOutcome) -> int:
    if outcome.multiplier is not None:
        return outcome.multiplier
    if outcome.mode == "dark":
        return form.special.dark.multiplier
    if outcome.mode == "golden":
        return form.special.golden_round.multiplier
    return 1


def _golden_dark(form: Form, outcome: DealOutcome) -> bool:
    """Whether a golden deal was also declared dark (``special.golden_round.dark_allowed``):
    its multiplier is then the golden round's times the dark game's (engine.auction
    ``_begin_dark``).  With a dark multiplier of 1 the two cannot be told apart on a
    scoresheet and the deal counts as golden alone."""
    sp = form.special
    return (
        sp.golden_round.dark_allowed
        and sp.dark.enabled
        and sp.dark.multiplier > 1
        and outcome.multiplier == sp.golden_round.multiplier * sp.dark.multiplier
    )


def _step_contract(w: Deal) -> None:
    """The deal's event: ``contract.made`` or ``contract.failed`` (value: the contract) of a
    deal played with a declarer; a forfeit's and an all-pass deal's own event comes before
    the pipeline (:func:`settle_valid_deal`, :func:`settle_all_pass`)."""
    if w.declarer >= 0 and not w.forfeited:
        made = w.made
        w.events.append(MatchEvent(w.deals, "contract.made" if made else "contract.failed", w.declarer,
                                   w.contract, f"contract {w.contract} {'made' if made else 'failed'}"))


def _step_multiplier(w: _Work) -> None:
    """The multiplier of a dark or golden deal, or the one typed in (:func:`_multiplier`), on
    every score of the deal (event ``multiplier``)."""
    mult = w.mult
    if mult != 1:
        w.delta = {p: d * mult for p, d in w.delta.items()}
        w.event("multiplier", None, mult, f"{w.outcome.mode} deal: points ×{mult}")


def _step_contra(w: _Work) -> None:
    """Contra and redouble (``contract.contra``): the declarer's deal score, or everyone's
    (``applies_to``), multiplied by the deal's factor (after the deal's multiplier; event
    ``multiplier.contra``)."""
    factor = w.outcome.contra
    if factor == 1:
        return
    d = w.declarer
    everyone = w.form.contract.contra.applies_to == "everyone"
    for p in w.delta:
        if everyone or p == d:
            w.delta[p] *= factor
    whose = "every score" if everyone else f"player {d}'s score"
    w.event("multiplier.contra", d, factor, f"contra: {whose} ×{factor}")


def _above_threshold(form: Form, score: int) -> bool:
    t = form.match.threshold
    return t.enabled and (score >= t.score if t.inclusive else score > t.score)


def _step_threshold(w: _Work) -> None:
    t, o = w.form.match.threshold, w.outcome
    if not t.enabled:
        return
    for p, d in w.delta.items():
        before = w.state.scores[p]
        if d <= 0 or p == o.declarer or not _above_threshold(w.form, before):
            continue
        if o.forfeited and not t.freezes_forfeit_bonus and p != o.sitter:
            continue
        w.delta[p] = 0
        w.event("threshold.frozen", p, d, f"at {before} (the {t.score} rule): {_signed(d)} not scored")


def _step_barrel(w: _Work) -> None:
    """The barrel, for each player on it before the deal (``special.barrel``)."""
    b, o, form = w.form.special.barrel, w.outcome, w.form
    seats, fell = w.seats, w.fell
    if not b.enabled:
        return
    for p in range(w.state.players):
        seat = seats[p]
        if not seat.on:
            continue
        d = w.delta.get(p, 0)
        if p == o.sitter:
            sitter = form.table.sitter
            if sitter is not None and not sitter.scores_on_barrel and d:
                w.delta[p] = 0
                w.event("barrel.sitter", p, d, f"on the barrel: the sitter's {_signed(d)} not scored")
            continue
        if p != o.declarer and (o.forfeited or o.declarer < 0):
            # (a deal another player forfeits, or one without a declarer: all-pass play)
            if d:
                w.delta[p] = 0
                which = "a forfeited deal" if o.forfeited else "an all-pass deal"
                w.event("barrel.frozen", p, d,
                        f"on the barrel: {which} is no attempt ({_signed(d)} not scored)")
            continue
        defends = p != o.declarer
        if d >= b.goal and not (o.forfeited and p == o.declarer) and (b.defender_scores or not defends):
            seats[p] = BarrelSeat()
            w.event("barrel.made", p, d, f"on the barrel: made {d} of {b.goal}")
            continue
        used = seat.attempts + 1
        # With `defender_scores: false` a defence is a failed attempt whatever it took; the
        # events say so when the defence would have made the goal.
        as_defender = " as a defender" if defends and not b.defender_scores and d >= b.goal else ""
        own_fail = p == o.declarer and not o.forfeited and not w.made
        thrown = ""
        if o.forfeited and p == o.declarer and b.forfeit_falls:
            thrown = "forfeit"
        elif b.bidding == "allowed" and b.fail_own_bid_falls and own_fail:
            thrown = "own contract failed"
        of = "" if b.attempts_unlimited else f" of {b.attempts}"
        if thrown:
            # Thrown off: the deal's own score stands (PAGx2: he loses his bid as usual;
            # source ids are keys of a ruleset's `sources:` list).
            seats[p] = BarrelSeat()
            fell.add(p)
            if _counted_fall(w, p):
                _reset_fall(w, p, f"fell off the barrel ({thrown})")
            else:
                w.event("barrel.fall", p, d, f"fell off the barrel ({thrown}) {_signed(d)}")
        elif not b.attempts_unlimited and used >= b.attempts:
            seats[p] = BarrelSeat()
            fell.add(p)
            if _counted_fall(w, p):
                _reset_fall(w, p, f"fell off the barrel{as_defender}")
            else:
                w.delta[p] = -b.penalty
                w.event("barrel.fall", p, -b.penalty, f"fell off the barrel{as_defender} −{b.penalty}")
        elif b.attempts_unlimited or used <= b.free_failures:
            w.delta[p] = 0
            seats[p] = BarrelSeat(True, used)
            w.event(
                "barrel.attempt",
                p,
                d,
                f"on the barrel: attempt {used}{of} failed ({_signed(d)}{as_defender} not scored)",
            )
        else:
            w.delta[p] = -b.penalty
            seats[p] = BarrelSeat(True, used)
            w.event(
                "barrel.attempt",
                p,
                -b.penalty,
                f"on the barrel: attempt {used}{of} failed{as_defender} −{b.penalty}",
            )


def _reset_fall(w: _Work, p: int, how: str) -> None:
    """The fall of ``p`` that resets his score to 0 (event ``barrel.reset``, value 0)."""
    w.delta[p] = -w.state.scores[p]
    every = w.form.special.barrel.falls_reset
    w.event("barrel.reset", p, 0, f"{how}: fall {every} of {every}, score reset to 0")


def _step_finishing(w: Deal) -> None:
    """``match.finishing`` when only the declarer may finish (``who``): a player other than
    the declarer of a made contract whose gain in ``delta`` would take his score from below
    the target (plus ``raised``) over it, or onto it with ``exact_landing``, stops at ``cap``
    (``others: cap``; event ``finish.capped``, value: the score) or scores nothing (event
    ``finish.no_score``, value: the gain lost)."""
    form, raised = w.form, w.raised
    f = form.match.finishing
    if f.who == "anyone":
        return
    target, exact = form.match.target + raised, f.exact_landing
    scores, delta, declarer, made = w.scores, w.delta, w.declarer, w.made
    for p, d in delta.items():
        if d <= 0 or (p == declarer and made):
            continue
        before = scores[p]
        after = before + d
        if after < target or before >= target or (after == target and not exact):
            continue  # (not from below the target over it, nor onto it with exact_landing)
        deal = w.deals
        if f.others == "cap":
            capped = max(min(after, f.cap + raised), before)
            delta[p] = capped - before
            w.events.append(MatchEvent(deal, "finish.capped", p, capped,
                                       f"only the declarer may finish: {after} → {capped}"))
        else:
            delta[p] = 0
            w.events.append(MatchEvent(deal, "finish.no_score", p, d,
                                       f"only the declarer may finish: {_signed(d)} not scored"))


def _step_add(w: Deal) -> None:
    """The deal's scores added to the match scores."""
    scores = w.scores
    for p, d in w.delta.items():
        scores[p] += d


def _step_bolts(w: _Work) -> None:
    """Bolts on the deal's own scores times the multiplier (``special.bolts``); none in a
    deal forfeited or without a declarer."""
    bl, o = w.form.special.bolts, w.outcome
    if not bl.enabled or o.forfeited or w.declarer < 0:
        return
    scores, bolts, base, mult = w.scores, w.bolts, w.base, w.mult
    on_barrel = [s.on for s in w.state.barrel] or [False] * w.state.players  # before this deal
    if o.kind is not None and not kind_of(w.form, o.kind).gives_bolts:
        return  # (contract.kinds: a deal of a kind that counts no bolts)
    sp = w.form.special
    amount = 1
    if o.mode == "dark":
        amount = sp.dark.bolt_count
    elif o.mode == "golden":
        amount = sp.golden_round.bolt_count
        if _golden_dark(w.form, o):  # both: the larger count, never the two added (MEKH 65)
            amount = max(amount, sp.dark.bolt_count)
    for p in o.active(w.state.players):
        if bl.declarer_exempt and p == o.declarer:
            continue
        if not bl.on_barrel and on_barrel[p]:
            continue
        if bl.counts == "no_trick":
            if o.tricks is None:
                raise fail(
                    "tricks per player are needed: the ruleset counts a deal without a trick as a bolt"
                )
            is_bolt = o.tricks.get(p, 0) == 0
        else:
            is_bolt = base.get(p, 0) * mult == 0
        if not is_bolt:
            continue
        old, new = bolts[p], bolts[p] + amount
        bolts[p] = new
        what = "no trick" if bl.counts == "no_trick" else "zero points"
        extra = f", counts {amount}" if amount > 1 else ""
        w.event("bolt", p, new, f"bolt ({what}{extra}): {new} in all")
        for k in range(old // bl.every + 1, new // bl.every + 1):
            scores[p] -= bl.penalty
            w.event("bolt.penalty", p, -bl.penalty, f"{ordinal(k * bl.every)} bolt −{bl.penalty}")


def _step_rules(w: _Work) -> None:
    """The match rules (``match.rules``), in order, for each player, their formulas fetched
    once (:attr:`Settlement.rules`).  The rule's environment is built once per deal; each
    player's own names (record, ``delta``, ``declarer``, ``tricks``) are set in it in turn; a
    ``when`` that reads only the record answers from the answers kept by the record's values,
    when it has given one for them."""
    form, o = w.form, w.outcome
    rules = w.settlement.rules
    scores, counters, bolts, forfeits, seats = w.scores, w.counters, w.bolts, w.forfeits, w.seats
    start = w.state.scores
    tricks = o.tricks or {}
    declarer = o.declarer
    player_record = envs.player_record
    env: dict[str, Any] | None = None
    for rule, when, then, kept in rules:
        for p in range(w.state.players):
            if kept is not None:
                key = (scores[p], forfeits[p], bolts[p], seats[p].on)
                fires = kept.get(key)
                if fires is False:
                    continue
            record = player_record(
                scores[p], forfeits[p], bolts[p], seats[p].on,
                [(n, v[p]) for n, v in counters.items()] if counters else (),
            )
            if env is None:
                env = envs.match_rule(
                    record,
                    form.active,
                    w.state.options,
                    delta=scores[p] - start[p],
                    declarer=p == declarer,
                    made=w.made,
                    contract=o.contract,
                    tricks=tricks.get(p, 0),
                    forfeited=o.forfeited,
                    target=form.match.target + w.raised,
                )
            else:  # (the names of this player; the others are the deal's)
                env["player"], env["delta"] = record, scores[p] - start[p]
                env["declarer"], env["tricks"] = p == declarer, tricks.get(p, 0)
            if kept is not None and fires is None:
                if len(kept) >= _KEPT_LIMIT:
                    kept.clear()
                fires = kept[key] = bool(when(env))
                if not fires:
                    continue
            elif not when(env):
                continue
            before = scores[p]
            changes = []
            for name, value in then(env).items():
                if name == "delta":
                    scores[p] = start[p] + int(value)
                elif name == "player.score":
                    scores[p] = int(value)
                else:
                    counter = name.split(".", 1)[1]
                    old = counters[counter][p]
                    counters[counter][p] = int(value)
                    changes.append(f"{counter} {old} → {int(value)}")
            if scores[p] != before:
                changes.insert(0, f"{before} → {scores[p]}")
            w.event(f"rule.{rule.id}", p, scores[p], f"{'; '.join(changes) or 'no change'} ({rule.id})")


def _step_barrel_seats(w: _Work) -> None:
    """Barrel entries, exits and collisions (``special.barrel``) on the scores after the deal."""
    b, raised = w.form.special.barrel, w.raised
    if not b.enabled:
        return
    scores, seats, fell = w.scores, w.seats, w.fell
    target, threshold = w.form.match.target + raised, b.threshold + raised
    newcomers = []
    staying = []  # (in seat order) on the barrel before and still on it
    own = range(len(seats)) if w.stand is None else [p for p, q in enumerate(w.stand) if p == q]
    for p in own:
        if seats[p].on:
            if scores[p] < threshold:
                seats[p] = BarrelSeat()
                w.event("barrel.leave", p, scores[p], f"off the barrel at {scores[p]}")
            elif scores[p] >= target:
                seats[p] = BarrelSeat()
            else:
                staying.append(p)
        elif p not in fell and threshold <= scores[p] < target:
            seats[p] = BarrelSeat(True, 0)
            newcomers.append(p)
            w.event("barrel.enter", p, scores[p], f"on the barrel at {scores[p]}")
    if not newcomers:  # (every collision needs a newcomer)
        return
    falling: list[int] = []
    if b.collision == "all_fall" and len(newcomers) >= 2:
        falling = newcomers
    elif b.collision == "last_stays" and newcomers and staying:
        falling = staying
    elif b.collision == "first_stays" and newcomers and staying:
        falling = newcomers
    if (b.collision_tie != "all_stay" and b.collision in ("last_stays", "first_stays")
            and len(newcomers) >= 2 and (b.collision == "last_stays" or not staying)):
        # a same-deal tie: one newcomer stays, the declarer's seat, else the lowest
        d = w.declarer
        if w.stand is not None and d >= 0:
            d = w.stand[d]
        keep = d if d in newcomers else min(newcomers)
        falling = sorted({*falling, *(p for p in newcomers if p != keep)})
    elif b.collision == "everyone_falls" and newcomers and len(newcomers) + len(staying) >= 2:
        falling = sorted({*newcomers, *staying})
    for p in falling:
        seats[p] = BarrelSeat()
        others = ", ".join(str(q) for q in sorted({*newcomers, *staying}) if q != p)
        if _counted_fall(w, p):
            scores[p] = 0
            every = b.falls_reset
            w.event("barrel.reset", p, 0, f"fell off the barrel (with player {others}): "
                    f"fall {every} of {every}, score reset to 0")
            continue
        scores[p] -= b.collision_penalty
        w.event(
            "barrel.collision",
            p,
            -b.collision_penalty,
            f"fell off the barrel (with player {others}) −{b.collision_penalty}",
        )


def _step_sides(w: _Work) -> None:
    """Fixed partnerships: each seat takes the match values of the seat standing for its
    side (score, barrel, bolts, forfeits, counters, falls), and only that seat's events are
    kept, so a side has one score, one barrel and one count of each."""
    stand = w.stand
    if stand is None:  # (settle_valid_deal(team=None): the outcome not pooled)
        return
    scores, seats, bolts, forfeits, counters = w.scores, w.seats, w.bolts, w.forfeits, w.counters
    for p, q in enumerate(stand):
        if p == q:
            continue
        scores[p], seats[p], bolts[p], forfeits[p] = scores[q], seats[q], bolts[q], forfeits[q]
        for values in counters.values():
            values[p] = values[q]
        if w.falls is not None:
            w.falls[p] = w.falls[q]
    w.events[:] = [e for e in w.events if e.player is None or stand[e.player] == e.player]


def _standing(seats: Sequence[int], stand: Sequence[int]) -> list[int]:
    """The ``seats`` that stand for their side (``stand``: :func:`.seating.standing_for`)."""
    return [p for p in seats if stand[p] == p]


def _step_winner(w: Deal) -> None:
    """The winner (:func:`winner_of`; event ``match.won``)."""
    winner = winner_of(w.form, w.scores, w.raised, w.declarer, w.stand)
    if winner is not None:
        w.winner = winner
        w.events.append(won_event(w.form, w.deals, winner, w.scores[winner]))


def _step_loss(w: _Work) -> None:
    """With no winner, a player at or below ``finishing.loss`` loses the match
    (:func:`_winner_by_loss`; events ``match.lost``, then ``match.won``)."""
    loss = w.settlement.loss
    if w.winner is not None or loss is None:
        return
    winner = _winner_by_loss(w, w.scores, loss)
    if winner is not None:
        w.winner = winner
        w.events.append(won_event(w.form, w.deals, winner, w.scores[winner]))


def _step_tie_raise(w: _Work) -> None:
    """With no winner and a score at the target, a tie no rule broke: the target raised by
    ``finishing.tie_raise`` (with ``tie_score: below_target`` the tied scores to the target
    minus 1 first; event ``match.target``)."""
    f, target = w.form.match.finishing, w.form.match.target
    if w.winner is not None or max(w.scores) < target + w.raised:
        return
    if f.tie_score == "below_target":  # the tied scores to target - 1
        top = target + w.raised - 1
        w.scores = [min(s, top) for s in w.scores]
    w.raised += f.tie_raise
    to = target + w.raised
    w.event("match.target", None, to, f"a tie at the target: play goes on to {to}")


def winner_of(
    form: Form, scores: Sequence[int], raised: int, declarer: int | None, stand: Sequence[int] | None = None
) -> int | None:
    """The winner by ``match.target`` (plus ``raised``) and ``finishing.tie`` of the scores
    after a deal (by seat): the one player at or over the target; of several, none under
    ``tie: continue``, the declarer under ``tie: declarer`` when he is one of them, else the
    highest score, of equal ones the declarer's, else none (``finishing.tie_equal``:
    ``lowest_seat``, the lowest seat number's; ``declarer_then_lowest_seat``, the declarer's,
    else the lowest seat number's).  ``stand``: with partnerships,
    the seat standing for each seat's side (:func:`.seating.standing_for`)."""
    target = form.match.target + raised
    if max(scores) < target:
        return None
    tie = form.match.finishing.tie
    crossed = [p for p, s in enumerate(scores) if s >= target]
    if stand is not None:  # one seat per side (table.partnerships)
        crossed = _standing(crossed, stand)
    if len(crossed) <= 1:
        return crossed[0] if crossed else None
    if tie == "continue":
        return None
    if tie == "declarer" and declarer in crossed:
        return declarer
    top = max(scores[p] for p in crossed)
    best = [p for p in crossed if scores[p] == top]
    if len(best) == 1:
        return best[0]
    tie_equal = form.match.finishing.tie_equal
    if tie_equal == "lowest_seat":
        return min(best)
    if declarer in best:
        return declarer
    return min(best) if tie_equal == "declarer_then_lowest_seat" else None


def won_event(form: Form, deal: int, winner: int, score: int) -> MatchEvent:
    """The event ``match.won`` of deal number ``deal`` (value: the winning ``score``): the
    winner's side wins (``table.partnerships``)."""
    side = side_of(form, winner)
    who = f"player {winner} wins" if len(side) == 1 else f"players {' and '.join(map(str, side))} win"
    return MatchEvent(deal, "match.won", winner, score, f"{who} with {score}")


def _winner_by_loss(w: _Work, scores: Sequence[int], loss: int) -> int | None:
    """The winner when a player's score is at or below ``finishing.loss`` (he loses the match
    outright; ``match.lost`` events): the highest score, of several the declarer if he is
    one of them, else the first by seat number; ``None`` when nobody is that low."""
    lost = [p for p, s in enumerate(scores) if s <= loss]
    if not lost:
        return None
    for p in lost:
        w.event("match.lost", p, scores[p], f"player {p} loses the match at {scores[p]}")
    top = max(scores)
    best = [p for p, s in enumerate(scores) if s == top]
    return w.declarer if w.declarer in best else best[0]


def settle_deal(form: Form, state: MatchState, outcome: DealOutcome) -> tuple[MatchState, list[MatchEvent]]:
    """Settle one deal: the new match state and the events explaining every adjustment.

    Pure: ``state`` is not changed.  The order of the steps is the module's docstring's.
    Decisions where the sources are silent: a barrel attempt is every deal the barrel player
    takes part in (ru-online's reading of S002); a failed attempt's own points are not
    scored; falling off after the last attempt costs ``barrel.penalty`` in place of the deal's
    score, while being thrown off (``fail_own_bid_falls``, which applies only when the barrel
    player bids, ``bidding: allowed``; ``forfeit_falls``) keeps the deal's own score (PAGx2:
    he loses his bid as usual); a deal forfeited by someone else is no attempt and scores nothing
    for the barrel player; with ``barrel.defender_scores: false`` a deal he defends is a failed
    attempt whatever he took; the multiplier applies to the deal's scores and a forfeit's
    penalty, not to bolt or barrel penalties (a dark bolt counts ``dark.bolt_count`` bolts, a
    golden one ``golden_round.bolt_count``);
    a forfeited deal gives no bolts; ``collision: all_fall`` applies to two or more players
    reaching the barrel in the same deal (``last_stays`` / ``first_stays`` to a newcomer
    meeting a player already on it); a sitter's deal is no barrel attempt; the golden round
    lasts ``golden_round.deals`` deals (0: one per seated player), a reset sets the scores
    (only) to 0, and a normal deal settled while it is on ends it; a tie the rule cannot
    break (equal scores, no declarer among them) leaves the match going.

    Raises:
        MatchError: the outcome is impossible (see
            :func:`~tysiac_spec.engine.outcome.validate_outcome`).
    """
    validate_outcome(form, state, outcome)
    new, events, _ = settle_valid_deal(form, state, outcome)
    return new, events


_FIND: tuple[int, ...] = (-1,)
"""``settle_valid_deal(team=...)`` not given: the sides are found from the form."""


def dealt_by(state: MatchState, dealer: int) -> MatchState:
    """``state`` with ``dealer`` the dealer of the deal it settles: a deal redealt passes the
    deal on without a settlement, so the match state may still name the dealer of the last
    deal settled.  The one statement (``Game``'s end of a deal, the fast path's helper)."""
    return state if state.dealer == dealer else replace(state, dealer=dealer)


def settle_valid_deal(
    form: Form,
    state: MatchState,
    outcome: DealOutcome,
    *,
    played: PlayedScores | None = None,
    team: tuple[int, ...] | None = _FIND,
) -> tuple[MatchState, list[MatchEvent], bool]:
    """:func:`settle_deal` for an outcome known to be valid (the engine's own, built from a
    played deal): not validated again; also returns whether the declarer made the
    contract (``scoring.made``, false for a forfeit).  ``played``: the form's compiled scores
    of a played deal (:func:`~.scoring.compile_played`; a game hands in its
    ``CompiledForm.score_played``), else found by :func:`~.scoring.scores_and_made`.
    ``team``: the form's sides (:func:`.seating.sides`, ``None`` without partnerships), which
    a game finds once; by default found here.

    The deal's own scores (his contract's, or his forfeit's with its event) are found here;
    then the one pipeline of every deal (:func:`_settle`, the steps of :data:`STEPS`)."""
    settlement = settlement_of(form)
    o = outcome
    if team is _FIND:
        team = settlement.team
    stand = None
    if team is not None:  # each side plays as one player (table.partnerships)
        o = pooled(o, team)
        stand = standing_for(team, o.declarer)
    forfeits = list(state.forfeits)
    if o.forfeited:
        forfeits[o.declarer] += 1
    base, made = scores_and_made(
        form, o, state.player_record, state.options, forfeit_count=forfeits[o.declarer], played=played
    )
    mult = _multiplier(form, o)
    w = _work(form, state, o, settlement, base, made, mult, forfeits, stand)
    if o.forfeited:
        charge = base[o.declarer] * mult
        w.event(
            "forfeit",
            o.declarer,
            charge,
            f"{ordinal(forfeits[o.declarer])} forfeit {_signed(charge)}"
            + {"free": " (free)", "penalty": " (penalised)", "formula": ""}[
                forfeit_cost(form, forfeits[o.declarer]).kind
            ],
        )
    steps = settlement.steps_any if mult != 1 or o.contra != 1 or state.golden_left else settlement.steps
    return _settle(w, steps), w.events, made


def settle_all_pass(
    form: Form, state: MatchState, outcome: AllPassOutcome
) -> tuple[MatchState, list[MatchEvent]]:
    """Settle a deal everyone passed and played out without a declarer (``auction.all_pass:
    play``): the new match state and the events.  Pure; called by the engine and by a
    real-table scoresheet.

    Each active player scores ``all_pass_play.score`` (:func:`.all_pass.scores`; event
    ``all_pass``); then the one pipeline of every deal (:func:`_settle`) with the steps that
    need a declarer switched off: the 800 rule (nobody is the declarer, so a player above it
    scores nothing positive), the barrel, finishing (with ``finishing.who: declarer`` nobody
    may finish in it), the match rules (``declarer`` and ``made`` false, ``contract`` 0),
    barrel entries, exits and collisions, the golden-round bookkeeping, the winner and the
    target raised by a tie (``finishing.tie_raise``); the dealer moves on.  Decisions where
    the sources are silent (``status: assumed``): a player on the barrel makes no attempt and
    scores nothing in it (as in a deal another player forfeits); it gives no bolts; no
    multiplier applies; it is not a golden deal, so one settled in a golden round ends the
    round, as a normal deal does (the engine and a scoresheet never settle one there:
    :func:`.outcome.iter_all_pass_errors`).  All-pass play is refused with partnerships
    (``auction.all-pass-play``), so the deal is not pooled.

    Raises:
        MatchError: ``match.outcome`` — the formula reads a fact the outcome lacks.
    """
    base = all_pass_scores(form, outcome, state.player_record, state.options)
    plain = DealOutcome(declarer=-1, bid=0, contract=0, tricks=outcome.tricks, sitter=outcome.sitter,
                        players=outcome.players)
    settlement = settlement_of(form)
    w = _work(form, state, plain, settlement, base, False, 1, list(state.forfeits), None)
    w.event("all_pass", None, None, "everyone passed: the deal played out, each scored for what he took")
    return _settle(w, settlement.steps_any if state.golden_left else settlement.steps), w.events


def _work(
    form: Form, state: MatchState, o: DealOutcome, settlement: Settlement, base: Mapping[int, int],
    made: bool, mult: int, forfeits: list[int], stand: tuple[int, ...] | None,
) -> _Work:
    """The scratch of the settlement of a deal of ``state``'s match whose outcome is ``o``
    (pooled with partnerships), its own scores ``base`` (before the multiplier ``mult``)."""
    n = state.players
    return _Work(
        form, state.deals, o.declarer, o.contract, made, o.forfeited, list(state.scores), dict(base), [],
        state.raised, stand, None,
        state, o, settlement, base, mult, forfeits,
        list(state.barrel) or [BarrelSeat()] * n, set(),
        list(state.bolts) or [0] * n,
        {k: list(v) for k, v in state.counters.items()} if state.counters else {},
        state.golden_left, state.golden_made,
        (list(state.falls) or [0] * n) if settlement.falls_reset else None,
    )


def _settle(w: _Work, steps: Sequence[Callable[[_Work], None]]) -> MatchState:
    """The one settlement pipeline of every deal, after its own scores (``w.delta``, with
    their events): ``steps``, the steps of :data:`STEPS` the form (and the deal: a
    multiplier, contra, golden deals left) selects, in order.  Returns the new state; the
    events are added to ``w.events``."""
    for step in steps:
        step(w)
    state = w.state
    # every field of MatchState (as dataclasses.replace would, without its cost), in the
    # order of its fields (given by position: cheaper than by name)
    return MatchState(
        tuple(w.scores),
        {k: tuple(v) for k, v in w.counters.items()} if w.counters else {},
        tuple(w.seats),
        tuple(w.forfeits),
        tuple(w.bolts),
        w.settlement.next_dealer[state.dealer],
        state.deals + 1,
        w.winner,
        w.golden_left,
        w.golden_made,
        w.raised,
        state.falls if w.falls is None else tuple(w.falls),
        state.options,
        state.deck_points,
    )


def _step_golden(w: _Work) -> None:
    """The golden-round bookkeeping of a deal settled while the golden round is on
    (``special.golden_round``, golden deals left): a golden deal counts one of its deals (and
    whether its declarer made the contract); any other deal ends the round.  The last golden
    deal ends it, or, when nobody made the contract, starts it again and/or resets the scores
    (``if_nobody_makes_it``)."""
    if w.golden_left <= 0:
        return
    form, o = w.form, w.outcome
    if o.mode != "golden":
        w.event("golden.end", None, None, "golden round abandoned: a normal deal was played")
        w.golden_left, w.golden_made = 0, False
        return
    golden_left = w.golden_left - 1
    golden_made = w.golden_made or w.made
    if golden_left == 0:
        g = form.special.golden_round
        if golden_made:
            w.event("golden.end", None, None, "golden round over")
        else:
            again = g.if_nobody_makes_it in ("repeat", "replay")
            golden_left = golden_deals(form) if again else 0
            after = "; the golden round starts again" if again else ""
            if g.if_nobody_makes_it in ("repeat", "normal_game"):
                w.scores = [0] * len(w.scores)
                w.event(
                    "golden.reset",
                    None,
                    0,
                    f"nobody made {g.contract} in the golden round: scores reset{after}",
                )
            else:
                w.event("golden.end", None, None,
                        f"nobody made {g.contract} in the golden round: scores kept{after}")
        golden_made = False
    w.golden_left, w.golden_made = golden_left, golden_made


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the settlement pipeline (:data:`STEPS`): its name, the field of
    :class:`Settlement` that switches it on for a form (``None``: every form), and its
    function, either ``deal`` (it reads and changes only a :class:`Deal`: the deal's scores,
    events and winner) or ``work`` (the whole match state, a ``_Work``)."""

    name: str
    switch: str | None
    deal: Callable[[Deal], None] | None = None
    work: Callable[[_Work], None] | None = None


STEPS: tuple[Step, ...] = (
    Step("contract", None, deal=_step_contract),
    Step("multiplier", "multiplier", work=_step_multiplier),
    Step("contra", "contra", work=_step_contra),
    Step("threshold", "threshold", work=_step_threshold),
    Step("barrel", "barrel", work=_step_barrel),
    Step("finishing", "finishing", deal=_step_finishing),
    Step("add", None, deal=_step_add),
    Step("bolts", "bolts", work=_step_bolts),
    Step("rules", "rules", work=_step_rules),
    Step("barrel seats", "barrel", work=_step_barrel_seats),
    Step("golden", "golden", work=_step_golden),
    Step("sides", "sides", work=_step_sides),
    Step("winner", None, deal=_step_winner),
    Step("loss", "loss", work=_step_loss),
    Step("tie raise", "tie_raise", work=_step_tie_raise),
)
"""The settlement pipeline of every deal after its own scores, in order: the one statement
of the order (the module's docstring, steps 3-11).  A form runs the steps whose switch it has
(:attr:`Settlement.steps`); :mod:`.simple_settle` runs a form's steps when they are all
:class:`Deal` steps (:attr:`Settlement.deal_steps`)."""
