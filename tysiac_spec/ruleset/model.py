"""The resolved ruleset: frozen dataclasses, one per section of a ruleset file.

These classes are the single source of truth for the ruleset format: the JSON
Schema (``schemas/ruleset.schema.json``) is generated from them (see
:mod:`tysiac_spec.ruleset._schema`), and a validated document is converted into
them (:mod:`tysiac_spec.ruleset._convert`).  Each field's ``description`` is its
documentation (schema, error hints, rule books).

Units: every score, bid, contract or card-point value is in points (integers);
bids and contracts are multiples of the ruleset's step.  Seats are counted
clockwise from the dealer: 0 is the dealer, 1 the dealer's left ("first hand").
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..cards import Deck
from ..text import LANGUAGES

__all__ = [
    "INCIDENT_KINDS",
    "POINTS_KIND",
    "AceMarriage",
    "AllPassPlay",
    "Auction",
    "Barrel",
    "Bolts",
    "Contra",
    "Contract",
    "ContractKind",
    "Cut",
    "DarkGame",
    "DealRules",
    "DeckSpec",
    "Finishing",
    "Forfeit",
    "ForfeitMode",
    "Form",
    "Formula",
    "GoldenRound",
    "Incident",
    "Leftover",
    "Marriages",
    "MatchRule",
    "MatchRules",
    "Option",
    "Play",
    "Provenance",
    "RankSpec",
    "Rebuy",
    "Redeal",
    "Revoke",
    "Ruleset",
    "Scoring",
    "Sitter",
    "Source",
    "Special",
    "SuitSpec",
    "TablePlan",
    "Talon",
    "Threshold",
]

LANGS = LANGUAGES
"""Languages for names and documentation (:data:`tysiac_spec.text.LANGUAGES`)."""

LangText = Mapping[str, str]
"""Text per language code (``en``, ``pl``, ``ru``, ``cs``)."""

MAX_POINTS = 1_000_000
"""The largest magnitude of a number of points a ruleset writes (a target, bid, step,
threshold, cap, penalty, card or marriage value): the schema's range is
``-MAX_POINTS..MAX_POINTS`` (``0..`` or ``1..`` where a negative value means nothing).
A thousand times the largest value any known variant uses; the product of two such values
stays within the rules DSL's range (:data:`tysiac_spec.dsl.bounds.LIMIT`, 10**12)."""

MAX_COUNT = 1_000
"""The largest count a ruleset writes (cards, deals, repetitions, a multiplier)."""


def int_option_range(minimum: int | None, maximum: int | None) -> tuple[int, int]:
    """The values an ``int`` option may take: its ``minimum`` and ``maximum``, each
    ``∓MAX_POINTS`` when not written (an option's value is a number of points or a count
    that formulas read: unbounded, it would pass validation and overflow at play)."""
    return (
        -MAX_POINTS if minimum is None else minimum,
        MAX_POINTS if maximum is None else maximum,
    )


def rule(
    description: str,
    default: Any = None,
    *,
    formula: str | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    required: bool = False,
    multiple_of: int | None = None,
) -> Any:
    """A dataclass field carrying its schema metadata (description, formula context, range)."""
    meta = {
        "description": description,
        "formula": formula,
        "minimum": minimum,
        "maximum": maximum,
        "required": required,
        "multiple_of": multiple_of,
    }
    if isinstance(default, (list, dict)):
        raise TypeError("use a tuple or a factory for mutable defaults")
    if required:
        return field(metadata=meta)
    if isinstance(default, type) and hasattr(default, "__dataclass_fields__"):
        return field(default_factory=default, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True, kw_only=True)
class Formula:
    """A formula of the rules DSL, as written, with where it was written: the one formula
    type of the package (every formula field of the model holds one).

    ``context`` names the formula site (``auction.max_bid``): which names it may
    read and what it must return (see ``docs/dsl.md``).  ``line``/``column`` are
    1-based positions of the formula text in ``file``.

    Evaluated one way, with one error behaviour: ``formula(env)``, or the same function
    fetched once with :meth:`evaluator` for a hot loop (the engine's compile steps do).
    """

    text: str
    context: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    path: tuple[str | int, ...] = ()
    compiled: Any = field(default=None, compare=False, repr=False)
    """The DSL's compiled object (:class:`tysiac_spec.dsl.CompiledFormula`, or
    :class:`~tysiac_spec.dsl.CompiledEffects` at an effects site), set by the loader; internal:
    evaluate the formula itself."""

    def __str__(self) -> str:
        return self.text

    def __call__(self, env: Mapping[str, Any]) -> Any:
        """Evaluate with an environment of the formula's context (see ``docs/dsl.md``; the
        engine builds them in ``engine/env.py``): an int, a bool, …, as the context says; at
        an effects site, the assigned values by dotted name.

        Raises:
            DslError: (``dsl.runtime``) a run-time fault (a division by zero, a rounding unit
                ``<= 0``, a value outside the DSL's range of numbers, ``docs/dsl.md``) at its
                file:line:col, or a name missing from ``env``.
        """
        return self.compiled.evaluate(env)

    def evaluator(self) -> Callable[[Mapping[str, Any]], Any]:
        """The evaluation as a plain function of the environment: ``f = formula.evaluator()``
        then ``f(env)`` is ``formula(env)`` (same value, same :class:`DslError`s) without the
        method call; fetched once where a formula is evaluated in a hot loop."""
        return self.compiled.evaluate  # type: ignore[no-any-return]

    @property
    def reads(self) -> frozenset[str]:
        """The context names the formula reads (``player`` for ``player.score``; empty at an
        effects site), so a host may build only those of a costly environment."""
        reads: frozenset[str] = getattr(self.compiled, "reads", frozenset())
        return reads

    def render(self, lang: str = "en", *, option_names: Mapping[str, str] | None = None) -> str:
        """The formula in words, in ``lang`` (``en``, ``pl``, ``ru``, ``cs``); ``option_names``:
        table options' names in words, said instead of their ids."""
        return str(self.compiled.render(lang, option_names=option_names))


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where a rule comes from: cited sources, whether a source states it, and why.

    ``status`` is ``verified`` (a cited source states it) or ``assumed`` (the
    sources are silent or ambiguous; ``reason`` says why this value was chosen).

    ``file`` is the ruleset file that wrote the element's provenance (for a written value
    without any, the value itself); ``heirs`` are the files whose provenance on an enclosing
    element still speaks for this value: its own file and the files that extend it.  A value
    a file changes thus never carries the provenance of a parent's section it overrides
    (``None``: not known, every enclosing element speaks for it).

    ``doc_file`` is the file that wrote ``doc`` (a section's words may come from a house file
    while its sources come from the parent) and ``doc_heirs`` that file and the files that
    extend it: a rule book drops words whose neighbouring rules a later file changed
    (:func:`tysiac_spec.docs.fields.outdated`).
    """

    source: tuple[str, ...] = ()
    status: Literal["verified", "assumed"] | None = None
    reason: str | None = None
    doc: LangText = field(default_factory=dict)
    file: str | None = None
    heirs: frozenset[str | None] | None = None
    doc_file: str | None = None
    doc_heirs: frozenset[str | None] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """A document a ruleset is based on."""

    id: str = rule("Identifier cited by `source:` elsewhere in the ruleset (`S000`).", required=True)
    title: str = rule("Title of the document.", required=True)
    language: str = rule("Language code of the document (`pl`, `ru`, `cs`, `en`).", required=True)
    seed: str | None = rule("File name of the document in the project's seed collection.")
    url: str | None = rule("Public address of the document.")
    note: str | None = rule("What the document covers and how reliable it is.")


# --------------------------------------------------------------------------- deck
# The pack as a ruleset writes it (``deck:``), for the schema (which takes the docstrings
# below as its descriptions) and no more: a loaded ruleset's pack is a ``cards.Deck``
# (``ruleset.deck``), the one home of the pack, built by ``Deck.from_data`` from these
# fields.  Nothing builds these classes but the deprecated ``Ruleset.deck_spec``.


@dataclass(frozen=True, slots=True, kw_only=True)
class SuitSpec:
    """One suit of the pack."""

    id: str = rule("Identifier used in formulas and fields (`hearts`).", required=True)
    letter: str = rule("One letter used in card notation (`H`).", required=True)
    symbol: str | None = rule("Printed symbol (`♥`), also accepted in notation.")
    names: LangText = rule("Name of the suit per language.", default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class RankSpec:
    """One rank of the pack; ranks are listed from the strongest to the weakest."""

    id: str = rule("Identifier used in formulas and fields (`ace`).", required=True)
    letter: str = rule("Canonical letter used in card notation (`A`, `T`, `9`).", required=True)
    points: int = rule(
        "Card points the rank is worth in a won trick.",
        required=True,
        minimum=0,
        maximum=MAX_POINTS,
    )
    aliases: tuple[str, ...] = rule("Other accepted spellings in notation (`10` for the ten).", ())
    names: LangText = rule("Name of the rank per language.", default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckSpec:
    """The pack: suits, ranks in trick order (strongest first) and the card points."""

    suits: tuple[SuitSpec, ...] = rule("The suits, in display order.", required=True)
    ranks: tuple[RankSpec, ...] = rule(
        "The ranks in trick order, strongest first (the ten ranks above the king).", required=True
    )
    total_points: int = rule(
        "Card points in the whole pack; checked against the ranks' points.",
        required=True,
        minimum=0,
        maximum=MAX_POINTS,
    )


# --------------------------------------------------------------------------- table


@dataclass(frozen=True, slots=True, kw_only=True)
class Sitter:
    """The player who sits out a deal when more players are at the table than take part."""

    seat: Literal["dealer", "dealer_right", "opposite_dealer", "last_bidder"] = rule(
        "Who sits out: the dealer; the player on the dealer's right; the player opposite "
        "the dealer; or the last in bidding order (rotating).",
        "dealer",
    )
    score: Formula | None = rule(
        "Points the sitter scores from the talon (context `scoring.sitter`); none if absent.",
        formula="scoring.sitter",
    )
    scores_on_barrel: bool = rule("Whether a sitter who is on the barrel still scores.", True)


def sitter_steps(seat: str | None, players: int) -> int:
    """Steps from the dealer, in the direction of play, to the seat that sits out
    (``players.<n>.sitter.seat``; ``None``, no sitter described: the dealer): ``dealer`` 0,
    ``opposite_dealer`` 2, ``dealer_right`` and ``last_bidder`` ``players - 1`` (the
    dealer's right: the player after the three who bid from the dealer's left; an
    assumption where the sources are silent).  The one home of this rule: the engine's
    seating (:func:`tysiac_spec.engine.seating.sitter_of`) and the check that nobody who sits
    out is obliged to open (``auction.seat`` in :mod:`.validate`) read it."""
    return {None: 0, "dealer": 0, "opposite_dealer": 2}.get(seat, players - 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class TablePlan:
    """How a deal is laid out for one number of players at the table."""

    active: int | None = rule(
        "Players who take part in each deal (3 in the 4-player game); default: everyone.",
        minimum=2,
        maximum=4,
    )
    hand_size: int = rule(
        "Cards dealt to each active player.", required=True, minimum=1, maximum=MAX_COUNT
    )
    talons: tuple[int, ...] = rule(
        "Sizes of the talons (musik / прикуп) dealt face down: `[3]`, or `[2, 2]` for two.",
        required=True,
        minimum=1,
        maximum=MAX_COUNT,
    )
    left_out: int = rule(
        "Cards of the pack not dealt (the last of the shuffled pack): face down, seen by "
        "nobody, out of the deal, their points scored by nobody (2-player layout B: 7).",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    sitter: Sitter | None = rule("The sitter, when fewer players are active than seated.")
    stock: int | None = rule(
        "Cards dealt face down to a stock after the hands and talons (none: no stock). After "
        "each trick, while it lasts, the trick's winner and then the others in turn draw its "
        "top card; its bottom card lies face up, seen by everyone, and is drawn last.",
        minimum=1,
        maximum=MAX_COUNT,
    )
    stock_trump: bool = rule(
        "With a stock: the suit of its face-up bottom card is trump from the deal on (a "
        "marriage may change it as `marriages` say; with `trump_change: first_only` this trump "
        "counts as the first and no marriage changes it).",
        True,
    )
    stock_duties: Literal["free", "apply"] = rule(
        "With a stock, while it lasts: any card may be played (the duties to follow, beat "
        "and trump begin when it is empty); or the duties apply from the first trick.",
        "free",
    )
    partnerships: Literal["none", "across"] = rule(
        "Fixed partnerships: none, every player for himself; or `across`, the players "
        "sitting across the table (seats 0 and 2, 1 and 3) form a side with one score. A "
        "side plays as one player: its partners' card points, marriages, tricks and cards "
        "won are added up, the declarer's partner plays the contract with him, and the 800 "
        "rule, the barrel, bolts, match rules and the target apply to the side's score, "
        "which both partners carry. Needs 4 players, all active.",
        "none",
    )


# --------------------------------------------------------------------------- deal


@dataclass(frozen=True, slots=True, kw_only=True)
class Redeal:
    """A condition on which a deal is abandoned and dealt again, without score."""

    id: str = rule("Name of the condition (`four-nines`).", required=True)
    when: Formula = rule(
        "Condition on a player's hand or the talon (context `deal.redeal`).",
        required=True,
        formula="deal.redeal",
    )
    who: Literal["holder", "declarer", "anyone"] = rule(
        "Who may call the redeal: the holder of the hand; the declarer; anyone.", "holder"
    )
    timing: Literal["after_deal", "after_talon", "after_exchange"] = rule(
        "When the condition is checked: after the deal; after the declarer sees the talon; "
        "after the exchange.",
        "after_deal",
    )
    mandatory: bool = rule("The redeal happens even if the holder would rather play.", False)
    penalty: int = rule(
        "Points the caller loses (0 for none; below 0, points he gains).",
        0,
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS,
    )
    effect: Literal["redeal", "play_on"] = rule(
        "What calling it does: the deal is abandoned and dealt again; or the caller is only "
        "charged `penalty` (a negative penalty pays him a bonus) and the deal is played on.",
        "redeal",
    )


INCIDENT_KINDS = ("misdeal", "exposed_card", "talon_look", "showing_hand")
"""The table incidents a ruleset may give a rule (``deal.incidents``, ``Game.incident``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Incident:
    """A table incident and its rule: a mistake the table calls (a misdeal, an exposed card, a
    look at the talon, a shown hand), never a move of the game (``Game.incident``)."""

    kind: Literal["misdeal", "exposed_card", "talon_look", "showing_hand"] = rule(
        "The incident: a misdeal (a wrong deal); a card exposed while dealing or before play; "
        "a player looking at the talon when he may not; a player showing his hand.",
        required=True,
    )
    who: Literal["dealer", "player"] = rule(
        "Who is charged: the dealer of the deal, whoever reports it; the player who committed "
        "it (named when it is called).",
        "player",
    )
    penalty: Formula | None = rule(
        "Points the offender loses (context `deal.incident`); none: nothing.",
        formula="deal.incident",
    )
    to: Literal["none", "opponents", "opponents_share"] = rule(
        "Who gains the penalty: nobody; each opponent of the offender the whole penalty; the "
        "opponents together, each an equal share rounded down to a whole point (the opponents: "
        "the defenders of a declarer, the declarer of a defender, every other active player "
        "while there is no declarer).",
        "none",
    )
    effect: Literal["redeal", "play_on"] = rule(
        "What the incident does to the deal: it is abandoned and dealt again without a score; "
        "it is played on.",
        "redeal",
    )
    dealer: Literal["same", "next"] | None = rule(
        "Who deals after the redeal (`effect: redeal`): the same dealer; the next one; none: as "
        "`deal.redeal_dealer` says.",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Cut:
    """The cut before the deal: a bad card at the bottom of the pack means cutting again."""

    enabled: bool = rule("Whether the bottom card of the cut pack is checked.", False)
    bad_ranks: tuple[str, ...] = rule(
        "Ranks (ids of `deck.ranks`) that may not lie at the bottom of the pack after the "
        "cut (the last card dealt): such a cut is bad and the pack is shuffled and cut again.",
        ("nine",),
    )
    cutter: Literal["before_dealer", "after_dealer"] = rule(
        "Who cuts: the player before the dealer in the direction of play (on his right when "
        "dealing clockwise); the player after him.",
        "before_dealer",
    )
    recut_by: Literal["same", "next"] = rule(
        "Who cuts again after a bad cut: the same player; the next player away from the dealer "
        "(against the direction of play from `before_dealer`, along it from `after_dealer`).",
        "same",
    )
    penalised: int = rule(
        "The bad cut in a row that is penalised; the pack is then dealt as it lies.",
        3,
        minimum=1,
        maximum=MAX_COUNT,
    )
    penalty: int = rule(
        "Points lost for the penalised bad cut.", 120, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )
    payer: Literal["cutter", "dealer"] = rule(
        "Who loses `penalty`: the player who made that cut; the dealer.", "cutter"
    )
    swap: bool = rule(
        "A bad bottom card is swapped at once with the first card from the top of the pack "
        "whose rank is not bad, instead of a new cut: no bad cut is counted, nobody pays "
        "(mekedron/thousand's bottom-card guard, `dealing.cut_deck_safety`).",
        False,
    )
    then: Literal["deal", "skip"] = rule(
        "After the penalised bad cut: the pack is dealt as it lies; or the deal is skipped: "
        "no one is dealt from this pack, and the next dealer in the direction of play shuffles, "
        "has it cut and deals (WIK).",
        "deal",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class DealRules:
    """Dealing: first dealer, rotation, where talon cards may fall, redeals."""

    first_dealer: Literal["random", "first_ace"] = rule(
        "How the first dealer is chosen: at random (by lot); or cards are turned one at a time "
        "and whoever receives the first ace (the first card of `first_dealer_rank`) deals.",
        "random",
    )
    first_dealer_rank: str = rule(
        "With `first_dealer: first_ace`, the rank (an id of `deck.ranks`) whose first card "
        "turned makes its receiver the first dealer.",
        "ace",
    )
    direction: Literal["clockwise", "counterclockwise"] = rule(
        "Direction of dealing, bidding, play and of the deal passing on.", "clockwise"
    )
    packet: int = rule("Cards dealt to a player at a time.", 1, minimum=1, maximum=MAX_COUNT)
    talon_not_first: int = rule(
        "The first N cards dealt may not go to the talon (0: no restriction).",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    talon_not_last: int = rule(
        "The last N cards dealt may not go to the talon (0: no restriction).",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    talon_not_consecutive: bool = rule("Two talon cards are never dealt one after another.", False)
    talon_within_first: int = rule(
        "Talon cards are dealt only among the first N cards of the deal (0: no restriction).",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    talon_at: tuple[int, ...] = rule(
        "Positions in the dealing sequence that always go to the talon: 1 the first card dealt "
        "(the top of the pack), 2 the second, …, -1 the last card dealt (the bottom), -2 the one "
        "before it; the other talon cards fall at random among the positions the restrictions "
        "above allow (WIK: the top card, the bottom card and one more).  Empty: none forced.",
        (),
        minimum=-MAX_COUNT,
        maximum=MAX_COUNT,
    )
    redeals: tuple[Redeal, ...] = rule("Conditions for abandoning and redealing a deal.", ())
    cut: Cut = rule("The cut before the deal and a bad card at the bottom.", Cut)
    redeal_dealer: Literal["same", "next"] = rule(
        "Who deals after a deal is abandoned (a redeal condition, everyone passing under "
        "`auction.all_pass: redeal`, a cancelled dark game): the same dealer again; or the "
        "next dealer in the direction of play, as if the deal had been played.",
        "same",
    )
    incidents: tuple[Incident, ...] = rule(
        "Table incidents the table punishes (a misdeal, an exposed card, a look at the talon, "
        "a shown hand), one rule per kind; a kind not listed cannot be called.",
        (),
    )


# --------------------------------------------------------------------------- auction


@dataclass(frozen=True, slots=True, kw_only=True)
class AllPassPlay:
    """All-pass play (распасы, raspasy; `auction.all_pass: play`): a deal everyone passes is
    played out without a declarer, a contract, trump or marriages, the first player after the
    dealer leading, and each player is scored for what he took."""

    talon: Literal["deal_out", "last_trick", "nobody"] = rule(
        "The talon's cards: dealt out face down one at a time to the active players from the "
        "first after the dealer before the play (their number must be a multiple of the active "
        "players); won with the last trick; set aside, scoring for nobody.",
        "deal_out",
    )
    score: Formula = rule(
        "Each active player's score for the deal (context `scoring.all_pass`), e.g. minus the "
        "card points he took.",
        required=True,
        formula="scoring.all_pass",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Auction:
    """The auction (licytacja / торговля): who opens, bid sizes, caps, passing."""

    forced_seat: int | None = rule(
        "Seat (from the dealer, clockwise) of the player obliged to open at `forced_bid` "
        "(\"on the musik\"); none if nobody is forced.",
        1,
        minimum=0,
        maximum=3,
    )
    forced_bid: int = rule("The compulsory opening bid.", 100, minimum=0, maximum=MAX_POINTS)
    first_to_speak: Literal["forced", "after_forced"] = rule(
        "Who speaks first: the forced player, who opens at the compulsory bid; or the player "
        "after him, the forced bid standing as the first bid.",
        "forced",
    )
    forced_opening: Literal["exact", "at_least"] = rule(
        "When the forced player speaks first (`first_to_speak: forced`): whether he opens at "
        "exactly the compulsory bid, or at any bid from it up to his limit.",
        "exact",
    )
    min_bid: int = rule("The lowest bid.", 100, minimum=0, maximum=MAX_POINTS)
    step: int = rule("Bids are multiples of this.", 10, minimum=1, maximum=MAX_POINTS)
    raise_by: Literal["any", "exactly_step", "at_most"] = rule(
        "How much a bid may raise the previous one: any multiple of the step (jumps allowed); "
        "exactly one step; at most `max_raise`.",
        "any",
    )
    max_raise: int | None = rule(
        "Largest raise when `raise_by` is `at_most`.", minimum=1, maximum=MAX_POINTS
    )
    max_bid: Formula | None = rule(
        "Highest bid a player may make (context `auction.max_bid`), e.g. 120 plus the marriages "
        "in hand; none: only `cap` limits.",
        formula="auction.max_bid",
    )
    cap: int | None = rule(
        "Absolute ceiling on any bid, whatever the hand.", minimum=0, maximum=MAX_POINTS
    )
    may_bid: Formula | None = rule(
        "Whether a player may make a bid (context `auction.may_bid`), e.g. not with a negative "
        "score; none: always.",
        formula="auction.may_bid",
    )
    pass_is_final: bool = rule("A player who passes takes no further part in the auction.", True)
    reentries: int = rule(
        "Times a player who passed may come back in.", 0, minimum=0, maximum=MAX_COUNT
    )
    all_pass: Literal["forced_plays", "redeal", "dealer_plays", "play"] = rule(
        "When nobody bids over the forced bid: the forced player becomes declarer at it; the "
        "deal is redealt; the dealer must play the minimum; the deal is played out without a "
        "declarer (`play`: all-pass play, raspasy, as `all_pass_play` says).",
        "forced_plays",
    )
    dealer_exempt: bool = rule(
        "With `all_pass: dealer_plays`: a dealer whom `may_bid` does not allow the lowest bid "
        "as the forced player (`forced` true, `bid` = `min_bid`, asked when the auction "
        "opens) is not made to play it; a deal everyone passes is then dealt again, as with "
        "`all_pass: redeal`.",
        False,
    )
    all_pass_play: AllPassPlay | None = rule(
        "All-pass play (raspasy), with `all_pass: play`: how a deal everyone passes is played "
        "out and scored; none without it."
    )


# --------------------------------------------------------------------------- talon


@dataclass(frozen=True, slots=True, kw_only=True)
class Leftover:
    """What happens to talon cards the declarer did not take (2-player game)."""

    to: Literal["last_trick", "nobody", "declarer"] = rule(
        "Who scores the leftover cards: the winner of the last trick; nobody; the declarer.",
        "nobody",
    )
    discards_to: Literal["same", "declarer", "nobody"] = rule(
        "Who scores the declarer's discards when `cards` is `unchosen_talon`: nobody; the "
        "declarer; or (`same`) whoever `to` names.",
        "nobody",
    )
    cards: Literal["unchosen_talon", "unchosen_and_discards"] = rule(
        "Which cards count: the talon not chosen; or it and the declarer's discards.",
        "unchosen_talon",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebuy:
    """Selling the contract (перекупка, re-buy): after the auction the talon is turned face up
    and the defenders, in turn from the declarer's next seat, may each buy the contract at
    `price`; the first who buys becomes the declarer at it and takes the talon; if nobody buys,
    the declarer keeps it."""

    enabled: bool = rule("Whether the contract may be bought from the declarer.", False)
    who: Literal["defenders", "first_defender"] = rule(
        "Who is offered the contract: every defender in turn from the declarer's next seat, or "
        "only the defender in that seat.",
        "defenders",
    )
    price: Formula | None = rule(
        "The contract a buyer must play (context `talon.rebuy`), e.g. a fixed 240 or the bid "
        "plus 10; offered only when above the winning bid.  Required when `enabled`.",
        formula="talon.rebuy",
    )
    bidding: Literal["fixed", "auction"] = rule(
        "How the contract is bought: at the fixed `price`, the first defender in turn who buys "
        "it having it; or in a second auction (mekedron/thousand's house rule \"re-buy\", a "
        "higher contract named after the reveal) where the defenders in turn outbid each other, "
        "from `price` (and above the winning bid) in multiples of `auction.step`, up to "
        "`auction.cap` (else every point of the deal), a pass final, the last bidder buying at "
        "his bid.",
        "fixed",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Talon:
    """Taking the talon and the exchange."""

    take: Literal["all", "choose_one"] = rule(
        "The declarer takes every talon; or chooses one of several (2-player game).", "all"
    )
    shown: bool = rule("The taken talon is turned face up for everyone to see.", True)
    shown_from: Literal["taking", "second_round", "deal"] = rule(
        "When the talon on the table is turned face up for everyone: only when the declarer "
        "takes it (`shown` and `shown_when_unopposed` decide); once the auction comes round to "
        "a player who has already bid or passed in it (the forced player's standing bid counts), "
        "its second round; or as soon as it is dealt, before the auction (and any dark-game "
        "offer).  A talon turned up before it is taken stays shown after it is taken.",
        "taking",
    )
    shown_when_unopposed: bool = rule(
        "Whether it is shown when the declarer won only because everyone passed.", True
    )
    exchange: Literal["give_each", "discard", "none", "give_and_bury"] = rule(
        "The exchange: one card (or `give_count`) to each opponent; discard face down; none; "
        "or (`give_and_bury`) `give_count` to each opponent, then `discard_count` buried face "
        "down, whose points count for the declarer as if won in a trick.",
        "give_each",
    )
    give_count: int = rule(
        "Cards given to each opponent in a `give_each` exchange.", 1, minimum=0, maximum=MAX_COUNT
    )
    discard_count: int = rule(
        "Cards discarded face down in a `discard` exchange.", 0, minimum=0, maximum=MAX_COUNT
    )
    give_face_up: bool = rule(
        "Given cards are shown to everyone; otherwise only the declarer and the receiver know "
        "a given card.",
        False,
    )
    give_order: Literal["declarer_choice", "clockwise"] = rule(
        "Which given card goes to whom: the declarer chooses; or (`clockwise`) the cards go "
        "round the opponents in turn, from the player after the declarer in the direction of "
        "play (`deal.direction`), one card each per round.",
        "declarer_choice",
    )
    hand_out: bool = rule(
        "The declarer hands out the first talon (`players.N.talons[0]`) without keeping it: "
        "its cards, shown as `shown` says, are the cards he gives in the `give_each` exchange "
        "(which to whom as `give_order` says); the other talons (a reserved card) come to his "
        "hand, unseen by the others, once the exchange is done (the Polish 2-card talon).",
        False,
    )
    leftover: Leftover = rule("The leftover talon cards (2-player game).", Leftover)
    rebuy: Rebuy = rule("Selling the contract: a defender buys it after the talon is seen.", Rebuy)


# --------------------------------------------------------------------------- contract


@dataclass(frozen=True, slots=True, kw_only=True)
class ForfeitMode:
    """Limits and penalties of forfeits, as a site's table setting."""

    limit: int | None = rule(
        "Most forfeits a player may make in a match; none: unlimited.",
        minimum=0,
        maximum=MAX_COUNT,
    )
    free: int | None = rule(
        "Forfeits that cost the declarer nothing before the penalty applies; none: all cost.",
        minimum=0,
        maximum=MAX_COUNT,
    )
    penalty_every: int | None = rule(
        "After the free ones, every Nth forfeit costs `penalty` (1: each one).",
        minimum=1,
        maximum=MAX_COUNT,
    )
    penalty: int = rule(
        "Points lost for a penalised forfeit.", 120, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Forfeit:
    """Giving up a deal after seeing the talon (rospis / Rospisat' / bomba)."""

    enabled: bool = rule("Whether a declarer may forfeit.", False)
    only_when_forced: bool = rule(
        "Only a declarer stuck with the compulsory bid (everyone passed) may forfeit.", False
    )
    when: Literal["until_contract", "before_exchange", "before_talon"] = rule(
        "When: from taking the talon until the contract is fixed (during the exchange and at "
        "the contract, which is then asked for even when it cannot be raised); only on "
        "seeing the talon, before the first card of the exchange; or only before taking the "
        "talon (its cards unseen unless turned up, `talon.shown_from`): the declarer takes it "
        "(`talon 0`, or chooses one) or forfeits.",
        "until_contract",
    )
    declarer: Formula | None = rule(
        "Score of the forfeiting declarer (context `forfeit.declarer`), e.g. minus the bid.",
        formula="forfeit.declarer",
    )
    defender: Formula | None = rule(
        "Score of each opponent (context `forfeit.defender`), e.g. 60.",
        formula="forfeit.defender",
    )
    mode: ForfeitMode = rule("How many forfeits are allowed and which are penalised.", ForfeitMode)


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractKind:
    """A kind of contract (issue 17): what the declarer undertakes, how the play changes under
    it and how it is scored.  The numeric contract, "make at least the contract in points", is
    the kind :data:`POINTS_KIND`, every field at its default (the scoring formulas of
    ``scoring``, trump and marriages as the ruleset says, no hand shown); a named kind
    (``contract.kinds``: misère, slam, open hand) is bid by its ``id`` in the auction
    (``bid misere``) and played for its fixed ``value``.  Read by ``engine/contracts.py``."""

    id: str = rule(
        "The kind's name, the word bid in the auction (`bid misere`): lower-case letters, "
        "digits, `_` or `-`, starting with a letter; `points` is the numeric contract.",
        required=True,
    )
    name: LangText = rule("The kind's name per language (the rule book).", default=None)
    rank: int | None = rule(
        "Where the named bid stands among the numeric bids: it counts as a bid of this many "
        "points (made only over a lower high bid; a numeric bid over it must be higher, by the "
        "auction's step; a named bid over it must have a higher rank); none: it outranks every "
        "numeric bid, and nothing may be bid over it.",
        minimum=0,
        maximum=MAX_POINTS,
    )
    value: int | None = rule(
        "The contract's points when this kind is won (the `contract` of its formulas), fixed: "
        "not raised after the exchange; none: the bid, raised as `contract` allows (the "
        "numeric contract only; a named kind needs one).",
        minimum=0,
        maximum=MAX_POINTS,
    )
    goal: Formula | None = rule(
        "Whether the declarer made this kind of contract (context `scoring.made`), e.g. "
        "`tricks == 0` for misère, `others_tricks == 0` for a slam; none: `scoring.made`.",
        formula="scoring.made",
    )
    declarer: Formula | None = rule(
        "The declarer's score for a deal of this kind (context `scoring.declarer`), e.g. "
        "`if made then contract else -contract`; none: `scoring.declarer`.",
        formula="scoring.declarer",
    )
    defender: Formula | None = rule(
        "Each defender's score for a deal of this kind (context `scoring.defender`), e.g. `0`; "
        "none: `scoring.defender`.",
        formula="scoring.defender",
    )
    trump: bool = rule(
        "Whether a deal of this kind has a trump: false, no marriage (nor the ace marriage) "
        "makes a suit trump and a trump turned up from the stock does not count.",
        True,
    )
    marriages: bool = rule(
        "Whether marriages (and the ace marriage) may be declared in a deal of this kind.", True
    )
    open_hand: bool = rule(
        "Whether the declarer plays with his hand face up: every player sees it from the first "
        "trick to the end of the deal.",
        False,
    )
    ends_when_decided: bool = rule(
        "Whether play stops as soon as the goal is decided, no split of the tricks left able to "
        "change it (a misère declarer has taken a trick, a slam declarer has lost one): the "
        "cards still in hand are not played and count for nobody. Only for a kind whose goal "
        "reads no more of the play than the tricks (`tricks`, `others_tricks`) and whose scores "
        "read none of it (no points, marriages, cards or tricks). No source says a deal stops; "
        "the peer plays to the last trick.",
        False,
    )
    gives_bolts: bool = rule(
        "Whether a deal of this kind counts towards bolts (`special.bolts`) as any deal does: "
        "false, nobody gets a bolt in it (not a defender whose score the kind fixes at 0, nor "
        "a declarer who took no trick). The sources are silent; true keeps the bolt rule as "
        "written.",
        True,
    )


POINTS_KIND = ContractKind(id="points")
"""The numeric contract, "make at least the contract in points", as a :class:`ContractKind`:
every field at its default (today's contract, played and scored as ``scoring`` says)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Contra:
    """Contra and redouble (kontra / rekontra, контра): once the declarer is known, the
    defenders in turn from his next seat may double the contract's value; after a contra the
    declarer may redouble.  Only after an auction (not in a golden-round, barrel or dark deal)."""

    enabled: bool = rule("Whether a defender may double the contract.", False)
    who: Literal["defenders", "first_defender"] = rule(
        "Who may double: every defender in turn from the declarer's next seat (the first "
        "contra ends the turn), or only the defender in that seat.",
        "defenders",
    )
    when: Literal["after_auction", "before_play"] = rule(
        "When: as the auction ends, before the talon is taken; or once the contract is fixed, "
        "before the first trick.",
        "after_auction",
    )
    multiplier: int = rule(
        "The factor of a doubled contract.", 2, minimum=1, maximum=MAX_COUNT
    )
    redouble: bool = rule("Whether the declarer may redouble a doubled contract.", False)
    redouble_multiplier: int = rule(
        "The further factor of a redoubled contract (it multiplies `multiplier`).",
        2,
        minimum=1,
        maximum=MAX_COUNT,
    )
    applies_to: Literal["declarer", "everyone"] = rule(
        "Whose deal score the factor multiplies: the declarer's (the contract's value), or "
        "every player's.",
        "declarer",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Contract:
    """The contract: the declarer's final bid, fixed after the exchange."""

    raise_allowed: bool = rule("The declarer may raise the bid after the exchange.", True)
    step: int = rule(
        "A raised contract is a multiple of this.", 10, minimum=1, maximum=MAX_POINTS
    )
    max: Formula | None = rule(
        "Highest contract (context `contract.max`); none: the auction cap, if any.",
        formula="contract.max",
    )
    allowed: Formula | None = rule(
        "Extra condition on the contract (context `contract.allowed`).", formula="contract.allowed"
    )
    forfeit: Forfeit = rule("Forfeiting the deal instead of playing it.", Forfeit)
    contra: Contra = rule("Doubling the contract (contra) and redoubling it.", Contra)
    claim_allowed: bool = rule(
        "A declarer sure of every trick may show the hand and score without playing.", False
    )
    names_trump: bool = rule(
        "The declarer names trump as soon as he wins the contract, before the talon (`trump "
        "SUIT`, a suit of `marriages.values`): that suit is trump from the first trick. "
        "Marriages still score and set trump as `marriages.sets_trump` says; their value "
        "formula reads the trump (`marriages.value`: `suit`, `trump`).",
        False,
    )
    kinds: tuple[ContractKind, ...] = rule(
        "Named contracts bid in the auction beside the numeric bids (misère, slam, open "
        "hand), each a kind of contract with its goal, play and scoring; none: only the "
        "numeric contract (`POINTS_KIND`).",
        (),
    )


# --------------------------------------------------------------------------- play


@dataclass(frozen=True, slots=True, kw_only=True)
class Revoke:
    """A card played against the play duties (a revoke): refused, or played and punished."""

    handling: Literal["refuse", "penalise"] = rule(
        "What a card played against the duties to follow, beat or trump does: it is refused and "
        "the player plays another; it is played, the revoke is noted and the offender pays "
        "`penalty` at the deal's end, for each revoke (the legal plays stay those the duties "
        "allow: bots never revoke).",
        "refuse",
    )
    penalty: Formula | None = rule(
        "Points the offender loses for each revoke (context `deal.incident`, read when the card "
        "is played), e.g. the bid; needed with `handling: penalise`.",
        formula="deal.incident",
    )
    to: Literal["none", "opponents", "opponents_share"] = rule(
        "Who gains the penalty: nobody; each opponent of the offender the whole penalty; the "
        "opponents together, each an equal share rounded down to a whole point (the defenders of "
        "a declarer, the declarer of a defender).",
        "none",
    )
    exempt_lead_rule: bool = rule(
        "The lead after a marriage (`lead_after_marriage`) is still refused when broken, not "
        "punished as a revoke.",
        True,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Play:
    """The obligations when playing to a trick."""

    leader: Literal["declarer", "forced", "dealer_left"] = rule(
        "Who leads to the first trick.", "declarer"
    )
    must_follow: bool = rule("A player must follow the suit led when able.", True)
    must_beat: Literal["no", "led_card", "trick_winner"] = rule(
        "Beat (overtake) duty when following: none; beat the card led; beat the best card of "
        "the suit led on the trick.",
        "no",
    )
    beat_when_trumped: bool = rule(
        "Whether the beat duty in the led suit still applies after the trick has been trumped.",
        False,
    )
    must_trump: bool = rule("A player void in the suit led must play a trump when able.", True)
    must_overtrump: bool = rule(
        "A player who must trump has to beat the highest trump already on the trick when able.",
        False,
    )
    cannot_overtrump: Literal["any_card", "any_trump"] = rule(
        "A void player whose trumps are all lower than a trump on the trick: may play any card; "
        "must still play a trump.",
        "any_trump",
    )
    beat_with_highest: bool = rule(
        "When the beat duty binds (a higher card of the suit led is held), the player must play "
        "his highest card of that suit (Polish \"przebijanie\" in full); off: any card that beats.",
        False,
    )
    trump_with_highest: bool = rule(
        "When a player must trump or overtrump, he must play his highest trump; off: any trump "
        "the duty allows.",
        False,
    )
    duties_bind: Literal["everyone", "defenders", "declarer"] = rule(
        "Whom the beat, overtrump and highest-card duties bind: every player; only the "
        "defenders; only the declarer. The others need only follow suit and trump when void "
        "(`must_follow`, `must_trump`).",
        "everyone",
    )
    defenders_may_discard: bool = rule(
        "A defender void in the suit led whose trumps are all lower than a trump on the trick "
        "may play any card, whatever `cannot_overtrump` says for the declarer (partial trumping).",
        False,
    )
    defenders_overtrump_declarer: bool = rule(
        "A defender void in the suit led who holds a trump higher than the declarer's highest "
        "trump on the trick must play one of those, even where `must_trump` or "
        "`must_overtrump` is off; a trump of the other defender he need not beat (unless "
        "`must_overtrump` binds him and he can).",
        False,
    )
    lead_after_marriage: Literal["any", "trump", "not_trump"] = rule(
        "The lead to the trick after one in which a marriage (or the ace marriage) was "
        "declared, whoever leads it: any card; a trump when the leader holds one; a card "
        "other than a trump when the leader holds one.",
        "any",
    )
    revoke: Revoke = rule(
        "A card played against the duties to follow, beat or trump (a revoke): refused, or "
        "played and punished at the deal's end.",
        Revoke,
    )


# --------------------------------------------------------------------------- marriages


@dataclass(frozen=True, slots=True, kw_only=True)
class AceMarriage:
    """The ace marriage (all four aces in one hand)."""

    enabled: bool = rule("Whether four aces can be declared.", False)
    rank: str = rule(
        "The rank (an id of `deck.ranks`) all of whose cards, held together, make this marriage.",
        "ace",
    )
    value: int = rule(
        "Points for the ace marriage.", 200, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )
    sets_trump: bool = rule("Whether declaring it changes trump (it has no suit).", False)
    requires_won_trick: bool = rule("Only after its holder has won a trick.", True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Marriages:
    """Marriages (meldunek / марьяж / hláška): values, when and how they are declared."""

    values: Mapping[str, int] = rule(
        "Points for the marriage (the two `ranks`) of each suit, by suit id.",
        required=True,
        minimum=0,
        maximum=MAX_POINTS,
    )
    ranks: tuple[str, str] = rule(
        "The two ranks, by rank id (`deck.ranks`), whose cards of one suit held together make "
        "a marriage.",
        ("king", "queen"),
    )
    announcement: Literal["automatic", "spoken"] = rule(
        "Leading a card of a marriage while holding its partner declares the marriage "
        "automatically; or the player must say it, or it counts for nothing.",
        "automatic",
    )
    declared_by: Literal["lead", "hand", "before_play"] = rule(
        "How a marriage is declared: by leading one of its cards (`announcement` says whether "
        "that alone declares it); or from the hand: the player on lead, holding both cards, "
        "says it (`marriage SUIT`; at most one per lead, when a lead may declare) and then "
        "leads any card; or only before the first trick: each active player holding a "
        "marriage, in turn from the first leader, says those he declares (`marriage SUIT`, one "
        "at a time, `pass` when done; the timing limits apply as on the first lead), none later.",
        "lead",
    )
    value: Formula | None = rule(
        "The points of a marriage as it is declared in play, when they depend on the deal "
        "(context `marriage.value`: its suit's points `value`, whether the declaring player "
        "is the `declarer`, whether it is the `first` of the deal, whether it `sets_trump`); "
        "none: `values` of its suit.  Not the ace marriage.  The formula function "
        "`marriages(cards)` (the bid cap, the contract's ceiling, the sitter's score) counts "
        "each marriage of `cards` with it as the declarer would declare them, the most "
        "valuable suit first.",
        formula="marriage.value",
    )
    requires_won_trick: bool = rule(
        "Only a player who has already won a trick in this deal may declare.", False
    )
    declarer_first_lead: bool = rule(
        "Whether the declarer may declare on the lead to the first trick.", True
    )
    from_trick: int = rule(
        "A marriage may be declared only on the lead to this trick of the deal or a later one "
        "(1-based; 1: from the first trick).  Not the ace marriage.",
        1,
        minimum=1,
        maximum=MAX_COUNT,
    )
    min_cards: int = rule(
        "A marriage may be declared only by a player holding at least this many cards before "
        "leading (0: no minimum; n + 1 bars the last n tricks).  Not the ace marriage.",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    sets_trump: bool = rule("A declared marriage makes its suit trump.", True)
    trump_change: Literal["every", "first_only"] = rule(
        "Every new marriage changes trump; or only the first one sets it.", "every"
    )
    trump_from: Literal["this_trick", "next_trick"] = rule(
        "The new trump counts from the trick being led, or from the next trick.", "this_trick"
    )
    ace_marriage: AceMarriage = rule("The four-aces marriage.", AceMarriage)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True, kw_only=True)
class Scoring:
    """Scoring a played deal."""

    made: Formula = rule(
        "Whether the declarer made the contract (context `scoring.made`); no rounding before "
        "the check unless written here.",
        required=True,
        formula="scoring.made",
    )
    declarer: Formula = rule(
        "The declarer's score for the deal (context `scoring.declarer`).",
        required=True,
        formula="scoring.declarer",
    )
    defender: Formula = rule(
        "Each defender's score: own tricks and marriages, rounded (context `scoring.defender`).",
        required=True,
        formula="scoring.defender",
    )


# --------------------------------------------------------------------------- match


@dataclass(frozen=True, slots=True, kw_only=True)
class Threshold:
    """The 800 rule: above a score, a player scores only from contracts he won."""

    enabled: bool = rule("Whether the rule applies.", False)
    score: int = rule(
        "The score from which the rule applies.",
        800,
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS,
    )
    inclusive: bool = rule("Whether exactly `score` is already above the threshold.", True)
    freezes_forfeit_bonus: bool = rule(
        "Whether a player above the threshold also gets nothing from an opponent's forfeit "
        "(the +60 of a bomb or rospis).",
        True,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Finishing:
    """Who may cross the target and what happens to the others."""

    who: Literal["anyone", "declarer"] = rule(
        "Who may reach the target: anyone; only a declarer who makes the contract.", "anyone"
    )
    others: Literal["cap", "no_score"] = rule(
        "A non-declarer who would reach the target: his score stops at `cap`; or he scores "
        "nothing for the deal.",
        "cap",
    )
    cap: int = rule(
        "Where a non-declarer's score stops.", 990, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )
    exact_landing: bool = rule(
        "Whether landing exactly on the target counts as crossing it for a non-declarer.", True
    )
    tie: Literal["declarer", "highest", "continue"] = rule(
        "Two players reaching the target in one deal: the declarer wins; the higher score wins; "
        "play continues.",
        "declarer",
    )
    tie_raise: int = rule(
        "Points the target rises by when two or more players reach it in one deal and `tie` "
        "names no winner (`continue`, or a tie it cannot break): play goes on to the raised "
        "target, the scores stay as they are, and `cap` and the barrel's `threshold` rise "
        "with it (0: the target stays).",
        0,
        minimum=0,
        maximum=MAX_POINTS,
    )
    tie_score: Literal["kept", "below_target"] = rule(
        "When a tie raises the target (`tie_raise`): the tied players keep their scores; or "
        "each score at or over the target is set to one below it (mekedron/thousand's "
        "continuation: 950 + 60 for two players gives 999 each and the target 1500).",
        "kept",
    )
    tie_equal: Literal["declarer", "lowest_seat", "declarer_then_lowest_seat"] = rule(
        "Equal highest scores at the target that `tie` leaves unbroken: the declarer's wins "
        "if he is one of them, else no one (play goes on); or the lowest seat number among "
        "them wins, the declarer given no favour (mekedron/thousand's `high_score`); or the "
        "declarer's, else the lowest seat number's (its `declarer_wins`, with `tie: highest`).",
        "declarer",
    )
    loss: int | None = rule(
        "A score at or below which a player loses the match outright (the reverse barrel's "
        "minus the target): the match ends after the deal, and the player with the highest "
        "score wins (of several, the declarer if he is one of them, else the first of them "
        "by seat number); a player reaching the target in the same deal wins as usual. None: "
        "no score loses the match.",
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRule:
    """A deal-end rule: when its condition holds for a player, its effects apply."""

    id: str = rule("Name of the rule (`samosval`).", required=True)
    when: Formula = rule(
        "Condition, checked for each player after a deal (context `match.rule`).",
        required=True,
        formula="match.rule",
    )
    then: Formula = rule(
        "Effects, statements such as `player.score = 0` (context `match.rule`).",
        required=True,
        formula="match.rule:effects",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Counter:
    """A per-player number the ruleset keeps across deals (bolts, forfeits used, …)."""

    id: str = rule("Name, readable in formulas as `player.<id>`.", required=True)
    initial: int = rule(
        "Value at the start of a match.", 0, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )
    description: str | None = rule("What the counter counts.")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRules:
    """The match: deals until someone reaches the target."""

    target: int = rule("Score that ends the match.", 1000, minimum=1, maximum=MAX_POINTS)
    finishing: Finishing = rule("Crossing the target.", Finishing)
    threshold: Threshold = rule("The 800 rule.", Threshold)
    counters: tuple[Counter, ...] = rule("Per-player numbers kept across deals.", ())
    rules: tuple[MatchRule, ...] = rule(
        "Deal-end rules applied in order after the deal is scored (e.g. 555 → 0).", ()
    )


# --------------------------------------------------------------------------- specials


@dataclass(frozen=True, slots=True, kw_only=True)
class Barrel:
    """The barrel (бочка / beczka): near the target, a player must make it in a few deals."""

    enabled: bool = rule("Whether the barrel is played.", False)
    threshold: int = rule(
        "Score at which a player gets on the barrel.",
        880,
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS,
    )
    goal: int = rule(
        "Points the player on the barrel must make in one deal to finish.",
        120,
        minimum=0,
        maximum=MAX_POINTS,
    )
    attempts: int = rule(
        "Deals the player may spend on the barrel.", 3, minimum=1, maximum=MAX_COUNT
    )
    attempts_unlimited: bool = rule(
        "The player may stay on the barrel any number of deals (`attempts` and the failure "
        "penalty then do not apply).",
        False,
    )
    free_failures: int = rule(
        "Failed attempts that cost nothing.", 2, minimum=0, maximum=MAX_COUNT
    )
    penalty: int = rule(
        "Points lost on falling off the barrel.", 120, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )
    bidding: Literal["none", "allowed"] = rule(
        "The player on the barrel does not bid (the talon goes to him); or bids as usual.", "none"
    )
    fail_own_bid_falls: bool = rule(
        "Failing his own contract throws him off the barrel at once.", True
    )
    collision: Literal["all_fall", "coexist", "last_stays", "first_stays", "everyone_falls"] = rule(
        "Several players reaching the barrel: all fall off (two or more reaching it in the same "
        "deal); all stay; the last one stays; the first one stays; everyone falls (a player "
        "reaching it where another already sits, or with another, and every one of them falls).",
        "coexist",
    )
    collision_tie: Literal["all_stay", "declarer_then_lowest_seat"] = rule(
        "Two or more players reaching the barrel in the same deal under `last_stays` (or "
        "under `first_stays` with nobody on it before): all of them stay; or one stays, the "
        "declarer if he is one of them, else the lowest seat number, and the others fall as "
        "in a collision (mekedron/thousand's same-deal tie).",
        "all_stay",
    )
    collision_penalty: int = rule(
        "Points each colliding player loses when falling.",
        120,
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS,
    )
    forfeit_falls: bool = rule("A forfeit on the barrel throws the player off.", False)
    falls_reset: int = rule(
        "Every Nth fall of a player from the barrel in the match (after the last attempt, "
        "thrown off, or in a collision) sets his score to 0 in place of what that fall costs, "
        "and his count starts again (0: falls are not counted).",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    defender_scores: bool = rule(
        "Whether the points a player on the barrel takes as a defender count: if they reach "
        "`goal`, he makes it (true); or (false) on the barrel only his own contract counts, "
        "and a deal he defends scores him nothing and is a failed attempt.",
        True,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Bolts:
    """Bolts (болт / палка): deals in which a player takes nothing."""

    enabled: bool = rule("Whether bolts are counted.", False)
    counts: Literal["no_trick", "zero_points"] = rule(
        "What is a bolt: taking no trick; scoring zero.", "no_trick"
    )
    every: int = rule("Every Nth bolt is penalised.", 3, minimum=1, maximum=MAX_COUNT)
    penalty: int = rule(
        "Points lost on a penalised bolt.", 120, minimum=-MAX_POINTS, maximum=MAX_POINTS
    )
    declarer_exempt: bool = rule("The declarer never gets a bolt.", False)
    on_barrel: bool = rule("Whether deals on the barrel count.", True)


@dataclass(frozen=True, slots=True, kw_only=True)
class DarkGame:
    """The dark (blind) game: playing without seeing the talon, for doubled points."""

    enabled: bool = rule("Whether a dark game may be declared.", False)
    who: Literal["first_hand", "anyone"] = rule(
        "Who may declare it: the player after the dealer; anyone before bidding.", "first_hand"
    )
    when: Literal["before_auction"] = rule(
        "When it is declared: before the auction (after any redeal check), which it replaces; "
        "the only timing the engine knows.",
        "before_auction",
    )
    contract: int = rule(
        "The contract of a dark game.", 120, minimum=0, maximum=MAX_POINTS
    )
    multiplier: int = rule(
        "Points of the deal are multiplied by this.", 2, minimum=1, maximum=MAX_COUNT
    )
    raise_allowed: bool = rule("Whether the dark contract may be raised.", False)
    cancel_with_marriage: bool = rule("An opponent holding a marriage may cancel the dark game.", False)
    forbidden_when_negative: bool = rule("A player with a negative score may not declare it.", True)
    sees_own_hand: bool = rule(
        "Whether the dark player has looked at his own hand (never at the talon).", True
    )
    cancel_effect: Literal["normal_game", "redeal"] = rule(
        "What a cancelled dark game becomes: an ordinary auction; a redeal.", "normal_game"
    )
    bolt_count: int = rule(
        "Bolts a player is given for a bolt in a dark game (2: a dark bolt counts double; a "
        "golden-round deal's is ``special.golden_round.bolt_count``).",
        1,
        minimum=1,
        maximum=MAX_COUNT,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class GoldenRound:
    """The golden round: first deals of a match where each player in turn plays 120."""

    enabled: bool = rule("Whether a match starts with a golden round.", False)
    contract: int = rule(
        "The contract each player must play.", 120, minimum=0, maximum=MAX_POINTS
    )
    multiplier: int = rule(
        "Points of golden deals are multiplied by this.", 2, minimum=1, maximum=MAX_COUNT
    )
    raise_allowed: bool = rule("Whether the contract may be raised.", False)
    auction: bool = rule(
        "Whether a golden deal keeps its auction: the compulsory and the lowest bid become "
        "`contract` (PAGx1's gold set: the minimum bid is 120) and whoever wins it declares, "
        "the deal's points multiplied as any golden deal's (no contra nor re-buy: those follow a "
        "normal deal's auction only); false: no auction, the first hand is declarer at `contract`.",
        False,
    )
    deals: int = rule(
        "Deals in the golden round, the first hand of each playing the contract (0: one per "
        "seated player, so that each plays it once).",
        0,
        minimum=0,
        maximum=MAX_COUNT,
    )
    if_nobody_makes_it: Literal["repeat", "normal_game", "replay", "continue"] = rule(
        "If nobody makes the contract: reset the scores and play the golden round again; "
        "reset and play the normal game; keep the scores and play the golden round again; "
        "keep the scores and play the normal game.",
        "repeat",
    )
    dark_allowed: bool = rule(
        "Whether the declarer of a golden deal may first declare it dark (`special.dark`, "
        "asked of him alone, as its `who` and `forbidden_when_negative` allow; no cancel): he "
        "plays the golden contract with the talon shown to nobody else, the deal's points "
        "multiplied by `dark.multiplier` as well; the deal stays a golden one (`mode`).",
        False,
    )
    bolt_count: int = rule(
        "Bolts a player is given for a bolt in a golden-round deal (2: a golden bolt counts "
        "double; a dark game's is ``special.dark.bolt_count``).",
        1,
        minimum=1,
        maximum=MAX_COUNT,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Special:
    """Special mechanisms switched on by some variants."""

    barrel: Barrel = rule("The barrel.", Barrel)
    bolts: Bolts = rule("Bolts.", Bolts)
    dark: DarkGame = rule("The dark game.", DarkGame)
    golden_round: GoldenRound = rule("The golden round.", GoldenRound)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """A table setting a game chooses (rospis mode, barrel on/off, how a 5 rounds)."""

    type: Literal["choice", "int", "bool"] = rule("Kind of value.", required=True)
    default: str | int | bool = rule("Value when the game does not choose one.", required=True)
    choices: tuple[str, ...] = rule("Allowed values of a `choice` option.", ())
    minimum: int | None = rule(
        "Lowest value of an `int` option; unwritten, -MAX_POINTS (-1000000).",
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS
    )
    maximum: int | None = rule(
        "Highest value of an `int` option; unwritten, MAX_POINTS (1000000).",
        minimum=-MAX_POINTS,
        maximum=MAX_POINTS
    )
    set: Mapping[str, Mapping[str, Any]] = rule(
        "Patch merged onto the ruleset for each value (keys: the choice, or `true`/`false`).",
        default=None,
    )
    doc: LangText = rule("What the option does, per language.", default=None)
    source: tuple[str, ...] = rule("Ids of the sources that list this option.", ())
    status: Literal["verified", "assumed"] | None = rule("`assumed` when no source states it.")
    reason: str | None = rule("Why the default was chosen.")

    def applies_to(self, players: int) -> bool:
        """Whether the option has a say in the rules for ``players`` players.

        An option declares the player counts it is for by what it patches: one whose values
        patch only ``players.<n>`` entries (``two_player_exchange`` sets ``players.2.talon``)
        applies to those counts only; one that patches a common section, or patches nothing
        (a formula reads it as ``options.<name>``), applies to every count.
        """
        counts: set[str] = set()
        for patch in (self.set or {}).values():
            for key, value in (patch or {}).items():
                if key != "players" or not isinstance(value, Mapping):
                    return True
                counts.update(str(n) for n in value)
        return not counts or str(players) in counts


# --------------------------------------------------------------------------- forms


class _CompiledSlot:
    """Room on a :class:`Form` for the engine's compilation of it.  Not a rule, so not a
    dataclass field: no comparison, ``repr``, ``replace``, copy, pickle or walk over the
    rules sees it."""

    __slots__ = ("_compiled",)

    @property
    def compiled(self) -> Any:
        """The engine's :class:`~tysiac_spec.engine.compiled.CompiledForm` of this form, set on
        first use by :func:`~tysiac_spec.engine.compiled.compile_form`; ``None`` before."""
        return getattr(self, "_compiled", None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Form(_CompiledSlot):
    """The complete rules for one number of players, every section merged.

    This is what the engine plays: ``ruleset.form(3)``.
    """

    players: int
    table: TablePlan
    deal: DealRules
    auction: Auction
    talon: Talon
    contract: Contract
    play: Play
    marriages: Marriages
    scoring: Scoring
    match: MatchRules
    special: Special

    @property
    def active(self) -> int:
        """Players taking part in each deal."""
        return self.table.active or self.players


# Sections that may appear at the top of a ruleset and inside `players.<n>`.
SECTIONS: dict[str, type] = {
    "deal": DealRules,
    "auction": Auction,
    "talon": Talon,
    "contract": Contract,
    "play": Play,
    "marriages": Marriages,
    "scoring": Scoring,
    "match": MatchRules,
    "special": Special,
}


def no_form_message(ruleset_id: str, players: int, counts: tuple[int, ...]) -> str:
    """The message for a player count ``players`` that ruleset ``ruleset_id`` has no form for
    (``counts``: the counts it defines, ascending): ``ruleset `pl-standard` has no 5-player form;
    it defines 2, 3, 4``; a count below 1 is named as no number of players at all
    (``-1 is not a number of players: ruleset `pl-standard` defines 2, 3, 4``)."""
    known = ", ".join(str(n) for n in counts) or "none"
    if players < 1:
        return f"{players} is not a number of players: ruleset `{ruleset_id}` defines {known}"
    return f"ruleset `{ruleset_id}` has no {players}-player form; it defines {known}"


_reload: Callable[[str, Mapping[str, Any]], Ruleset] | None = None
"""The loader's load by reference with options (``load_ruleset(ref, options=...)``), set by
the loader when it is imported (the model does not import the loader):
:meth:`Ruleset.with_options` of a ruleset that lost its way back to its document."""


class _RechooseSlot:
    """Room on a :class:`Ruleset` for the loader's way back to its checked document, to
    choose other option values (:meth:`Ruleset.with_options`).  Not a dataclass field: no
    comparison, ``repr``, ``replace``, copy or pickle sees it (a copy made so reloads)."""

    __slots__ = ("_rechoose",)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset(_RechooseSlot):
    """A resolved, validated ruleset: metadata, the deck, options and one :class:`Form`
    per number of players.

    Build it with :func:`tysiac_spec.load_ruleset`; never by hand.
    ``options`` holds the declared options; ``selected`` the values in force.
    ``provenance`` maps a field path (``("auction", "step")``) to its sources and status.
    """

    id: str
    kind: Literal["variant", "house", "base"]
    name: LangText
    description: LangText
    aliases: tuple[str, ...]
    sources: tuple[Source, ...]
    deck: Deck = field(compare=False)
    forms: Mapping[int, Form]
    options: Mapping[str, Option]
    selected: Mapping[str, str | int | bool]
    provenance: Mapping[tuple[str | int, ...], Provenance] = field(compare=False)
    file: str | None = field(default=None, compare=False)
    content_hash: str = ""
    parents: tuple[str, ...] = ()
    document: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def deck_spec(self) -> DeckSpec:
        """Deprecated: read :attr:`deck` (a :class:`~tysiac_spec.cards.Deck`, with the same
        suits, ranks, letters, symbols, aliases, names and points).  The pack as the schema
        describes it, made from :attr:`deck` on each read; a suit written without a symbol
        has its letter as its symbol."""
        warnings.warn(
            "Ruleset.deck_spec is deprecated: read Ruleset.deck (a cards.Deck)", DeprecationWarning,
            stacklevel=2,
        )
        deck = self.deck
        return DeckSpec(
            suits=tuple(SuitSpec(id=s.id, letter=s.letter, symbol=s.symbol, names=dict(s.names))
                        for s in deck.suits),
            ranks=tuple(RankSpec(id=r.id, letter=r.letter, points=r.points, aliases=r.aliases,
                                 names=dict(r.names)) for r in deck.ranks),
            total_points=deck.total_points,
        )

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players this ruleset defines, ascending."""
        return tuple(sorted(self.forms))

    def form(self, players: int) -> Form:
        """The rules for ``players`` players.

        Raises:
            OptionError: the ruleset has no form for that many players; lists those it has.
        """
        try:
            return self.forms[players]
        except KeyError:
            from ..errors import Diagnostic, OptionError

            raise OptionError(
                Diagnostic("option.players", no_form_message(self.id, players, self.player_counts),
                           file=self.file)
            ) from None

    def default_players(self) -> int:
        """The player count a tool starts with when none is given: 3 when the ruleset has a
        3-player form, else its smallest count.

        Raises:
            OptionError: the ruleset defines no form (``players:`` is empty), as a base made
                only to be extended (``core``).
        """
        if 3 in self.forms:
            return 3
        if self.forms:
            return self.player_counts[0]
        from ..errors import Diagnostic, OptionError

        raise OptionError(
            Diagnostic(
                "option.players",
                f"ruleset `{self.id}` defines no player count: it is a base for other rulesets "
                "to extend, not a game to play",
                file=self.file,
            )
        )

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """This ruleset with other option values: ``options`` (typed, or text as given on a
        command line) over those chosen when it was loaded, the others at their defaults;
        ``self`` for no options.  The same as ``load_ruleset(ref, options=...)`` with both
        sets of options, but applied to this ruleset's own checked document, so that it works
        for a ruleset loaded from text (``load_ruleset(name, text=...)``, a server's) as for a
        file or a shipped id, and reads no file.  The same options give the same object (its
        forms, and their compiled forms, shared by every game of it).

        Raises:
            OptionError: an unknown option or a value outside its choices (lists the valid
                ones).
            RulesetError: the document with these options has a problem (a patch that
                breaks a rule).
        """
        if not options:
            return self
        rechoose = getattr(self, "_rechoose", None)
        if rechoose is None:  # (a copy or an unpickled ruleset: loaded again by reference)
            assert _reload is not None  # (set by the loader, which made this ruleset)
            return _reload(self.file or self.id, {**self.selected, **options})
        made: Ruleset = rechoose(options)
        return made

    def title(self, lang: str = "en") -> str:
        """The ruleset's name in ``lang``, falling back to English, then to the id."""
        return self.name.get(lang) or self.name.get("en") or self.id
