"""Game records: save a game as data, replay it, and print it as a readable transcript.

A :class:`Record` is everything needed to rebuild a game: the ruleset (its id, its file
when it is not a shipped ruleset, and its content hash), the options in force, the number
of players, the seed and every action in compact text (``bid 110``, ``play QH marriage``).
All randomness of a game comes from its seed, so :func:`replay` rebuilds the same game,
bit for bit (DESIGN.md principle 7).  A game set up by hand (``Game.start_deal``,
``Game.set_match_state``) is not reproduced by its record: only seeded games are.

A game played at the terminal (``tysiac play``) also records its table
(:class:`TableSetup`): the user's seat, the kind of bots in the other seats and the seed
the bots were made with, so that ``tysiac play --resume`` continues with the same seat and
the same bots.  The section is optional: records without it (older ones, games played
from Python) load as before and keep the format tag.

JSON form (``Record.to_json``; ``table`` is left out when there is none)::

    {"format": "tysiac-record/1", "ruleset": "pl-standard", "ruleset_file": null,
     "content_hash": "…", "options": {"five_rounds": "down"}, "players": 3, "seed": 7,
     "table": {"seat": 1, "bots": "heuristic", "bot_seed": 7},
     "actions": ["bid 100", "pass", …]}

Records are shared between people, so a record read from a file (:meth:`Record.read`) is
untrusted input: it is read within the limits of :mod:`tysiac_spec.limits` by
:mod:`tysiac_spec.safe_json`, and the ruleset it names is a shipped id or a file in the
record's folder or below (``ruleset_file`` is written relative to that folder when the
record is saved there: :meth:`Record.saved_at`); another file is refused by
:func:`tysiac_spec.ruleset.registry.find` unread.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import safe_json
from .._paths import RULESETS_DIR
from ..errors import Diagnostic, RecordError, TysiacError
from ..text import shorten
from .actions import Action, DeclareContract, PlayCard, parse_action

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "FORMAT",
    "Record",
    "TableSetup",
    "record_of",
    "replay",
    "ruleset_file_from",
    "start",
    "transcript",
]

FORMAT = "tysiac-record/1"
"""The format tag of a record (the ``format`` key); a later incompatible format changes it."""

OptionValue = str | int | bool

_KEYS: dict[str, str] = {
    "format": "text",
    "ruleset": "text",
    "ruleset_file": "text or null",
    "content_hash": "text",
    "options": "mapping",
    "players": "integer",
    "seed": "integer",
    "table": "object or null",
    "actions": "list",
}
_OPTIONAL = ("ruleset_file", "table")
_TABLE_KEYS: dict[str, str] = {"seat": "integer", "bots": "text", "bot_seed": "integer"}


def _option_text(value: object) -> str:
    """An option value as the command line takes it (``-O barrel=false``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _fail(code: str, message: str, hint: str | None = None) -> RecordError:
    return RecordError(Diagnostic(f"record.{code}", message, hint=hint))


def _json_fail(file: str | None) -> safe_json.Fail:
    """The errors of :mod:`tysiac_spec.safe_json` for a record read from ``file``."""

    def fail(kind: str, detail: str) -> RecordError:
        if kind == "json":
            message = f"the record is not valid JSON: {detail}"
            return RecordError(Diagnostic("record.json", message, file=file))
        message = detail if kind == "read" else f"not a game record: {detail}"
        return RecordError(Diagnostic("record.read", message, file=file))

    return fail


def _in_file(exc: RecordError, file: str | None) -> RecordError:
    """The same error with its diagnostics placed in ``file`` (when they name no file)."""
    if file is None:
        return exc
    return RecordError([d if d.file else replace(d, file=file) for d in exc.diagnostics])


def _check_type(name: str, value: Any, kind: str) -> None:
    ok = {
        "text": isinstance(value, str),
        "text or null": value is None or isinstance(value, str),
        "mapping": isinstance(value, dict),
        "object or null": value is None or isinstance(value, dict),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "list": isinstance(value, list),
    }[kind]
    if not ok:
        article = "an" if kind[0] in "aeiou" else "a"
        raise _fail("type", f"`{name}` must be {article} {kind} (got {_kind(value)})")


@dataclass(frozen=True, slots=True)
class TableSetup:
    """Who sat where in a game played at the terminal (the record's ``table`` section).

    Attributes:
        seat: the user's seat (0 = first player); every other seat is a bot.
        bots: the kind of bots (``heuristic`` or ``random``, as ``tysiac play --bots``).
        bot_seed: the seed the bots were made with; bot ``p`` is seeded from
            ``(bot_seed, p)``, so the same record gives the same bots.
    """

    seat: int
    bots: str
    bot_seed: int

    def to_data(self) -> dict[str, Any]:
        """The section as JSON data: ``{"seat": 1, "bots": "heuristic", "bot_seed": 7}``."""
        return {"seat": self.seat, "bots": self.bots, "bot_seed": self.bot_seed}

    @classmethod
    def from_data(cls, data: Mapping[str, Any], players: int) -> TableSetup:
        """Read the ``table`` section of a record of ``players`` players.

        Raises:
            RecordError: ``record.unknown-key`` / ``record.missing`` (a key of the
                section), ``record.type`` (``table.seat`` and ``table.bot_seed`` are
                integers, ``table.bots`` a text), ``record.table`` (a seat that is not
                at the table, empty ``bots``).
        """
        unknown = sorted(set(data) - set(_TABLE_KEYS))
        if unknown:
            raise _fail("unknown-key", f"unknown key `{shorten(unknown[0])}` in the record's `table`",
                        hint="expected: " + ", ".join(_TABLE_KEYS))
        missing = [k for k in _TABLE_KEYS if k not in data]
        if missing:
            raise _fail("missing", f"the record's `table` is missing the key `{missing[0]}`",
                        hint="expected: " + ", ".join(_TABLE_KEYS))
        for key, kind in _TABLE_KEYS.items():
            _check_type(f"table.{key}", data[key], kind)
        if not 0 <= data["seat"] < players:
            raise _fail("table", f"`table.seat` is {data['seat']}, but the game has {players} players "
                        f"(seats 0 to {players - 1})")
        if not data["bots"].strip():
            raise _fail("table", "`table.bots` must name the kind of bots (got an empty text)")
        return cls(seat=data["seat"], bots=data["bots"], bot_seed=data["bot_seed"])


@dataclass(frozen=True, slots=True)
class Record:
    """A game as data (see the module docstring).

    Attributes:
        ruleset: the ruleset's id.
        ruleset_file: the ruleset's file when it is not a shipped ruleset, else ``None``.
        content_hash: the resolved ruleset's :attr:`~tysiac_spec.ruleset.model.Ruleset.content_hash`.
        options: every option value in force, by name.
        players: players at the table.
        seed: the game's seed.
        actions: every action applied, in compact text, in order.
        table: the seats and bots of a game played at the terminal, or ``None``
            (:class:`TableSetup`).
        format: :data:`FORMAT`.
        source: the file the record was read from or is saved to (not part of the record's
            data, not compared): a ``ruleset_file`` (or a ``ruleset`` given as a path) is
            looked up relative to its folder and must lie in it or below.  ``None`` for a
            record made in memory or read from text: its ruleset file is then taken as
            given (relative to the current directory).
    """

    ruleset: str
    content_hash: str
    players: int
    seed: int
    options: Mapping[str, OptionValue] = field(default_factory=dict, hash=False)
    actions: tuple[str, ...] = ()
    ruleset_file: str | None = None
    table: TableSetup | None = None
    format: str = FORMAT
    source: str | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> str:
        """The record as JSON text (keys in a fixed order, two-space indent, a final newline)."""
        data: dict[str, Any] = {
            "format": self.format,
            "ruleset": self.ruleset,
            "ruleset_file": self.ruleset_file,
            "content_hash": self.content_hash,
            "options": dict(sorted(self.options.items())),
            "players": self.players,
            "seed": self.seed,
        }
        if self.table is not None:
            data["table"] = self.table.to_data()
        data["actions"] = list(self.actions)
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    def saved_at(self, path: str | Path) -> Record:
        """This record as it is saved in the file ``path`` (its :attr:`source`): a ruleset
        file in ``path``'s folder or below is named relative to that folder
        (``house/mine.yaml``), so that the record and its ruleset move together; any other
        ruleset file is kept as it is (reading the record from ``path`` then refuses it with
        ``registry.outside``, naming the file)."""
        if self.ruleset_file is None:
            return replace(self, source=str(path))
        named = ruleset_file_from(self.ruleset_file, path, base=self.source)
        return replace(self, ruleset_file=named, source=str(path))

    @classmethod
    def read(cls, path: str | Path) -> Record:
        """Read the record in the file ``path`` (its :attr:`source`), as untrusted input: the
        size is checked before the file is read, then the JSON's depth, integers and texts
        (:mod:`tysiac_spec.safe_json`), then the record as :meth:`from_json` does.

        Raises:
            RecordError: ``record.read`` (the file cannot be read or is not UTF-8 text), else
                as :meth:`from_json`; each diagnostic names ``path``.
            LimitError: ``limit.record_bytes`` (checked before reading), ``limit.depth``,
                ``limit.int_digits``, ``limit.text_chars``.
        """
        file = str(path)
        data = safe_json.read_json_file(path, size_limit="record_bytes", fail=_json_fail(file))
        try:
            return cls._from_data(data, file)
        except RecordError as exc:
            raise _in_file(exc, file) from None

    @classmethod
    def from_json(cls, text: str, *, file: str | Path | None = None) -> Record:
        """Read a record written by :meth:`to_json`, as untrusted input (the limits of
        :mod:`tysiac_spec.safe_json`; ``record_bytes`` counts the text's UTF-8 bytes).

        Args:
            file: the file the text was read from: named in errors, and the record's
                :attr:`source`.

        Raises:
            RecordError: ``record.json`` (not JSON, with line and column; also ``NaN`` or
                ``Infinity``, a key given twice, a lone surrogate), ``record.shape``
                (not a JSON object), ``record.missing`` / ``record.unknown-key`` (a key),
                ``record.type`` (a value of the wrong type), ``record.format`` (another
                format tag); for the optional ``table`` section see
                :meth:`TableSetup.from_data`.
            LimitError: ``limit.record_bytes``, ``limit.depth``, ``limit.int_digits`` (more
                than 18 digits by default), ``limit.text_chars``.
        """
        name = None if file is None else str(file)
        data = safe_json.loads(text, fail=_json_fail(name), file=name, size_limit="record_bytes")
        try:
            return cls._from_data(data, name)
        except RecordError as exc:
            raise _in_file(exc, name) from None

    @classmethod
    def _from_data(cls, data: Any, source: str | None) -> Record:
        """The record in the JSON document ``data`` (see :meth:`from_json`)."""
        if not isinstance(data, dict):
            raise _fail("shape", f"a record must be a JSON object (got {_kind(data)})")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise _fail("unknown-key", f"unknown key `{shorten(unknown[0])}` in the record",
                        hint="expected: " + ", ".join(_KEYS))
        missing = [k for k in _KEYS if k not in data and k not in _OPTIONAL]
        if missing:
            raise _fail("missing", f"the record is missing the key `{missing[0]}`")
        for key, kind in _KEYS.items():
            _check_type(key, data.get(key), kind)
        if data["format"] != FORMAT:
            raise _fail("format", f"unsupported record format `{shorten(data['format'])}` "
                        f"(expected `{FORMAT}`)")
        for name, value in data["options"].items():
            if not isinstance(value, str | int | bool):
                raise _fail("type", f"option `{shorten(name)}` must be a text, an integer or true/false "
                            f"(got {_kind(value)})")
        for i, action in enumerate(data["actions"]):
            if not isinstance(action, str):
                raise _fail("type", f"`actions[{i}]` must be a text (got {_kind(action)})")
        table = data.get("table")
        return cls(
            ruleset=data["ruleset"],
            ruleset_file=data.get("ruleset_file"),
            content_hash=data["content_hash"],
            options=dict(data["options"]),
            players=data["players"],
            seed=data["seed"],
            actions=tuple(data["actions"]),
            table=None if table is None else TableSetup.from_data(table, data["players"]),
            source=source,
        )


def ruleset_file_from(ruleset_file: str, saved_at: str | Path, *, base: str | Path | None = None) -> str:
    """How a file saved at ``saved_at`` (a record, a scoresheet) names ``ruleset_file``:
    relative to ``saved_at``'s folder, with ``/`` separators (``house/mine.yaml``), when the
    ruleset file lies in that folder or below (symbolic links resolved); else unchanged.

    Args:
        ruleset_file: the ruleset's path, relative to the folder of ``base`` when given (the
            file that named it), else to the current directory.
    """
    folder = Path(base).parent if base is not None else Path.cwd()
    try:
        rules = (folder / ruleset_file).resolve()
        return rules.relative_to(Path(saved_at).resolve().parent).as_posix()
    except (OSError, ValueError, RuntimeError):  # elsewhere, or a symbolic-link loop
        return ruleset_file


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return safe_json.shown(value)


def _is_shipped(file: str | None) -> bool:
    if file is None:
        return True
    try:
        return Path(file).resolve().parent == RULESETS_DIR.resolve()
    except OSError:
        return False


def record_of(game: Game, *, table: TableSetup | None = None) -> Record:
    """The record of ``game`` as it stands (also ``game.record``), with the seats and bots of
    ``table`` when given."""
    rules = game.ruleset
    return Record(
        ruleset=rules.id,
        ruleset_file=None if _is_shipped(rules.file) else rules.file,
        content_hash=rules.content_hash,
        options=dict(rules.selected),
        players=game.players,
        seed=game.seed,
        actions=tuple(game.history),
        table=table,
    )


def start(record: Record) -> Game:
    """A new game for ``record`` (before its actions): its ruleset reloaded with its options
    and player count, the hash checked.

    A ruleset named by a path in a record read from a file is looked up through
    :func:`~tysiac_spec.ruleset.registry.find` relative to the record's file, which refuses
    a file outside the record's folder (``registry.outside``)."""
    from ..ruleset import load_ruleset, registry
    from .game import Game

    ref = record.ruleset_file or record.ruleset
    try:
        target: str | Path = ref
        if record.source is not None and registry.looks_like_path(ref):
            target = registry.find(ref, relative_to=record.source)
        rules = load_ruleset(target, options=dict(record.options))
        game = Game(rules, players=record.players, seed=record.seed)
    except TysiacError as exc:
        code = exc.diagnostic.code if exc.diagnostic.code == "registry.outside" else "record.ruleset"
        reason = shorten(exc.diagnostic.message, 400)
        message = f"the record's ruleset `{shorten(ref, 120)}` cannot be loaded: {reason}"
        raise RecordError(Diagnostic(code, message, hint=exc.diagnostic.hint)) from None
    if rules.content_hash != record.content_hash:
        raise _fail(
            "hash",
            f"ruleset `{rules.id}` has changed since the game was recorded: its content hash is "
            f"{rules.content_hash}, the record's is {shorten(record.content_hash)}",
            hint="replay with the ruleset file the game was played with",
        )
    return game


def _reason(message: str, text: str) -> str:
    """The engine's reason for refusing the action ``text`` (which quotes texts already cut,
    :func:`tysiac_spec.text.shorten`), cut to 300 characters in case it repeats a huge
    number."""
    return shorten(message, 300)


def replay(record: Record, *, before: Callable[[Game, Action], None] | None = None) -> Game:
    """Rebuild the game of ``record``: reload the ruleset, check it is the same, re-apply every
    action.

    ``before(game, action)``, when given, is called just before each action is applied (with
    the game as it stands), e.g. to let bots watch the game being rebuilt so that they are
    in the state they were in when the record was saved.

    Raises:
        RecordError: ``record.ruleset`` (the ruleset cannot be loaded with the record's
            options or player count), ``registry.outside`` (a record read from a file names a
            ruleset file outside the record's folder: it is not read), ``record.hash`` (the
            ruleset changed since the record was made: both hashes are named),
            ``record.action`` (an action that does not parse or is illegal: its number,
            counted from 1, and the engine's reason; the action's text is cut to 60
            characters).
    """
    game = start(record)
    for i, text in enumerate(record.actions):
        try:
            action = parse_action(text, game.ruleset.deck)
            if before is not None:
                before(game, action)
            game.apply(action)
        except TysiacError as exc:
            reason = exc.diagnostic.message
            raise _fail(
                "action", f"action {i + 1} of {len(record.actions)} `{shorten(text)}` cannot be replayed: "
                f"{_reason(reason, text)}"
            ) from None
    return game


# --------------------------------------------------------------------------- transcript


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) or "-"


class _Writer:
    """Replays a record action by action and writes what happens at the table."""

    def __init__(self, record: Record) -> None:
        self.game = start(record)
        self.record = record
        self.lines: list[str] = []
        self.deal_no = 0
        self.trick: list[str] = []
        self.trick_no = 0

    def out(self, text: str) -> None:
        self.lines.append(text)

    def header(self) -> None:
        r, g = self.record, self.game
        opts = ", ".join(f"{k}={_option_text(v)}" for k, v in sorted(r.options.items())) or "none"
        self.out(f"Ruleset {r.ruleset} ({g.ruleset.title()}), {r.players} players, seed {r.seed}")
        self.out(f"Options: {opts}")
        self.out(f"Target: {g.form.match.target} points")

    def start_deal(self, redeal: bool = False) -> None:
        d = self.game.deal
        self.deal_no += 1
        self.trick, self.trick_no = [], 0
        self.out("")
        self.out(f"Deal {self.deal_no}" + (" (redeal)" if redeal else "") + f": dealer P{d.dealer}"
                 + (f", P{d.sitter} sits out" if d.sitter is not None else ""))
        for p in sorted(d.order):
            self.out(f"  P{p} hand: {_cards(d.hands[p])}")
        for i, t in enumerate(d.talons):
            self.out(f"  talon{'' if len(d.talons) == 1 else f' {i}'}: {_cards(t)}")
        if d.declarer is not None:
            self.out(f"  declarer: P{d.declarer} at {d.high_bid}")

    def step(self, text: str) -> None:
        g = self.game
        deal, player, deal_phase = g.deal, g.current_player, g.deal.phase
        trump, declared, taken = deal.trump, len(deal.declared), len(deal.taken)
        declarer, scored = deal.declarer, len(g.deal_scores)
        action = parse_action(text, g.ruleset.deck)
        g.apply(action)
        if isinstance(action, PlayCard) and deal_phase == "play":
            note = str(action.card)
            if len(deal.declared) > declared:
                _, suit = deal.declared[-1]
                value = g.form.marriages.values.get(suit)
                note += f" (marriage of {suit}" + (f", {value}" if value is not None else "") + ")"
            if action.aces:
                note += " (ace marriage)"
            if deal.trump != trump and deal.trick:
                note += f" [trump: {deal.trump or 'none'}]"
                trump = deal.trump
            self.trick.append(f"P{player} {note}")
            if not deal.trick:  # the trick is complete
                self.trick_no += 1
                self.out(f"  trick {self.trick_no}: {', '.join(self.trick)} → P{deal.last_trick_winner}")
                self.trick = []
        else:
            self.out(f"  P{player}: {text}")
        if declarer is None and deal.declarer is not None:
            mode = f" ({deal.mode} game)" if getattr(deal, "mode", "normal") != "normal" else ""
            self.out(f"  declarer: P{deal.declarer} at {deal.high_bid}{mode}")
        if not taken and deal.taken:
            self.out(f"  talon taken: {_cards(deal.taken)}" + ("" if deal.talon_shown else " (not shown)"))
        if deal_phase != "play" and deal.phase == "play" and not isinstance(action, DeclareContract):
            self.out(f"  contract: {deal.contract} (P{deal.declarer})")
        if deal.trump != trump:
            self.out(f"  trump: {deal.trump or 'none'}")
        if len(g.deal_scores) > scored:
            self.end_deal(deal)
        if g.deal is not deal:
            self.start_deal(redeal=len(g.deal_scores) == scored)

    def end_deal(self, deal: Any) -> None:
        g = self.game
        index = len(g.deal_scores) - 1
        points = []
        for p in sorted(deal.order):
            cards = sum(c.points for c in deal.won.get(p, []))
            extra = deal.marriages.get(p, 0)
            points.append(f"P{p} {cards}" + (f" + marriages {extra}" if extra else ""))
        self.out("  points: " + ", ".join(points))
        for e in g.events:
            if e.deal == index:
                who = f" P{e.player}" if e.player is not None else ""
                value = f" {e.value}" if e.value is not None else ""
                self.out(f"  {e.kind}: {e.text}" if e.text else f"  {e.kind}{who}{value}")
        row = g.deal_scores[index]
        self.out("  deal scores: " + ", ".join(f"P{p} {_signed(v)}" for p, v in enumerate(row)))
        self.out("  totals: " + ", ".join(f"P{p} {v}" for p, v in enumerate(g.scores)))

    def run(self) -> str:
        self.header()
        self.start_deal()
        for i, text in enumerate(self.record.actions):
            try:
                self.step(text)
            except TysiacError as exc:
                count = len(self.record.actions)
                raise _fail("action", f"action {i + 1} of {count} `{shorten(text)}` cannot be replayed: "
                            f"{_reason(exc.diagnostic.message, text)}") from None
        g = self.game
        self.out("")
        if g.is_over:
            winner = getattr(g.match, "winner", None)
            if winner is None:
                winner = max(range(g.players), key=lambda p: g.scores[p])
            self.out(f"Match over: P{winner} wins with {g.scores[winner]} points")
        else:
            self.out(f"Match not finished ({len(g.deal_scores)} deal(s) scored; phase {g.phase}, "
                     f"P{g.current_player} to act)")
        self.out("Scores: " + ", ".join(f"P{p} {v}" for p, v in enumerate(g.scores)))
        return "\n".join(self.lines) + "\n"


def transcript(game_or_record: Game | Record) -> str:
    """A readable text of a whole game: for each deal the dealer, hands and talons, the
    auction, the talon taken and the exchange, the contract, every trick (cards in play order,
    marriages declared, trump changes, the winner), the card points, the match events, the
    deal scores and the running totals; then the winner.  Players are ``P0``…; points.

    The game is rebuilt from its record, so the text is the same for the same seed and
    actions.

    Raises:
        RecordError: as :func:`replay` (``record.ruleset``, ``record.hash``,
            ``record.action``), or ``record.setup`` for a game whose record does not
            reproduce it (set up with ``start_deal`` or ``set_match_state``).
    """
    if isinstance(game_or_record, Record):
        return _Writer(game_or_record).run()
    writer = _Writer(record_of(game_or_record))
    text = writer.run()
    if writer.game.state_text() != game_or_record.state_text():
        raise _fail(
            "setup",
            "the game was set up by hand (a stacked deal or a starting match state), so its "
            "record does not reproduce it; transcripts are made of seeded games",
        )
    return text
