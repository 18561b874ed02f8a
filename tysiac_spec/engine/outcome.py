"""Whether a deal's outcome can happen under a ruleset, stated once: the engine's settlement
(:func:`tysiac_spec.engine.match.settle_deal`), the scoresheet's check of an entry read from
a file (:func:`tysiac_spec.scoresheet.check_entry`) and its questions (one answer at a time)
all read these rules.

As in jsonschema, each rule is a generator that yields every problem it finds as a
:class:`~tysiac_spec.errors.MatchError` (code ``match.outcome``), so the same statement can
raise the first problem (:func:`validate_outcome`), collect them all (``list(...)``) or be
tested.  Each error's ``diagnostic.path`` names the outcome's field first (``("bid",)``,
``("card_points", 1)``: player 1's card points); a player in a message is written
``player 1`` (the scoresheet puts the name on the sheet in its place).

The per-field generators take plain values, so that a question can check its answer before
the deal is complete; :func:`iter_outcome_errors` runs them all on a
:class:`~tysiac_spec.engine.scoring.DealOutcome`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from ..errors import Diagnostic, MatchError
from ..ruleset.model import Form
from .auction import barrel_taker, bid_steps
from .scoring import AllPassOutcome, DealOutcome
from .seating import bidding_order, first_hand


class _BarrelSeat(Protocol):
    @property
    def on(self) -> bool: ...


class Standing(Protocol):
    """What the checks read of the match as it stands: a
    :class:`~tysiac_spec.engine.match.MatchState` (a protocol here, so that this module and
    :mod:`.match`, which calls it, do not import each other)."""

    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def forfeits(self) -> tuple[int, ...]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def golden_left(self) -> int: ...
    @property
    def deck_points(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def barrel(self) -> Sequence[_BarrelSeat]: ...

__all__ = [
    "all_pass_played",
    "barrel_deal_taker",
    "can_forfeit",
    "contra_factors",
    "discards_to",
    "fixed_bid",
    "golden_round_on",
    "iter_all_pass_errors",
    "iter_bid_errors",
    "iter_card_point_errors",
    "iter_contra_errors",
    "iter_contract_errors",
    "iter_forfeit_errors",
    "iter_kind_errors",
    "iter_marriage_errors",
    "iter_mode_errors",
    "iter_outcome_errors",
    "iter_sold_errors",
    "iter_table_errors",
    "iter_trick_errors",
    "marriage_sums",
    "marriages_possible",
    "may_declare",
    "may_raise",
    "may_sell",
    "sets_aside",
    "sitter_talon_needed",
    "tricks_needed",
    "validate_outcome",
]

Problems = Iterator[MatchError]


def _problem(path: tuple[str | int, ...], message: str) -> MatchError:
    return MatchError(Diagnostic("match.outcome", message, path=path))


def discards_to(form: Form) -> str:
    """Who scores the cards the declarer discarded in the exchange: ``"last_trick"`` (the
    winner of the last trick), ``"declarer"`` or ``"nobody"``.  The one home of this rule,
    read by the play (:func:`tysiac_spec.engine.play.compile_apply`, which hands the discards
    over at the end of the deal) and by :func:`sets_aside`.  Only ``talon.exchange:
    discard`` discards (buried cards of ``give_and_bury`` count for the declarer at once);
    with ``talon.leftover.cards: unchosen_and_discards`` they go where ``leftover.to`` says,
    else where ``leftover.discards_to`` says (``same``: where ``to`` says)."""
    lo = form.talon.leftover
    if form.talon.exchange != "discard":
        return "nobody"
    if lo.cards == "unchosen_and_discards" or lo.discards_to == "same":
        return lo.to
    return lo.discards_to


def sets_aside(form: Form) -> bool:
    """Whether some card points of a deal may score for nobody, so that the players' card
    points may add up to less than the pack's total: cards discarded in the exchange
    (``talon.exchange: discard``) that :func:`discards_to` gives to nobody, an unchosen talon
    (``take: choose_one``) given to nobody, or cards left out of the deal
    (``players.N.left_out``)."""
    t, lo = form.talon, form.talon.leftover
    if form.table.left_out:
        return True
    unchosen = t.take == "choose_one" and lo.to == "nobody"
    if t.exchange != "discard":
        return unchosen
    return unchosen or discards_to(form) == "nobody"


def marriage_sums(form: Form) -> set[int]:
    """Every total of marriage points one player can declare in a deal (points; each suit's
    marriage and the ace marriage at most once; ``0`` included)."""
    values = list(form.marriages.values.values())
    if form.marriages.ace_marriage.enabled:
        values.append(form.marriages.ace_marriage.value)
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return sums


# ------------------------------------------------------------------ which fields apply
# What a deal's outcome holds depends on the form and on what is known of the deal so far;
# the scoresheet asks a question exactly when one of these says its field applies.


def golden_round_on(form: Form, state: Standing) -> bool:
    """Whether the next deal falls in a golden round (``special.golden_round``, while
    ``state.golden_left`` deals of it are left): the engine then deals a golden deal."""
    return form.special.golden_round.enabled and state.golden_left > 0


def may_declare(form: Form, state: Standing, mode: str, *, declarer: int, dealer: int) -> bool:
    """Whether the ruleset lets ``declarer`` play the deal dealt by ``dealer`` in ``mode``
    (``dark`` or ``golden``): :func:`iter_mode_errors` finds nothing but a refusal for the
    player's standing in the match (a negative score, ``dark.forbidden_when_negative``),
    which is for the answer to explain."""
    return not any(iter_mode_errors(form, state, mode=mode, declarer=declarer, dealer=dealer, standing=False))


def barrel_deal_taker(form: Form, state: Standing, *, mode: str) -> int | None:
    """The player who takes the deal dealt by ``state.dealer`` on the barrel, without an
    auction, at the barrel's ``goal`` (:func:`~.auction.barrel_taker`: the barrel played
    without bidding and an active player on it); ``None`` for a dark or golden deal, in a
    golden round (which comes first), or when no deal on the barrel is due."""
    if mode != "normal" or golden_round_on(form, state):
        return None
    on = [s.on for s in state.barrel]
    return barrel_taker(form, on, bidding_order(form, state.dealer)) if any(on) else None


def fixed_bid(form: Form, mode: str) -> int | None:
    """The bid (points) of a deal without an auction: a dark game's ``dark.contract``, a
    golden deal's ``golden_round.contract``; ``None`` for a normal deal or a golden deal that
    keeps its auction (``golden_round.auction``): the bid is won."""
    if mode == "dark":
        return form.special.dark.contract
    if mode == "golden" and not form.special.golden_round.auction:
        return form.special.golden_round.contract
    return None


def may_raise(form: Form, mode: str) -> bool:
    """Whether the declarer of a ``mode`` deal may raise the bid after the exchange
    (``contract.raise_allowed``; ``dark.raise_allowed``, ``golden_round.raise_allowed``);
    the game also offers no raise to a declarer on the barrel (``engine/talon.py``)."""
    if mode == "dark":
        return form.special.dark.raise_allowed
    if mode == "golden":
        return form.special.golden_round.raise_allowed
    return form.contract.raise_allowed


def can_forfeit(form: Form, state: Standing, *, declarer: int, bid: int, mode: str) -> bool:
    """Whether the ruleset lets this deal be forfeited (rospis / bomb):
    :func:`iter_forfeit_errors` finds nothing but a refusal for the declarer's standing in
    the match (every forfeit the table allows used, ``forfeit.mode.limit``), which is for
    the answer to explain."""
    return not any(iter_forfeit_errors(form, state, declarer=declarer, bid=bid, mode=mode, standing=False))


def marriages_possible(form: Form) -> bool:
    """Whether a player can declare marriage points at all (:func:`marriage_sums` has more
    than ``0``, or ``marriages.value`` gives them by formula)."""
    return form.marriages.value is not None or len(marriage_sums(form)) > 1


def tricks_needed(form: Form) -> bool:
    """Whether a played deal's outcome must say who took no trick: bolts counted on deals
    without a trick (``special.bolts.counts: no_trick``)."""
    bolts = form.special.bolts
    return bolts.enabled and bolts.counts == "no_trick"


def sitter_talon_needed(form: Form, sitter: int | None) -> bool:
    """Whether the outcome must give the dealt talon: a player sits out (``sitter``) and
    scores the talon (``table.sitter.score``)."""
    spec = form.table.sitter
    return sitter is not None and spec is not None and spec.score is not None


def iter_table_errors(form: Form, state: Standing, outcome: DealOutcome) -> Problems:
    """Who plays: the match is not over; the active players and the sitter sit at the table,
    ``table.active`` of them play and one sits out when fewer play than sit; the declarer
    plays the deal."""
    n = state.players
    if state.winner is not None:
        yield _problem(("match",), f"the match is over (player {state.winner} won); no deal can be settled")
        return
    active = outcome.active(n)
    for p in (*active, *([outcome.sitter] if outcome.sitter is not None else [])):
        if not 0 <= p < n:
            yield _problem(("players",), f"player {p} is not at the table (players 0..{n - 1})")
    if outcome.sitter is not None and form.active == n:
        yield _problem(("sitter",), f"with {n} players nobody sits out (got sitter {outcome.sitter})")
    if len(active) != form.active:
        yield _problem(
            ("players",), f"a deal has {form.active} active players (got {len(active)}: {list(active)})"
        )
    if not 0 <= outcome.declarer < n:
        yield _problem(
            ("declarer",), f"the declarer {outcome.declarer} is not at the table (players 0..{n - 1})"
        )
    elif outcome.declarer not in active:
        yield _problem(("declarer",), f"the declarer {outcome.declarer} is not an active player of the deal")
    if outcome.sitter is not None and outcome.sitter in active:
        yield _problem(("sitter",), f"the sitter {outcome.sitter} cannot also play the deal")
    if form.active < n and outcome.sitter is None:
        yield _problem(("sitter",), f"with {n} players one sits out: give the sitter")


def iter_mode_errors(
    form: Form, state: Standing, *, mode: str, declarer: int, dealer: int, standing: bool = True
) -> Problems:
    """A dark game (``special.dark``) or a golden-round deal (``special.golden_round``) the
    ruleset and the match allow: a golden deal only while the golden round is on
    (``state.golden_left``), declared by the first hand after ``dealer`` (by whoever won its
    auction with ``golden_round.auction``); a dark game by the
    first hand when ``dark.who`` is ``first_hand``, and not by a player with a negative score
    when ``dark.forbidden_when_negative`` (checked unless ``standing`` is false)."""
    sp = form.special
    if mode == "dark":
        if not sp.dark.enabled:
            yield _problem(("mode",), "a dark game was given, but the ruleset (with these options) has none")
            return
        fh = first_hand(form, dealer)
        if sp.dark.who == "first_hand" and declarer != fh:
            yield _problem(
                ("declarer",),
                f"only the first hand (player {fh}) may play a dark game, not player {declarer}",
            )
        negative = 0 <= declarer < state.players and state.scores[declarer] < 0
        if standing and sp.dark.forbidden_when_negative and negative:
            yield _problem(("mode",), f"player {declarer} has a negative score: no dark game")
        taker = barrel_deal_taker(form, state, mode="normal")
        if taker is not None:
            yield _problem(
                ("mode",), f"player {taker} is on the barrel and takes the deal: no dark game"
            )
    elif mode == "golden":
        if not sp.golden_round.enabled:
            yield _problem(
                ("mode",), "a golden-round deal was given, but the ruleset (with these options) has none"
            )
            return
        if not state.golden_left:
            yield _problem(("mode",), "a golden deal outside a golden round")
        fh = first_hand(form, dealer)
        if declarer != fh and not sp.golden_round.auction:  # with its auction: whoever won it
            yield _problem(
                ("declarer",),
                f"in a golden deal the first hand (player {fh}) is the declarer, not player {declarer}",
            )


def iter_bid_errors(form: Form, *, mode: str, bid: int, barrel: bool = False) -> Problems:
    """A winning bid (points) the auction allows (:func:`~.auction.bid_steps`): not negative;
    in a normal deal at least the lowest bid (``auction.min_bid``, or the ``forced_bid`` when
    it is lower and a seat is forced), in a golden deal at least the golden round's contract;
    a multiple of ``auction.step``; at most ``auction.cap``.  A dark game's bid is its fixed
    contract and is not checked here.  A deal on the barrel without an auction (``barrel``,
    :func:`barrel_deal_taker`) is played at ``special.barrel.goal``, whatever the step (S002's
    121 with bids in fives)."""
    if bid < 0:
        yield _problem(("bid",), f"the bid must not be negative (got {bid})")
        return
    if mode == "dark":
        return
    if barrel:
        goal = form.special.barrel.goal
        if bid != goal:
            yield _problem(
                ("bid",), f"a deal on the barrel is played at the barrel's goal, {goal}, "
                f"without an auction (got {bid})"
            )
        return
    steps = bid_steps(form)
    low = form.special.golden_round.contract if mode == "golden" else steps.lowest
    if bid < low:
        yield _problem(("bid",), f"the bid must be at least {low} (got {bid})")
    if not steps.on_step(bid):
        yield _problem(("bid",), f"bids are multiples of {steps.step} (got {bid})")
    if steps.over_cap(bid):
        yield _problem(("bid",), f"no bid above {steps.cap} in this game (got {bid})")


def iter_contract_errors(
    form: Form, *, bid: int, contract: int, mode: str = "normal", barrel: bool = False
) -> Problems:
    """A contract (points) after the exchange: not below the bid; above it only when a
    ``mode`` deal may be raised (:func:`may_raise`) and it is not a deal on the barrel
    without an auction (``barrel``: the game offers no raise there), and then a multiple of
    ``contract.step`` (:func:`~.auction.bid_steps`)."""
    steps = bid_steps(form)
    if contract < bid:
        yield _problem(("contract",), f"the contract {contract} is below the bid {bid}")
    elif contract > bid and (barrel or not may_raise(form, mode)):
        what = ("the contract on the barrel" if barrel else
                "the contract" if mode == "normal" else f"a {mode} deal's contract")
        yield _problem(("contract",), f"{what} may not be raised above the bid {bid} (got {contract})")
    elif not steps.contract_on_step(bid, contract):
        yield _problem(
            ("contract",), f"a raised contract is a multiple of {steps.contract_step} (got {contract})"
        )


def iter_forfeit_errors(
    form: Form, state: Standing, *, declarer: int, bid: int, mode: str, standing: bool = True
) -> Problems:
    """A forfeit (rospis / bomb) the ruleset allows: ``contract.forfeit`` on; with
    ``only_when_forced`` only a normal deal won at the forced bid; at most
    ``forfeit.mode.limit`` forfeits per player in the match (checked unless ``standing`` is
    false)."""
    f = form.contract.forfeit
    if not f.enabled:
        yield _problem(
            ("forfeited",), "the deal was forfeited, but the ruleset (with these options) allows no forfeit"
        )
        return
    if f.only_when_forced and (bid != form.auction.forced_bid or mode != "normal"):
        yield _problem(
            ("forfeited",),
            f"only a normal deal won at the forced bid {form.auction.forced_bid} "
            f"may be forfeited (got {mode}, bid {bid})",
        )
    if (
        standing
        and 0 <= declarer < state.players
        and f.mode.limit is not None
        and state.forfeits[declarer] >= f.mode.limit
    ):
        yield _problem(
            ("forfeited",), f"player {declarer} has used all {f.mode.limit} forfeit(s) the table allows"
        )


def iter_kind_errors(
    form: Form, *, kind: str, bid: int, contract: int, mode: str, marriages: Mapping[int, int]
) -> Problems:
    """A deal played as a named contract (``contract.kinds``, :mod:`.contracts`): one of the
    form's kinds, won in a normal deal's auction, its bid and contract the kind's fixed
    ``value``, and no marriage declared when the kind allows none."""
    kinds = {k.id: k for k in form.contract.kinds}
    k = kinds.get(kind)
    if k is None:
        listed = ", ".join(f"`{n}`" for n in kinds) or "none"
        yield _problem(("kind",), f"the ruleset has no named contract `{kind}` (named contracts: {listed})")
        return
    if mode != "normal":
        yield _problem(("kind",), f"a named contract is won in the auction, not in a {mode} deal")
    if bid != k.value or contract != k.value:
        yield _problem(
            ("contract",),
            f"the named contract `{kind}` is played for {k.value} (got bid {bid}, contract {contract})",
        )
    if not k.marriages and any(marriages.values()):
        yield _problem(("marriages",), f"no marriage may be declared in a `{kind}` deal")


def iter_card_point_errors(
    form: Form, *, deck_points: int, card_points: Mapping[int, int], active: Sequence[int]
) -> Problems:
    """Card points by player (points) of a played deal: only for active players, each
    ``0..deck_points``, adding up to ``deck_points`` — or to less when the ruleset sets cards
    aside (:func:`sets_aside`)."""
    for p, cp in card_points.items():
        if p not in active:
            yield _problem(
                ("card_points", p), f"card points given for player {p}, who does not play the deal"
            )
        elif not 0 <= cp <= deck_points:
            yield _problem(
                ("card_points", p), f"card points of player {p} must be 0..{deck_points} (got {cp})"
            )
    got = sum(card_points.values())
    if got > deck_points or (got != deck_points and not sets_aside(form)):
        yield _problem(
            ("card_points",), f"card points must add up to the deck total {deck_points} (got {got})"
        )


def iter_marriage_errors(form: Form, *, marriages: Mapping[int, int], active: Sequence[int]) -> Problems:
    """Declared marriage points by player (points): only for active players, each a sum of
    distinct marriages (:func:`marriage_sums`), all together not more than every marriage —
    unless ``marriages.value`` makes a marriage's points depend on the deal, when only the
    players are checked."""
    by_formula = form.marriages.value is not None
    sums = marriage_sums(form)
    for p, m in marriages.items():
        if p not in active:
            yield _problem(
                ("marriages", p), f"marriage points given for player {p}, who does not play the deal"
            )
        elif by_formula:
            continue
        elif m not in sums:
            allowed = ", ".join(str(v) for v in sorted(sums))
            yield _problem(
                ("marriages", p),
                f"marriage points of player {p} must be a sum of marriages: {allowed} (got {m})",
            )
    if not by_formula and sum(marriages.values()) > max(sums):
        yield _problem(
            ("marriages",), f"marriage points of all players exceed every marriage there is ({max(sums)})"
        )


def iter_trick_errors(
    form: Form, *, tricks: Mapping[int, int], card_points: Mapping[int, int], marriages: Mapping[int, int]
) -> Problems:
    """Tricks won by player: none negative; somebody took a trick; a player without a trick
    has no card points, nor a marriage when ``marriages.requires_won_trick``."""
    for p, t in tricks.items():
        if t < 0:
            yield _problem(("tricks", p), f"tricks of player {p} must not be negative (got {t})")
        elif t == 0 and card_points.get(p, 0) > 0:
            yield _problem(("tricks", p), f"player {p} has {card_points[p]} card points, so took a trick")
        elif t == 0 and marriages.get(p, 0) > 0 and form.marriages.requires_won_trick:
            yield _problem(("tricks", p), f"player {p} declared a marriage, so took a trick")
    if tricks and not any(tricks.values()):
        yield _problem(("tricks",), "somebody took the tricks")


def iter_outcome_errors(form: Form, state: Standing, outcome: DealOutcome) -> Problems:
    """Every reason why ``outcome`` cannot happen under ``form`` in ``state`` (the deal dealt
    by ``state.dealer``), in this order: who plays (:func:`iter_table_errors`; nothing more
    is checked when the match is over or the declarer is not at the table), the bid and the
    contract (for a named contract, :func:`iter_kind_errors`), the multiplier, the mode, then
    for a forfeit the forfeit, else the card points, marriages and tricks."""
    table = list(iter_table_errors(form, state, outcome))
    yield from table
    if any(e.diagnostic.path[0] in ("match", "players", "declarer") for e in table):
        return
    o = outcome
    active = o.active(state.players)
    if o.kind is not None:  # a named contract (contract.kinds): its own bid and contract
        yield from iter_kind_errors(
            form, kind=o.kind, bid=o.bid, contract=o.contract, mode=o.mode, marriages=o.marriages
        )
    else:
        taker = barrel_deal_taker(form, state, mode=o.mode)
        if taker is not None and o.declarer != taker:
            yield _problem(
                ("declarer",), f"player {taker} is on the barrel and takes the deal without an "
                f"auction, not player {o.declarer}"
            )
        on_barrel = taker is not None
        yield from iter_bid_errors(form, mode=o.mode, bid=o.bid, barrel=on_barrel)
        if o.contract < 0:
            yield _problem(("contract",), f"the contract must not be negative (got {o.contract})")
        yield from iter_contract_errors(form, bid=o.bid, contract=o.contract, mode=o.mode, barrel=on_barrel)
    if o.multiplier is not None and o.multiplier < 1:
        yield _problem(("multiplier",), f"the multiplier must be 1 or more (got {o.multiplier})")
    yield from iter_mode_errors(form, state, mode=o.mode, declarer=o.declarer, dealer=state.dealer)
    if o.contra != 1 or form.contract.contra.enabled:
        yield from iter_contra_errors(form, contra=o.contra, mode=o.mode)
    if o.forfeited:
        yield from iter_forfeit_errors(form, state, declarer=o.declarer, bid=o.bid, mode=o.mode)
        return
    yield from iter_card_point_errors(
        form, deck_points=state.deck_points, card_points=o.card_points, active=active
    )
    yield from iter_marriage_errors(form, marriages=o.marriages, active=active)
    if o.tricks is not None:
        yield from iter_trick_errors(form, tricks=o.tricks, card_points=o.card_points, marriages=o.marriages)


# ------------------------------------------------------------------ around the contract


def contra_factors(form: Form) -> tuple[int, ...]:
    """The factors contra and redouble can give a contract (``contract.contra``), ascending:
    1 (nobody doubled), ``multiplier``, and with ``redouble`` ``multiplier`` ×
    ``redouble_multiplier``; ``(1,)`` when contra is off."""
    c = form.contract.contra
    if not c.enabled:
        return (1,)
    out = {1, c.multiplier}
    if c.redouble:
        out.add(c.multiplier * c.redouble_multiplier)
    return tuple(sorted(out))


def iter_contra_errors(form: Form, *, contra: int, mode: str) -> Problems:
    """The factor of contra and redouble on the contract: one of :func:`contra_factors`; 1 in
    a golden or dark deal (no contra there: :mod:`.contra`)."""
    allowed = contra_factors(form) if mode == "normal" else (1,)
    if contra not in allowed:
        yield _problem(
            ("contra",),
            f"the contra factor must be one of {', '.join(map(str, allowed))} (got {contra})"
            + ("" if mode == "normal" else f": a {mode} deal has no contra"),
        )


def may_sell(form: Form, mode: str) -> bool:
    """Whether a ``mode`` deal's contract may have been bought from its declarer
    (``talon.rebuy``: only after an auction, :mod:`.rebuy`)."""
    return form.talon.rebuy.enabled and mode == "normal"


def iter_sold_errors(form: Form, *, mode: str) -> Problems:
    """A contract bought from the declarer (``talon.rebuy``): the ruleset allows it, in a
    normal deal (:func:`may_sell`).  The bid is then the buyer's price."""
    if not form.talon.rebuy.enabled:
        yield _problem(
            ("sold",), "the contract was bought, but the ruleset (with these options) allows no rebuy"
        )
    elif mode != "normal":
        yield _problem(("sold",), f"a {mode} deal's contract cannot be bought: only one won in an auction")


def all_pass_played(form: Form) -> bool:
    """Whether a deal everyone passes is played out without a declarer (``auction.all_pass:
    play``, :mod:`.all_pass`)."""
    return form.auction.all_pass == "play" and form.auction.all_pass_play is not None


def iter_all_pass_errors(form: Form, state: Standing, outcome: AllPassOutcome) -> Problems:
    """Every reason why a deal played out without a declarer cannot happen under ``form``:
    the ruleset plays one (:func:`all_pass_played`), the match is on and not in its golden
    round (a golden deal has no auction), card points only for
    the active players adding up to the deck total (to less when the talon scores for
    nobody, ``all_pass_play.talon: nobody``), tricks as :func:`iter_trick_errors` says."""
    if state.winner is not None:
        yield _problem(("match",), "the match is over")
        return
    rules = form.auction.all_pass_play
    if not all_pass_played(form) or rules is None:
        yield _problem(("all_pass",), "nobody declared, but the ruleset does not play a deal everyone passes")
        return
    if golden_round_on(form, state):
        yield _problem(("all_pass",), "a golden-round deal has no auction: everyone cannot have passed")
        return
    active = outcome.active(state.players)
    total, cp = state.deck_points, outcome.card_points
    for p, v in cp.items():
        if p not in active:
            yield _problem(
                ("card_points", p), f"card points given for player {p}, who does not play the deal"
            )
        elif not 0 <= v <= total:
            yield _problem(("card_points", p), f"card points of player {p} must be 0..{total} (got {v})")
    got = sum(cp.values())
    if got > total or (got != total and rules.talon != "nobody"):
        yield _problem(("card_points",), f"card points must add up to the deck total {total} (got {got})")
    if outcome.tricks is not None:
        yield from iter_trick_errors(form, tricks=outcome.tricks, card_points=cp, marriages={})


def validate_outcome(form: Form, state: Standing, outcome: DealOutcome) -> None:
    """Check that ``outcome`` can happen under ``form`` in ``state``.

    Raises:
        MatchError: ``match.outcome``, the first problem :func:`iter_outcome_errors` finds.
    """
    for error in iter_outcome_errors(form, state, outcome):
        raise error
