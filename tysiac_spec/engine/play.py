"""Playing the tricks: legal cards, marriages, trump, trick winners (``form.play``,
``form.marriages``).

The duties are applied in this order: follow the suit led;
within it beat the led card or the trick's best card of that suit (``must_beat``),
unless the trick has been trumped and ``beat_when_trumped`` is false; when void,
play a trump (``must_trump``), above the best trump on the trick when able
(``must_overtrump``), otherwise any trump or any card (``cannot_overtrump``; any card
for a defender when ``defenders_may_discard``).
A beat or trump duty may be narrowed to the highest card of that suit held
(``beat_with_highest``, ``trump_with_highest``); the beat, overtrump and highest-card
duties bind every player, or only the defenders or only the declarer (``duties_bind``).
The lead to the trick after a marriage may be bound to a trump or to another suit
(``lead_after_marriage``, :func:`lead_after_marriage`).

The ace marriage (``marriages.ace_marriage``, S002 variation; source ids
such as ``S002`` are keys of a ruleset's ``sources:`` list): declared by leading an
ace while holding all four (talon cards included), ``play AH aces`` — the rank is data,
``ace_marriage.rank``, and is recorded in ``deal.declared`` in place of a suit; worth
``ace_marriage.value``; only after its holder has won a trick when
``requires_won_trick`` (S002: "not on the first move"); it makes the led ace's suit
trump only when ``sets_trump`` (1KC: no trump).  Announced like a marriage: with
``announcement: automatic`` the lead declares it, with ``spoken`` the player may stay
silent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter, itemgetter
from typing import TypeVar

from ..cards import Card
from ..ruleset.model import Form, Marriages, Play
from . import env as envs
from .actions import Action, ActionTable, Claim, DeclareMarriage, PlayCard
from .outcome import discards_to
from .state import DealState

__all__ = [
    "ace_marriage_declared",
    "aces_declarable",
    "announceable",
    "apply_claim",
    "binds",
    "claim_marriages",
    "claim_taken",
    "compile_apply",
    "compile_duties",
    "compile_legal",
    "compile_marriage_bar",
    "declare_marriage",
    "declared_leads",
    "duty_cards",
    "duty_flags",
    "explain",
    "lead_after_marriage",
    "leads",
    "legal_cards",
    "marriage_barred",
    "marriage_points",
    "may_claim",
    "never_barred",
    "set_aside_taker",
    "sure_to_win",
    "takes",
    "trick_winner",
    "trump_after",
]

T = TypeVar("T")


def legal_cards(form: Form, deal: DealState, player: int) -> tuple[list[Card], str]:
    """The cards ``player`` may play now, and the duty that restricts them (or ``""``)."""
    cards, duty, about = _legal_cards(form, deal, player)
    rules = form.play
    bound = binds(rules, declarer=player == deal.declarer)
    if duty == _BEAT:
        assert isinstance(about, Card)
        if rules.beat_with_highest and bound:
            return cards, f"must beat {about} with the highest {about.suit.id} card held, {cards[0]}"
        return cards, f"must beat {about} with a higher {about.suit.id} card"
    if duty == _FOLLOW:
        return cards, f"must follow {about}"
    highest = (
        f", with the highest trump held, {cards[0]}" if rules.trump_with_highest and bound and cards else ""
    )
    if duty == _OVERTRUMP:
        return cards, f"must overtrump {about}{highest}"
    if duty == _TRUMP:
        return cards, f"must play a trump ({about}){highest}"
    if duty == _LEAD:
        not_ = "not " if rules.lead_after_marriage == "not_trump" else ""
        return cards, f"after a marriage the lead must {not_}be a trump ({about})"
    return cards, ""


_FREE, _BEAT, _FOLLOW, _OVERTRUMP, _TRUMP, _LEAD = range(6)
"""The duty restricting the legal cards (see :func:`compile_duties`)."""

Duties = Callable[..., tuple[int, int, "Card | str | None"]]
"""``duties(hand, trick, trump, suit_bits, declarer=-1)`` -> ``(legal, duty, about)``: see
:func:`compile_duties`."""


def binds(rules: Play, *, declarer: bool) -> bool:
    """Whether the beat, overtrump and highest-card duties of ``rules`` bind the declarer
    (``declarer``) or a defender (``play.duties_bind``)."""
    return rules.duties_bind == "everyone" or (rules.duties_bind == "declarer") == declarer


def duty_cards(
    hand: int, led: int, first: int, tbits: int, trump: int,
    must_follow: bool, must_beat: bool, beat_best: bool, beat_when_trumped: bool, must_trump: bool,
    must_overtrump: bool, any_card: bool, highest_beat: bool, highest_trump: bool,
) -> tuple[int, int, int]:
    """The duties of ``form.play`` on a card played to a trick, all of them as bit sets
    (``card.bit``; within a suit the pack's stronger card has the lower bit, so "higher than
    ``c``" is ``bits & (c.bit - 1)`` and the strongest of ``bits`` is ``bits & -bits``):
    ``hand`` the cards held, ``led`` the suit led (its bit set), ``first`` the card led,
    ``tbits`` the cards on the trick, ``trump`` the trump suit (0 for none); the rules' flags
    as :func:`compile_duties` reads them for the player.

    Follow the suit led (``must_follow``); within it beat the led card, or the trick's best
    card of that suit (``beat_best``), when ``must_beat`` (not once the trick is trumped
    unless ``beat_when_trumped``); when void, play a trump (``must_trump``), above the best
    trump on the trick when able (``must_overtrump``), else any trump or, with ``any_card``,
    any card.  ``highest_beat`` and ``highest_trump`` narrow a beat or a trump duty to the
    highest card of that suit held.  Returns ``(legal, duty, about)``: the legal cards, the
    duty restricting them (``_FREE``, ``_BEAT``, ``_FOLLOW``, ``_OVERTRUMP``, ``_TRUMP``) and
    the card to beat or overtrump (its bit; 0 for the others).

    The one statement of the duties: :func:`compile_duties` calls it, and the fast path's
    generator writes it inline with the form's flags folded
    (``tysiac_spec.fast.generate.INLINED``)."""
    ok = hand
    duty = _FREE
    about = 0
    follow = hand & led
    if follow and must_follow:
        ok = follow
        duty = _FOLLOW
        if must_beat and (beat_when_trumped or not (trump and trump != led and tbits & trump)):
            if beat_best:
                target = tbits & led
                target &= -target
            else:
                target = first
            higher = follow & (target - 1)
            if higher:
                ok = higher & -higher if highest_beat else higher
                duty = _BEAT
                about = target
    elif must_trump and trump and not follow:
        trumps = hand & trump
        if trumps:
            ok = trumps
            duty = _TRUMP
            if must_overtrump:
                top = tbits & trump
                if top:
                    top &= -top
                    higher = trumps & (top - 1)
                    if higher:
                        ok = higher
                        duty = _OVERTRUMP
                        about = top
                    elif any_card:
                        ok = hand
                        duty = _FREE
            if highest_trump and duty != _FREE:
                ok &= -ok
    return ok, duty, about


DutyFlags = tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool]


def duty_flags(rules: Play, *, declarer: bool = False) -> DutyFlags:
    """The flags of :func:`duty_cards` (after its five bit sets) read from ``form.play`` for
    the declarer (``declarer``) or a defender (``duties_bind`` says whom the beat, overtrump
    and highest-card duties bind)."""
    bound = binds(rules, declarer=declarer)
    return (rules.must_follow, rules.must_beat != "no" and bound, rules.must_beat != "led_card",
            rules.beat_when_trumped, rules.must_trump, rules.must_overtrump and bound,
            rules.cannot_overtrump == "any_card" or (rules.defenders_may_discard and not declarer),
            rules.beat_with_highest and bound, rules.trump_with_highest and bound)


def compile_duties(rules: Play, *, declarer: bool = False) -> Duties:
    """The duties of ``form.play`` as one function, read once from the rules, for the
    declarer (``declarer``) or a defender: ``duties_bind`` says whom the beat, overtrump and
    highest-card duties bind; a player they do not bind need only follow suit and trump.
    The duties themselves are :func:`duty_cards`'s.  A defender who cannot overtrump may
    play any card when ``defenders_may_discard``.  With ``defenders_overtrump_declarer`` a
    defender void in the suit led must beat the declarer's highest trump on the trick when he
    can (before the other duties of a void player; the overtrump of ``must_overtrump`` first,
    when it binds him and he can).

    ``duties(hand, trick, trump, suit_bits, declarer=-1)``: ``hand`` is a bit set of the cards
    held (``card.bit``), ``trick`` the ``(player, card)`` pairs played (not empty), ``trump``
    the trump suit id or ``None``, ``suit_bits`` the bit set of each suit of the pack
    (``Deck.suit_bits``; only the trump suit is read), ``declarer`` the declarer's seat (read
    only by a defender's duties with ``defenders_overtrump_declarer``).  Returns the legal cards as a bit set,
    the duty restricting them and what it is about (the card to beat or overtrump, the suit
    to follow or to trump).
    """
    (must_follow, must_beat, beat_best, beat_when_trumped, must_trump, must_overtrump, any_card,
     highest_beat, highest_trump) = duty_flags(rules, declarer=declarer)
    over_declarer = rules.defenders_overtrump_declarer and not declarer

    def duties(
        hand: int,
        trick: Sequence[tuple[int, Card]],
        trump: str | None,
        suit_bits: Mapping[str, int],
        declarer: int = -1,
    ) -> tuple[int, int, Card | str | None]:
        first = trick[0][1]
        tbits = 0
        for _, c in trick:
            tbits |= c.bit
        legal, duty, about = duty_cards(
            hand, first.suit_bits, first.bit, tbits, suit_bits.get(trump, 0) if trump is not None else 0,
            must_follow, must_beat, beat_best, beat_when_trumped, must_trump, must_overtrump, any_card,
            highest_beat, highest_trump)
        if duty == _FREE:
            return legal, duty, None
        if duty == _FOLLOW:
            return legal, duty, first.suit_id
        if duty == _TRUMP:
            return legal, duty, trump
        for _, c in trick:  # the card to beat or overtrump
            if c.bit == about:
                return legal, duty, c
        raise AssertionError("the card about a duty is on the trick")

    if not over_declarer:
        return duties

    def over_declarer_duties(
        hand: int,
        trick: Sequence[tuple[int, Card]],
        trump: str | None,
        suit_bits: Mapping[str, int],
        declarer: int = -1,
    ) -> tuple[int, int, Card | str | None]:
        if trump is not None and not hand & trick[0][1].suit_bits:
            # the declarer's highest trump, beaten when able (play.defenders_overtrump_declarer)
            theirs: Card | None = None
            top: Card | None = None
            for p, c in trick:
                if c.suit_id == trump:
                    if top is None or c.strength > top.strength:
                        top = c
                    if p == declarer and (theirs is None or c.strength > theirs.strength):
                        theirs = c
            if theirs is not None:
                trumps = hand & suit_bits.get(trump, 0)
                higher = trumps & (theirs.bit - 1)
                if higher:
                    if must_overtrump and must_trump and top is not None and top is not theirs:
                        over = trumps & (top.bit - 1)
                        if over:
                            return (over & -over if highest_trump else over), _OVERTRUMP, top
                    return (higher & -higher if highest_trump else higher), _OVERTRUMP, theirs
        return duties(hand, trick, trump, suit_bits)

    return over_declarer_duties


def lead_after_marriage(rules: Play, deal: DealState, hand: int, suit_bits: Mapping[str, int]) -> int:
    """The cards that may be led now under ``play.lead_after_marriage``, as a bit set of the
    ``hand`` bit set (``card.bit``; ``suit_bits`` as in :func:`compile_duties`, the trump
    suit read): after a trick in which a marriage was declared (``deal.marriage_trick``),
    only trumps (``trump``) or only other cards (``not_trump``) when the leader holds
    such a card and a trump is set; otherwise the whole hand."""
    rule, trump = rules.lead_after_marriage, deal.trump
    if rule == "any" or trump is None:
        return hand
    return leads(hand, rule == "trump", suit_bits.get(trump, 0), deal.marriage_trick, deal.trick_number)


def leads(hand: int, trumps_only: bool, trump: int, marriage_trick: int | None, trick_number: int) -> int:
    """The cards of ``hand`` (a bit set) that may be led under a ``play.lead_after_marriage``
    other than ``any``: after the trick in which a marriage was declared (``marriage_trick``
    is the one before ``trick_number``), only trumps (``trumps_only``) or only other cards,
    when the leader holds such a card and a trump is set (``trump``: its suit's bit set, 0
    for none); otherwise the whole hand.

    The one statement of the rule: :func:`lead_after_marriage` calls it, and the fast path's
    generator writes its expression inline (``tysiac_spec.fast.generate.INLINED``)."""
    return (
        ((hand & trump or hand) if trumps_only else (hand & ~trump or hand))
        if trump and marriage_trick == trick_number - 1
        else hand
    )


def _legal_cards(form: Form, deal: DealState, player: int) -> tuple[list[Card], int, Card | str | None]:
    """The legal cards (in hand order), the duty that restricts them and what it is about
    (:func:`compile_duties`, :func:`lead_after_marriage`); the reason text is built only when
    needed (:func:`legal_cards`)."""
    hand = deal.hands[player]
    bits = 0
    for c in hand:
        bits |= c.bit
    if not deal.trick:
        lead = lead_after_marriage(form.play, deal, bits, {c.suit_id: c.suit_bits for c in hand})
        if lead != bits:
            return [c for c in hand if c.bit & lead], _LEAD, deal.trump
        return list(hand), _FREE, None
    if deal.stock and form.table.stock_duties == "free":
        return list(hand), _FREE, None  # no duty while the stock lasts (table.stock_duties)
    # the suits of the hand are all the duties need (a trump not held gives no trump to play)
    legal, duty, about = compile_duties(form.play, declarer=player == deal.declarer)(
        bits, deal.trick, deal.trump, {c.suit_id: c.suit_bits for c in hand}, deal.declarer
    )
    return [c for c in hand if c.bit & legal], duty, about


MarriageBar = Callable[[DealState, int], str]
"""``bar(deal, player)``: why ``player``, leading now, may not declare a marriage (``""``
when he may)."""


def never_barred(deal: DealState, player: int) -> str:
    """The :data:`MarriageBar` of a form without a timing rule: a marriage may always be
    declared on a lead (``""``)."""
    return ""


def compile_marriage_bar(m: Marriages) -> MarriageBar:
    """The timing of a marriage declared by ``player`` leading now, as the reason it is barred
    (``""`` when allowed; a predicate for the card: ``cannot declare a marriage now``): after
    winning a trick when ``marriages.requires_won_trick``; not on the declarer's first lead
    unless ``marriages.declarer_first_lead``; not before trick ``marriages.from_trick``
    (1-based); not with fewer than ``marriages.min_cards`` cards in hand (before leading).
    Compiled once per form: only the checks that are on are made, and with none on the
    result is :func:`never_barred` itself (which :func:`compile_legal` then does not call)."""
    won, first = m.requires_won_trick, m.declarer_first_lead
    from_trick, min_cards = m.from_trick - 1, m.min_cards
    if not won and first and not from_trick and not min_cards:
        return never_barred
    # the reason of each bar (the text shipped rulesets' refusals keep)
    reasons = ("", "cannot declare a marriage now", "cannot declare a marriage now",
               f"cannot declare a marriage before trick {from_trick + 1}",
               f"cannot declare a marriage with fewer than {min_cards} cards in hand")

    def bar(deal: DealState, player: int) -> str:
        return reasons[marriage_barred(
            deal.tricks.get(player, 0), player == deal.declarer, deal.trick_number, len(deal.hands[player]),
            won, not first, from_trick, min_cards)]

    return bar


def marriage_barred(
    won: int, declarer: bool, trick_number: int, held: int,
    requires_won_trick: bool, not_first_lead: bool, from_trick: int, min_cards: int,
) -> int:
    """Whether a marriage may be declared on a lead now, by ``marriages``' timing: 0 when it
    may, else the bar (1: ``requires_won_trick`` and the leader has won no trick (``won``
    tricks); 2: the declarer's first lead and ``not declarer_first_lead``
    (``not_first_lead``); 3: before trick ``from_trick + 1`` (``from_trick`` the 0-based
    trick number, 0 for no bar); 4: fewer than ``min_cards`` cards ``held`` (0 for no bar)).

    The one statement of the timing: :func:`compile_marriage_bar` calls it, and the fast
    path's generator writes it inline with the form's rules folded
    (``tysiac_spec.fast.generate.INLINED``)."""
    barred = 0
    if requires_won_trick and not won:
        barred = 1
    elif not_first_lead and trick_number == 0 and declarer:
        barred = 2
    elif from_trick and trick_number < from_trick:
        barred = 3
    elif min_cards and held < min_cards:
        barred = 4
    return barred


def aces_declarable(held: int, aces_bits: int, aces: int, won: int, requires_won: bool) -> bool:
    """Whether a player leading may declare the ace marriage (``marriages.ace_marriage``): he
    holds all the ``aces`` cards of its rank (``aces_bits``, the bits of those in play, of
    ``held``, his hand's), and has won a trick (``won``, his tricks) when ``requires_won``
    (``requires_won_trick``).  The one statement (:func:`compile_legal` calls it; inlined by
    the fast path)."""
    return (held & aces_bits).bit_count() == aces and (not requires_won or won > 0)


def compile_legal(
    form: Form, table: ActionTable, deck: Sequence[Card]
) -> Callable[[DealState], list[Action]]:
    """The legal plays of ``form`` as a function of the deal: the plays of the player to move,
    in deck order; a lead that may declare a marriage (both ``marriages.ranks`` of a suit of
    ``marriages.values`` held, at a time :func:`compile_marriage_bar` allows) is offered with the
    declaration (and, when spoken, also without it), a lead of an ace with the ace marriage
    when all the aces are held; the declarer's claim last when :func:`may_claim`.  The
    actions are the shared objects of ``table``, and the list may be shared (not to be
    changed; copy it to keep it).  ``deck`` holds the cards that can be in play (the pack's
    cards, ``card.bit`` set; any order, and a deal built by hand may lack some).

    The duties are :func:`compile_duties`'s and the timing of marriages
    :func:`compile_marriage_bar`'s (one statement of each rule).  Cards are handled as bit sets
    (``card.bit``): the legal cards of each suit are looked up in tables made once, one list
    of actions per subset of the suit's cards — plain plays, and for a lead with a marriage
    allowed, the declarations of the marriages the subset holds.

    Raises:
        ValueError: a card of ``deck`` is not a pack's (no ``bit``), or a suit's cards are not
            contiguous bits (not as a :class:`~tysiac_spec.cards.Deck` lays them out).
    """
    duties = compile_duties(form.play)
    (must_follow, must_beat, beat_best, beat_when_trumped, must_trump, must_overtrump, any_card,
     highest_beat, highest_trump) = duty_flags(form.play)
    # the declarer's duties differ only when `duties_bind` names one side or defenders may
    # discard or must beat the declarer's trump (compile_duties)
    over_declarer = form.play.defenders_overtrump_declarer
    by_role = form.play.duties_bind != "everyone" or form.play.defenders_may_discard or over_declarer
    declarer_duties = compile_duties(form.play, declarer=True)
    lead_rule = form.play.lead_after_marriage != "any"
    # no duty while a stock lasts (table.stock_duties: free); decided once per form
    relax = bool(form.table.stock) and form.table.stock_duties == "free"
    rules = form.play
    m = form.marriages
    marriage_bar = compile_marriage_bar(m)
    any_time = marriage_bar is never_barred  # no timing rule: nothing to call
    automatic = m.announcement == "automatic"
    am = m.ace_marriage
    claim_allowed = form.contract.claim_allowed
    play_action, claim = table.play, table.claim
    suit_bits: dict[str, int] = {}
    held: dict[str, list[Card]] = {}
    for c in deck:
        if not c.bit:
            raise ValueError(f"{c} is not a card of a pack (it has no bit)")
        suit_bits[c.suit_id] = c.suit_bits
        held.setdefault(c.suit_id, []).append(c)
    aces_bits = sum(c.bit for c in deck if c.rank.id == am.rank)
    aces_won = am.requires_won_trick
    # a marriage declared from the hand (declared_by: hand) or before the first trick: the leads
    # are plain plays; from the hand, the declarations of the pairs held (their cards' bits)
    # are offered after them
    not_led = m.declared_by != "lead"  # declared from the hand, or before the first trick
    from_hand = m.declared_by == "hand"
    pairs = [
        (suit, sum(c.bit for c in held[suit] if c.rank.id in m.ranks), DeclareMarriage(suit))
        for suit in m.values
        if from_hand and suit in held
    ]

    # a trick under duties by role or relaxed by a stock: a function of its own, so that the
    # plain trick tests one local flag (decided once per form)
    special_trick = relax or by_role

    def role_duties(
        deal: DealState, player: int, bits: int, trick: list[tuple[int, Card]]
    ) -> tuple[int, int]:
        if relax and deal.stock:
            return bits, _FREE
        if by_role and player == deal.declarer:
            legal, duty, _ = declarer_duties(bits, trick, deal.trump, suit_bits)
        else:
            legal, duty, _ = duties(bits, trick, deal.trump, suit_bits, deal.declarer)
        return legal, duty

    # per suit in pack order: (shift, full mask, the actions of each subset of its cards)
    plain_tables: list[tuple[int, int, list[list[Action]]]] = []
    lead_tables: list[tuple[int, int, list[list[Action]]]] = []
    suit_table: dict[str, tuple[int, int, list[list[Action]]]] = {}
    for suit, bits in sorted(suit_bits.items(), key=lambda item: item[1]):
        shift = (bits & -bits).bit_length() - 1
        full = bits >> shift
        if full & (full + 1):
            raise ValueError(f"the cards of {suit} are not contiguous in the pack")
        cards: list[Card | None] = [None] * full.bit_length()
        for c in held[suit]:
            cards[(c.bit >> shift).bit_length() - 1] = c
        plays, leads = _suit_actions(
            cards, table, automatic=automatic,
            marriage=m.ranks if suit in m.values and not not_led else None,
        )
        plain_tables.append((shift, full, plays))
        lead_tables.append((shift, full, leads))
        suit_table[suit] = (shift, full, plays)

    def legal_now(deal: DealState) -> list[Action]:
        player = deal.current
        bits = 0
        for c in deal.hands[player]:
            bits |= c.bit
        trick = deal.trick
        out: list[Action] = []
        if trick:
            # no claim once a trick is under way (may_claim)
            if special_trick:  # duties by role, or relaxed by a stock (decided once)
                bits, duty = role_duties(deal, player, bits, trick)
            else:  # (duty_cards called here, not through `duties`: a call per card played)
                first = trick[0][1]
                tbits = 0
                for _, c in trick:
                    tbits |= c.bit
                trump = suit_bits.get(deal.trump, 0) if deal.trump is not None else 0
                bits, duty, _ = duty_cards(
                    bits, first.suit_bits, first.bit, tbits, trump, must_follow, must_beat, beat_best,
                    beat_when_trumped, must_trump, must_overtrump, any_card, highest_beat, highest_trump)
            if duty != _FREE:  # the cards of one suit: the suit led, or trumps (a trump is set)
                suit = trick[0][1].suit_id if duty < _OVERTRUMP else (deal.trump or "")
                shift, full, one_suit = suit_table[suit]
                return one_suit[(bits >> shift) & full]
            for shift, full, subsets in plain_tables:
                out += subsets[(bits >> shift) & full]
            return out
        # a lead: the cards allowed after a marriage (bits stays the whole hand, for the ace
        # marriage), with the marriages' declarations when one may be declared now
        lead = lead_after_marriage(rules, deal, bits, suit_bits) if lead_rule else bits
        tables = lead_tables if any_time or not marriage_bar(deal, player) else plain_tables
        for shift, full, subsets in tables:
            out += subsets[(lead >> shift) & full]
        if am.enabled and aces_declarable(bits, aces_bits, deal.aces, deal.tricks.get(player, 0), aces_won):
            # the ace marriage: each ace is led with the declaration
            out = [x for a in out for x in _with_aces(a, am.rank, automatic, play_action)]
        if claim_allowed and not deal.trick_number and may_claim(deal):
            out.append(claim)
        return out

    if not pairs:
        return legal_now
    plain_legal = legal_now

    def legal_from_hand(deal: DealState) -> list[Action]:
        """``legal_now`` with the declarations from the hand (``marriages.declared_by: hand``)
        on a lead when a marriage may be declared now, after the leads and before ``claim``
        (a function of its own: a form without them does not test for them)."""
        out = plain_legal(deal)
        if deal.trick or deal.marriage_trick == deal.trick_number:
            return out
        player = deal.current
        if not any_time and marriage_bar(deal, player):
            return out
        bits = 0
        for c in deal.hands[player]:
            bits |= c.bit
        declarations = _declarations(pairs, bits, deal)
        if declarations:
            if out and out[-1] is claim:
                out[-1:-1] = declarations
            else:
                out += declarations
        return out

    return legal_from_hand


def _declarations(
    pairs: Sequence[tuple[str, int, DeclareMarriage]], bits: int, deal: DealState
) -> list[Action]:
    """The declarations from the hand (``marriages.declared_by: hand``) of the ``pairs``
    (suit, the bits of its two cards, the action) held in ``bits`` and not declared yet (a
    function of its own: a comprehension in ``legal_now`` would make its locals cells on
    every call)."""
    done = {s for _, s in deal.declared}
    return [d for suit, pair, d in pairs if bits & pair == pair and suit not in done]


_INDEX = attrgetter("index")
"""A card's place in the pack: hands are kept in pack order."""

_CARD = itemgetter(1)
"""The card of a ``(player, card)`` pair of a trick."""


def _suit_actions(
    cards: list[Card | None], table: ActionTable, *, automatic: bool, marriage: tuple[str, str] | None
) -> tuple[list[list[Action]], list[list[Action]]]:
    """The actions of each subset of one suit's cards (``cards`` in pack order, the subset a bit
    set with bit ``k`` for ``cards[k]``; ``None`` for a card not in play, which no subset
    met holds), for a play and for a lead that may declare a marriage: plain plays in deck
    order; on such a lead, when the suit has a marriage (``marriage``: its two ranks,
    ``marriages.ranks``; ``None`` when the suit has none), a card of a subset holding both
    is led with the declaration (and, when the announcement is spoken, also without it)."""
    plain = [None if c is None else table.plain(c) for c in cards]
    out: list[list[Action]] = [[]]
    for sub in range(1, 1 << len(cards)):
        low = sub & -sub
        first = plain[low.bit_length() - 1]
        out.append(out[sub ^ low] if first is None else [first] + out[sub ^ low])
    if marriage is None:
        return out, out
    pair = [k for k, c in enumerate(cards) if c is not None and c.rank.id in marriage]
    if len(pair) != len(marriage):
        return out, out
    both = sum(1 << k for k in pair)
    declared: dict[int, tuple[Action, ...]] = {}
    for k in pair:
        card, action = cards[k], plain[k]
        assert card is not None and action is not None
        declared[id(action)] = declared_leads(action, table.play(card, True), automatic)
    lead = list(out)
    for sub in range(both, len(out)):
        if sub & both == both:
            lead[sub] = [x for a in out[sub] for x in declared.get(id(a), (a,))]
    return out, lead


def _with_aces(
    action: Action, rank: str, automatic: bool, play_action: Callable[[Card, bool, bool], PlayCard]
) -> tuple[Action, ...]:
    """A lead of an ace (a card of ``rank``, ``ace_marriage.rank``) by a player who may declare
    the ace marriage: declared (and, when spoken, also not); any other lead as it is."""
    if not isinstance(action, PlayCard) or action.card.rank.id != rank:
        return (action,)
    return declared_leads(action, play_action(action.card, False, True), automatic)


def declared_leads(plain: T, declared: T, automatic: bool) -> tuple[T, ...]:
    """The leads offered for a card that may declare a marriage (or the ace marriage) now:
    the lead declaring it (``declared``), and first the plain lead (``plain``) too unless
    the announcement is automatic (``marriages.announcement``).  The one statement (the
    engine's marriage and ace-marriage leads; inlined by the fast path)."""
    return (declared,) if automatic else (plain, declared)


def _opponent_cards(deal: DealState) -> list[Card]:
    assert deal.declarer is not None
    return [c for p in deal.order if p != deal.declarer for c in deal.hands[p]]


def may_claim(deal: DealState) -> bool:
    """Whether the declarer may claim: S000 — after the exchange, before the first trick,
    a declarer with a lay-down (e.g. four aces and four tens, or complete suits) shows his
    hand, sure to win every trick whatever the order: for each of his cards no opponent
    holds a higher card of its suit, nor — unless it is a trump — any trump.  Opponents
    never lead, so they cannot change trump.  The cards are the pack's (``card.bit``)."""
    declarer = deal.declarer
    if deal.trick or deal.trick_number or deal.current != declarer:
        return False
    hand = deal.hands[declarer]
    if not hand:
        return False
    # the hands as bit sets of the pack (card.bit; a stronger card of a suit has the lower bit)
    others = 0
    for p in deal.order:
        if p != declarer:
            for c in deal.hands[p]:
                others |= c.bit
    bits = 0
    suit_mask: dict[int, int] = {}
    trump = 0
    for c in hand:
        bits |= c.bit
        suit_mask[c.index] = c.suit_bits
        if c.suit_id == deal.trump:
            trump = c.suit_bits
    if deal.trump is not None and not trump:  # (no trump in his hand: the suit's bits from the others')
        for p in deal.order:
            for c in deal.hands[p]:
                if c.suit_id == deal.trump:
                    trump = c.suit_bits
    return sure_to_win(bits, others, trump, suit_mask)


def sure_to_win(hand: int, others: int, trump: int, suit_mask: Mapping[int, int]) -> bool:
    """Whether a declarer leading every trick wins them all whatever the order: for each of his
    cards no opponent holds a higher card of its suit, nor, unless it is a trump, any trump.
    ``hand`` and ``others`` (the opponents' cards) are bit sets (``card.bit``; a stronger card
    of a suit has the lower bit), ``trump`` the trump suit's bit set (0 for none),
    ``suit_mask[i]`` the bit set of the suit of the card of index ``i`` (``card.index``).

    The one statement of the lay-down: :func:`may_claim` calls it, and the fast path's
    generator writes it inline (``tysiac_spec.fast.generate.INLINED``)."""
    sure = True
    m = hand
    while m:
        low = m & -m
        m ^= low
        if others & suit_mask[low.bit_length() - 1] & (low - 1):  # a higher card of its suit is out
            sure = False
            break
    if sure and trump and hand & ~trump and others & trump:  # a trump is out: it could take a card
        sure = False
    return sure


def claim_marriages(form: Form, deal: DealState) -> list[str]:
    """Suits of the marriages a claiming declarer (``deal.current``) is credited with, in
    ``marriages.values`` order (:func:`claim_taken`); none when marriages are announced before
    the first trick (``declared_by: before_play``: announced then, or not at all)."""
    return _claim(form, deal)[2]


def _claim(form: Form, deal: DealState) -> tuple[int, int, list[str]]:
    """:func:`claim_taken` of the deal's current player: the bit set of the cards he takes,
    his tricks and the suits of his marriages credited."""
    m = form.marriages
    player = deal.current
    hand = deal.hands[player]
    bits = others = 0
    for c in hand:
        bits |= c.bit
    for q in deal.order:
        if q != player:
            for c in deal.hands[q]:
                others |= c.bit
    ids: list[str] = []
    pairs: list[int] = []
    suits: list[int] = []
    values: list[int] = []
    if m.declared_by != "before_play":
        first, second = m.ranks
        by = {(c.suit_id, c.rank.id): c for c in hand}
        for s, v in m.values.items():
            a, b = by.get((s, first)), by.get((s, second))
            if a is not None and b is not None:  # (the marriages he holds)
                ids.append(s)
                pairs.append(a.bit | b.bit)
                suits.append(a.suit_bits)
                values.append(v)
    barred = bool(ids) and bool(compile_marriage_bar(m)(deal, player))
    cards, tricks, kept = claim_taken(bits, others, pairs, suits, values, deal.trick_number, barred,
                                      m.from_trick, m.min_cards)
    return cards, tricks, [ids[i] for i in kept]


def claim_taken(
    hand: int, others: int, pairs: Sequence[int], suits: Sequence[int], values: Sequence[int],
    trick_number: int, barred: bool, from_trick: int, min_cards: int,
) -> tuple[int, int, list[int]]:
    """What a claiming declarer takes (S000), over bit sets of the pack (``card.bit``): every
    card still in hand, his (``hand``) and his opponents' (``others``), as won tricks, one trick
    per card of his; and the marriages he is credited with.

    ``pairs[i]`` is the bit set of a marriage's two cards (``marriages.ranks``), in
    ``marriages.values`` order, ``suits[i]`` its suit's bit set and ``values[i]`` its points
    (``marriages.values``).  He is credited with those in his hand whose suit no opponent holds
    (declaring them cannot give an opponent a trump), which he may still declare: he leads every
    claimed trick, and a marriage may be declared on the leads from the first one allowed (the
    second when it is ``barred`` now, :func:`marriage_barred`; not before trick ``from_trick``,
    1-based, ``trick_number`` tricks played) to the last one with ``min_cards`` cards in hand,
    one marriage per lead.  The leads before the first allowed one are made with his other
    cards, and when there are too few, with marriages given up; the smallest marriages are the
    ones not credited.  The ace marriage is not credited.

    Returns the bit set of the cards he takes (``hand | others``), the number of tricks and the
    indices ``i`` of the marriages credited, ascending.  The one statement of the claim:
    :func:`apply_claim` calls it, and so does the fast path (``H_claim``)."""
    size = hand.bit_count()
    held = [i for i in range(len(pairs)) if hand & pairs[i] == pairs[i] and not others & suits[i]]
    start = max(0, from_trick - 1 - trick_number)  # lead t is trick trick_number + t + 1
    if barred:
        start = max(start, 1)  # barred now; after the first claimed trick he has won one
    last = size - max(min_cards, 1)  # the last lead (0-based) with min_cards cards in hand
    others_count = size - 2 * len(held)
    given_up = max(0, -(-(start - others_count) // 2))  # marriages broken to lead before `start`
    keep = max(0, min(len(held) - given_up, last - start + 1))
    kept = set(sorted(held, key=lambda i: -values[i])[:keep])
    return hand | others, size, [i for i in held if i in kept]


def apply_claim(form: Form, deal: DealState) -> None:
    """The declarer takes every remaining card as won tricks, with the marriages of
    :func:`claim_taken`; the set-aside cards are awarded as after the last trick; the deal is
    over (``deal.phase`` → ``over``)."""
    p = deal.current
    m = form.marriages
    _, remaining, kept = _claim(form, deal)
    for suit in kept:
        points = m.values[suit] if m.value is None else marriage_points(m, deal, p, suit)
        deal.marriages[p] = deal.marriages.get(p, 0) + points
        deal.declared.append((p, suit))
    won = deal.won.setdefault(p, [])
    for q in deal.order:
        won.extend(deal.hands[q])
        deal.hands[q] = []
    deal.tricks[p] = deal.tricks.get(p, 0) + remaining
    deal.trick_number += remaining
    deal.last_trick_winner = p
    _award_leftover(form.talon.leftover.to, discards_to(form), deal)
    deal.phase = "over"


def explain(form: Form, deal: DealState, action: Action) -> str:
    """Why ``action`` is not a legal play now (``must follow hearts``)."""
    if isinstance(action, Claim):
        if not form.contract.claim_allowed:
            return "the ruleset allows no claim"
        return "only the declarer, before the first trick and sure of every trick, may claim"
    if isinstance(action, DeclareMarriage):
        if form.marriages.declared_by == "before_play":
            return "a marriage is announced only before the first trick"
        if form.marriages.declared_by != "hand":
            return "a marriage is declared by leading one of its cards"
        if deal.trick:
            return "a marriage is declared from the hand only before leading"
        why = compile_marriage_bar(form.marriages)(deal, deal.current)
        return why or (
            f"no marriage of {action.suit} to declare (both cards held, not declared before, "
            "one declaration per lead)"
        )
    if not isinstance(action, PlayCard):
        return "play a card"
    if action.card not in deal.hands[deal.current]:
        return f"{action.card} is not in player {deal.current}'s hand"
    cards, reason = legal_cards(form, deal, deal.current)
    if action.card not in cards:
        if not deal.trick:
            return reason
        led = deal.trick[0][1].suit
        holds_led = any(c.suit == led for c in deal.hands[deal.current])
        if form.play.must_follow and holds_led and action.card.suit != led:
            return f"must follow {led.id}"
        return reason
    if action.marriage and action.aces:
        return "one card cannot declare a marriage and the ace marriage"
    if action.marriage:
        if deal.trick:
            return "a marriage is declared only when leading"
        if form.marriages.declared_by == "hand":
            return f"a marriage is announced from the hand (`marriage {action.card.suit.id}`), not by a lead"
        if form.marriages.declared_by == "before_play":
            return "a marriage is announced before the first trick, not by a lead"
        why = compile_marriage_bar(form.marriages)(deal, deal.current) or "cannot declare a marriage now"
        return f"{action.card} {why}"
    if action.aces:
        if deal.trick:
            return "the ace marriage is declared only when leading"
        if not form.marriages.ace_marriage.enabled:
            return "the ruleset has no ace marriage"
        return f"{action.card} cannot declare the ace marriage now (lead an ace holding all four)"
    return "leading this card declares its marriage (announcement is automatic)"


def takes(card: int, bit: int, best: int, best_suit: int, trump: int) -> bool:
    """Whether a card takes the trick from the best card so far: ``card`` its index in the
    pack (``bit`` is ``1 << card``), ``best`` the best card's index, ``best_suit`` the bit set
    of the best card's suit (``Card.suit_bits``), ``trump`` the trump suit's bit set (0: none).
    The best card so far is of the suit led or a trump: a card takes the trick by being higher
    in that suit (within a suit the stronger card has the lower index), or by being a trump on
    a card of another suit.

    The one statement of the trick's winner: :func:`trick_winner` calls it, and the fast
    path's generator writes its expression inline (``tysiac_spec.fast.generate.INLINED``), so
    its body stays one ``return`` of its parameters."""
    return card < best if bit & best_suit else (bit & trump) != 0


def trick_winner(deal: DealState) -> int:
    """The player whose card wins the trick (:func:`takes`): the best trump, else the best
    card of the suit led."""
    trick = deal.trick
    trump = deal.trump
    winner, best = trick[0]
    best_suit = best.suit_bits
    for player, c in trick[1:]:
        # (the trump suit's bits for a trump, else 0: a card off the best card's suit takes
        # exactly when it is a trump, so only its own suit need be known)
        if takes(c.index, c.bit, best.index, best_suit, c.suit_bits if c.suit_id == trump else 0):
            winner, best, best_suit = player, c, c.suit_bits
    return winner


def compile_apply(form: Form) -> Callable[[DealState, PlayCard], None]:
    """The play of a card under ``form``, as a function of the deal and a legal play: the card
    leaves the hand, declares its marriage or the ace marriage (setting trump as
    ``marriages`` says), and the trick is closed when everyone has played (won by
    :func:`trick_winner`, who leads next).  After the last trick the leftover cards are
    awarded and ``deal.phase`` becomes ``over`` (the game scores it)."""
    am = form.marriages.ace_marriage
    m = form.marriages
    aces_trump = am.sets_trump and m.sets_trump
    first_only, next_trick = m.trump_change == "first_only", m.trump_from != "this_trick"
    leftover_to, discards = form.talon.leftover.to, discards_to(form)
    award = leftover_to != "nobody" or discards != "nobody"
    draws = bool(form.table.stock)  # a stock to draw from after each trick (table.stock)
    # (the function keeps parts of the form, not the form: a game's compilation is shared
    # while the form lives)

    def apply_card(deal: DealState, action: PlayCard) -> None:
        p = deal.current
        card = action.card
        hand = deal.hands[p]
        for i, c in enumerate(hand):  # the very card object (cards of a pack are shared)
            if c is card:
                del hand[i]
                break
        else:
            hand.remove(card)
        if action.declares:  # a marriage or the ace marriage (one test for a plain play)
            if action.aces:
                deal.marriages[p], deal.trump, deal.pending_trump = ace_marriage_declared(
                    deal.marriages.get(p, 0), am.value, deal.trump, deal.pending_trump, card.suit.id,
                    aces_trump, first_only, next_trick)
                deal.declared.append((p, am.rank))
                deal.marriage_trick = deal.trick_number
            if action.marriage:
                declare_marriage(m, deal, p, card.suit.id)
        trick = deal.trick
        trick.append((p, card))
        order = deal.order
        if len(trick) < len(order):
            deal.current = order[(order.index(p) + 1) % len(order)]
            return
        winner = trick_winner(deal)
        won = deal.won.get(winner)
        if won is None:
            deal.won[winner] = list(map(_CARD, trick))
        else:
            won += map(_CARD, trick)
        tricks = deal.tricks
        tricks[winner] = tricks.get(winner, 0) + 1
        deal.last_trick = trick  # (the closed trick's list, no longer the deal's trick)
        deal.trick = []
        deal.trick_number += 1
        deal.last_trick_winner = winner
        if deal.pending_trump is not None:
            deal.trump, deal.pending_trump = deal.pending_trump, None
        deal.current = winner
        if draws and deal.stock:
            draw_from_stock(deal, winner)
        if not deal.hands[winner]:
            if award:
                _award_leftover(leftover_to, discards, deal)
            deal.phase = "over"

    return apply_card


def declare_marriage(m: Marriages, deal: DealState, player: int, suit: str) -> None:
    """``player`` declares the marriage of ``suit`` now (leading one of its cards, or from the
    hand, ``marriages.declared_by``): its points (``marriages.values``, or the formula
    ``marriages.value`` through :func:`marriage_points`), noted in ``deal.declared`` and in this
    trick (``deal.marriage_trick``), and trump as ``marriages`` says (:func:`_set_trump`)."""
    points = m.values[suit] if m.value is None else marriage_points(m, deal, player, suit)
    deal.marriages[player] = deal.marriages.get(player, 0) + points
    deal.declared.append((player, suit))
    deal.marriage_trick = deal.trick_number
    if m.sets_trump:
        _set_trump(m, deal, suit)


def announceable(m: Marriages, deal: DealState, player: int) -> list[str]:
    """The suits of the marriages ``player`` may announce now before the first trick
    (``marriages.declared_by: before_play``): both ``marriages.ranks`` held, not declared yet,
    and the timing of :func:`compile_marriage_bar` allowing a declaration on the first lead
    (none when it bars one)."""
    if compile_marriage_bar(m)(deal, player):
        return []
    held = {(c.suit.id, c.rank.id) for c in deal.hands[player]}
    done = {s for _, s in deal.declared}
    first, second = m.ranks
    return [s for s in m.values if (s, first) in held and (s, second) in held and s not in done]


def draw_from_stock(deal: DealState, winner: int) -> None:
    """After a trick, each active player draws the stock's top card, the trick's ``winner``
    first and then the others in the order of play (``table.stock``; mekedron/thousand's
    two-player layout A: the winner draws first).  The face-up bottom card is drawn last."""
    order, stock = deal.order, deal.stock
    start = order.index(winner)
    for k in range(len(order)):
        if not stock:
            return
        p = order[(start + k) % len(order)]
        c = stock.pop(0)
        hand = deal.hands[p]
        hand.append(c)
        hand.sort(key=_INDEX)


def _sets_trump(m: Marriages, deal: DealState) -> bool:
    """Whether a marriage declared now makes its suit trump: ``marriages.sets_trump``, and with
    ``trump_change: first_only`` only while no marriage has set a trump."""
    if m.trump_change == "first_only" and (deal.trump is not None or deal.pending_trump is not None):
        return False
    return m.sets_trump


def marriage_points(m: Marriages, deal: DealState, player: int, suit: str) -> int:
    """The points of the marriage of ``suit`` that ``player`` declares now, by the formula
    ``marriages.value`` (context ``marriage.value``; the caller uses ``marriages.values`` when
    there is none): its suit's points, whether ``player`` is the deal's declarer, whether it is
    the first marriage of the deal (the ace marriage does not count), whether it sets trump
    (:func:`_sets_trump`) and how many marriages were declared before it."""
    assert m.value is not None
    ace_rank = m.ace_marriage.rank
    number = sum(1 for _, s in deal.declared if s != ace_rank)
    e = envs.marriage_value(
        m.values[suit], player == deal.declarer, number == 0, _sets_trump(m, deal), number, len(deal.order),
        suit, deal.trump,
    )
    return int(m.value(e))


def _set_trump(m: Marriages, deal: DealState, suit: str) -> None:
    if not m.sets_trump:
        return
    deal.trump, deal.pending_trump = trump_after(
        deal.trump, deal.pending_trump, suit, m.trump_change == "first_only", m.trump_from != "this_trick")


def ace_marriage_declared(
    points: int, value: int, trump: T, pending: T, suit: T,
    sets_trump: bool, first_only: bool, next_trick: bool,
) -> tuple[int, T, T]:
    """The ace marriage declared by a lead of an ace (``marriages.ace_marriage``): the leader's
    marriage points after it (``points`` plus ``value``, ``ace_marriage.value``), and the trump
    and the trump pending after it (``trump``, ``pending``: a suit, or a false value for none),
    set by :func:`trump_after` to the led ace's ``suit`` when the ace marriage sets trump
    (``sets_trump``: ``ace_marriage.sets_trump`` and ``marriages.sets_trump``; ``first_only``
    and ``next_trick`` as there), else unchanged.  The caller notes the declaration (the rank
    ``ace_marriage.rank`` in place of a suit) and its trick, as for a marriage.

    The one statement: :func:`compile_apply` calls it, and the fast path's generator writes it
    inline with the form's rules folded (``tysiac_spec.fast.generate.INLINED``)."""
    if sets_trump:
        now, later = trump_after(trump, pending, suit, first_only, next_trick)
    else:
        now, later = trump, pending
    return points + value, now, later


def trump_after(trump: T, pending: T, suit: T, first_only: bool, next_trick: bool) -> tuple[T, T]:
    """The trump and the trump pending for the next trick (``trump``, ``pending``: a suit, or a
    false value for none) after a marriage that sets trump declares ``suit``: trump now, or
    from the next trick (``next_trick``: ``marriages.trump_from``), unless ``first_only``
    (``marriages.trump_change``) and a marriage has already set one.

    The one statement of the change: :func:`declare_marriage` calls it, and the fast path's
    generator writes it inline with the form's rules folded
    (``tysiac_spec.fast.generate.INLINED``)."""
    now, later = trump, pending
    if not (first_only and (trump or pending)):
        if next_trick:
            later = suit
        else:
            now = suit
    return now, later


def _award_leftover(leftover_to: str, discards: str, deal: DealState) -> None:
    """At the end of the deal, the cards set aside score for whoever the form names: the
    unchosen talon (``deal.leftover``) for ``talon.leftover.to``, the declarer's discards
    (``deal.discards``) for ``discards`` (:func:`~tysiac_spec.engine.outcome.discards_to`):
    ``last_trick``, ``declarer`` or ``nobody``."""
    for name, attr in ((leftover_to, "leftover"), (discards, "discards")):
        if name == "nobody":
            continue
        to = set_aside_taker(name == "last_trick", deal.last_trick_winner, deal.declarer)
        assert to is not None
        cards = getattr(deal, attr)
        if cards:
            setattr(deal, attr, [])
            deal.won.setdefault(to, []).extend(cards)


def set_aside_taker(to_last_trick: bool, last: T, declarer: T) -> T:
    """Who scores the cards set aside at the end of a deal (the unchosen talon, the
    declarer's discards): the winner of the last trick (``last``) when the form gives them to
    ``last_trick``, else the declarer.  The one statement (:func:`_award_leftover`; inlined by
    the fast path's generator, ``tysiac_spec.fast.generate.INLINED``)."""
    return last if to_last_trick else declarer
