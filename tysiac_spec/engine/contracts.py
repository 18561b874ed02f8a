"""Contract kinds (``contract.kinds``, :class:`~tysiac_spec.ruleset.model.ContractKind`): what
the declarer undertakes, how the play changes under it and how it is scored — the one home of
the named contracts (misère, slam, open hand) and of their bids in the auction.

The numeric contract, "make at least the contract in points", is the kind
:data:`~tysiac_spec.ruleset.model.POINTS_KIND`: every field at its default, so a deal played
under it is played and scored exactly as before (``deal.kind`` is ``None``: ``deal.around``,
:class:`~.state.Around`, holds the kind bid).  A named kind:

- is bid by its id (:class:`~.actions.NamedBid`, ``bid misere``), ranked among the numeric
  bids by its ``rank`` (:func:`compile_legal_auction`, :func:`apply_bid`, :func:`explain_bid`):
  a named bid with a rank counts as a numeric bid of that many points; one without outranks
  every numeric bid, and nothing may be bid over it (mekedron/thousand's
  ``bidding.named_contracts``: "a named bid outranks any number and nothing may bid over it");
- is played for its fixed ``value`` (the contract, never raised:
  :func:`~tysiac_spec.engine.talon.contract_amounts`);
- is played under :func:`played_form` (no marriage, or no trump: the play phase's own rules,
  compiled once per form and kind into :class:`KindPlay` by
  :func:`~tysiac_spec.engine.compiled.compile_form`), with the declarer's hand shown to every
  player when ``open_hand`` (:func:`open_hand`, read by ``Game.view``);
- is scored under :func:`scored_form` (its ``goal``, ``declarer`` and ``defender`` formulas in
  place of ``scoring.made``, ``scoring.declarer``, ``scoring.defender``), by the engine and the
  scoresheet alike (:func:`~tysiac_spec.engine.scoring.scores_and_made`).

Nothing here runs for a form without named kinds: the game asks this module only when
``contract.kinds`` is not empty (decided once per game), and the compiled form holds no
:class:`KindPlay` then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card
from ..dsl.bounds import LIMIT
from ..errors import TysiacError
from ..ruleset.model import MAX_COUNT, MAX_POINTS, POINTS_KIND, ContractKind, Form
from . import auction
from . import env as envs
from .actions import Action, ActionTable, Bid, DeclareMarriage, NamedBid, PlayCard
from .state import DealState

__all__ = [
    "ABOVE_NUMBERS",
    "KindPlay",
    "apply_bid",
    "avoids_tricks",
    "compile_decided",
    "compile_legal_auction",
    "explain_bid",
    "explain_play",
    "kind_of",
    "open_hand",
    "played_form",
    "rank_of",
    "scored_form",
    "start_play",
]

ABOVE_NUMBERS = LIMIT
"""The auction's high bid while a named bid without a ``rank`` leads: above every numeric bid
(so :func:`~tysiac_spec.engine.auction.compile_amounts` offers none over it)."""

Env = Callable[[int], dict[str, Any]]


@dataclass(frozen=True, slots=True, eq=False)
class KindPlay:
    """A named kind compiled for one form (:func:`~tysiac_spec.engine.compiled.compile_form`,
    kept in ``CompiledForm.kinds`` by the kind's id): the kind, the form its deals are played
    under (:func:`played_form`) with its legal plays and play of a card, and the scores of a
    played deal (:func:`~tysiac_spec.engine.scoring.compile_played` of :func:`scored_form`)."""

    kind: ContractKind
    form: Form
    play_legal: Callable[[DealState], list[Action]]
    play_apply: Callable[[DealState, PlayCard], None]
    score_played: Any
    """:data:`~tysiac_spec.engine.scoring.PlayedScores` of the kind."""


def kind_of(form: Form, kind: str | None) -> ContractKind:
    """The contract kind ``kind`` (an id of ``contract.kinds``) of ``form``;
    :data:`~tysiac_spec.ruleset.model.POINTS_KIND` for ``None``.

    Raises:
        KeyError: ``kind`` is not a kind of ``form``.
    """
    if kind is None:
        return POINTS_KIND
    for k in form.contract.kinds:
        if k.id == kind:
            return k
    raise KeyError(kind)


def rank_of(kind: ContractKind) -> int:
    """Where ``kind``'s named bid stands among the bids (points): its ``rank``, or
    :data:`ABOVE_NUMBERS` when it has none."""
    return ABOVE_NUMBERS if kind.rank is None else kind.rank


def played_form(form: Form, kind: ContractKind) -> Form:
    """The form a deal of ``kind`` is played under: ``form`` itself, but with no marriage
    declarable (not the ace marriage either) when ``kind.marriages`` is false, and none making
    a suit trump when ``kind.trump`` is false."""
    m = form.marriages
    if not kind.marriages:
        m = replace(m, from_trick=MAX_COUNT + 1, ace_marriage=replace(m.ace_marriage, enabled=False))
    if not kind.trump:
        m = replace(m, sets_trump=False, ace_marriage=replace(m.ace_marriage, sets_trump=False))
    return form if m is form.marriages else replace(form, marriages=m)


def scored_form(form: Form, kind: ContractKind) -> Form:
    """The form a deal of ``kind`` is scored under: ``form`` with the kind's ``goal``,
    ``declarer`` and ``defender`` formulas in place of ``scoring.made``, ``scoring.declarer``
    and ``scoring.defender`` (each only where the kind writes one)."""
    s = form.scoring
    if kind.goal is None and kind.declarer is None and kind.defender is None:
        return form
    return replace(
        form,
        scoring=replace(
            s,
            made=kind.goal or s.made,
            declarer=kind.declarer or s.declarer,
            defender=kind.defender or s.defender,
        ),
    )


# ---------------------------------------------------------------------------- the auction


def _lead(form: Form, deal: DealState) -> int:
    """The rank of the high bid (points): a named kind's (:func:`rank_of`), the numeric high
    bid, or -1 before any bid."""
    if deal.kind is not None:
        return rank_of(kind_of(form, deal.kind))
    return deal.high_bid if deal.high_bidder is not None else -1


def compile_legal_auction(
    form: Form, table: ActionTable, env: Env
) -> Callable[[DealState], list[Action]]:
    """The legal auction actions of a form with named kinds: the numeric bids
    (:func:`~tysiac_spec.engine.auction.compile_legal`), then the named bids that outrank the
    high bid (a rank above it; a named bid without a rank outranks every numeric bid and no
    named bid outranks it), in the order of ``contract.kinds``, then ``pass``."""
    numeric = auction.compile_legal(form, table, env)
    named = [(NamedBid(k.id), rank_of(k)) for k in form.contract.kinds]
    pass_ = table.pass_

    def legal_now(deal: DealState) -> list[Action]:
        out = numeric(deal)
        lead = _lead(form, deal)
        extra = [b for b, r in named if r > lead]
        if not extra:
            return out
        if out and out[-1] is pass_:
            return [*out[:-1], *extra, pass_]
        return [*out, *extra]

    return legal_now


def apply_bid(form: Form, deal: DealState, action: Action, text: str) -> None:
    """Record a legal auction action of a form with named kinds: a named bid as a bid of its
    rank (:func:`rank_of`; ``deal.kind`` its id), a numeric bid over it (``deal.kind`` back to
    ``None``), a pass (:func:`~tysiac_spec.engine.auction.apply`).  When the auction ends won
    by a named bid, the bid becomes the kind's ``value`` (its fixed contract); the numeric
    high bid a named bid outranks is kept as ``top_bid`` (the scoring formulas' ``top_bid``)."""
    a = deal.around
    assert a is not None  # (made for every deal of a form with named kinds)
    if type(action) is NamedBid:
        kind = kind_of(form, action.kind)
        if a.kind is None and deal.high_bidder is not None:  # the numeric bid it outranks
            a.top_bid = deal.high_bid
        auction.apply(form, deal, Bid(rank_of(kind)), text)
        a.kind = kind.id
    else:
        if type(action) is Bid:
            a.kind = None
        auction.apply(form, deal, action, text)
    if a.kind is not None and deal.phase != "auction":
        value = kind_of(form, a.kind).value
        deal.high_bid = value if value is not None else deal.high_bid


def explain_bid(form: Form, deal: DealState, action: Action, env: Env) -> str:
    """Why an auction action is not legal in a form with named kinds, or ``""`` to let
    :func:`~tysiac_spec.engine.auction.explain` say it: a named bid the ruleset does not know,
    or one that does not outrank the high bid; a numeric bid over a named bid without a rank."""
    names = [k.id for k in form.contract.kinds]
    lead = _lead(form, deal)
    leading = f"`bid {deal.kind}`" if deal.kind is not None else f"the bid of {deal.high_bid}"
    if isinstance(action, NamedBid):
        if action.kind not in names:
            listed = ", ".join(f"`bid {n}`" for n in names) or "none, `contract.kinds`"
            return f"the ruleset has no named contract `{action.kind}` (named bids: {listed})"
        if rank_of(kind_of(form, action.kind)) <= lead:
            return f"`bid {action.kind}` does not outrank {leading}"
    if isinstance(action, Bid) and deal.kind is not None and lead >= ABOVE_NUMBERS:
        return f"no numeric bid may be made over a named contract ({leading})"
    return ""


# ---------------------------------------------------------------------------- play and views


def start_play(kind: ContractKind, deal: DealState) -> None:
    """Open the play of a deal of ``kind``: without a trump (``kind.trump`` false) a trump
    turned up before play (``table.stock_trump``) does not count."""
    if not kind.trump:
        deal.trump = deal.pending_trump = None


def explain_play(kind: ContractKind, deal: DealState, action: Action) -> str:
    """Why a play is refused in a deal of ``kind`` when the kind itself forbids it (a marriage
    in a kind without marriages), else ``""``."""
    declares = isinstance(action, PlayCard) and action.declares
    if not kind.marriages and (declares or type(action) is DeclareMarriage):
        return f"no marriage may be declared in a `{kind.id}` deal"
    return ""


def open_hand(form: Form, deal: DealState) -> tuple[Card, ...]:
    """The declarer's hand shown to every player: in a deal of an ``open_hand`` kind, from the
    first trick (phases ``marriages`` and ``play``) to the end; else nothing."""
    if deal.kind is None or deal.declarer is None or deal.phase not in ("marriages", "play"):
        return ()
    if not kind_of(form, deal.kind).open_hand:
        return ()
    return tuple(deal.hands[deal.declarer])



def compile_decided(
    form: Form, kind: ContractKind, apply_card: Callable[[DealState, PlayCard], None]
) -> Callable[[DealState, PlayCard], None]:
    """The play of a card in a deal of ``kind``, ending the deal (phase ``over``) when a trick
    closes and the goal is decided (``kind.ends_when_decided``): the goal (``kind.goal``, else
    ``scoring.made``, reading only ``tricks``, ``others_tricks``, ``contract`` and
    ``players``: ``contract.kind-ends``) is the same for every split of the tricks left
    between the declarer and the others.  ``apply_card`` itself for any other kind (decided
    once per form and kind, :func:`~tysiac_spec.engine.compiled.compile_kinds`).  The cards
    still in hand stay there, played by nobody and counted for nobody."""
    if not kind.ends_when_decided:
        return apply_card
    goal = (kind.goal or form.scoring.made).evaluator()
    contract, players = kind.value or 0, form.active

    def decided(deal: DealState) -> bool:
        assert deal.declarer is not None
        left = len(deal.hands[deal.current]) + len(deal.stock) // len(deal.order)
        mine = deal.tricks.get(deal.declarer, 0)
        theirs = deal.trick_number - mine
        seen = set()
        for k in range(left + 1):  # the declarer takes k of the tricks left
            facts = {"others_tricks": theirs + left - k}
            seen.add(bool(goal(envs.scoring_made(players, {}, 0, 0, mine + k, contract, facts))))
        return len(seen) == 1

    def apply_and_stop(deal: DealState, action: PlayCard) -> None:
        apply_card(deal, action)
        if not deal.trick and deal.phase == "play" and decided(deal):
            deal.phase = "over"

    return apply_and_stop


def avoids_tricks(form: Form, kind: ContractKind) -> bool:
    """Whether ``kind``'s goal is met by a declarer who takes no trick and missed by one who
    takes every trick (misère), judged by evaluating the goal (``kind.goal``, else
    ``scoring.made``) on those two deals; read by the bots, which then duck every trick.
    False when the goal cannot be judged so (it reads a table option, or fails)."""
    goal = kind.goal or form.scoring.made
    tricks, deck_points = form.table.hand_size, MAX_POINTS  # (every point there is, whatever the pack)
    contract = kind.value or 0
    facts_none = {"won": (), "last_trick": False, "declared": 0, "drowned": 0, "others_points": deck_points,
                  "declarer_points": 0, "seat": 0, "mode": "normal", "others_tricks": tricks}
    facts_all = {**facts_none, "last_trick": True, "others_points": 0, "declarer_points": deck_points,
                 "others_tricks": 0}
    try:
        none = goal(envs.scoring_made(form.active, {}, 0, 0, 0, contract, facts_none))
        every = goal(envs.scoring_made(form.active, {}, deck_points, 0, tricks, contract, facts_all))
    except (TysiacError, KeyError, TypeError):
        return False
    return bool(none) and not bool(every)
