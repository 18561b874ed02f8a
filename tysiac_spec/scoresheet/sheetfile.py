"""The scoresheet's file: a :class:`Sheet` (the ruleset and table it is played under, and the
deals entered as :class:`DealEntry` values), written as versioned JSON and read back as
untrusted input.  The file is JSON::

    {"format": "tysiac-scoresheet", "version": 1, "ruleset": "pl-standard",
     "ruleset_file": null, "content_hash": "…", "options": {…}, "players": 3,
     "names": ["Ala", "Ola", "Ela"], "first_dealer": 0, "deals": [{…}, …],
     "rules_hash": {"scoring": "…", …}, "settled": {…}, "carried": {…}}

The last three keys are optional (a sheet without them reads as before): the fingerprint of
the rules by section, the totals as last saved, and the totals of the deals scored under
earlier rules (:class:`Totals`, :mod:`.carry`).

A sheet file is shared between people and read as untrusted input (:meth:`Sheet.read`):
within the limits of :mod:`tysiac_spec.limits` (``sheet_bytes`` before it is read, then the
JSON's depth, integers and texts, and at most ``sheet_deals`` deals); values it repeats in
messages are cut, and names are shown with control characters made visible.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import limits, safe_json
from ..errors import Diagnostic, EntryError
from ..text import printable, shorten

__all__ = ["FORMAT", "MODES", "VERSION", "DealEntry", "Sheet", "Totals", "names_problem"]

FORMAT = "tysiac-scoresheet"
VERSION = 1

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
        incidents: the table incidents called in the deal (``deal.incidents``), as ``(kind,
            offender)``: each charged by the ruleset's rule before the deal is scored; one that
            abandons the deal (``effect: redeal``) was called in one of the ``redeals``
            abandoned deals before it (those come first, in order), its penalty read before
            any bid.
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
    incidents: tuple[tuple[str, int], ...] = ()

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
        if self.incidents:
            data["incidents"] = [[k, p] for k, p in self.incidents]
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
            incidents=tuple(_incident(i) for i in _list(data.get("incidents", []), "incidents")),
        )


_DEAL_FIELDS = (
    "dealer", "declarer", "bid", "contract", "points", "marriages", "forfeit", "mode", "no_trick", "talon",
    "redeals", "kind", "contra", "sold", "all_pass", "incidents",
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


def _mapping(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _err("sheet", f"`{key}` must be an object (got {_json_type(value)})")
    return value


def _incident(value: Any) -> tuple[str, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise _err("sheet", f"an incident must be [kind, player] (got {safe_json.shown(value)})")
    return _str(value[0], "incidents"), _int(value[1], "incidents")


def _marriage(value: Any) -> tuple[int, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise _err("sheet", f"a marriage must be [player, suit] (got {safe_json.shown(value)})")
    return _int(value[0], "marriages"), _str(value[1], "marriages")


@dataclass(frozen=True, slots=True)
class Totals:
    """The settled totals of a sheet's first :attr:`deals` deals, kept in its file so that a
    sheet whose ruleset changes can go on from them (:mod:`.carry`): the scores are otherwise
    never trusted from the file, always recomputed.

    Attributes:
        scores: each deal's totals by player (points), in order; ``len(scores)`` deals.
        state: the match state after the last of them, as JSON
            (:func:`~.carry.state_to_data`; checked when it is used).
        rules_hash: the fingerprint of the rules that settled them, by section
            (:func:`~.carry.rules_fingerprint`).
        content_hash: the ruleset's content hash then.
    """

    scores: tuple[tuple[int, ...], ...]
    state: Mapping[str, Any]
    rules_hash: Mapping[str, str]
    content_hash: str = ""

    @property
    def deals(self) -> int:
        """How many deals these totals cover."""
        return len(self.scores)

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready mapping (the inverse of :meth:`from_data`)."""
        return {"deals": self.deals, "content_hash": self.content_hash, "rules_hash": dict(self.rules_hash),
                "scores": [list(row) for row in self.scores], "state": dict(self.state)}

    @classmethod
    def from_data(cls, data: Any, key: str, players: int) -> Totals:
        """Read a mapping written by :meth:`to_data` (the sheet's ``key``), strictly typed.

        Raises:
            EntryError: ``entry.sheet`` — a missing or mistyped field, a row of scores that is
                not one per player, a count of deals that is not the rows'.
        """
        if not isinstance(data, Mapping):
            raise _err("sheet", f"`{key}` must be an object (got {_json_type(data)})")
        rows = tuple(tuple(_int(x, f"{key}.scores") for x in _list(row, f"{key}.scores"))
                     for row in _list(data.get("scores", []), f"{key}.scores"))
        count = _int(data.get("deals", -1), f"{key}.deals")
        if any(len(row) != players for row in rows) or count != len(rows):
            raise _err("sheet", f"`{key}` must give {players} totals for each of its `deals`")
        state, hashes = data.get("state"), data.get("rules_hash")
        if not isinstance(state, Mapping) or not isinstance(hashes, Mapping):
            raise _err("sheet", f"`{key}` needs a `state` and a `rules_hash` object")
        return cls(scores=rows, state=dict(state), content_hash=_str(data.get("content_hash", ""), key),
                   rules_hash={_str(k, key): _str(v, f"{key}.rules_hash") for k, v in hashes.items()})


@dataclass(slots=True)
class Sheet:
    """A scoresheet: the ruleset and table it is played under, and the deals entered.

    ``rules_hash`` is the fingerprint of the rules by section (what changes the scores, not
    the display texts: :func:`~.carry.rules_fingerprint`); ``settled`` the totals as last
    saved (a cache, written so that a change of the rules can be carried over); ``carried``
    the totals of the first deals when the rules changed after them: those deals keep the
    scores the earlier rules gave them, the later ones are settled by the rules in force.
    """

    ruleset: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    content_hash: str = ""
    ruleset_file: str | None = None
    names: list[str] = field(default_factory=list)
    first_dealer: int = 0
    deals: list[DealEntry] = field(default_factory=list)
    rules_hash: dict[str, str] = field(default_factory=dict)
    settled: Totals | None = None
    carried: Totals | None = None

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
        if self.rules_hash:
            data["rules_hash"] = self.rules_hash
        if self.carried is not None:
            data["carried"] = self.carried.to_data()
        if self.settled is not None:
            data["settled"] = self.settled.to_data()
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
                rules_hash={_str(k, "rules_hash"): _str(v, "rules_hash")
                            for k, v in _mapping(data.get("rules_hash") or {}, "rules_hash").items()},
                settled=Totals.from_data(data["settled"], "settled", players) if "settled" in data else None,
                carried=Totals.from_data(data["carried"], "carried", players) if "carried" in data else None,
            )
            if sheet.carried is not None and sheet.carried.deals > len(deals):
                raise _err("sheet", f"`carried` has {sheet.carried.deals} deals; the sheet has {len(deals)}")
        except EntryError as exc:
            raise _err("sheet", f"{name} is malformed: {exc.diagnostic.message}") from None
        if names and len(names) != players:
            raise _err("sheet", f"{name} is malformed: {len(names)} names for {players} players")
        problem = names_problem(names)
        if problem:
            raise _err("sheet", f"{name} is malformed: in `names`, {problem}")
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


def names_problem(names: Sequence[str]) -> str:
    """What is wrong with the players' names of a sheet (``--names``, or a sheet file's
    ``names``), ``""`` when nothing: names must tell the players apart and must not look like
    seat numbers (``1``, ``P1``), since an answer may give either — typing ``1`` must mean
    seat 1, not a player named "1".  An empty name leaves the seat unnamed (``P1``)."""
    seen: set[str] = set()
    for name in names:
        low = name.strip().lower()
        if not low:
            continue
        shown = shorten(printable(name, keep_newlines=False), _NAME_WIDTH)
        if low.removeprefix("p").isdigit():
            return f"`{shown}` looks like a seat number; choose another name"
        if low in seen:
            return f"`{shown}` is given twice"
        seen.add(low)
    return ""


_NAME_WIDTH = 40
"""Characters of a player's name shown before it is cut."""

