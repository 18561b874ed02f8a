"""A sheet whose ruleset changed since it was started: what counts as a change, and how the
sheet goes on under the new rules from its next deal.

Only what changes the scores counts (issue 30 item 12): :func:`rules_fingerprint` hashes, by
section, the form the sheet is played under, the pack and the options in force, leaving out
the display texts (names, descriptions, per-language docs, sources) and where each formula was
written.  A ruleset renamed, documented or moved reopens its sheets as before.

When the rules did change, the deals already on the sheet keep the scores the earlier rules
gave them: the sheet's file holds those totals (:class:`~.sheetfile.Totals`, written at every
save as ``settled``), and :func:`carry_over` turns them into the sheet's ``carried`` totals;
the deals after them are settled by the new rules, from the match state the earlier ones left
(:func:`state_from_data`).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..cards import Deck
from ..engine.match import BarrelSeat, MatchState
from ..errors import Diagnostic, EntryError
from ..ruleset.model import Form, Formula, Ruleset
from ..text import shorten
from .sheetfile import Sheet, Totals, _err

__all__ = [
    "carry_over",
    "changed_sections",
    "reconcile_rules",
    "rules_fingerprint",
    "state_from_data",
    "state_to_data",
    "totals_of",
]

_TEXTS = frozenset({"name", "names", "description", "doc", "sources", "source"})
"""Fields that only say or cite a rule (display texts, per-language docs, sources): not part
of the fingerprint."""


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready data for the fingerprint: dataclasses by their compared fields
    less the display texts (:data:`_TEXTS`), a formula by its text only."""
    if isinstance(value, Formula):
        return value.text
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.compare and f.name not in _TEXTS}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [_plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    return value


def _digest(value: Any) -> str:
    text = json.dumps(_plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _pack(deck: Deck) -> dict[str, Any]:
    """The fields of ``deck`` that the fingerprint hashes, as the ``deck:`` section writes
    them (a symbol that is the suit's letter as not written): the same digest as when the
    fingerprint read the pack as written."""
    return {
        "suits": [{"id": s.id, "letter": s.letter, "symbol": None if s.symbol == s.letter else s.symbol}
                  for s in deck.suits],
        "ranks": [{"id": r.id, "letter": r.letter, "points": r.points, "aliases": list(r.aliases)}
                  for r in deck.ranks],
        "total_points": deck.total_points,
    }


def rules_fingerprint(rules: Ruleset, form: Form) -> dict[str, str]:
    """What changes the scores of a sheet played under ``form``, by section: ``deck`` (the
    pack), ``options`` (the values in force) and each section of the form (``auction``,
    ``scoring``, ``match``…), each a 16-hex-digit hash.  Display texts are left out."""
    out = {"deck": _digest(_pack(rules.deck)), "options": _digest(dict(rules.selected))}
    for f in dataclasses.fields(form):
        out[f.name] = _digest(getattr(form, f.name))
    return out


def changed_sections(before: Mapping[str, str], now: Mapping[str, str]) -> list[str]:
    """The sections whose fingerprint differs (a section on one side only counts too), in
    order."""
    return sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))


_STATE_INTS = ("forfeits", "bolts", "falls")


def state_to_data(state: MatchState) -> dict[str, Any]:
    """The match state ``state`` as JSON-ready data (the table's options and the pack's points
    are not written: they are the rules')."""
    return {
        "scores": list(state.scores),
        "counters": {k: list(v) for k, v in state.counters.items()},
        "barrel": [[seat.on, seat.attempts] for seat in state.barrel],
        "forfeits": list(state.forfeits),
        "bolts": list(state.bolts),
        "falls": list(state.falls),
        "dealer": state.dealer,
        "deals": state.deals,
        "winner": state.winner,
        "golden_left": state.golden_left,
        "golden_made": state.golden_made,
        "raised": state.raised,
    }


def _ints(value: Any, key: str, players: int, *, empty_ok: bool = False) -> tuple[int, ...]:
    if not isinstance(value, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in value):
        raise _err("sheet", f"`carried.state.{key}` must be a list of whole numbers")
    if len(value) != players and not (empty_ok and not value):
        raise _err("sheet", f"`carried.state.{key}` must give one number per player ({players})")
    return tuple(value)


def _int(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _err("sheet", f"`carried.state.{key}` must be a whole number {low} to {high}")
    return value


def state_from_data(data: Mapping[str, Any], start: MatchState, form: Form) -> MatchState:
    """The match state written by :func:`state_to_data`, on the new rules' ``start`` state
    (their options, pack points, counters: a counter the new rules add starts at its initial
    value, one they drop is dropped).

    Raises:
        EntryError: ``entry.sheet`` — a missing or mistyped field, a list that is not one
            value per player, a dealer or winner that is not a seat.
    """
    n = form.players
    barrel = data.get("barrel")
    if not isinstance(barrel, list) or len(barrel) != n or any(
            not isinstance(b, list) or len(b) != 2 or not isinstance(b[0], bool)
            or isinstance(b[1], bool) or not isinstance(b[1], int) for b in barrel):
        raise _err("sheet", f"`carried.state.barrel` must give [on, attempts] for each of {n} players")
    counters = data.get("counters")
    if not isinstance(counters, Mapping):
        raise _err("sheet", "`carried.state.counters` must be an object")
    winner = data.get("winner")
    return dataclasses.replace(
        start,
        scores=_ints(data.get("scores"), "scores", n),
        counters={k: _ints(counters[k], f"counters.{k}", n) if k in counters else v
                  for k, v in start.counters.items()},
        barrel=tuple(BarrelSeat(on=b[0], attempts=b[1]) for b in barrel),
        forfeits=_ints(data.get("forfeits"), "forfeits", n),
        bolts=_ints(data.get("bolts"), "bolts", n),
        falls=_ints(data.get("falls"), "falls", n, empty_ok=True),
        dealer=_int(data.get("dealer"), "dealer", 0, n - 1),
        deals=_int(data.get("deals"), "deals", 0, 10**9),
        winner=None if winner is None else _int(winner, "winner", 0, n - 1),
        golden_left=_int(data.get("golden_left", 0), "golden_left", 0, 10**9),
        golden_made=bool(data.get("golden_made", False)),
        raised=_int(data.get("raised", 0), "raised", -(10**18), 10**18),
    )


def totals_of(rules: Ruleset, form: Form, scores: Sequence[tuple[int, ...]], state: MatchState) -> Totals:
    """The :class:`~.sheetfile.Totals` of a sheet's deals settled under ``rules``: each deal's
    totals ``scores`` and the match state after the last, ``state``."""
    return Totals(scores=tuple(scores), state=state_to_data(state),
                  rules_hash=rules_fingerprint(rules, form), content_hash=rules.content_hash)


def carry_over(sheet: Sheet, rules: Ruleset, form: Form) -> None:
    """Go on under ``rules`` from the sheet's next deal: its deals so far keep the totals the
    earlier rules gave them (the file's ``settled`` totals become ``carried``), and the sheet
    records the new rules' content hash and fingerprint.

    Raises:
        EntryError: ``entry.sheet`` — the file holds no totals of all its deals (a sheet
            written before sheets kept them, or edited since): it cannot be carried over.
    """
    settled = sheet.settled
    if settled is None or settled.deals != len(sheet.deals):
        raise _err("sheet", "the sheet holds no totals of all its deals under the earlier rules "
                   "(it was written by an older tysiac, or edited since)")
    sheet.carried = settled
    sheet.content_hash = rules.content_hash
    sheet.rules_hash = rules_fingerprint(rules, form)


def reconcile_rules(
    rules: Ruleset, form: Form, sheet: Sheet, path: str, confirm: Callable[[str], bool]
) -> bool:
    """Check the sheet's rules against ``rules`` (the sheet's ruleset as it is now) by what
    changes the scores (:func:`rules_fingerprint`): the same, the sheet takes the new content
    hash; changed, ``confirm`` is asked (a yes/no question in words) whether to go on under
    the new rules from the next deal (:func:`carry_over`); ``path`` names the sheet in the
    words.  Whether the sheet changed (to be saved at once).

    Raises:
        EntryError: ``entry.sheet`` — the rules changed and the sheet is not carried over.
    """
    now = rules_fingerprint(rules, form)
    if sheet.rules_hash == now or (not sheet.rules_hash and sheet.content_hash in ("", rules.content_hash)):
        sheet.rules_hash, sheet.content_hash = now, rules.content_hash  # a change of texts only
        return False
    sections = changed_sections(sheet.rules_hash, now) if sheet.rules_hash else []
    what = f" ({', '.join(sections)})" if sections else ""
    if not sheet.deals:  # nothing scored yet: the new rules from the first deal
        sheet.rules_hash, sheet.content_hash = now, rules.content_hash
        return True
    n = len(sheet.deals) - (sheet.carried.deals if sheet.carried else 0)
    refused = EntryError(Diagnostic(
        "entry.sheet",
        f"the rules of `{shorten(sheet.ruleset)}` changed{what} since {path} was last saved "
        f"(ruleset hash {shorten(sheet.content_hash[:12])} on the sheet, {rules.content_hash[:12]} now)",
        hint="finish the sheet with the ruleset version it was started with, or answer y to go on "
        "under the new rules from the next deal",
    ))
    question = (f"the rules of `{shorten(sheet.ruleset)}` changed{what} since {path} was last saved; "
                f"go on under the new rules from deal {len(sheet.deals) + 1}, the {n} deal(s) scored so far "
                "keeping their scores? (y/n, empty: n)")
    if not confirm(question):
        raise refused
    try:
        carry_over(sheet, rules, form)
    except EntryError as exc:
        raise EntryError(replace(refused.diagnostic, message=f"{refused.diagnostic.message}; "
                                 f"{exc.diagnostic.message}")) from None
    return True
