"""What the engine compiles from a form once, for every game of that form: :class:`CompiledForm`.

Like OpenSpiel's game object (its compiled parameters) against its states, or the object
``lark.Lark`` returns, a :class:`CompiledForm` is made once by :func:`compile_form` and
then only read.  It is kept on the form itself (``form.compiled``: a slot, not a dataclass
field, so no rule file, comparison, copy or walk over the rules sees it), so every
:class:`~tysiac_spec.engine.game.Game` of a form shares it, and it goes when the form goes:
the engine keeps no table of forms.

**The per-form compile pattern** (follow it for a new mechanism; a mechanism that is off
must cost nothing on the per-deal path):

- A phase's rules are read once, in a ``compile_*`` function of its module, which returns a
  closure of the deal (``play.compile_legal``, ``play.compile_apply``,
  ``scoring.compile_played``, ``auction.compile_amounts``, ``play.compile_marriage_bar``,
  ``play.compile_duties``, ``dealing.compile_deal_cards``, ``dealing.compile_redeal_checks``;
  the settlement's switches, ``match.compile_settlement``).  Every switch is decided
  there, not per card or per deal: a rule that is off is left out of the closure
  (``compile_marriage_bar`` returns ``play.never_barred``, which ``compile_legal`` then
  does not call; ``compile_duties`` adds the step of ``defenders_overtrump_declarer`` only where it is on;
  ``compile_played`` builds the deal facts only for a form whose formulas read some; a
  settlement calls no step of a mechanism the form switches off), or costs at most the
  test of a local flag (``lead_after_marriage``: ``lead_rule``).
- A formula is fetched once as ``formula.evaluator()`` (:class:`~tysiac_spec.ruleset.model.Formula`)
  in the compile function and called in the closure: the same value and errors as
  ``formula(env)``, without the method call.
- A formula evaluated every deal on a few plain values may keep its values by what it reads
  (``Formula.reads``: a formula is a function of them), in a bounded dict of the compiled
  closure (``scoring.compile_played``'s scores by the deal's numbers, a match rule's ``when``
  by the player's record: ``match.compile_settlement``); an environment or ``player`` record
  a formula does not read is not built (``env.UNREAD_BASE``).
- The closure keeps the parts of the form it needs (sections, values), not the game; the
  closures the whole game shares go here, as fields of :class:`CompiledForm`, made in
  :func:`compile_form`; a closure that needs the game (its formula environments) is made
  once per game in ``Game.__init__`` (``auction.compile_legal``).
- The explaining functions (``play.explain``, ``auction.explain``, …) may read the form
  directly: they run only for a refused action.
- A mechanism's step goes in a function of its own, made or called only when it is on
  (``play.compile_legal``'s ``role_duties`` and ``legal_from_hand``): in a hot function a
  comprehension that reads one of its locals makes that local a cell on every call (the
  declarations from the hand once cost ``legal_now`` two cells per call, about 1 % of a deal),
  and each closure variable is copied into every call's frame.

Checked by ``benchmarks/engine_fingerprint.py`` (the same games) and by instructions per
deal under callgrind (``benchmarks/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import limits
from ..cards import Card
from ..ruleset.model import Form, Formula, Marriages, Revoke
from . import all_pass, contracts, dealing, match, play, scoring, talon
from . import env as envs
from .actions import Action, ActionTable, PlayCard
from .seating import direction, seating, sides
from .seen import seen_cards
from .simple_settle import simple_settlement
from .state import DealState

__all__ = ["CompiledForm", "Switches", "compile_form", "compile_kinds", "compile_switches"]


@dataclass(frozen=True, slots=True, eq=False)
class Switches:
    """The switches of a form that a :class:`~tysiac_spec.engine.game.Game` reads as it
    runs, decided once per form (:func:`compile_switches`): which mechanisms are on, and the
    values read at each deal.  A new mechanism's switch is a field here, not an attribute of
    the game."""

    direction: int
    """The direction of play (:func:`.seating.direction`: 1 clockwise, -1 counter-clockwise)."""
    seatings: tuple[tuple[tuple[int, ...], int | None], ...]
    """By dealer: the active players in bidding order and the sitter (:func:`.seating.seating`)."""
    dealing_plan: dealing.DealingPlan | None
    """The fixed dealing of a form whose talon positions are not drawn (:func:`.dealing.dealing_plan`)."""
    aces: int
    """Cards of ``marriages.ace_marriage.rank`` in the pack."""
    talon_from_deal: bool
    """``talon.shown_from: deal``: the talon face up from the deal."""
    talon_from_round: bool
    """``talon.shown_from: second_round``: the talon turned up in the auction."""
    cuts: bool
    """``deal.cut.enabled``."""
    redeals: bool
    """Whether the form has redeal conditions (``deal.redeals``)."""
    before_play: bool
    """``marriages.declared_by: before_play``: the phase ``marriages`` before the first trick."""
    leader: str
    """``play.leader``."""
    team: tuple[int, ...] | None
    """The sides of fixed partnerships (:func:`.seating.sides`; ``None``: none)."""
    stock: int
    """``table.stock`` (0: no stock)."""
    stock_trump: bool
    """``table.stock_trump``."""
    revoke: Revoke | None
    """``play.revoke`` when a revoke is played and punished, else ``None`` (refused)."""
    named: bool
    """Whether the form has named contract kinds (``contract.kinds``): an auction action is
    applied by :func:`.contracts.apply_bid`, else by :func:`.auction.apply`."""
    contra_after: bool
    """Contra after the auction (``contract.contra.when: after_auction``)."""
    contra_before_play: bool
    """Contra before the play (``contract.contra.when: before_play``)."""
    around: bool
    """Whether each deal carries an :class:`~.state.Around` (named kinds, contra, selling the
    contract); a form with none of them makes none."""
    play_hooks: bool
    """Whether something runs before the play (named kinds, all-pass play, contra before the play)."""
    end_hooks: bool
    """Whether a finished deal may need more than the plain settlement (all-pass play, or a
    deal that carries an :class:`~.state.Around`)."""
    play_legal: Callable[[DealState], list[Action]]
    """The form's own legal plays: :attr:`CompiledForm.play_legal`, or with all-pass play the
    dispatch to its plays for a deal without a declarer."""
    play_apply: Callable[[DealState, PlayCard], None]
    """The form's own play of a card, dispatched likewise."""
    simple_settle: bool
    """Whether a deal is settled by :func:`.simple_settle.compile_simple_settle` (a match with
    nothing beyond the target and ``finishing``: :func:`.simple_settle.simple_settlement`)."""


def compile_switches(
    form: Form,
    pack: Sequence[Card],
    kinds: Mapping[str, contracts.KindPlay],
    all_pass_play: all_pass.AllPassPlayRules | None,
    play_legal: Callable[[DealState], list[Action]],
    play_apply: Callable[[DealState, PlayCard], None],
) -> Switches:
    """The :class:`Switches` of ``form`` played with ``pack`` (its named ``kinds``, its
    ``all_pass_play`` and its own ``play_legal`` and ``play_apply``, compiled before)."""
    if all_pass_play is not None:
        ap, plain_legal, plain_apply = all_pass_play, play_legal, play_apply

        def legal(deal: DealState) -> list[Action]:
            return (ap.legal if deal.declarer is None else plain_legal)(deal)

        def apply(deal: DealState, action: PlayCard) -> None:
            (ap.apply if deal.declarer is None else plain_apply)(deal, action)

        play_legal, play_apply = legal, apply
    c, rebuys = form.contract.contra, form.talon.rebuy.enabled
    contra_after = c.enabled and c.when == "after_auction"
    contra_before_play = c.enabled and c.when == "before_play"
    around = bool(kinds) or c.enabled or rebuys
    revoke = form.play.revoke
    ace = form.marriages.ace_marriage.rank
    return Switches(
        direction=direction(form),
        seatings=tuple((tuple(order), sitter) for order, sitter in
                       (seating(form, dealer) for dealer in range(form.players))),
        dealing_plan=dealing.dealing_plan(form),
        aces=sum(1 for card in pack if card.rank.id == ace),
        talon_from_deal=form.talon.shown_from == "deal",
        talon_from_round=form.talon.shown_from == "second_round",
        cuts=form.deal.cut.enabled,
        redeals=bool(form.deal.redeals),
        before_play=form.marriages.declared_by == "before_play",
        leader=form.play.leader,
        team=sides(form),
        stock=form.table.stock or 0,
        stock_trump=form.table.stock_trump,
        revoke=revoke if revoke.handling == "penalise" else None,
        named=bool(kinds),
        contra_after=contra_after,
        contra_before_play=contra_before_play,
        around=around,
        play_hooks=bool(kinds) or all_pass_play is not None or contra_before_play,
        end_hooks=around or all_pass_play is not None,
        play_legal=play_legal,
        play_apply=play_apply,
        simple_settle=simple_settlement(form) is None,
    )


@dataclass(frozen=True, slots=True, eq=False)
class CompiledForm:
    """A form compiled with its pack: the action objects, the play phase's legal plays
    and play (:func:`.play.compile_legal`, :func:`.play.compile_apply`), the exchange's legal
    actions (:func:`.talon.compile_legal_exchange`) and the scores of a played deal
    (:func:`.scoring.compile_played`).

    ``table`` hands out one object per action, which :meth:`Game.apply
    <tysiac_spec.engine.game.Game.apply>` recognises by identity.
    """

    pack: Sequence[Card]
    table: ActionTable
    play_legal: Callable[[DealState], list[Action]]
    play_apply: Callable[[DealState, PlayCard], None]
    exchange_legal: Callable[[DealState], list[Action]]
    """The exchange's legal actions (:func:`.talon.compile_legal_exchange`)."""
    score_played: scoring.PlayedScores
    """The scores of a played deal (:func:`.scoring.compile_played`; whether the deal facts are
    built is decided there, once)."""
    kinds: Mapping[str, contracts.KindPlay] = field(default_factory=dict)
    """The named contract kinds (``contract.kinds``) by id, each compiled with its own play and
    scores (:func:`compile_kinds`); empty for a form without them."""
    all_pass: all_pass.AllPassPlayRules | None = None
    """The plays of a deal everyone passed, played out without a declarer
    (:func:`.all_pass.compile_play`; ``None`` when the form has no all-pass play)."""
    deal_cards: dealing.DealCards | None = None
    """The dealing of a shuffled pack (:func:`.dealing.compile_deal_cards`; what
    :func:`.dealing.deal_cards` calls)."""
    redeal_checks: Mapping[str, dealing.RedealCheck] = field(default_factory=dict)
    """The redeal conditions by timing (:func:`.dealing.compile_redeal_checks`; what
    :func:`.dealing.redeal_check` calls)."""
    settlement: match.Settlement | None = None
    """The match mechanisms a deal's settlement runs (:func:`.match.compile_settlement`;
    what :func:`.match.settle_valid_deal` reads)."""
    switches: Switches | None = None
    """The switches a game reads as it runs (:func:`compile_switches`)."""
    bids_limit: int = 0
    """The most bids or contracts offered at one turn (:mod:`tysiac_spec.limits` ``bids``),
    read when the form is compiled, as :func:`.auction.compile_amounts` reads it (reading the
    environment costs about as much as the rest of the contract's amounts)."""
    max_bid_kept: HandKept | None = None
    """``auction.max_bid``'s values kept by the cards of the hand it can see
    (:func:`hand_kept`; read by :func:`.auction.highest_bid`), ``None`` when it reads more."""
    contract_kept: HandKept | None = None
    """The contracts the declarer may announce (:func:`.talon.contract_amounts`) kept by the
    cards of his hand that ``contract.max`` and ``contract.allowed`` can see and the bid,
    ``None`` when they read more (:func:`hand_kept`)."""
    may_bid_kept: HandKept | None = None
    """``auction.may_bid``'s allowed bids kept by the cards of the hand it can see and the high
    bid and forced bidder when it reads them (:func:`.auction.compile_amounts`), shared by every
    game of the form; ``None`` when it reads the player's base (then each game keeps its own)."""


HandKept = tuple[int, dict[Any, Any]]
"""Values of a hand's formulas kept by what they read: the bit set of the cards they can see
(:func:`.seen.seen_cards`; a key is the hand's bits masked by it, with the other values the
caller adds) and the dict of kept values (its reader clears it past 50,000 values)."""


def hand_kept(
    formulas: Sequence[Formula | None], pack: Sequence[Card], marriages: Marriages
) -> HandKept | None:
    """A :data:`HandKept` for ``formulas`` (those given: ``None`` is none; with none, every
    key's hand part is 0) when they read none of the player's base (:data:`.env.BASE_NAMES`:
    the player's record changes between deals, the options with the table); else ``None``.
    A formula is a function of what it reads, so a kept value is the value it would give
    again."""
    given = [f for f in formulas if f is not None]
    if any(not f.reads.isdisjoint(envs.BASE_NAMES) for f in given):
        return None
    seen = 0
    for f in given:
        seen |= seen_cards(f, "hand", pack, marriages)
    return seen, {}


def compile_form(form: Form, pack: Sequence[Card]) -> CompiledForm:
    """The :class:`CompiledForm` of ``form`` played with ``pack`` (the ruleset's
    ``deck.cards``): made on the first call and kept as ``form.compiled``; later calls with
    the same pack return that same object."""
    made = form.compiled
    if isinstance(made, CompiledForm) and made.pack is pack:
        return made
    table = ActionTable(pack)
    play_legal, play_apply = play.compile_legal(form, table, pack), play.compile_apply(form)
    kinds = compile_kinds(form, table, pack)
    all_pass_play = all_pass.compile_play(form, table, pack)
    made = CompiledForm(
        pack=pack,
        table=table,
        play_legal=play_legal,
        play_apply=play_apply,
        exchange_legal=talon.compile_legal_exchange(form, table),
        score_played=scoring.compile_played(form),
        kinds=kinds,
        all_pass=all_pass_play,
        deal_cards=dealing.compile_deal_cards(form),
        redeal_checks=dealing.compile_redeal_checks(form),
        settlement=match.compile_settlement(form),
        switches=compile_switches(form, pack, kinds, all_pass_play, play_legal, play_apply),
        bids_limit=limits.limit("bids"),
        max_bid_kept=hand_kept([form.auction.max_bid], pack, form.marriages),
        contract_kept=hand_kept([form.contract.max, form.contract.allowed], pack, form.marriages),
        may_bid_kept=hand_kept([form.auction.may_bid], pack, form.marriages),
    )
    object.__setattr__(form, "_compiled", made)  # a cache on a frozen form, as cached_property would
    return made


def compile_kinds(form: Form, table: ActionTable, pack: Sequence[Card]) -> dict[str, contracts.KindPlay]:
    """Each named kind of ``form`` (``contract.kinds``) compiled once: the play under
    :func:`.contracts.played_form` (the form's own compiled play when the kind changes none of
    it; a play that stops once the goal is decided, :func:`.contracts.compile_decided`) and the
    scores under :func:`.contracts.scored_form`.  Empty without named kinds."""
    out: dict[str, contracts.KindPlay] = {}
    for kind in form.contract.kinds:
        played = contracts.played_form(form, kind)
        out[kind.id] = contracts.KindPlay(
            kind=kind,
            form=played,
            play_legal=play.compile_legal(played, table, pack),
            play_apply=contracts.compile_decided(form, kind, play.compile_apply(played)),
            score_played=scoring.compile_played(contracts.scored_form(form, kind)),
        )
    return out
