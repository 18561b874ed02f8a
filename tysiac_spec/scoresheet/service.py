"""The scoresheet as a service for a web table: JSON-ready values in and out, no web framework.

Every operation takes plain values (texts, numbers, lists, mappings) and returns a mapping
that ``json.dumps`` writes as it is.  The questions, their order, parsers and messages are
``tysiac score``'s own (:func:`~.questions.questions`, :func:`~.questions.entry_from_answers`),
and deals are settled by the engine through :func:`~.settle.settle_sheet`, so a deal entered
here and the same deal typed at ``tysiac score`` give the same totals and notes.

A sheet is kept in a :class:`SheetStore` under a key, as the text of a ``tysiac score
--sheet`` file (:meth:`ScoresheetService.export_sheet` returns it; a sheet exported here
reopens at the terminal and back).  Every write names the version the caller last saw
(``expected``, from any answer's ``version``); when someone else wrote the sheet since, the
write raises :class:`~tysiac_spec.errors.SaveConflictError` (``save.conflict``) and changes
nothing — :class:`FileStore` through :func:`tysiac_spec.savefile.write_versioned`, the same
guarantee as the terminal's.

Errors are :class:`~tysiac_spec.errors.TysiacError` subclasses; :func:`error_data` gives the
JSON a web layer returns for one (its ``code``, ``message`` and ``hint``; ``entry.*`` codes
are the user's answer, ``save.conflict`` a stale version).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..docs.terms import LANGS, SHEET_LABELS, pick
from ..engine.match import MatchState
from ..engine.seating import sitter_of
from ..errors import Diagnostic, EntryError, SaveConflictError, TysiacError
from ..ruleset.model import Form, Ruleset
from ..savefile import file_version, text_version, write_versioned
from .carry import reconcile_rules, rules_fingerprint, totals_of
from .questions import entry_from_answers, questions
from .settle import Settled, settle_sheet, start_state
from .sheetfile import Sheet, names_problem

__all__ = ["FileStore", "MemoryStore", "ScoresheetService", "SheetStore", "error_data"]

_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A sheet's key in a store: letters, digits, ``_`` and ``-``, at most 64 (a file name)."""

RULESET_SUFFIX = ".ruleset"
"""The key suffix under which a sheet's ruleset text is stored, for a sheet made from text."""


def error_data(error: TysiacError) -> dict[str, Any]:
    """The JSON of an error for a web answer: ``{"code": "save.conflict", "message": "…",
    "hint": "…" or None}`` (its first diagnostic)."""
    d = error.diagnostic
    return {"code": d.code, "message": d.message, "hint": d.hint}


def _err(code: str, message: str) -> EntryError:
    return EntryError(Diagnostic(code, message))


def _check_key(key: str) -> str:
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise _err("entry.sheet", "a sheet's key is 1 to 64 letters, digits, `_` or `-`, starting with a "
                   "letter or digit")
    return key


class SheetStore(Protocol):
    """Where the service keeps texts (a sheet's file text, its ruleset's text) by key, each
    with a version (:func:`tysiac_spec.savefile.text_version`; ``""``: nothing stored)."""

    def load(self, key: str) -> tuple[str, str]:
        """The text stored under ``key`` and its version; ``("", "")`` when there is none."""

    def save(self, key: str, text: str, *, expected: str) -> str:
        """Store ``text`` under ``key`` if its version is still ``expected`` (``""``: nothing
        stored yet); the new version.

        Raises:
            SaveConflictError: the version is not ``expected``; nothing is stored.
            SaveError: the text cannot be stored.
        """


@dataclass
class MemoryStore:
    """A :class:`SheetStore` in memory (tests, a single-process server)."""

    texts: dict[str, str] = field(default_factory=dict)

    def load(self, key: str) -> tuple[str, str]:
        text = self.texts.get(key)
        return ("", "") if text is None else (text, text_version(text))

    def save(self, key: str, text: str, *, expected: str) -> str:
        found = self.load(key)[1]
        if found != expected:
            raise SaveConflictError(Diagnostic(
                "save.conflict", f"the sheet `{key}` was changed by another request since version "
                f"{expected[:12] or '(none)'}; nothing was written", hint="reload the sheet"),
                expected=expected, found=found)
        self.texts[key] = text
        return text_version(text)


@dataclass
class FileStore:
    """A :class:`SheetStore` in a folder: the key ``k`` is the file ``k.json`` (a ruleset text
    ``k.ruleset.yaml``), written by :func:`~tysiac_spec.savefile.write_versioned`."""

    folder: Path

    def _path(self, key: str) -> Path:
        if key.endswith(RULESET_SUFFIX):
            return Path(self.folder) / f"{key}.yaml"
        return Path(self.folder) / f"{key}.json"

    def load(self, key: str) -> tuple[str, str]:
        path = self._path(key)
        version = file_version(path)  # before the text: a change meanwhile is a conflict later
        if not version:
            return "", ""
        return path.read_text(encoding="utf-8"), version

    def save(self, key: str, text: str, *, expected: str) -> str:
        return write_versioned(self._path(key), text, expected=expected)


@dataclass
class _Open:
    """A sheet loaded from the store: its rules, its settled deals, its version."""

    rules: Ruleset
    form: Form
    sheet: Sheet
    settled: list[Settled]
    version: str

    @property
    def state(self) -> MatchState:
        return self.settled[-1].state if self.settled else start_state(self.rules, self.form, self.sheet)


class ScoresheetService:
    """The operations of a web table's scoresheet over a :class:`SheetStore`."""

    def __init__(self, store: SheetStore) -> None:
        self.store = store

    # ----------------------------------------------------------------------- reading

    def _rules(self, key: str, sheet: Sheet) -> Ruleset:
        from ..ruleset import load_ruleset

        text, _ = self.store.load(key + RULESET_SUFFIX)
        if text:
            return load_ruleset(f"{sheet.ruleset}.yaml", text=text, options=sheet.options)
        return load_ruleset(sheet.ruleset, options=sheet.options)

    def _open(
        self, key: str, *, text: str | None = None, version: str = "", new_rules: bool = False
    ) -> _Open:
        """The sheet ``key`` (or the sheet in ``text``) with its rules and settled deals.

        Raises:
            EntryError: ``entry.sheet`` — no such sheet, not a sheet, a deal that does not
                settle, or rules changed in what scores (unless ``new_rules``: then the sheet
                goes on under them, :func:`~.carry.carry_over`).
        """
        if text is None:
            text, version = self.store.load(_check_key(key))
            if not version:
                raise _err("entry.sheet", f"there is no sheet `{key}`")
        sheet = Sheet.from_json(text, name=key)
        rules = self._rules(key, sheet)
        form = rules.form(sheet.players)
        reconcile_rules(rules, form, sheet, key, lambda question: new_rules)
        return _Open(rules, form, sheet, settle_sheet(rules, form, sheet, numbered=True), version)

    def view(self, key: str) -> dict[str, Any]:
        """The sheet ``key`` as JSON: ``version`` (to pass as ``expected`` to the next write),
        ``ruleset``, ``players``, ``names`` (as shown: ``P1`` for an unnamed seat), ``deals``
        (each as in the sheet file), ``rows`` (each deal's ``deltas``, ``scores`` and
        ``notes``, as ``tysiac score`` shows them), ``totals``, ``winner`` (a seat, or
        ``None``), ``carried`` (deals scored under earlier rules) and ``next`` (the next
        deal's ``number``, ``dealer`` and ``sitter``).

        Raises:
            EntryError: ``entry.sheet`` — no such sheet, or a sheet that does not settle.
        """
        return self._view(key, self._open(key))

    def _view(self, key: str, opened: _Open) -> dict[str, Any]:
        sheet, state = opened.sheet, opened.state
        return {
            "key": key,
            "version": opened.version,
            "ruleset": sheet.ruleset,
            "players": sheet.players,
            "names": [sheet.name(p) for p in range(sheet.players)],
            "deals": [d.to_data() for d in sheet.deals],
            "rows": [{"deltas": list(r.deltas), "scores": list(r.scores), "notes": list(r.notes)}
                     for r in opened.settled],
            "totals": list(state.scores),
            "winner": state.winner,
            "carried": sheet.carried.deals if sheet.carried else 0,
            "next": {"number": len(sheet.deals) + 1, "dealer": state.dealer,
                     "sitter": sitter_of(opened.form, state.dealer)},
        }

    def export_sheet(self, key: str) -> dict[str, Any]:
        """The sheet's file text as ``tysiac score --sheet`` reads it (``sheet``), its
        ruleset's text when it was made from one (``ruleset``, else ``None``) and ``version``."""
        text, version = self.store.load(_check_key(key))
        if not version:
            raise _err("entry.sheet", f"there is no sheet `{key}`")
        ruleset, _ = self.store.load(key + RULESET_SUFFIX)
        return {"sheet": text, "ruleset": ruleset or None, "version": version}

    # ----------------------------------------------------------------------- questions

    def next_question(self, key: str, answers: Mapping[str, str], lang: str = "en") -> dict[str, Any]:
        """The next question of the next deal given the answers so far (each as typed, by the
        question's ``key``), in ``tysiac score``'s order with its parsers; the prompt and the
        questions' short labels in ``lang`` (``en``, ``pl``, ``ru``, ``cs``: the rule book's
        words, :data:`~tysiac_spec.docs.terms.SHEET_PROMPTS`; an unknown one is English), the
        messages of a rejected answer in English (``tysiac score``'s).

        Returns:
            ``{"done": false, "key": "bid", "prompt": "bid", "label": "Bid", "error": null,
            "labels": {key: label}}`` — ask ``key`` (``labels``: every question of the deal);
            ``error`` (``{"code", "message", "hint"}``) when the answer given for ``key`` was
            rejected, with ``tysiac score``'s message; or ``{"done": true, "entry": {…}}``
            when every question that applies is answered (the deal as the sheet will hold
            it; :meth:`add_deal` adds it).

        Raises:
            EntryError: ``entry.answer`` — an answer to a question that was not asked (it
                does not apply given the earlier answers, or is unknown).
        """
        lang = lang if lang in LANGS else "en"
        opened = self._open(key)
        reply = self._walk(opened, answers, lang)[0]
        listed = questions(opened.rules, opened.form, opened.sheet, opened.state.dealer, opened.state, lang)
        labels = {q.key: pick(SHEET_LABELS[q.key], lang) for q in listed if q.key in SHEET_LABELS}
        if not reply["done"]:
            reply["label"] = labels.get(reply["key"], reply["key"])
        reply["labels"] = labels
        return reply

    def _walk(
        self, opened: _Open, answers: Mapping[str, str], lang: str = "en"
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Parse ``answers`` in the questions' order: the answer of :meth:`next_question`
        (prompts in ``lang``), and the parsed values."""
        dealer = opened.state.dealer
        parsed: dict[str, Any] = {}
        asked: set[str] = set()
        listed = questions(opened.rules, opened.form, opened.sheet, dealer, opened.state, lang)
        unknown = sorted(set(answers) - {q.key for q in listed})
        if unknown:
            raise _err("entry.answer", f"`{unknown[0][:40]}` is not a question of the scoresheet (its "
                       f"questions: {', '.join(q.key for q in listed)})")
        for q in listed:
            if not q.applies(parsed):
                continue
            asked.add(q.key)
            if q.key not in answers:
                return {"done": False, "key": q.key, "prompt": q.prompt, "error": None}, parsed
            text = answers[q.key]
            if not isinstance(text, str):
                raise _err("entry.answer", f"the answer to `{q.key}` must be a text")
            try:
                parsed[q.key] = q.parse(text, parsed)
            except EntryError as exc:
                return {"done": False, "key": q.key, "prompt": q.prompt, "error": error_data(exc)}, parsed
        extra = sorted(set(answers) - asked)
        if extra:
            raise _err("entry.answer", f"`{extra[0][:40]}` was not asked for this deal (asked: "
                       f"{', '.join(sorted(asked))})")
        entry = entry_from_answers(opened.form, dealer, parsed)
        return {"done": True, "entry": entry.to_data()}, parsed

    # ----------------------------------------------------------------------- writes

    def _stale(self, key: str, expected: str) -> None:
        """Refuse early when the sheet ``key`` is not at version ``expected`` (the store's
        save checks it again, under its lock)."""
        found = self.store.load(key)[1]
        if found != expected:
            what = f"a sheet `{key}` exists already" if not expected else \
                f"the sheet `{key}` was changed by another request since version {expected[:12]}"
            raise SaveConflictError(Diagnostic("save.conflict", f"{what}; nothing was written",
                                               hint="reload the sheet"), expected=expected, found=found)

    def _keep_ruleset(self, key: str, text: str) -> None:
        """Store the ruleset text of the sheet ``key`` beside it."""
        self.store.save(key + RULESET_SUFFIX, text, expected=self.store.load(key + RULESET_SUFFIX)[1])

    def _write(self, key: str, opened: _Open, *, expected: str) -> dict[str, Any]:
        sheet = opened.sheet
        opened.settled = settle_sheet(opened.rules, opened.form, sheet)
        sheet.settled = totals_of(opened.rules, opened.form, [r.scores for r in opened.settled],
                                  opened.state) if sheet.deals else None
        opened.version = self.store.save(key, sheet.to_json(), expected=expected)
        return self._view(key, opened)

    def create(
        self,
        key: str,
        *,
        ruleset: str | None = None,
        ruleset_text: str | None = None,
        players: int | None = None,
        names: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        dealer: int = 0,
    ) -> dict[str, Any]:
        """Start the sheet ``key`` (there must be none): under the shipped ruleset ``ruleset``
        (an id) or the ruleset in ``ruleset_text`` (YAML, kept beside the sheet), for
        ``players`` (default as ``tysiac score``: 3 when the ruleset has a 3-player form),
        with ``names`` (none, or one per player; checked as ``--names``), table ``options``
        and the first ``dealer``.  The sheet's :meth:`view`.

        Raises:
            RulesetError, OptionError, LimitError: the ruleset cannot be loaded, an unknown
                option or player count.
            EntryError: ``entry.sheet`` — neither or both of ``ruleset`` and ``ruleset_text``,
                names that are not one per player or look like seats, a dealer off the table.
            SaveConflictError: a sheet ``key`` exists already.
        """
        from ..ruleset import load_ruleset

        _check_key(key)
        if (ruleset is None) == (ruleset_text is None):
            raise _err("entry.sheet", "give a ruleset id or a ruleset text (one of them)")
        if ruleset_text is not None:
            rules = load_ruleset(f"{key}.yaml", text=ruleset_text, options=dict(options or {}))
        else:
            rules = load_ruleset(str(ruleset), options=dict(options or {}))
        n = players if players is not None else rules.default_players()
        form = rules.form(n)
        names = [str(name).strip() for name in names]
        if len(names) not in (0, n):
            raise _err("entry.sheet", f"give {n} names (got {len(names)})")
        problem = names_problem(names)
        if problem:
            raise _err("entry.sheet", f"names: {problem}")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise _err("entry.sheet", f"the first dealer is a player 0 to {n - 1} (got {dealer!r})")
        sheet = Sheet(ruleset=rules.id, players=n, options=dict(rules.selected),
                      content_hash=rules.content_hash, names=names, first_dealer=dealer,
                      rules_hash=rules_fingerprint(rules, form))
        self._stale(key, "")
        if ruleset_text is not None:
            self._keep_ruleset(key, ruleset_text)
        return self._write(key, _Open(rules, form, sheet, [], ""), expected="")

    def add_deal(self, key: str, answers: Mapping[str, str], *, expected: str) -> dict[str, Any]:
        """Add the deal the ``answers`` describe (every question :meth:`next_question` asks,
        each as typed) to the sheet at version ``expected``; the sheet's :meth:`view`.

        Raises:
            EntryError: an answer is rejected (its ``entry.*`` code and ``tysiac score``'s
                message, naming the question) or missing, or the match is over.
            MatchError: the match rules reject the deal.
            SaveConflictError: the sheet is no longer at version ``expected``.
        """
        opened = self._open(key)
        if opened.state.winner is not None:
            raise _err("entry.sheet", f"the match on `{key}` is over")
        reply, parsed = self._walk(opened, answers)
        if not reply["done"]:
            error = reply["error"]
            if error is None:
                raise _err("entry.answer", f"the answer to `{reply['key']}` ({reply['prompt']}) is missing")
            message = f"{reply['key']}: {error['message']}"
            raise EntryError(Diagnostic(error["code"], message, hint=error["hint"]))
        opened.sheet.deals.append(entry_from_answers(opened.form, opened.state.dealer, parsed))
        return self._write(key, opened, expected=expected)

    def go_on_under_new_rules(self, key: str, *, expected: str) -> dict[str, Any]:
        """When the sheet's ruleset changed in what scores (every other operation then raises
        ``entry.sheet``, "the rules of … changed (scoring) since …"), go on under the new
        rules from the next deal: the deals so far keep their scores, and the change is
        written into the sheet (``tysiac score`` asks the same question).  Its :meth:`view`.

        Raises:
            EntryError: ``entry.sheet`` — the sheet holds no totals to carry over.
            SaveConflictError: the sheet is no longer at version ``expected``.
        """
        return self._write(key, self._open(key, new_rules=True), expected=expected)

    def undo(self, key: str, *, expected: str) -> dict[str, Any]:
        """Remove the sheet's last deal (not one scored under earlier rules); its :meth:`view`.

        Raises:
            EntryError: ``entry.sheet`` — no deal to remove, or the last was scored under
                earlier rules.
            SaveConflictError: the sheet is no longer at version ``expected``.
        """
        opened = self._open(key)
        sheet = opened.sheet
        if not sheet.deals:
            raise _err("entry.sheet", "the sheet has no deal to remove")
        if sheet.carried is not None and len(sheet.deals) <= sheet.carried.deals:
            raise _err("entry.sheet", f"deal {len(sheet.deals)} was scored under the earlier rules; "
                       "it cannot be removed")
        sheet.deals.pop()
        return self._write(key, opened, expected=expected)

    def import_sheet(
        self, key: str, text: str, *, expected: str, ruleset_text: str | None = None
    ) -> dict[str, Any]:
        """Replace the sheet ``key`` (``expected``: ``""`` for a new one) by the text of a
        ``tysiac score --sheet`` file, read as untrusted input and settled before it is
        stored (its ruleset a shipped id, or ``ruleset_text``); its :meth:`view`.

        Raises:
            EntryError: ``entry.sheet`` — the text is not a sheet, or a deal does not settle.
            LimitError: the text is over a limit of :mod:`tysiac_spec.limits`.
            SaveConflictError: the sheet is no longer at version ``expected``.
        """
        self._stale(_check_key(key), expected)
        if ruleset_text is not None:
            self._keep_ruleset(key, ruleset_text)
        try:
            opened = self._open(key, text=text, version=expected)
        except TysiacError as exc:
            raise EntryError(Diagnostic("entry.sheet", f"{key}: {exc.diagnostic.message}",
                                        hint=exc.diagnostic.hint)) from None
        return self._write(key, opened, expected=expected)
