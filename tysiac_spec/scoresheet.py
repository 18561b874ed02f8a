"""The scoresheet of a game played with real cards (``tysiac score``): what the user enters
for a deal, checked against the ruleset, and settled by the engine's own match rules.

A sheet is a list of :class:`DealEntry` values; the scores are never stored, they are
recomputed from the entries through :func:`tysiac_spec.engine.match.settle_deal` (one code
path with the engine), so undoing a deal is dropping its entry.  The file is JSON::

    {"format": "tysiac-scoresheet", "version": 1, "ruleset": "pl-standard",
     "ruleset_file": null, "content_hash": "…", "options": {…}, "players": 3,
     "names": ["Ala", "Ola", "Ela"], "first_dealer": 0, "deals": [{…}, …]}

Players are numbered from 0 (seats ``0`` to ``N-1``, shown as ``P0``…, or by name), in the
file and in every answer (``1:H`` is a marriage of hearts declared by P1, the second seat).
Points are card points plus declared marriages (points).

A sheet file is shared between people and read as untrusted input (:meth:`Sheet.read`):
within the limits of :mod:`tysiac_spec.limits` (``sheet_bytes`` before it is read, then the
JSON's depth, integers and texts, and at most ``sheet_deals`` deals); values it repeats in
messages are cut, and names are shown with control characters made visible.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import limits, safe_json
from .cards import Deck
from .engine import outcome as rules_of
from .engine.all_pass import AllPassOutcome
from .engine.events import MatchEvent
from .engine.match import MatchState, settle_all_pass, settle_deal
from .engine.scoring import DealOutcome, with_terms
from .engine.seating import active_players, redeal_dealer, sitter_of
from .errors import Diagnostic, EntryError, MatchError, NotationError
from .ruleset.model import Form, Ruleset
from .text import printable, shorten

__all__ = [
    "FORMAT",
    "VERSION",
    "DealEntry",
    "Question",
    "Settled",
    "Sheet",
    "all_pass_outcome_of_entry",
    "check_entry",
    "contract_label",
    "entry_from_answers",
    "iter_entry_errors",
    "outcome_of_entry",
    "questions",
    "settle_sheet",
    "sitter_of",
    "start_state",
]

FORMAT = "tysiac-scoresheet"
VERSION = 1

ACE_MARRIAGE = "aces"
"""The marriage id used on the sheet for the four-aces marriage."""


def _err(code: str, message: str) -> EntryError:
    return EntryError(Diagnostic(f"entry.{code}", message))


def _json_fail(name: str) -> safe_json.Fail:
    """The errors of :mod:`tysiac_spec.safe_json` for the sheet file ``name``."""

    def fail(kind: str, detail: str) -> EntryError:
        if kind == "read":
            return _err("sheet", f"{name}: {detail}")
        return EntryError(Diagnostic("entry.sheet", f"not a scoresheet: {detail}", file=name))

    return fail


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One deal as entered at a real table.

    Attributes:
        dealer: who dealt (0-based).
        declarer: who won the auction.
        bid: the winning bid (points).
        contract: the contract after the exchange (points, never below ``bid``).
        points: card points won by each player (points, 0 for the sitter).
        marriages: declared marriages as ``(player, suit id)``; ``aces`` for four aces.
        forfeit: the declarer gave the deal up (rospis / bomb); nothing was played.
        mode: ``normal``, ``dark`` (a dark / blind game) or ``golden`` (a golden-round deal).
        no_trick: players who took no trick (for bolts), when the ruleset counts them.
        talon: the talon as dealt (card notation), when the sitter's score needs it.
        redeals: deals abandoned (redealt) since the last deal scored; each passes the deal
            to :func:`~tysiac_spec.engine.seating.redeal_dealer` (``deal.redeal_dealer``).
        kind: the named contract the deal was played as (an id of ``contract.kinds``: its bid
            and contract are the kind's ``value``; ``no_trick`` then says who took no trick);
            empty: the numeric contract.
        contra: the factor of contra and redouble on the contract (``contract.contra``; 1:
            nobody doubled).
        sold: the declarer bought the contract from the auction's winner (``talon.rebuy``);
            ``bid`` is then his price.
        all_pass: everyone passed and the deal was played out without a declarer
            (``auction.all_pass: play``); ``declarer`` is then -1, ``bid`` and ``contract``
            0, ``points`` what each took.
    """

    dealer: int
    declarer: int
    bid: int
    contract: int
    points: tuple[int, ...]
    marriages: tuple[tuple[int, str], ...] = ()
    forfeit: bool = False
    mode: str = "normal"
    no_trick: tuple[int, ...] = ()
    talon: tuple[str, ...] = ()
    redeals: int = 0
    kind: str = ""
    contra: int = 1
    sold: bool = False
    all_pass: bool = False

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready mapping (the inverse of :meth:`from_data`); the keys of the named
        contract and of the mechanisms around the contract only when they say something (a
        sheet without them reads as before), and no declarer, bid or contract for a deal
        everyone passed."""
        extra: dict[str, Any] = {}
        if self.contra != 1:
            extra["contra"] = self.contra
        if self.sold:
            extra["sold"] = True
        if self.all_pass:
            extra["all_pass"] = True
        data = extra | {
            "dealer": self.dealer,
            "declarer": self.declarer,
            "bid": self.bid,
            "contract": self.contract,
            "points": list(self.points),
            "marriages": [[p, s] for p, s in self.marriages],
            "forfeit": self.forfeit,
            "mode": self.mode,
            "no_trick": list(self.no_trick),
            "talon": list(self.talon),
            "redeals": self.redeals,
        }
        if self.kind:
            data["kind"] = self.kind
        if self.all_pass:  # nobody declared: no declarer, bid or contract
            for key in ("declarer", "bid", "contract"):
                del data[key]
        return data

    @classmethod
    def from_data(cls, data: Any) -> DealEntry:
        """Read a mapping written by :meth:`to_data`; types are checked strictly (a number
        written as text, a boolean for a number, an unknown key are refused).

        Raises:
            EntryError: ``entry.sheet`` — a missing, unknown or mistyped field.
        """
        if not isinstance(data, Mapping):
            raise _err("sheet", f"a deal must be a JSON object (got {_json_type(data)})")
        unknown = sorted(set(data) - _DEAL_KEYS)
        if unknown:
            raise _err("sheet", f"unknown key `{shorten(unknown[0])}` in a deal "
                       f"(expected: {', '.join(_DEAL_FIELDS)})")
        all_pass = _bool(data.get("all_pass", False), "all_pass")
        needed = ("dealer", "points") if all_pass else ("dealer", "declarer", "bid", "contract", "points")
        missing = [k for k in needed if k not in data]
        if missing:
            raise _err("sheet", f"a deal is missing the key `{missing[0]}`")
        return cls(
            dealer=_int(data["dealer"], "dealer"),
            declarer=_int(data.get("declarer", -1), "declarer"),
            bid=_int(data.get("bid", 0), "bid"),
            contract=_int(data.get("contract", 0), "contract"),
            points=tuple(_int(x, "points") for x in _list(data["points"], "points")),
            marriages=tuple(_marriage(m) for m in _list(data.get("marriages", []), "marriages")),
            forfeit=_bool(data.get("forfeit", False), "forfeit"),
            mode=_str(data.get("mode", "normal"), "mode"),
            no_trick=tuple(_int(p, "no_trick") for p in _list(data.get("no_trick", []), "no_trick")),
            talon=tuple(_str(c, "talon") for c in _list(data.get("talon", []), "talon")),
            redeals=_int(data.get("redeals", 0), "redeals"),
            kind=_str(data.get("kind", ""), "kind"),
            contra=_int(data.get("contra", 1), "contra"),
            sold=_bool(data.get("sold", False), "sold"),
            all_pass=all_pass,
        )


_DEAL_FIELDS = (
    "dealer", "declarer", "bid", "contract", "points", "marriages", "forfeit", "mode", "no_trick", "talon",
    "redeals", "kind", "contra", "sold", "all_pass",
)
_DEAL_KEYS = frozenset(_DEAL_FIELDS)
MODES = ("normal", "dark", "golden")
"""The deal modes a sheet entry may have."""


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a text", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def _int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err("sheet", f"`{key}` must be a whole number (got {safe_json.shown(value)})")
    return value


def _str(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise _err("sheet", f"`{key}` must be a text (got {safe_json.shown(value)})")
    return value


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise _err("sheet", f"`{key}` must be true or false (got {safe_json.shown(value)})")
    return value


def _list(value: Any, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise _err("sheet", f"`{key}` must be a list (got {_json_type(value)})")
    return value


def _marriage(value: Any) -> tuple[int, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise _err("sheet", f"a marriage must be [player, suit] (got {safe_json.shown(value)})")
    return _int(value[0], "marriages"), _str(value[1], "marriages")


@dataclass(slots=True)
class Sheet:
    """A scoresheet: the ruleset and table it is played under, and the deals entered."""

    ruleset: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    content_hash: str = ""
    ruleset_file: str | None = None
    names: list[str] = field(default_factory=list)
    first_dealer: int = 0
    deals: list[DealEntry] = field(default_factory=list)

    def to_json(self) -> str:
        """The sheet as JSON text (versioned, see the module docstring)."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "ruleset_file": self.ruleset_file,
            "content_hash": self.content_hash,
            "options": self.options,
            "players": self.players,
            "names": self.names,
            "first_dealer": self.first_dealer,
            "deals": [d.to_data() for d in self.deals],
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def read(cls, path: str | Path) -> Sheet:
        """Read the sheet in the file ``path`` as untrusted input: its size is checked before
        it is read, then the JSON within the limits (:mod:`tysiac_spec.safe_json`), then the
        sheet as :meth:`from_json` does.

        Raises:
            EntryError: ``entry.sheet`` — the file cannot be read, is not UTF-8 text, else as
                :meth:`from_json`; the message names ``path``.
            LimitError: ``limit.sheet_bytes`` (checked before reading), ``limit.depth``,
                ``limit.int_digits``, ``limit.text_chars``, ``limit.sheet_deals``.
        """
        name = str(path)
        data = safe_json.read_json_file(path, size_limit="sheet_bytes", fail=_json_fail(name))
        return cls._from_data(data, name, file=name)

    @classmethod
    def from_json(cls, text: str, *, name: str = "<sheet>") -> Sheet:
        """Read a sheet written by :meth:`to_json`, as untrusted input (the limits of
        :mod:`tysiac_spec.safe_json`; ``sheet_bytes`` counts the text's UTF-8 bytes).

        Args:
            name: what the messages call the sheet (its file's name).

        Raises:
            EntryError: ``entry.sheet`` — not JSON (also ``NaN`` or ``Infinity``, a key given
                twice, a lone surrogate), not a scoresheet, a newer version, or a malformed
                deal.
            LimitError: ``limit.sheet_bytes``, ``limit.depth``, ``limit.int_digits``,
                ``limit.text_chars``, ``limit.sheet_deals`` (more than 5,000 deals by default).
        """
        data = safe_json.loads(text, fail=_json_fail(name), size_limit="sheet_bytes")
        return cls._from_data(data, name)

    @classmethod
    def _from_data(cls, data: Any, name: str, *, file: str | None = None) -> Sheet:
        """The sheet in the JSON document ``data`` (see :meth:`from_json`); ``file`` is named
        in limit errors."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise _err("sheet", f"{name} is not a scoresheet (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise _err(
                "sheet", f"{name} has scoresheet version {safe_json.shown(data.get('version'))}; "
                f"this tool reads {VERSION}"
            )
        if "ruleset" not in data or "players" not in data:
            key = "ruleset" if "ruleset" not in data else "players"
            raise _err("sheet", f"{name} is missing the key `{key}`")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise _err("sheet", f"{name}: `options` must be an object (got {_json_type(options)})")
        ruleset_file = data.get("ruleset_file")
        deals: list[DealEntry] = []
        try:
            players = _int(data["players"], "players")
            first_dealer = _int(data.get("first_dealer", 0), "first_dealer")
            names = [_str(n, "names") for n in _list(data.get("names") or [], "names")]
            if ruleset_file is not None:
                _str(ruleset_file, "ruleset_file")
            listed = _list(data.get("deals", []), "deals")
            limits.check("sheet_deals", len(listed), file=file, path=("deals",))
            for i, d in enumerate(listed, start=1):
                try:
                    deals.append(DealEntry.from_data(d))
                except EntryError as exc:
                    raise _err("sheet", f"deal {i}: {exc.diagnostic.message}") from None
            sheet = cls(
                ruleset=_str(data["ruleset"], "ruleset"),
                players=players,
                options=dict(options),
                content_hash=str(data.get("content_hash") or ""),
                ruleset_file=ruleset_file,
                names=names,
                first_dealer=first_dealer,
                deals=deals,
            )
        except EntryError as exc:
            raise _err("sheet", f"{name} is malformed: {exc.diagnostic.message}") from None
        if names and len(names) != players:
            raise _err("sheet", f"{name} is malformed: {len(names)} names for {players} players")
        if not 0 <= first_dealer < max(players, 1):
            bad = f"`first_dealer` must be 0 to {players - 1} (got {first_dealer})"
            raise _err("sheet", f"{name} is malformed: {bad}")
        return sheet

    def name(self, player: int) -> str:
        """The player's name on the sheet as shown (``P1`` when none was given): control
        characters made visible, cut to 40 characters (names come from the sheet's file)."""
        if player < len(self.names) and self.names[player]:
            return shorten(printable(self.names[player], keep_newlines=False), _NAME_WIDTH)
        return f"P{player}"


_NAME_WIDTH = 40
"""Characters of a player's name shown before it is cut."""

_MAX_DIGITS = 18
"""Digits of the largest number an answer may give (a file's integers have at most 18)."""
_NUMBER = re.compile(r"[+-]?([0-9]+)")


# --------------------------------------------------------------------------- entry parsing


def seats_text(players: int) -> str:
    """How a seat is written in an answer: ``seat 0 to 2, counting from 0``."""
    return f"seat 0 to {players - 1}, counting from 0"


def marriage_example(form: Form, deck: Deck) -> str:
    """An example answer to the marriages question for ``form`` and what it means:
    ``1:H 2:D = P1 hearts, P2 diamonds`` (the last two seats, the first two suits with a
    marriage value)."""
    seats = range(max(form.players - 2, 0), form.players)
    ids = list(form.marriages.values)[:2] or [s.id for s in deck.suits[:2]]
    suits = [deck.suit(s) for s in ids]
    pairs = list(zip(seats, suits, strict=False))
    return " ".join(f"{p}:{s.letter}" for p, s in pairs) + " = " + ", ".join(f"P{p} {s.id}" for p, s in pairs)


def parse_player(text: str, players: int, names: Sequence[str] = ()) -> int:
    """A player: a seat number counted from 0 (``1``), ``P1``, or a name on the sheet.

    Raises:
        EntryError: ``entry.player`` — no such player.
    """
    t = text.strip()
    low = t.lower()
    for i, n in enumerate(names):
        if n and n.lower() == low:
            return i
    if low.startswith("p"):
        low = low[1:]
    if low.isascii() and low.isdigit() and len(low) <= 6 and int(low) < players:
        return int(low)
    named = [shorten(printable(n, keep_newlines=False), _NAME_WIDTH) for n in names if n]
    raise _err("player", f"`{shorten(t)}` is not a player: give a {seats_text(players)}" + (
        f" or a name ({', '.join(named)})" if named else ""))


def parse_amount(text: str, what: str) -> int:
    """A whole number of points (at most 18 digits, more than any score).

    Raises:
        EntryError: ``entry.number`` — not a whole number, or one too large.
    """
    t = text.strip()
    number = _NUMBER.fullmatch(t)  # plain digits: not `1_000`, nor other scripts' digits
    if number is None:
        raise _err("number", f"{what} must be a whole number of points (got `{shorten(t)}`)")
    if len(number[1]) > _MAX_DIGITS:  # int() would refuse above 4,300 digits
        raise _err("number", f"{what} is too large: at most {_MAX_DIGITS} digits (got `{shorten(t, 24)}`)")
    return int(t)


def parse_yes_no(text: str) -> bool:
    """``y``/``yes`` or ``n``/``no`` (empty: no).

    Raises:
        EntryError: ``entry.yes-no``.
    """
    t = text.strip().lower()
    if t in ("y", "yes", "t", "tak", "da", "ano"):
        return True
    if t in ("", "n", "no", "nie", "net", "ne"):
        return False
    raise _err("yes-no", f"answer y or n (got `{shorten(text.strip())}`)")


def parse_players_list(text: str, players: int, names: Sequence[str] = ()) -> tuple[int, ...]:
    """Players separated by blanks or commas (``1 2``); empty or ``-`` for none.

    Raises:
        EntryError: ``entry.player`` — an unknown player or one named twice.
    """
    items = text.replace(",", " ").split()
    if items in ([], ["-"]):
        return ()
    out = [parse_player(i, players, names) for i in items]
    if len(set(out)) != len(out):
        raise _err("player", "a player is named twice")
    return tuple(sorted(out))


def parse_marriages(
    text: str, form: Form, deck: Deck, players: int, names: Sequence[str] = ()
) -> tuple[tuple[int, str], ...]:
    """Declared marriages: ``1:H 2:D`` (the seat, counted from 0, or the player's name, then
    the suit's letter, symbol or id: P1 hearts, P2 diamonds); ``1:A`` or ``1:aces`` for the
    four-aces marriage when the ruleset has it; empty or ``-`` for none.

    Raises:
        EntryError: ``entry.marriage`` — a malformed item, an unknown suit, a suit without a
            marriage value, or a marriage counted twice.
    """
    items = text.replace(",", " ").split()
    if items in ([], ["-"]):
        return ()
    ace_words = _ace_marriage_words(form, deck)
    out: list[tuple[int, str]] = []
    for item in items:
        who, sep, what = item.partition(":")
        if not sep or not what:
            raise _err("marriage", f"`{shorten(item)}` is not a marriage: write seat:suit, seats counting "
                       f"from 0, e.g. `{marriage_example(form, deck)}`")
        player = parse_player(who, players, names)
        if what.lower() in ace_words:
            suit = ACE_MARRIAGE
        else:
            try:
                suit = deck.suit(what).id
            except NotationError as exc:
                raise _err("marriage", shorten(exc.diagnostic.message, 300)) from None
        out.append((player, suit))
    for error in _iter_marriage_notation_errors(form, out):
        raise error
    return tuple(out)


def _ace_marriage_words(form: Form, deck: Deck) -> frozenset[str]:
    """What the sheet accepts (lower case) for the ace marriage: ``aces`` and, from its rank
    (``marriages.ace_marriage.rank``), the rank's id, letter (``a``) and four of it (``4a``)."""
    words = {ACE_MARRIAGE}
    try:
        rank = deck.rank(form.marriages.ace_marriage.rank)
    except NotationError:  # a pack without that rank (then the ruleset has no ace marriage)
        return frozenset(words)
    letter = rank.letter.lower()
    return frozenset({*words, rank.id.lower(), letter, f"4{letter}"})


def _iter_marriage_notation_errors(form: Form, marriages: Sequence[tuple[int, str]]) -> Iterator[EntryError]:
    """The sheet's marriages as ``(player, suit id)``: each suit has a marriage value (``aces``
    only when the ruleset has the ace marriage), none counted twice (``entry.marriage``)."""
    seen: set[str] = set()
    for _, suit in marriages:
        if suit == ACE_MARRIAGE:
            if not form.marriages.ace_marriage.enabled:
                yield _err("marriage", "this ruleset has no ace marriage")
        elif suit not in form.marriages.values:
            yield _err("marriage", f"`{shorten(suit)}` has no marriage value in this ruleset")
        if suit in seen:
            yield _err("marriage", f"the {shorten(suit)} marriage is counted twice")
        seen.add(suit)


def _marriage_points(form: Form, marriages: Sequence[tuple[int, str]]) -> dict[int, int]:
    """Declared marriage points by player (points) of the sheet's ``(player, suit id)`` list."""
    points: dict[int, int] = {}
    for p, suit in marriages:
        points[p] = points.get(p, 0) + marriage_value(form, suit)
    return points


def _iter_talon_errors(form: Form, deck: Deck, talon: Sequence[str]) -> Iterator[EntryError]:
    """The talon as dealt, in card notation: known cards, ``sum(table.talons)`` different ones
    (``entry.talon``)."""
    try:
        cards = deck.parse_many(" ".join(talon))
    except NotationError as exc:
        yield _err("talon", shorten(exc.diagnostic.message, 300))
        return
    size = sum(form.table.talons)
    if len(cards) != size or len(set(cards)) != size:
        yield _err("talon", f"give the {size} different cards of the talon as dealt")


_CODES = {
    "match": "sheet",
    "players": "player",
    "sitter": "player",
    "declarer": "player",
    "multiplier": "sheet",
    "contra": "contra",
    "sold": "sold",
    "all_pass": "player",
    "forfeited": "forfeit",
    "card_points": "points",
    "marriages": "marriage",
    "tricks": "player",
}
"""The ``entry.*`` code of an outcome problem, by the outcome field it names first
(``bid`` and ``contract`` keep their name; a ``mode`` problem is ``entry.dark`` or
``entry.golden``)."""

_PLAYER = re.compile(r"\bplayer (\d+)\b")


def _entry_error(error: MatchError, *, mode: str = "", sheet: Sheet | None = None) -> EntryError:
    """The engine's outcome problem ``error`` (:mod:`tysiac_spec.engine.outcome`) as an
    :class:`EntryError`; with ``sheet``, ``player 1`` in the message becomes the player's name
    on the sheet (``P1`` when none)."""
    d = error.diagnostic
    field_name = str(d.path[0]) if d.path else "match"
    code = mode if field_name == "mode" and mode in ("dark", "golden") else _CODES.get(field_name, field_name)
    message = d.message
    if sheet is not None:
        named = sheet
        message = _PLAYER.sub(lambda m: named.name(int(m[1])) if int(m[1]) < named.players else m[0], message)
    return _err(code, message)


def marriage_value(form: Form, suit: str) -> int:
    """Points of a declared marriage (the ace marriage's value for ``aces``)."""
    if suit == ACE_MARRIAGE:
        return form.marriages.ace_marriage.value
    return form.marriages.values[suit]


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True, slots=True)
class Question:
    """One thing asked for a deal: ``key`` in the answers, the prompt, whether it applies
    given the answers so far, and a parser (text, answers) -> value raising EntryError."""

    key: str
    prompt: str
    applies: Callable[[dict[str, Any]], bool]
    parse: Callable[[str, dict[str, Any]], Any]


def questions(rules: Ruleset, form: Form, sheet: Sheet, dealer: int, state: MatchState) -> list[Question]:
    """The questions for one deal under ``form``, in order; each parser checks its answer
    against the ruleset and the earlier answers with the engine's own statement of a valid
    outcome (:mod:`tysiac_spec.engine.outcome`: a contract below the bid, points not adding up
    to the deck total, a bid off the step are rejected with the reason, players named as on
    the sheet); the sheet's notation (a marriage counted twice, a talon) is checked here.

    Which questions apply is the engine's too (:mod:`tysiac_spec.engine.outcome`, "which
    fields apply"), for what the earlier answers say of the deal: ``golden`` while ``state``
    is in a golden round (``golden_round_on``), ``dark`` when the declarer may play one
    (``may_declare``: ``special.dark`` on, the first hand when ``dark.who`` is
    ``first_hand``, not with a negative score when that is forbidden), ``bid`` when the deal
    has an auction (``fixed_bid``), ``forfeit`` (rospis, or bomb when only the forced player
    may forfeit) when the declarer may forfeit this deal (``can_forfeit``: the forced bid,
    the limit per match), ``contract`` when the deal's contract may be raised
    (``may_raise``), ``marriages`` when there are marriage points to declare,
    ``no_trick`` when bolts count deals without a trick (``tricks_needed``), ``talon`` when
    the sitter scores the talon (``sitter_talon_needed``); ``kind``, the named contract, when
    the ruleset has some (``contract.kinds``): then no bid nor contract (its fixed value), no
    marriages when it allows none, and who took no trick (its goal may count them); around
    the contract (issue 17): the declarer may be given as ``-`` (nobody: everyone passed)
    when a deal everyone passes is played out (``all_pass_played``; then only the card points
    are asked, checked by ``iter_all_pass_errors``), ``sold`` when the contract may have been
    bought (``may_sell``), ``contra`` when it may have been doubled (``contra_factors``).
    """
    deck = rules.deck
    n = form.players
    names = sheet.names
    active = active_players(form, dealer)
    sitter = sitter_of(form, dealer)
    total = deck.total_points
    forfeit_word = "bomb" if form.contract.forfeit.only_when_forced else "rospis"

    all_pass = rules_of.all_pass_played(form)

    def declarer(text: str, ans: dict[str, Any]) -> int:
        if all_pass and text.strip().lower() in ("-", "nobody", "none"):
            return -1  # everyone passed: the deal played out without a declarer
        p = parse_player(text, n, names)
        if p not in active:
            raise _err("player", f"{sheet.name(p)} sits out this deal")
        return p

    def first(errors: Iterator[MatchError], mode: str = "", hint: str = "") -> None:
        """Raise the engine's first problem with the answer, named as on the sheet."""
        for error in errors:
            entry = _entry_error(error, mode=mode, sheet=sheet)
            if hint:
                d = entry.diagnostic
                entry = EntryError(replace(d, message=f"{d.message}; {hint}"))
            raise entry

    def forfeited(text: str, ans: dict[str, Any]) -> bool:
        v = parse_yes_no(text)
        if v:
            first(rules_of.iter_forfeit_errors(form, state, declarer=ans["declarer"], bid=bid_of(ans),
                                               mode=mode_of(ans)))
        return v

    def golden(text: str, ans: dict[str, Any]) -> bool:
        v = True if not text.strip() else parse_yes_no(text)
        if v:
            problems = rules_of.iter_mode_errors(form, state, mode="golden", declarer=ans["declarer"],
                                                 dealer=dealer)
            first(problems, "golden", "answer n, or `cancel` and enter the deal again")
        return v

    def dark(text: str, ans: dict[str, Any]) -> bool:
        v = parse_yes_no(text)
        if v:
            problems = rules_of.iter_mode_errors(form, state, mode="dark", declarer=ans["declarer"],
                                                 dealer=dealer)
            first(problems, "dark")
        return v

    def kind(text: str, ans: dict[str, Any]) -> str:
        word = text.strip().lower()
        if word:
            first(rules_of.iter_kind_errors(form, kind=word, bid=kind_value(word), contract=kind_value(word),
                                            mode=mode_of(ans), marriages={}))
        return word

    def kind_value(word: str) -> int:
        return next((k.value or 0 for k in form.contract.kinds if k.id == word), 0)

    def kind_marries(ans: dict[str, Any]) -> bool:
        """Whether the deal's named contract (if any) lets marriages be declared."""
        return all(k.marriages for k in form.contract.kinds if k.id == ans.get("kind"))

    def bid(text: str, ans: dict[str, Any]) -> int:
        v = parse_amount(text, "the bid")
        first(rules_of.iter_bid_errors(form, mode=mode_of(ans), bid=v))
        return v

    def contract(text: str, ans: dict[str, Any]) -> int:
        if not text.strip():
            return bid_of(ans)
        v = parse_amount(text, "the contract")
        first(rules_of.iter_contract_errors(form, bid=bid_of(ans), contract=v, mode=mode_of(ans)))
        return v

    def points(text: str, ans: dict[str, Any]) -> tuple[int, ...]:
        words = text.replace(",", " ").split()
        if len(words) != len(active):
            order = " ".join(sheet.name(p) for p in active)
            raise _err("points", f"give the card points of {len(active)} players, in the order {order}")
        values = dict(zip(active, (parse_amount(w, "card points") for w in words), strict=True))
        if not declared(ans):
            plain = AllPassOutcome(card_points=values, players=tuple(active), sitter=sitter)
            first(rules_of.iter_all_pass_errors(form, state, plain))
        else:
            first(rules_of.iter_card_point_errors(form, deck_points=total, card_points=values, active=active))
        return tuple(values.get(p, 0) for p in range(n))

    def sold(text: str, ans: dict[str, Any]) -> bool:
        v = parse_yes_no(text) if text.strip() else False
        if v:
            first(rules_of.iter_sold_errors(form, mode=mode_of(ans)))
        return v

    def contra(text: str, ans: dict[str, Any]) -> int:
        v = parse_amount(text, "the contra factor") if text.strip() else 1
        first(rules_of.iter_contra_errors(form, contra=v, mode=mode_of(ans)))
        return v

    def marriages(text: str, ans: dict[str, Any]) -> tuple[tuple[int, str], ...]:
        out = parse_marriages(text, form, deck, n, names)
        first(rules_of.iter_marriage_errors(form, marriages=_marriage_points(form, out), active=active))
        return out

    def no_trick(text: str, ans: dict[str, Any]) -> tuple[int, ...]:
        out = parse_players_list(text, n, names)
        for p in out:
            if p not in active:
                raise _err("player", f"{sheet.name(p)} sits out this deal")
        first(rules_of.iter_trick_errors(
            form,
            tricks={p: 0 if p in out else 1 for p in active},
            card_points={p: ans["points"][p] for p in active},
            marriages=_marriage_points(form, ans.get("marriages", ())),
        ))
        return out

    def talon(text: str, ans: dict[str, Any]) -> tuple[str, ...]:
        cards = tuple(text.split())
        for error in _iter_talon_errors(form, deck, cards):
            raise error
        return tuple(str(c) for c in deck.parse_many(text))

    def mode_of(ans: dict[str, Any]) -> str:
        return "golden" if ans.get("golden") else "dark" if ans.get("dark") else "normal"

    def declared(ans: dict[str, Any]) -> bool:
        """Somebody declared (not a deal everyone passed and played out)."""
        return int(ans.get("declarer", 0)) >= 0

    def played(ans: dict[str, Any]) -> bool:
        return not ans.get("forfeit")

    def played_declared(ans: dict[str, Any]) -> bool:
        return played(ans) and declared(ans)

    def bid_of(ans: dict[str, Any]) -> int:
        if ans.get("kind"):
            return kind_value(ans["kind"])
        fixed = rules_of.fixed_bid(form, mode_of(ans))
        return int(ans["bid"]) if "bid" in ans else int(fixed or 0)

    # which questions apply: the engine's statement of which outcome fields a deal has
    # (engine/outcome.py), for what the earlier answers say of it
    def asks_dark(ans: dict[str, Any]) -> bool:
        return declared(ans) and not ans.get("golden") and rules_of.may_declare(
            form, state, "dark", declarer=ans["declarer"], dealer=dealer)

    def asks_forfeit(ans: dict[str, Any]) -> bool:
        return declared(ans) and rules_of.can_forfeit(
            form, state, declarer=ans["declarer"], bid=bid_of(ans), mode=mode_of(ans))

    def asks_contract(ans: dict[str, Any]) -> bool:
        return declared(ans) and not ans.get("forfeit") and not ans.get("kind") and rules_of.may_raise(
            form, mode_of(ans))

    order = " ".join(sheet.name(p) for p in active)
    nobody = "; `-`: everyone passed" if all_pass else ""
    return [
        Question("declarer", f"declarer ({'a name, or ' if any(names) else ''}{seats_text(n)}{nobody})",
                 lambda ans: True, declarer),
        Question("golden", "golden-round deal? (y/n, empty: y)",
                 lambda ans: declared(ans) and rules_of.golden_round_on(form, state), golden),
        Question("dark", "dark game? (y/n, empty: n)", asks_dark, dark),
        Question(
            "kind", f"named contract ({', '.join(k.id for k in form.contract.kinds)}; empty: none)",
            lambda ans: declared(ans) and bool(form.contract.kinds) and mode_of(ans) == "normal", kind,
        ),
        Question("bid", "bid (the price, if the contract was bought)" if form.talon.rebuy.enabled else "bid",
                 lambda ans: declared(ans) and rules_of.fixed_bid(form, mode_of(ans)) is None
                 and not ans.get("kind"), bid),
        Question("sold", "contract bought from the auction's winner? (y/n, empty: n)",
                 lambda ans: declared(ans) and rules_of.may_sell(form, mode_of(ans)), sold),
        Question("contra", f"contra factor ({', '.join(map(str, rules_of.contra_factors(form)))}; empty: 1)",
                 lambda ans: declared(ans) and mode_of(ans) == "normal"
                 and rules_of.contra_factors(form) != (1,), contra),
        Question("forfeit", f"{forfeit_word}? (y/n, empty: n)", asks_forfeit, forfeited),
        Question("contract", "contract (empty: the bid)", asks_contract, contract),
        Question("points", f"card points of {order}", played, points),
        Question(
            "marriages", f"marriages declared as seat:suit, seats counting from 0 "
            f"(e.g. {marriage_example(form, deck)}; empty: none)",
            lambda ans: played_declared(ans) and rules_of.marriages_possible(form) and kind_marries(ans),
            marriages,
        ),
        Question(
            "no_trick", f"players who took no trick ({'names, or ' if any(names) else ''}seats counting "
            "from 0; empty: none)",
            lambda ans: played_declared(ans) and (rules_of.tricks_needed(form) or bool(ans.get("kind"))),
            no_trick,
        ),
        Question(
            "talon", "talon as dealt (for the sitter's score)",
            lambda ans: declared(ans) and rules_of.sitter_talon_needed(form, sitter), talon,
        ),
    ]


def entry_from_answers(form: Form, dealer: int, ans: Mapping[str, Any]) -> DealEntry:
    """The :class:`DealEntry` for a complete set of answers (missing ones take their
    defaults: the contract is the bid; a dark or golden deal's bid is the ruleset's
    contract unless a bid was asked)."""
    n = form.players
    if int(ans["declarer"]) < 0:  # everyone passed: the deal played out (all-pass play)
        points = tuple(ans.get("points") or (0,) * n)
        return DealEntry(dealer=dealer, declarer=-1, bid=0, contract=0, points=points, all_pass=True)
    mode = "golden" if ans.get("golden") else "dark" if ans.get("dark") else "normal"
    fixed = rules_of.fixed_bid(form, mode)
    kind = str(ans.get("kind") or "")
    if kind:  # a named contract: its fixed value
        fixed = next((k.value for k in form.contract.kinds if k.id == kind), 0)
    bid = int(ans["bid"]) if "bid" in ans else int(fixed or 0)
    contract = int(ans.get("contract", bid))
    return DealEntry(
        dealer=dealer,
        declarer=int(ans["declarer"]),
        bid=bid,
        contract=contract,
        points=tuple(ans.get("points") or (0,) * n),
        marriages=tuple(ans.get("marriages") or ()),
        forfeit=bool(ans.get("forfeit")),
        mode=mode,
        no_trick=tuple(ans.get("no_trick") or ()),
        talon=tuple(ans.get("talon") or ()),
        kind=kind,
        contra=int(ans.get("contra", 1)),
        sold=bool(ans.get("sold")),
    )


# --------------------------------------------------------------------------- settlement


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


def dealer_due(form: Form, state: MatchState, entry: DealEntry) -> int:
    """The player who deals ``entry``'s deal: the match's next dealer, passed on once per
    abandoned deal (``entry.redeals``) by the engine's
    :func:`~tysiac_spec.engine.seating.redeal_dealer`."""
    dealer = state.dealer
    for _ in range(max(entry.redeals, 0)):
        dealer = redeal_dealer(form, dealer)
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
    for number, entry in enumerate(sheet.deals, start=1):
        try:
            check_entry(rules, form, entry, state)
        except EntryError as exc:
            raise _err("sheet", f"deal {number}: {exc.diagnostic.message}") from None
        try:
            dealt = dealt_state(form, state, entry)
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
        notes = tuple(_note(sheet, e, label if entry.kind else "") for e in events if e.text)
        out.append(Settled(deltas, new.scores, notes, new))
        state = new
    return out


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
