"""The named contracts' checks (``contract.kinds``, :mod:`...engine.contracts`):
``contract.kind-id``, ``contract.kind-value``, ``contract.kind-ends``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...errors import Diagnostic
from ...text import printable
from ..schema_errors import Path
from .base import Form, check, diag, get

_KIND_ID = re.compile(r"[a-z][a-z0-9_-]*")

_PLAYED = frozenset({
    "points", "card_points", "marriages", "tricks", "won", "last_trick", "declared", "drowned",
    "others_points", "declarer_points", "others_tricks",
})
"""The names of the scoring contexts whose values the tricks of a deal change."""
_GOAL_DECIDED = frozenset({"tricks", "others_tricks", "contract", "players"})
"""What the goal of a kind that ``ends_when_decided`` may read (judged on the tricks alone)."""


def _kinds(form: Form) -> Iterator[tuple[int, Any, Path]]:
    """Every named contract: its index, its document and its path."""
    items = form.rule("contract", "kinds") or []
    for i, item in enumerate(items):
        yield i, item, (*form.where("contract", "kinds"), i)


@check("contract.kind-ends")
def kind_ends(form: Form) -> Iterator[Diagnostic]:
    """``contract.kinds[i].ends_when_decided``: its goal (or ``scoring.made``) reads nothing but
    :data:`_GOAL_DECIDED`, its ``declarer`` and ``defender`` scores (or ``scoring``'s) none of
    :data:`_PLAYED` (the tricks not played would change what it reads).  A formula that does
    not parse is reported by the formula checks, not here."""
    from ...dsl import parse_expression
    from ...dsl.compile import names_read
    from ...errors import DslError

    for i, item, path in _kinds(form):
        if get(item, "ends_when_decided") is not True:
            continue
        ident = printable(str(get(item, "id")))
        for part, scoring, allowed in (
            ("goal", "made", _GOAL_DECIDED), ("declarer", "declarer", None), ("defender", "defender", None)
        ):
            text = get(item, part)
            where_from = f"`{part}`"
            if text is None:
                text = get(form.sections, "scoring", scoring)
                where_from = f"`scoring.{scoring}` (it has no `{part}`)"
            if not isinstance(text, str):
                continue
            try:
                names = set(names_read(parse_expression(text)))
            except DslError:
                continue
            bad = sorted(names - allowed) if allowed is not None else sorted(names & _PLAYED)
            if bad:
                read = ", ".join(f"`{n}`" for n in bad)
                yield diag(
                    "contract.kind-ends",
                    f"`contract.kinds[{i}]` (`{ident}`) ends when its goal is decided, but {where_from} "
                    f"reads {read}, which the tricks not played would change",
                    form.doc,
                    (*path, "ends_when_decided"),
                    "judge the goal on `tricks` or `others_tricks` alone and score without the play's "
                    "points, or play the deal to the last trick (`ends_when_decided: false`)",
                )


@check("contract.kind-id")
def kind_id(form: Form) -> Iterator[Diagnostic]:
    """A named contract's id that cannot be bid as a word (``bid misere``), or ``points``,
    the numeric contract's."""
    for i, item, path in _kinds(form):
        ident = get(item, "id")
        if isinstance(ident, str) and (not _KIND_ID.fullmatch(ident) or ident == "points"):
            why = (
                "is the numeric contract's" if ident == "points"
                else "is not a lower-case word starting with a letter"
            )
            yield diag(
                "contract.kind-id",
                f"`contract.kinds[{i}].id` `{printable(ident)}` {why}: it is bid as `bid <id>`",
                form.doc,
                (*path, "id"),
                "write a word such as `misere` or `slam`",
            )


@check("contract.kind-value")
def kind_value(form: Form) -> Iterator[Diagnostic]:
    """A named contract without its fixed ``value``."""
    for i, item, path in _kinds(form):
        if get(item, "value") is None:
            yield diag(
                "contract.kind-value",
                f"`contract.kinds[{i}]` (`{printable(str(get(item, 'id')))}`) has no `value`: a "
                "named contract is played for a fixed value",
                form.doc,
                path,
                "write the points it is won or lost for, e.g. `value: 120`",
            )
