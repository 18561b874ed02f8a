"""The scoresheet's settlement: every deal of a :class:`~.sheetfile.Sheet` checked and settled
in order by the engine's own match rules (:func:`tysiac_spec.engine.match.settle_deal`, and
:func:`~tysiac_spec.engine.match.settle_all_pass` for a deal everyone passed); the scores are
never stored, so undoing a deal is dropping its entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import env as envs
from ..engine import outcome as rules_of
from ..engine.all_pass import AllPassOutcome
from ..engine.events import MatchEvent
from ..engine.incidents import payments, penalty_of
from ..engine.match import MatchState, charge_seat, settle_all_pass, settle_deal
from ..engine.scoring import DealOutcome, with_terms
from ..engine.seating import active_players, redeal_dealer, sitter_of
from ..errors import EntryError, MatchError, NotationError
from ..ruleset.model import Form, Ruleset
from ..text import shorten, signed
from .carry import state_from_data
from .notation import _entry_error, _iter_marriage_notation_errors, _iter_talon_errors, marriage_value
from .sheetfile import MODES, DealEntry, Sheet, _err

__all__ = [
    "Settled",
    "all_pass_outcome_of_entry",
    "charge_incidents",
    "check_entry",
    "contract_label",
    "dealer_due",
    "dealt_state",
    "iter_entry_errors",
    "outcome_of_entry",
    "redealt_dealer",
    "settle_sheet",
    "start_state",
]


@dataclass(frozen=True, slots=True)
class Settled:
    """A deal after the match rules were applied: the score changes and totals by player
    (points), the explanations of every adjustment, and the match state after it."""

    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    notes: tuple[str, ...]
    state: MatchState = field(compare=False, repr=False)

    @property
    def winner(self) -> int | None:
        """The winner once the match is over, else ``None``."""
        return self.state.winner


def start_state(rules: Ruleset, form: Form, sheet: Sheet) -> MatchState:
    """The match state before the sheet's first deal."""
    return MatchState.new(
        form, options=dict(rules.selected), dealer=sheet.first_dealer, deck_points=rules.deck.total_points
    )


def outcome_of_entry(rules: Ruleset, form: Form, entry: DealEntry) -> DealOutcome:
    """The engine's :class:`~tysiac_spec.engine.scoring.DealOutcome` of a sheet entry.

    Tricks are given only when the ruleset counts deals without a trick as bolts, or the deal
    is a named contract (``entry.kind``, whose goal may read them): no trick for the players
    listed in ``no_trick``, one for each of the others (a sheet counts no more).  The declared
    marriages are the outcome's ``declarations``; the cards won and the last trick are not
    on a sheet (a ruleset whose scoring formulas read them cannot be kept on one).
    """
    active = tuple(active_players(form, entry.dealer))
    sitter = sitter_of(form, entry.dealer)
    marriages: dict[int, int] = {}
    for p, suit in entry.marriages:
        marriages[p] = marriages.get(p, 0) + marriage_value(form, suit)
    tricks = None
    if (rules_of.tricks_needed(form) or entry.kind) and not entry.forfeit:
        tricks = {p: 0 if p in entry.no_trick else 1 for p in active}
    talon = tuple(rules.deck.parse_many(entry.talon)) if entry.talon else None
    mode: Any = entry.mode if entry.mode in ("normal", "dark", "golden") else "normal"
    plain = DealOutcome(
        declarer=entry.declarer,
        bid=entry.bid,
        contract=entry.contract,
        card_points={p: entry.points[p] for p in active} if not entry.forfeit else {},
        marriages=marriages if not entry.forfeit else {},
        tricks=tricks,
        forfeited=entry.forfeit,
        mode=mode,
        sitter=sitter,
        sitter_talon=talon if sitter is not None else None,
        players=active,
        declarations=tuple(entry.marriages) if not entry.forfeit else (),
    )
    return with_terms(plain, entry.kind or None, entry.contra)


def all_pass_outcome_of_entry(form: Form, entry: DealEntry) -> AllPassOutcome:
    """The engine's :class:`~tysiac_spec.engine.all_pass.AllPassOutcome` of a sheet entry of a
    deal everyone passed and played out (``entry.all_pass``): each active player's card
    points; the tricks, the cards won and the last trick are not on a sheet (a ruleset whose
    ``all_pass_play.score`` reads them cannot be kept on one)."""
    active = tuple(active_players(form, entry.dealer))
    return AllPassOutcome(
        card_points={p: entry.points[p] for p in active},
        players=active,
        sitter=sitter_of(form, entry.dealer),
    )


def iter_entry_errors(
    rules: Ruleset, form: Form, entry: DealEntry, state: MatchState
) -> Iterator[EntryError]:
    """Every problem of a deal read from a sheet file, as :class:`EntryError`: first the
    entry's own shape (the dealer is the one due, a known mode, a card-point value for each
    seat and none for the sitter, marriages and the talon in the sheet's notation, the
    ``no_trick`` players play the deal and are named once); when the shape is right, every
    problem the engine finds with the deal's outcome
    (:func:`tysiac_spec.engine.outcome.iter_outcome_errors`, the statement
    :func:`~tysiac_spec.engine.match.settle_deal` checks), so an entry passes exactly when
    settlement accepts it."""
    n = form.players
    shape: list[EntryError] = []
    due = dealer_due(form, state, entry)
    if entry.redeals < 0:
        shape.append(_err("sheet", f"`redeals` must be 0 or more (got {entry.redeals})"))
    elif entry.dealer != due:
        after = f" after {entry.redeals} redeal(s)" if entry.redeals else ""
        shape.append(_err("sheet", f"the dealer is {entry.dealer}, but player {due} deals this deal{after}"))
    if entry.mode not in MODES:
        shape.append(_err("sheet", f"the mode `{shorten(entry.mode)}` is not one of {', '.join(MODES)}"))
    if len(entry.points) != n:
        shape.append(_err("points", f"give the card points of {n} players (got {len(entry.points)})"))
    else:
        sitter = sitter_of(form, due)
        if sitter is not None and entry.points[sitter]:
            shape.append(_err("points", f"player {sitter} sits out this deal: no card points "
                              f"(got {entry.points[sitter]})"))
    shape.extend(_iter_marriage_notation_errors(form, entry.marriages))
    active = active_players(form, due)
    for p in entry.no_trick:
        if p not in active or entry.no_trick.count(p) > 1:
            problem = f"player {p} in `no_trick` does not play this deal or is named twice"
            shape.append(_err("player", problem))
    if entry.talon:
        shape.extend(_iter_talon_errors(form, rules.deck, entry.talon))
    shape.extend(_iter_incident_errors(form, state, entry))
    if entry.all_pass and (entry.declarer != -1 or entry.bid or entry.contract or entry.marriages
                           or entry.forfeit or entry.sold or entry.contra != 1 or entry.mode != "normal"):
        shape.append(_err("sheet", "a deal everyone passed (`all_pass`) has no declarer, bid, contract, "
                          "marriage, forfeit, sale, contra or mode"))
    yield from shape
    if shape:
        return
    dealt = dealt_state(form, state, entry)
    if entry.all_pass:
        for error in rules_of.iter_all_pass_errors(form, dealt, all_pass_outcome_of_entry(form, entry)):
            yield _entry_error(error)
        return
    if entry.sold:
        for error in rules_of.iter_sold_errors(form, mode=entry.mode):
            yield _entry_error(error, mode=entry.mode)
    outcome = outcome_of_entry(rules, form, entry)
    for error in rules_of.iter_outcome_errors(form, dealt, outcome):
        yield _entry_error(error, mode=entry.mode)


ONCE_PER_DEAL = ("an incident played on is charged once per player and deal (a talon looked at or a "
                 "hand shown is seen once); only one that abandons the deal ends it")
"""Why a table incident played on (``talon_look``, ``showing_hand``) may be entered once per
offender and deal: the offence is seeing or showing cards, which a second time shows nothing
new; a misdeal or an exposed card (``effect: redeal``) abandons the deal, so each of them ends
one dealt deal and may be entered again for the next (up to ``redeals``)."""


def _incident_rules(form: Form, entry: DealEntry) -> list[Any]:
    """The ruleset's rule of each of ``entry.incidents`` (``None`` for a kind it has none for)."""
    rules: dict[str, Any] = {r.kind: r for r in form.deal.incidents}
    return [rules.get(kind) for kind, _ in entry.incidents]


def _iter_incident_errors(form: Form, state: MatchState, entry: DealEntry) -> Iterator[EntryError]:
    """The table incidents of an entry the ruleset can charge: a kind it has a rule for, an
    offender who plays the deal (the dealer for a rule charging the dealer), no more
    incidents abandoning a deal than ``redeals``, and a penalty that does not read the hand
    (a sheet does not know it); and an incident played on (``effect: play_on``) once per
    offender and deal (:data:`ONCE_PER_DEAL`), one that abandons the deal ending it."""
    listed = ", ".join(f"`{r.kind}`" for r in form.deal.incidents) or "none"
    abandoning = 0
    dealer = state.dealer
    called: set[tuple[str, int]] = set()  # the incidents played on in the deal dealt now
    for (kind, player), rule in zip(entry.incidents, _incident_rules(form, entry), strict=True):
        if rule is None:
            yield _err("sheet", f"incident `{shorten(kind)}`: the ruleset has no rule for it "
                       f"(`deal.incidents` lists {listed})")
            continue
        if rule.effect == "redeal":
            abandoning += 1
            called.clear()
        elif (kind, player) in called:
            yield _err("sheet", f"incident `{kind}`: player {player} is charged with it twice in one "
                       f"deal; {ONCE_PER_DEAL}")
        called.add((kind, player))
        if player not in active_players(form, dealer) or (rule.who == "dealer" and player != dealer):
            who = f"the dealer, player {dealer}" if rule.who == "dealer" else "a player of the deal"
            yield _err("player", f"incident `{kind}`: player {player} cannot be charged (it is {who})")
        if rule.penalty is not None and "hand" in rule.penalty.reads:
            yield _err("sheet", f"incident `{kind}`: its penalty reads the offender's hand, which a "
                       "sheet does not know")
        if rule.effect == "redeal":
            dealer = redeal_dealer(form, dealer, rule.dealer)
    if abandoning > entry.redeals:
        yield _err("sheet", f"{abandoning} incident(s) abandoned a deal, but `redeals` is {entry.redeals}")


def dealer_due(form: Form, state: MatchState, entry: DealEntry) -> int:
    """The player who deals ``entry``'s deal: the match's next dealer, passed on once per
    abandoned deal (``entry.redeals``) by the engine's
    :func:`~tysiac_spec.engine.seating.redeal_dealer`; a deal abandoned by a table incident
    (``effect: redeal``, the first of them) as its rule's ``dealer`` says."""
    dealer, abandoned = state.dealer, 0
    for rule in _incident_rules(form, entry):
        if rule is not None and rule.effect == "redeal" and abandoned < entry.redeals:
            dealer, abandoned = redeal_dealer(form, dealer, rule.dealer), abandoned + 1
    return redealt_dealer(form, dealer, entry.redeals - abandoned)


def charge_incidents(form: Form, state: MatchState, entry: DealEntry) -> tuple[MatchState, list[str]]:
    """Charge the table incidents of ``entry`` (checked by :func:`iter_entry_errors`) by the
    ruleset's rules, as the game does (:func:`~tysiac_spec.engine.incidents.penalty_of`,
    :func:`~tysiac_spec.engine.incidents.payments`, :func:`~tysiac_spec.engine.match.charge_seat`):
    the penalty over the offender's standing, no hand, the entry's bid, contract and declarer
    (before any bid for one that abandoned a deal).  Returns the new state and a note per
    payment."""
    notes: list[str] = []
    dealer = state.dealer
    rules = _incident_rules(form, entry)
    # an incident up to the last that abandons a deal was in an abandoned deal: before any bid
    last = max((k for k, r in enumerate(rules) if r is not None and r.effect == "redeal"), default=-1)
    for k, ((kind, player), rule) in enumerate(zip(entry.incidents, rules, strict=True)):
        assert rule is not None
        before = k <= last
        active = active_players(form, dealer)
        declarer = None if before or entry.declarer < 0 else entry.declarer
        base = envs.base(state.player_record(player), form.active, dict(state.options))
        bid, contract = (0, 0) if before else (entry.bid, entry.contract)
        amount = penalty_of(rule.penalty, base, (), bid, contract, player == declarer)
        label = kind.replace("_", " ")
        for p, lost in payments(form, declarer, active, player, amount, rule.to):
            state = charge_seat(form, state, p, lost)
            notes.append(f"{label}: player {p} {signed(-lost)}")
        if rule.effect == "redeal":
            dealer = redeal_dealer(form, dealer, rule.dealer)
    return state, notes


def redealt_dealer(form: Form, dealer: int, redeals: int) -> int:
    """The dealer after ``redeals`` abandoned deals from ``dealer``'s, each passing the deal
    by :func:`~tysiac_spec.engine.seating.redeal_dealer`.  The count a file gives may be any
    whole number up to the integer limit (10^17): it is reduced modulo the cycle the dealers
    run through (at most the player count), so at most ``2 * players`` steps are taken; a
    count below 0 is 0."""
    seen: dict[int, int] = {}
    step = 0
    while step < redeals:
        if dealer in seen:  # the dealers repeat from here: skip the whole cycles
            cycle = step - seen[dealer]
            for _ in range((redeals - step) % cycle):
                dealer = redeal_dealer(form, dealer)
            return dealer
        seen[dealer] = step
        dealer = redeal_dealer(form, dealer)
        step += 1
    return dealer


def dealt_state(form: Form, state: MatchState, entry: DealEntry) -> MatchState:
    """``state`` with the dealer of ``entry``'s deal (:func:`dealer_due`), as settled."""
    due = dealer_due(form, state, entry)
    return state if due == state.dealer else replace(state, dealer=due)


def check_entry(rules: Ruleset, form: Form, entry: DealEntry, state: MatchState) -> None:
    """Check a deal read from a sheet file: :func:`iter_entry_errors` finds nothing.

    Raises:
        EntryError: the first problem :func:`iter_entry_errors` finds (``entry.sheet``,
            ``entry.player``, ``entry.points``, ``entry.bid``, ``entry.contract``, …).
    """
    for error in iter_entry_errors(rules, form, entry, state):
        raise error


def settle_sheet(rules: Ruleset, form: Form, sheet: Sheet, *, numbered: bool = False) -> list[Settled]:
    """Every deal of the sheet settled in order by the engine's
    :func:`~tysiac_spec.engine.match.settle_deal`.

    Args:
        numbered: start the message of a MatchError with the deal's number (``deal 3: …``),
            for a sheet read from a file.

    Raises:
        EntryError: ``entry.sheet`` — a deal that could not have been entered (see
            :func:`check_entry`); the message starts with the deal's number.
        MatchError: a deal the match rules reject (the message names the deal's problem).
    """
    state = start_state(rules, form, sheet)
    out: list[Settled] = []
    first = 0
    if sheet.carried is not None:  # deals scored under earlier rules keep their totals
        state = state_from_data(sheet.carried.state, state, form)
        before = (0,) * form.players
        for number, row in enumerate(sheet.carried.scores, start=1):
            note = (CARRIED_NOTE,) if number == sheet.carried.deals else ()
            out.append(Settled(tuple(b - a for a, b in zip(before, row, strict=True)), row, note, state))
            before = row
        first = sheet.carried.deals
    for number, entry in enumerate(sheet.deals[first:], start=first + 1):
        try:
            check_entry(rules, form, entry, state)
        except EntryError as exc:
            raise _err("sheet", f"deal {number}: {exc.diagnostic.message}") from None
        try:
            charged, incident_notes = charge_incidents(form, state, entry)
            dealt = dealt_state(form, charged, entry)
            if entry.all_pass:  # everyone passed: the deal played out (one settlement, the engine's)
                new, events = settle_all_pass(form, dealt, all_pass_outcome_of_entry(form, entry))
            else:
                new, events = settle_deal(form, dealt, outcome_of_entry(rules, form, entry))
        except (MatchError, NotationError) as exc:
            if not numbered:
                raise
            message = f"deal {number}: {shorten(exc.diagnostic.message, 300)}"
            raise type(exc)(replace(exc.diagnostic, message=message)) from None
        deltas = tuple(b - a for a, b in zip(state.scores, new.scores, strict=True))
        label = contract_label(form, entry)
        notes = (*incident_notes, *(_note(sheet, e, label if entry.kind else "") for e in events if e.text))
        out.append(Settled(deltas, new.scores, notes, new))
        state = new
    return out


CARRIED_NOTE = "the rules changed after this deal; the deals before it keep their scores"
"""The note on the last deal a sheet settled under earlier rules (:mod:`.carry`)."""


def contract_label(form: Form, entry: DealEntry) -> str:
    """The contract of a deal as the sheet shows it: ``120``, or for a named contract its
    English name (``contract.kinds``' ``name``; its id when it has none) and value, ``Misère 120``."""
    if not entry.kind:
        return str(entry.contract)
    kind = next((k for k in form.contract.kinds if k.id == entry.kind), None)
    name = ((kind.name or {}).get("en") if kind is not None else None) or entry.kind
    return f"{name} {entry.contract}"


def _note(sheet: Sheet, event: MatchEvent, named: str = "") -> str:
    """An event's explanation, with the player named as on the sheet; with ``named`` (the
    :func:`contract_label` of a named contract) a contract made or failed is called by it."""
    text = event.text
    if named and event.kind in ("contract.made", "contract.failed"):
        text = f"{named} {'made' if event.kind == 'contract.made' else 'failed'}"
    if event.player is not None:
        who = sheet.name(event.player)
        text = text.replace(f"player {event.player}", who)
        if who not in text:
            text = f"{who}: {text}"
    return text
