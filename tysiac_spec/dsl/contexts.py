"""The contexts a formula can be written in: which names it reads, their types, and
the result it must give.  The standard contexts are data (:data:`_TABLE`); the ruleset
schema refers to them by id.  A host extends a context at compile time with the
ruleset's options and per-player counters (:class:`ContextExtension`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import Diagnostic, DslError
from .types import BOOL, CARDS, SUIT, BoolType, ChoiceType, FieldSpec, IntType, RecordType, Type

__all__ = ["CONTEXTS", "DEAL_FACTS", "DEAL_MODE", "Context", "ContextExtension", "NameSpec", "get_context"]


@dataclass(frozen=True, slots=True)
class NameSpec:
    """A name a formula may read: its type and a one-line description."""

    name: str
    type: Type
    doc: str


@dataclass(frozen=True, slots=True)
class Context:
    """Where a formula is used: the names it may read and the result it must give.

    Attributes:
        id: stable id referenced from the ruleset schema (``auction.max_bid``).
        description: what the formula decides, one sentence.
        result: the result type of a formula (``int`` with a unit, or ``bool``).
        names: the names a formula may read.
        assignable: dotted names effects may assign (``delta``, ``player.score``).
        counters_assignable: whether effects may also assign the player's counters.
        example: a formula in this context, for the reference page.
        effects_example: statements in this context, when effects are allowed.
    """

    id: str
    description: str
    result: Type
    names: tuple[NameSpec, ...]
    assignable: tuple[str, ...] = ()
    counters_assignable: bool = False
    example: str = ""
    effects_example: str = ""
    _index: Mapping[str, NameSpec] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {n.name: n for n in self.names})

    def lookup(self, name: str) -> NameSpec | None:
        """The name ``name``, or ``None`` when the context has no such name."""
        return self._index.get(name)

    def assignable_targets(self) -> tuple[str, ...]:
        """Every dotted name effects may assign, counters included, sorted."""
        targets = set(self.assignable)
        if self.counters_assignable:
            player = self.lookup("player")
            if player is not None and isinstance(player.type, RecordType):
                targets |= {f"player.{f.name}" for f in player.type.fields if f.name not in READ_ONLY}
        return tuple(sorted(targets))

    def extend(self, extension: ContextExtension | None) -> Context:
        """This context with the ruleset's options and counters added (see
        :class:`ContextExtension`); the context itself when ``extension`` is ``None``."""
        if extension is None:
            return self
        names = []
        for spec in self.names:
            typ = spec.type
            if isinstance(typ, RecordType) and spec.name == "options":
                typ = typ.with_fields(extension.option_fields())
            elif isinstance(typ, RecordType) and spec.name == "player":
                typ = typ.with_fields(extension.counter_fields())
            names.append(NameSpec(spec.name, typ, spec.doc))
        assignable = self.assignable
        if self.counters_assignable:
            extra = tuple(f"player.{n}" for n in sorted(extension.counters) if n in READ_ONLY)
            assignable = tuple(dict.fromkeys(assignable + extra))
        return Context(
            self.id,
            self.description,
            self.result,
            tuple(names),
            assignable,
            self.counters_assignable,
            self.example,
            self.effects_example,
        )


@dataclass(frozen=True, slots=True)
class ContextExtension:
    """Ruleset-specific names added to every context at compile time.

    Attributes:
        options: each declared option's name and type (int, bool or choice); they
            become fields of ``options`` (``options.five_rounds``).
        counters: the ruleset's per-player counters (int); they become fields of
            ``player`` (``player.bolts``) and are assignable where the score is.
        docs: optional one-line descriptions, keyed ``options.<name>`` or ``player.<name>``.

    Raises:
        DslError: (code ``dsl.bad-extension``) for a counter named ``score`` or an
            option or counter whose type is not int, bool or choice.
    """

    options: Mapping[str, Type] = field(default_factory=dict)
    counters: Mapping[str, Type] = field(default_factory=dict)
    docs: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for prefix, table in (("options", self.options), ("player", self.counters)):
            for name, typ in table.items():
                allowed = (IntType,) if prefix == "player" else (IntType, BoolType, ChoiceType)
                if not isinstance(typ, allowed):
                    kinds = "int" if prefix == "player" else "int, bool or choice"
                    raise DslError(
                        Diagnostic(
                            "dsl.bad-extension",
                            f"`{prefix}.{name}` must have type {kinds} (got {typ.describe()})",
                        )
                    )
        if "score" in self.counters:
            raise DslError(
                Diagnostic(
                    "dsl.bad-extension",
                    "a counter may not be called `score`: `player.score` is the match score",
                )
            )

    def option_fields(self) -> tuple[FieldSpec, ...]:
        """The options as record fields."""
        return tuple(
            FieldSpec(n, t, self.docs.get(f"options.{n}", "a ruleset option"))
            for n, t in sorted(self.options.items())
        )

    def counter_fields(self) -> tuple[FieldSpec, ...]:
        """The counters as record fields."""
        return tuple(
            FieldSpec(n, t, self.docs.get(f"player.{n}", "a per-player counter"))
            for n, t in sorted(self.counters.items())
        )


POINTS = IntType("points")
COUNT = IntType("count")
_SCORE = FieldSpec("score", POINTS, "the player's match score so far")
_MATCH_FIELDS = (
    FieldSpec("forfeits", COUNT, "the forfeits the player has made in the match"),
    FieldSpec("bolts", COUNT, "the bolts the player has collected in the match"),
    FieldSpec("on_barrel", BOOL, "whether the player is on the barrel"),
)
DEAL_MODE = ChoiceType(("normal", "dark", "golden"))
"""The type of ``mode``: how the deal was played."""
READ_ONLY = ("score", *(f.name for f in _MATCH_FIELDS))
"""Fields of ``player`` the engine keeps; effects may not assign them (the score is assigned
as ``player.score`` where a context allows it).  A counter of the same name replaces one."""

# Shared names: (type, default doc).  A context entry may override the doc.
_COMMON: dict[str, tuple[Type, str]] = {
    "hand": (CARDS, "the player's hand"),
    "talon": (CARDS, "the talon (musik) of the deal"),
    "player": (RecordType("player", (_SCORE, *_MATCH_FIELDS)), "the player the formula is about"),
    "players": (COUNT, "the number of players active in the deal"),
    "options": (RecordType("options"), "the table's options (as the ruleset declares them)"),
    "bid": (POINTS, "the bid"),
    "high_bid": (POINTS, "the highest bid so far"),
    "forced": (BOOL, "whether the bidder is the forced opener"),
    "contract": (POINTS, "the contract: the declarer's final bid after the exchange"),
    "points": (POINTS, "the side's card points plus its declared marriages"),
    "card_points": (POINTS, "the side's card points from tricks won"),
    "marriages": (POINTS, "the side's declared marriage points"),
    "tricks": (COUNT, "the number of tricks the side won"),
    "made": (BOOL, "whether the declarer made the contract"),
    "delta": (POINTS, "this deal's score change for the player"),
    "declarer": (BOOL, "whether the player was the declarer"),
    "forfeited": (BOOL, "whether the deal was forfeited"),
    "target": (POINTS, "the score that wins the match"),
    "count": (COUNT, "the forfeits this player has made, this one included"),
    "value": (POINTS, "the marriage's points by its suit (`marriages.values`)"),
    "first": (BOOL, "whether it is the first marriage declared in the deal"),
    "sets_trump": (BOOL, "whether declaring it makes its suit trump"),
    "number": (COUNT, "the marriages declared in the deal before it"),
    "suit": (SUIT, "the marriage's suit"),
    "trump": (
        SUIT,
        "the trump suit as the marriage is declared (before it sets trump; equal to no suit "
        "while there is no trump)",
    ),
    "won": (CARDS, "the cards the side won in tricks (leftover cards it was given included)"),
    "last_trick": (BOOL, "whether the side won the last trick of the deal"),
    "declared": (COUNT, "the number of marriages the side declared"),
    "others_points": (
        POINTS,
        "the other active players' points (card points plus declared marriages) together",
    ),
    "declarer_points": (POINTS, "the declarer's card points plus declared marriages"),
    "others_tricks": (COUNT, "the tricks the other active players won together"),
    "seat": (
        COUNT,
        "the defender's place after the declarer in the direction of play (1: the next "
        "active player, 2: the one after him, …)",
    ),
    "drowned": (
        POINTS,
        "the value of the side's declared king-queen marriages of which another player won "
        "the king or the queen",
    ),
    "top_bid": (
        POINTS,
        "the auction's highest numeric bid: the winning bid of a numeric contract; under a named "
        "contract the highest number bid before it (0: none)",
    ),
    "player_seat": (
        COUNT,
        "the player's seat at the table as the game numbers them (0, 1, …: the sitter's seat "
        "counts)",
    ),
    "dealer_seat": (COUNT, "the dealer's seat at the table (0, 1, …)"),
    "declarer_seat": (COUNT, "the declarer's seat at the table (0, 1, …)"),
    "most_tricks": (COUNT, "the most tricks any active player won in the deal"),
    "fewest_tricks": (COUNT, "the fewest tricks any active player won in the deal"),
    "mode": (
        DEAL_MODE,
        'the deal\'s mode: "normal", "dark" (a dark game) or "golden" (a golden-round deal)',
    ),
}
DEAL_FACTS = (
    "won", "last_trick", "declared", "drowned", "others_points", "declarer_points", "seat", "mode",
    "others_tricks", "top_bid", "player_seat", "dealer_seat", "declarer_seat",
)
"""The names of the played deal's facts in the scoring contexts, which the engine builds only
when a formula of the form reads them (:attr:`tysiac_spec.ruleset.model.Formula.reads`)."""



def _facts(side: str) -> list[str | tuple[str, str]]:
    """The played deal's facts about ``side`` (``declarer`` or ``defender``), with docs."""
    return [
        ("won", f"the cards the {side} won in tricks (leftover cards given to him included)"),
        ("last_trick", f"whether the {side} won the last trick of the deal"),
        ("declared", f"the number of marriages the {side} declared"),
        ("drowned", f"the value of the king-queen marriages the {side} declared of which another "
         "player won the king or the queen in a trick"),
        ("others_points", f"the points of every other active player but the {side}, together "
         "(card points plus declared marriages)"),
        ("mode", _COMMON["mode"][1]),
        ("others_tricks", f"the tricks every other active player but the {side} won, together "
         f"(0: the {side} took every trick)"),
        "top_bid",
        ("player_seat", f"the {side}'s seat at the table as the game numbers them (0, 1, …: the "
         "sitter's seat counts)"),
        "dealer_seat",
        "declarer_seat",
    ]


# The standard contexts: id, description, result, names (name or (name, doc)), extras.
_TABLE: tuple[dict[str, object], ...] = (
    {
        "id": "auction.max_bid",
        "doc": "The highest bid a player may make with this hand.",
        "result": POINTS,
        "names": [("hand", "the bidder's hand"), "player", "players", "options"],
        "example": "120 + marriages(hand)",
    },
    {
        "id": "auction.may_bid",
        "doc": "Whether the player may make this bid.",
        "result": BOOL,
        "names": [
            ("hand", "the bidder's hand"),
            "player",
            "players",
            "options",
            ("bid", "the bid being made"),
            "high_bid",
            "forced",
        ],
        "example": "bid <= 120 or marriages(hand) > 0",
    },
    {
        "id": "contract.max",
        "doc": "The highest contract the declarer may announce after the exchange.",
        "result": POINTS,
        "names": [
            ("hand", "the declarer's hand after the exchange"),
            ("bid", "the winning bid"),
            "player",
            "players",
            "options",
        ],
        "example": "max(bid, 120 + marriages(hand))",
    },
    {
        "id": "contract.allowed",
        "doc": "Whether the declarer may announce this contract.",
        "result": BOOL,
        "names": [
            ("contract", "the contract being announced"),
            ("bid", "the winning bid"),
            ("hand", "the declarer's hand after the exchange"),
            "player",
            "players",
            "options",
        ],
        "example": "contract >= bid and contract % 10 == 0",
    },
    {
        "id": "scoring.made",
        "doc": "Whether the declarer made the contract.",
        "result": BOOL,
        "names": [
            ("points", "the declarer's card points plus declared marriages"),
            ("card_points", "the declarer's card points from tricks won"),
            ("marriages", "the declarer's declared marriage points"),
            "contract",
            ("tricks", "the number of tricks the declarer won"),
            "players",
            "options",
            *_facts("declarer"),
        ],
        "example": "points >= contract",
    },
    {
        "id": "scoring.declarer",
        "doc": "The declarer's score for the deal.",
        "result": POINTS,
        "names": [
            ("points", "the declarer's card points plus declared marriages"),
            ("card_points", "the declarer's card points from tricks won"),
            ("marriages", "the declarer's declared marriage points"),
            "contract",
            ("tricks", "the number of tricks the declarer won"),
            "players",
            "options",
            "made",
            ("player", "the declarer"),
            *_facts("declarer"),
        ],
        "example": "if made then contract else -contract",
    },
    {
        "id": "scoring.defender",
        "doc": "A defender's score for the deal.",
        "result": POINTS,
        "names": [
            ("points", "the defender's card points plus declared marriages"),
            ("card_points", "the defender's card points from tricks won"),
            ("marriages", "the defender's declared marriage points"),
            ("tricks", "the number of tricks the defender won"),
            "contract",
            "players",
            "options",
            ("player", "the defender"),
            ("made", "whether the declarer made the contract"),
            *_facts("defender"),
            "declarer_points",
            "seat",
        ],
        "example": 'round_to(points, 10, half="up")',
    },
    {
        "id": "scoring.sitter",
        "doc": "The score of the player sitting out the deal (four players).",
        "result": POINTS,
        "names": [
            ("talon", "the talon, which the sitter scores"),
            ("player", "the sitting-out player"),
            "players",
            "options",
        ],
        "example": "points(talon) + marriages(talon)",
    },
    {
        "id": "scoring.all_pass",
        "doc": "A player's score for a deal everyone passed and played out without a declarer "
        "(all-pass play, `auction.all_pass_play`).",
        "result": POINTS,
        "names": [
            ("card_points", "the player's card points from tricks won (talon cards he won or "
             "was dealt and won included)"),
            ("tricks", "the number of tricks the player won"),
            "most_tricks",
            "fewest_tricks",
            ("won", "the cards the player won in tricks"),
            ("last_trick", "whether the player won the last trick of the deal"),
            ("player", "the player"),
            "players",
            "options",
        ],
        "example": "-round_to(card_points, 5)",
    },
    {
        "id": "talon.rebuy",
        "doc": "The contract a defender must play to buy the contract from the declarer "
        "(`talon.rebuy`).",
        "result": POINTS,
        "names": [
            ("bid", "the winning bid of the auction"),
            ("talon", "the talon, turned face up"),
            ("player", "the defender offered the contract"),
            "players",
            "options",
        ],
        "example": "bid + 10",
    },
    {
        "id": "deal.redeal",
        "doc": "Whether the player may (or must) ask for a new deal after seeing the hand.",
        "result": BOOL,
        "names": [
            ("hand", "the player's hand"),
            "talon",
            "player",
            "players",
            "options",
            ("bid", "the winning bid (0 before the auction has ended)"),
            ("contract", "the declarer's contract (0 before it is announced)"),
        ],
        "example": "count(hand, nine) == 4 or (points(talon) < 5 and bid == 100)",
    },
    {
        "id": "deal.incident",
        "doc": "The points a table incident (`deal.incidents`) or a revoke (`play.revoke`) costs "
        "the offender.",
        "result": POINTS,
        "names": [
            ("hand", "the offender's hand"),
            ("player", "the offender"),
            "players",
            "options",
            ("bid", "the highest bid so far (0 before any bid)"),
            ("contract", "the declarer's contract (0 before it is announced)"),
            ("declarer", "whether the offender is the declarer (false before the auction has ended)"),
        ],
        "example": "if declarer then bid else 120",
    },
    {
        "id": "match.rule",
        "doc": "A match rule: when the condition holds after a deal, the effects apply "
        "to the player.",
        "result": BOOL,
        "names": [
            ("player", "the player the rule is applied to"),
            "delta",
            "declarer",
            "made",
            "contract",
            ("tricks", "the number of tricks the player won"),
            "forfeited",
            "target",
            "players",
            "options",
        ],
        "assignable": ("delta", "player.score"),
        "counters_assignable": True,
        "example": "player.score == 555 and delta != 0",
        "effects_example": "player.score = 0",
    },
    {
        "id": "marriage.value",
        "doc": "The points of a marriage as it is declared in play.",
        "result": POINTS,
        "names": [
            "value",
            ("declarer", "whether the declaring player is the deal's declarer"),
            "first",
            "sets_trump",
            "number",
            "players",
            "suit",
            "trump",
        ],
        "example": "if sets_trump then value * 2 else value",
    },
    {
        "id": "forfeit.declarer",
        "doc": "The declarer's score when forfeiting the deal.",
        "result": POINTS,
        "names": [
            ("bid", "the winning bid"),
            "contract",
            "count",
            ("player", "the forfeiting declarer"),
            "players",
            "options",
        ],
        "example": "-bid",
    },
    {
        "id": "forfeit.defender",
        "doc": "A defender's score when the declarer forfeits the deal.",
        "result": POINTS,
        "names": [
            ("bid", "the winning bid"),
            "contract",
            ("count", "the forfeits the declarer has made, this one included"),
            ("player", "the defender"),
            "players",
            "options",
            "seat",
        ],
        "example": "round_up(bid // 2, 10)",
    },
)


def _build(entry: Mapping[str, object]) -> Context:
    names = []
    raw_names = entry["names"]
    assert isinstance(raw_names, list)
    for item in raw_names:
        name, doc = (item, None) if isinstance(item, str) else item
        typ, default_doc = _COMMON[name]
        names.append(NameSpec(name, typ, doc or default_doc))
    result = entry["result"]
    assert isinstance(result, (IntType, BoolType))
    assignable = entry.get("assignable", ())
    assert isinstance(assignable, tuple)
    return Context(
        id=str(entry["id"]),
        description=str(entry["doc"]),
        result=result,
        names=tuple(sorted(names, key=lambda n: n.name)),
        assignable=assignable,
        counters_assignable=bool(entry.get("counters_assignable", False)),
        example=str(entry.get("example", "")),
        effects_example=str(entry.get("effects_example", "")),
    )


CONTEXTS: Mapping[str, Context] = {c.id: c for c in (_build(e) for e in _TABLE)}
"""The standard contexts by id."""


def get_context(context: str | Context) -> Context:
    """The context with id ``context`` (or ``context`` itself).

    Raises:
        DslError: (code ``dsl.unknown-context``) naming the known ids.
    """
    if isinstance(context, Context):
        return context
    found = CONTEXTS.get(context)
    if found is None:
        known = ", ".join(sorted(CONTEXTS))
        raise DslError(
            Diagnostic("dsl.unknown-context", f"unknown context `{context}`; known: {known}")
        )
    return found
