"""The scoresheet of a game played with real cards (``tysiac score``): what the user enters
for a deal, checked against the ruleset, and settled by the engine's own match rules.

A sheet is a list of :class:`DealEntry` values; the scores are never stored, they are
recomputed from the entries through :func:`tysiac_spec.engine.match.settle_deal` (one code
path with the engine), so undoing a deal is dropping its entry.

The package has one module per responsibility:

* :mod:`.sheetfile` — the file format: :class:`Sheet`, :class:`DealEntry`, read as untrusted
  input within the limits of :mod:`tysiac_spec.limits`;
* :mod:`.notation` — how players, amounts, marriages and the talon are written, and the
  engine's outcome problems as :class:`~tysiac_spec.errors.EntryError`;
* :mod:`.questions` — the questions for one deal, in order, and the entry they make;
* :mod:`.settle` — the settlement of a sheet's deals by the engine's match rules.

Players are numbered from 0 (seats ``0`` to ``N-1``, shown as ``P0``…, or by name), in the
file and in every answer (``1:H`` is a marriage of hearts declared by P1, the second seat).
Points are card points plus declared marriages (points).
"""

from __future__ import annotations

from ..engine.seating import sitter_of
from .notation import (
    ACE_MARRIAGE,
    marriage_example,
    marriage_value,
    parse_amount,
    parse_marriages,
    parse_player,
    parse_players_list,
    parse_yes_no,
    seats_text,
)
from .questions import Question, entry_from_answers, questions
from .settle import (
    Settled,
    all_pass_outcome_of_entry,
    check_entry,
    contract_label,
    dealer_due,
    dealt_state,
    iter_entry_errors,
    outcome_of_entry,
    settle_sheet,
    start_state,
)
from .sheetfile import FORMAT, MODES, VERSION, DealEntry, Sheet, names_problem

__all__ = [
    "ACE_MARRIAGE",
    "FORMAT",
    "MODES",
    "VERSION",
    "DealEntry",
    "Question",
    "Settled",
    "Sheet",
    "all_pass_outcome_of_entry",
    "check_entry",
    "contract_label",
    "dealer_due",
    "dealt_state",
    "entry_from_answers",
    "iter_entry_errors",
    "marriage_example",
    "marriage_value",
    "names_problem",
    "outcome_of_entry",
    "parse_amount",
    "parse_marriages",
    "parse_player",
    "parse_players_list",
    "parse_yes_no",
    "questions",
    "seats_text",
    "settle_sheet",
    "sitter_of",
    "start_state",
]
