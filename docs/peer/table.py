"""Print the table of mekedron/thousand's rule fields and house rules against tysiac-spec.

Reads ``docs/peer/mekedron.yaml`` (beside this file) and prints, as Markdown: the percentages
(expressible and shown, over every entry that is not a contract kind or no rule), one table of the
127 fields and one of the 68 house rules, and the ``missing`` entries grouped by the mechanism they
need, smallest group first.  ``tests/test_peer_coverage.py`` checks the data this prints.

Usage::

    python docs/peer/table.py             # everything
    python docs/peer/table.py --summary   # the percentages and the missing list only
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).with_name("mekedron.yaml")

STATUSES = ("shown", "expressible", "missing", "contract-kind", "not-a-rule")
"""Entry statuses, the strongest first; ``contract-kind`` and ``not-a-rule`` are outside the target."""

OUTSIDE = ("contract-kind", "not-a-rule")


def load(path: Path = DATA) -> dict[str, list[dict[str, Any]]]:
    """The data: ``{"fields": [...], "house_rules": [...]}`` as written in ``mekedron.yaml``."""
    with path.open(encoding="utf-8") as handle:
        # libyaml's safe loader where installed: the same data, a tenth of the time (the tests
        # load the table at collection, once per parallel worker)
        data = yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {"fields": data["fields"], "house_rules": data["house_rules"]}


def tally(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per status and the percentages of the target.

    ``target`` is every entry that is neither a contract kind nor no rule; ``shown_pct`` is
    shown / target, ``expressible_pct`` (shown + expressible) / target, ``exact_pct`` the shown
    entries whose evidence plays the very rule and which are not approximate, / target (in %).
    """
    counts = {s: sum(1 for e in entries if e["status"] == s) for s in STATUSES}
    target = len(entries) - counts["contract-kind"] - counts["not-a-rule"]
    exact = sum(
        1
        for e in entries
        if e["status"] == "shown" and e.get("evidence_kind", "exact") == "exact" and not e.get("approx")
    )

    def pct(n: int) -> float:
        return round(100 * n / target, 1) if target else 0.0

    return {
        "total": len(entries),
        "counts": counts,
        "target": target,
        "shown_pct": pct(counts["shown"]),
        "expressible_pct": pct(counts["shown"] + counts["expressible"]),
        "exact": exact,
        "exact_pct": pct(exact),
    }


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _mark(entry: dict[str, Any]) -> str:
    status = entry["status"]
    if status == "shown" and entry.get("evidence_kind") == "mechanism":
        status += " (mechanism)"
    if entry.get("approx"):
        status += " ≈"
    if entry.get("pending"):
        status += f" — pending {entry['pending']}"
    return status


def _values(entry: dict[str, Any]) -> str:
    values = entry.get("values") or {}
    return ", ".join(f"{k}: {v}" for k, v in values.items())


def _detail(entry: dict[str, Any]) -> str:
    if entry["status"] == "missing":
        return _cell(entry.get("missing", ""))
    if entry["status"] in OUTSIDE:
        return _cell(entry.get("note", ""))
    return _cell("; ".join(entry.get("how") or []))


def summary_lines(data: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The percentages, one line per table."""
    lines = []
    for key, label in (("fields", "Fields"), ("house_rules", "House rules")):
        t = tally(data[key])
        c = t["counts"]
        lines.append(
            f"- {label}: {t['total']} ({c['contract-kind']} contract kinds, {c['not-a-rule']} no rule; "
            f"target {t['target']}): shown {c['shown']} = **{t['shown_pct']} %** "
            f"({t['exact']} = {t['exact_pct']} % exactly, without approximation or a mechanism-only "
            f"evidence); expressible and shown {c['shown'] + c['expressible']} = "
            f"**{t['expressible_pct']} %**; expressible only {c['expressible']}; missing {c['missing']}"
        )
    return lines


def missing_groups(data: dict[str, list[dict[str, Any]]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The ``missing`` entries (fields and house rules) by mechanism, the smallest group first."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for key in ("fields", "house_rules"):
        for entry in data[key]:
            if entry["status"] == "missing":
                groups[entry["mechanism"]].append(entry)
    return sorted(groups.items(), key=lambda item: (len(item[1]), item[0]))


def render(data: dict[str, list[dict[str, Any]]], *, summary_only: bool = False) -> str:
    """The Markdown text: summary, the two tables (unless ``summary_only``), the missing list."""
    out = ["## mekedron/thousand against tysiac-spec", ""]
    out += summary_lines(data)
    out += ["", "Marks: (mechanism) — the evidence plays the same data path with another formula or "
            "number; ≈ — written only approximately (see `approx:` in docs/peer/mekedron.yaml).", ""]
    if not summary_only:
        out += ["### The 127 fields (core/rule_config.lua)", "",
                "| # | field | status | values | tysiac-spec data / what is missing | evidence |",
                "|---|---|---|---|---|---|"]
        for e in data["fields"]:
            out.append(
                f"| {e['n']} | `{e['id']}` | {_mark(e)} | {_cell(_values(e))} | {_detail(e)} | "
                f"{_cell(', '.join(e.get('evidence') or []))} |"
            )
        out += ["", "### The 68 house rules (docs/variations/house-rules.md)", "",
                "| # | house rule | status | tysiac-spec data / what is missing | evidence |",
                "|---|---|---|---|---|"]
        for e in data["house_rules"]:
            out.append(
                f"| {e['id']} | {_cell(e['name'])} | {_mark(e)} | {_detail(e)} | "
                f"{_cell(', '.join(e.get('evidence') or []))} |"
            )
        out.append("")
    out += ["### Missing, by the mechanism they need (smallest first)", ""]
    for mechanism, entries in missing_groups(data):
        pending = sorted({e["pending"] for e in entries if e.get("pending")})
        names = ", ".join(e["id"] + (f" {e['name']}" if "name" in e else "") for e in entries)
        suffix = f" (pending: {', '.join(pending)})" if pending else ""
        out.append(f"- **{mechanism}** — {len(entries)}{suffix}: {names}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    sys.stdout.write(render(load(), summary_only="--summary" in argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
