"""Studies: what a difference of rules does to the game, measured over many bot matches
(``tysiac compare A B … --simulate N``).

Each ruleset plays ``N`` matches with the same seed (:func:`tysiac_spec.simulate.simulate`,
so match ``i`` of every ruleset starts from the same match seed) and the same bots.  For each
ruleset the study reports, with a 95 % confidence interval:

- proportions (Wilson score interval): contracts made (of contracts declared), forfeits (of
  scored deals), wins by seat (of finished matches), or by side when every ruleset of the
  study plays the same fixed partnerships (partners share their side's win; when only some
  do, the rows stay by seat and the header says that their partners' rows share a win);
- means (Student's t interval): winning bid and contract (points, per scored deal), deals per
  match, barrel entries, barrel falls and bolts (per match); the interval of a count per match
  (deals, barrel entries, falls, bolts) is clipped at 0, below which its mean cannot be
  (:func:`mean_interval`'s ``floor``; the page's legend says so).

Each ruleset after the first is compared with the first, figure by figure: a two-proportion
z-test (pooled) for proportions, Welch's t-test for means; the p-values of one comparison are
adjusted with Holm's method, and a difference is marked significant when its adjusted p-value
is below 0.05.  The per-deal figures (bid, contract, contracts made, forfeits) treat the deals
as independent, although the deals of one match share its players and scores: their intervals
may be a little narrow.  The distributions come from SciPy (``scipy.stats``: ``binomtest``'s
Wilson interval, ``t.ppf``, ``norm.sf``, ``ttest_ind(equal_var=False)``), imported on first use;
Holm's adjustment, which SciPy lacks, is a few lines here.  SciPy and matplotlib are the
``study`` extra; without it a study stops with :class:`StatsMissing` (the package itself, and
``tysiac build``, which copies the committed study pages, need neither).

Plots (:func:`figures`, the HTML page): the distribution of match length and of final scores,
and the win rate by seat with its intervals; made with matplotlib (the ``study`` extra) as
inline SVG, so the page has no script and works offline.
"""

from __future__ import annotations

import html
import io
import json
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PlotsMissing, StatsMissing
from .run_choices import DEFAULT_MAX_DEALS
from .simulate import MatchResult, Statistics, simulate

__all__ = [
    "ALPHA",
    "METRICS",
    "Estimate",
    "Metric",
    "PlotsMissing",
    "StatsMissing",
    "Study",
    "figures",
    "holm",
    "mean_interval",
    "render_study",
    "require_stats",
    "run_study",
    "two_proportion_p",
    "welch_p",
    "wilson",
]

ALPHA = 0.05
"""Significance level of the tests and 1 − the confidence of the intervals."""


# --- the formulas -------------------------------------------------------------------------




def _stats() -> Any:
    """``scipy.stats``, imported on first use so that the package (and ``tysiac build``) never
    needs it.

    Raises:
        StatsMissing: SciPy is not installed.
    """
    try:
        import scipy.stats
    except ImportError:
        raise StatsMissing() from None
    return scipy.stats


def require_stats() -> None:
    """Check that a study can compute its figures, before any match is played.

    Raises:
        StatsMissing: SciPy is not installed.
    """
    _stats()


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval ``(low, high)`` of a proportion ``k/n`` (``0 <= k <= n``),
    from ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``; ``(0, 1)`` for
    ``n == 0``.

    Raises:
        StatsMissing: SciPy is not installed.
    """
    if n <= 0:
        return (0.0, 1.0)
    ci = _stats().binomtest(k, n).proportion_ci(confidence_level=1 - ALPHA, method="wilson")
    return (float(ci.low), float(ci.high))


def _moments(values: Sequence[float]) -> tuple[int, float, float]:
    """``(n, mean, sample variance)``; the variance is 0 for fewer than two values."""
    n = len(values)
    if n == 0:
        return (0, 0.0, 0.0)
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return (n, mean, var)


def mean_interval(values: Sequence[float], floor: float | None = None) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95 % Student's t interval, mean ± t(0.975, n − 1)
    · s / √n with the quantile from ``scipy.stats.t.ppf`` (the mean itself at both ends for
    fewer than two values), its low end raised to ``floor`` when it falls below it: for
    values that cannot be below ``floor`` (a count per match: 0), whose mean cannot be either.
    ``[0, 0, 0, 1, 4]``: 1.00 and [-1.15, 3.15], with ``floor=0`` [0.00, 3.15].

    Why clipped t and not another interval: the clipped interval holds the true mean whenever
    the t interval does (the mean is at least ``floor``), so its coverage is the t interval's,
    and it is the same for the same data.  A bootstrap, which respects the bound of itself,
    was measured on a 2-core machine (SciPy 1.17, ``scipy.stats.bootstrap``, 9,999
    resamples): 3.2 s for 4,000 matches but 108 s for the 100,000 values of a per-deal figure
    (percentile method), and the BCa method could not run at 100,000 values (its jackknife
    asks for 74.5 GiB); it is also random, and with few matches (the five of a quick compare)
    a percentile bootstrap's interval is too narrow.

    Raises:
        StatsMissing: SciPy is not installed (two values or more).
    """
    n, mean, var = _moments(values)
    if n < 2:
        return (mean, mean, mean)
    half = float(_stats().t.ppf(1 - ALPHA / 2, n - 1)) * math.sqrt(var / n)
    low = mean - half
    return (mean, low if floor is None else max(low, floor), mean + half)


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """The two-sided p-value of the pooled two-proportion z-test of ``k1/n1`` against
    ``k2/n2`` (``2 · scipy.stats.norm.sf(|z|)``); ``None`` when a sample is empty or the pooled
    proportion is 0 or 1.

    Raises:
        StatsMissing: SciPy is not installed.
    """
    if n1 <= 0 or n2 <= 0:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return None
    z = (k1 / n1 - k2 / n2) / se
    return float(2 * _stats().norm.sf(abs(z)))


def welch_p(a: Sequence[float], b: Sequence[float]) -> float | None:
    """The two-sided p-value of Welch's t-test of the means of ``a`` and ``b``
    (``scipy.stats.ttest_ind(a, b, equal_var=False)``, degrees of freedom by
    Welch–Satterthwaite); ``None`` with fewer than two values in a sample or no variance in
    either.

    Raises:
        StatsMissing: SciPy is not installed.
    """
    n1, _, v1 = _moments(a)
    n2, _, v2 = _moments(b)
    if n1 < 2 or n2 < 2 or v1 + v2 == 0:
        return None
    return float(_stats().ttest_ind(a, b, equal_var=False).pvalue)


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of a family of p-values (``None`` left out and kept)."""
    known = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    m = len(known)
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


# --- the figures of one ruleset ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """One figure of one ruleset: ``value`` with its 95 % interval ``low``–``high``.

    For a proportion, ``k`` of ``n``; for a mean, ``n`` values (``k`` is ``None``)."""

    value: float
    low: float
    high: float
    n: int
    k: int | None = None


@dataclass(frozen=True, slots=True)
class Metric:
    """A figure the study reports: ``kind`` is ``proportion`` (``count`` gives ``(k, n)``)
    or ``mean`` (``values`` gives the sample); ``unit`` is ``%``, ``points``, ``deals`` or
    ``per match``; ``floor``: the least value a mean's sample can hold (0 for a count per
    match), where its interval is clipped (:func:`mean_interval`)."""

    key: str
    label: str
    kind: str
    unit: str
    count: Callable[[Sequence[MatchResult]], tuple[int, int]] | None = None
    values: Callable[[Sequence[MatchResult]], list[float]] | None = None
    floor: float | None = None

    def estimate(self, results: Sequence[MatchResult]) -> Estimate:
        """This figure over ``results`` with its interval."""
        if self.count is not None:
            k, n = self.count(results)
            low, high = wilson(k, n)
            return Estimate(k / n if n else 0.0, low, high, n, k)
        assert self.values is not None
        sample = self.values(results)
        mean, low, high = mean_interval(sample, self.floor)
        return Estimate(mean, low, high, len(sample))

    def p_value(self, a: Sequence[MatchResult], b: Sequence[MatchResult]) -> float | None:
        """The two-sided p-value of the difference between two rulesets' figure."""
        if self.count is not None:
            return two_proportion_p(*self.count(a), *self.count(b))
        assert self.values is not None
        return welch_p(self.values(a), self.values(b))


def _per_match(kind: str) -> Callable[[Sequence[MatchResult]], list[float]]:
    return lambda rs: [float(r.events.get(kind, 0)) for r in rs]


def _contracts_made(rs: Sequence[MatchResult]) -> tuple[int, int]:
    return sum(r.made for r in rs), sum(len(r.contracts) for r in rs)


def _forfeits(rs: Sequence[MatchResult]) -> tuple[int, int]:
    return sum(r.events.get("forfeit", 0) for r in rs), sum(r.deals for r in rs)


METRICS: tuple[Metric, ...] = (
    Metric("contracts_made", "contracts made", "proportion", "%", count=_contracts_made),
    Metric("bid", "winning bid", "mean", "points", values=lambda rs: [float(b) for r in rs for b in r.bids]),
    Metric("contract", "contract played", "mean", "points",
           values=lambda rs: [float(c) for r in rs for c in r.contracts]),
    Metric("forfeits", "deals forfeited", "proportion", "%", count=_forfeits),
    Metric("deals", "deals per match", "mean", "deals", values=lambda rs: [float(r.deals) for r in rs],
           floor=0.0),
    Metric("barrel_entries", "barrel entries", "mean", "per match", values=_per_match("barrel.enter"),
           floor=0.0),
    Metric("barrel_falls", "barrel falls", "mean", "per match", values=_per_match("barrel.fall"), floor=0.0),
    Metric("bolts", "bolts", "mean", "per match", values=_per_match("bolt"), floor=0.0),
)
"""The figures of every study, in the order shown; wins by seat or side follow
(:func:`_win_metrics`)."""


def _seat_metric(seat: int, side: tuple[int, ...] | None = None) -> Metric:
    """Matches won by ``seat`` (of finished matches), or by the side of the seats ``side``
    (``(0, 2)``: key ``wins_side_0_2``, label ``wins, seats 0+2``), whose partners share a win."""
    def count(rs: Sequence[MatchResult]) -> tuple[int, int]:
        finished = [r for r in rs if r.winner is not None]
        return sum(1 for r in finished if seat in r.winners), len(finished)

    if side is not None:
        return Metric("wins_side_" + "_".join(map(str, side)), "wins, seats " + "+".join(map(str, side)),
                      "proportion", "%", count=count)
    return Metric(f"wins_seat_{seat}", f"wins, seat {seat}", "proportion", "%", count=count)


def _win_metrics(runs: Sequence[Statistics]) -> tuple[Metric, ...]:
    """The win rows of a study: one per side when every run plays the same fixed partnerships
    (:meth:`Statistics.side_seats`), else one per seat."""
    groups = {tuple(s.side_seats() or ()) for s in runs}
    if len(groups) == 1 and (shared := groups.pop()):
        return tuple(_seat_metric(side[0], side) for side in shared)
    return tuple(_seat_metric(p) for p in range(runs[0].players))


# --- a study -------------------------------------------------------------------------------


@dataclass(slots=True)
class Study:
    """The runs of a study, one :class:`~tysiac_spec.simulate.Statistics` per ruleset (the
    first is the reference the others are compared with)."""

    runs: list[Statistics]
    seconds: float = 0.0
    metrics: tuple[Metric, ...] = field(default=())

    def __post_init__(self) -> None:
        self.metrics = METRICS + _win_metrics(self.runs)

    def rows(self) -> list[dict[str, Any]]:
        """One row per figure: ``key``, ``label``, ``kind``, ``unit``, ``estimates`` (one
        :class:`Estimate` per ruleset), ``p`` and ``p_adjusted`` (one per ruleset after the
        first, ``None`` where no test applies) and ``significant`` (adjusted p < 0.05)."""
        results = [sorted(s.results, key=lambda r: r.index) for s in self.runs]
        rows: list[dict[str, Any]] = []
        for m in self.metrics:
            rows.append({
                "key": m.key, "label": m.label, "kind": m.kind, "unit": m.unit,
                "estimates": [m.estimate(rs) for rs in results],
                "p": [m.p_value(results[0], rs) for rs in results[1:]],
            })
        for j in range(len(self.runs) - 1):
            adjusted = holm([row["p"][j] for row in rows])
            for row, p in zip(rows, adjusted, strict=True):
                row.setdefault("p_adjusted", []).append(p)
        for row in rows:
            row["significant"] = [p is not None and p < ALPHA for p in row["p_adjusted"]]
        return rows

    def as_dict(self) -> dict[str, Any]:
        """The study as plain JSON data: ``rulesets``, ``players``, ``bots``, ``seed``,
        ``matches`` (per ruleset), ``deals`` (per ruleset), ``seconds``, ``engines`` and
        ``fallback_reasons`` (per ruleset: what played its matches, and why not the fast path
        when ``auto`` fell back), ``tests``, and
        ``rows`` (:meth:`rows`, each estimate as a mapping)."""
        first = self.runs[0]
        rows = []
        for row in self.rows():
            rows.append({**row, "estimates": [
                {"value": e.value, "low": e.low, "high": e.high, "n": e.n,
                 **({"k": e.k} if e.k is not None else {})}
                for e in row["estimates"]
            ]})
        return {
            "rulesets": [s.ruleset for s in self.runs],
            "options": [dict(s.options) for s in self.runs],
            "players": first.players,
            "bots": first.bots,
            "seed": first.seed,
            "max_deals": first.max_deals,
            "matches": [len(s.results) for s in self.runs],
            "unfinished": [sum(1 for r in s.results if r.winner is None) for s in self.runs],
            "deals": [sum(r.deals for r in s.results) for s in self.runs],
            "seconds": round(self.seconds, 1),
            "engines": [s.engine for s in self.runs],
            "fallback_reasons": [s.fallback_reason for s in self.runs],
            "tests": "95 % intervals: Wilson (proportions), Student's t (means; a count per match clipped "
                     "at 0); differences with the "
                     "first ruleset: two-proportion z-test (pooled) or Welch's t-test, Holm-adjusted, "
                     "significant below 0.05",
            "rows": rows,
        }


def run_study(
    rulesets: Sequence[str | Path],
    *,
    players: int,
    matches: int,
    seed: int = 0,
    bots: str = "heuristic",
    workers: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    progress: Callable[[int], None] | None = None,
    stop_on_interrupt: bool = False,
    engine: str = "auto",
) -> Study:
    """Play ``matches`` matches of each ruleset (same seed, same bots) and gather the study.

    Arguments as :func:`tysiac_spec.simulate.simulate`; ``progress`` counts the matches of every
    ruleset.  An interrupted run (``stop_on_interrupt``) keeps the matches finished so far
    (``Statistics.interrupted``) and plays no further ruleset.

    Raises:
        as :func:`tysiac_spec.simulate.simulate`; ValueError: fewer than two rulesets;
        StatsMissing: SciPy is not installed (checked before any match is played).
    """
    if len(rulesets) < 2:
        raise ValueError("a study compares at least two rulesets")
    require_stats()
    started = time.perf_counter()
    runs = []
    for ref in rulesets:
        stats = simulate(
            ref, players=players, games=matches, seed=seed, bots=bots, workers=workers, backend=backend,
            scheduler=scheduler, max_deals=max_deals, progress=progress, stop_on_interrupt=stop_on_interrupt,
            engine=engine,
        )
        runs.append(stats)
        if stats.interrupted:
            break
    return Study(runs, seconds=time.perf_counter() - started)


# --- text, Markdown, JSON and HTML ---------------------------------------------------------


def _shown(e: Estimate, kind: str, interval: bool = True) -> str:
    if kind == "proportion":
        text = f"{100 * e.value:.1f} %"
        return f"{text} [{100 * e.low:.1f}, {100 * e.high:.1f}]" if interval else text
    text = f"{e.value:.2f}"
    return f"{text} [{e.low:.2f}, {e.high:.2f}]" if interval else text


def _difference(row: Mapping[str, Any], j: int) -> str:
    """The difference of ruleset ``j + 1`` from the first, with its adjusted p-value."""
    a, b = row["estimates"][0], row["estimates"][j + 1]
    p = row["p_adjusted"][j]
    if row["kind"] == "proportion":
        diff = f"{100 * (b.value - a.value):+.1f} pts"
    else:
        diff = f"{b.value - a.value:+.2f}"
    if p is None:
        return f"{diff} (no test)"
    mark = " *" if row["significant"][j] else ""
    return f"{diff}, p {'< 0.001' if p < 0.001 else f'= {p:.3f}'}{mark}"


def _sides_text(stats: Statistics) -> str:
    """``0+2 against 1+3``: the sides of a run with fixed partnerships."""
    return " against ".join("+".join(map(str, g)) for g in stats.side_seats() or [])


def _header(study: Study) -> list[str]:
    first = study.runs[0]
    deals = ", ".join(f"{s.ruleset} {sum(r.deals for r in s.results):,}" for s in study.runs)
    lines = [
        f"{first.players} players, bots {first.bots}, {len(first.results):,} matches per ruleset "
        f"(seed {first.seed}); deals: {deals}",
        "95 % intervals: Wilson for proportions, Student's t for means (a count per match: the low "
        "end clipped at 0, below which its mean cannot be). Differences from "
        f"{first.ruleset}: two-proportion z-test or Welch's t-test, p-values Holm-adjusted; "
        "* significant at 0.05.",
    ]
    played = {s.engine_text() for s in study.runs}
    if len(played) == 1:
        lines.append(f"Played by the {played.pop()}.")
    else:
        each = [f"{s.ruleset}, the {s.engine_text()}" for s in study.runs]
        lines.append("Played by: " + "; ".join(each) + ".")
    by_side = any(m.key.startswith("wins_side_") for m in study.metrics)
    paired = [s for s in study.runs if s.sides is not None]
    if by_side:
        lines.append("Fixed partnerships: wins by side (partners share their side's win).")
    elif paired:
        named = ", ".join(f"{s.ruleset} ({_sides_text(s)})" for s in paired)
        share = 100 * len((paired[0].side_seats() or [()])[0])
        lines.append(f"Fixed partnerships in {named}: partners share their side's win, so there the wins by "
                     f"seat add up to {share} %.")
    if any(s.interrupted for s in study.runs):
        lines.append("interrupted: the figures cover the matches finished before the stop")
    return lines


def _cells(study: Study) -> tuple[list[str], list[list[str]]]:
    names = [s.ruleset for s in study.runs]
    head = ["figure", *names, *(f"{n} − {names[0]}" for n in names[1:])]
    body = []
    for row in study.rows():
        label = row["label"] + ("" if row["unit"] in ("%",) else f" ({row['unit']})")
        cells = [label, *(_shown(e, row["kind"]) for e in row["estimates"])]
        cells += [_difference(row, j) for j in range(len(names) - 1)]
        body.append(cells)
    return head, body


def _text(study: Study) -> str:
    head, body = _cells(study)
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    out = [*_header(study), ""]
    for r in [head, *body]:
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(out) + "\n"


def _markdown(study: Study) -> str:
    head, body = _cells(study)

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    out = [f"# Study: {' against '.join(s.ruleset for s in study.runs)}", "", *_header(study), "",
           line(head), line(["---"] * len(head))]
    out += [line(r) for r in body]
    return "\n".join(out) + "\n"




_COLOURS = ("#8a1538", "#1f5f8b", "#3a7d44", "#b8860b", "#6a4c93", "#555555")


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    return text[text.index("<svg"):]


def figures(study: Study) -> dict[str, str]:
    """The study's plots as SVG text (no XML header, to inline in HTML): ``length`` (deals per
    match), ``scores`` (final scores of every seat), ``seats`` (win rate by seat, or by side
    when every ruleset plays the same fixed partnerships; 95 % intervals).  The SVG is the same
    for the same study (no date, fixed ids).

    Raises:
        PlotsMissing: matplotlib is not installed.
    """
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotsMissing() from None
    names = [s.ruleset for s in study.runs]
    results = [sorted(s.results, key=lambda r: r.index) for s in study.runs]
    out: dict[str, str] = {}
    with matplotlib.rc_context({"svg.hashsalt": "tysiac-study", "svg.fonttype": "none", "font.size": 10}):
        fig = Figure(figsize=(7, 3.4))
        ax = fig.subplots()
        lengths = [[r.deals for r in rs] for rs in results]
        top = max((max(v) for v in lengths if v), default=1)
        bins = list(range(0, top + 2, max(1, (top + 1) // 40)))
        for i, (name, v) in enumerate(zip(names, lengths, strict=True)):
            ax.hist(v, bins=bins, histtype="step", linewidth=1.6, density=True, label=name,
                    color=_COLOURS[i % len(_COLOURS)])
        ax.set_xlabel("deals per match")
        ax.set_ylabel("share of matches")
        ax.legend(frameon=False)
        out["length"] = _svg(fig)

        fig = Figure(figsize=(7, 3.4))
        ax = fig.subplots()
        scores = [[s for r in rs for s in r.scores] for rs in results]
        low = min((min(v) for v in scores if v), default=0)
        high = max((max(v) for v in scores if v), default=1)
        step = max(10, (high - low) // 50 // 10 * 10 or 10)
        sbins = list(range(low // step * step, high + step + 1, step))
        for i, (name, v) in enumerate(zip(names, scores, strict=True)):
            ax.hist(v, bins=sbins, histtype="step", linewidth=1.6, density=True, label=name,
                    color=_COLOURS[i % len(_COLOURS)])
        ax.set_xlabel("final score of a seat (points)")
        ax.set_ylabel("density")
        ax.legend(frameon=False)
        out["scores"] = _svg(fig)

        fig = Figure(figsize=(7, 3.2))
        ax = fig.subplots()
        wins = [m for m in study.metrics if m.key.startswith("wins_")]
        width = 0.8 / len(names)
        for i, (name, rs) in enumerate(zip(names, results, strict=True)):
            est = [m.estimate(rs) for m in wins]
            xs = [p + (i - (len(names) - 1) / 2) * width for p in range(len(wins))]
            ax.bar(xs, [100 * e.value for e in est], width=width, label=name,
                   color=_COLOURS[i % len(_COLOURS)],
                   yerr=[[100 * (e.value - e.low) for e in est], [100 * (e.high - e.value) for e in est]],
                   capsize=3, error_kw={"linewidth": 1})
        ax.axhline(100 / len(wins), color="#888888", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(wins)), [m.label.removeprefix("wins, ") for m in wins])
        ax.set_ylabel("matches won (%)")
        ax.legend(frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(names))
        out["seats"] = _svg(fig)
    return out


_CAPTIONS = {
    "length": "Match length: the share of matches that lasted so many deals.",
    "scores": "Final scores: every seat's score at the end of its match.",
    "seats": "Win rate by seat, with 95 % Wilson intervals; the dashed line is an equal share (the first "
             "dealer is chosen at random, so with the same bot in every seat no seat is favoured by the "
             "seating).",
}


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.2f}" if p >= 0.01 else f"p = {p:.3f}"


def findings(data: Mapping[str, Any]) -> list[str]:
    """What a study found, in plain words, for players: one sentence per figure that differs
    significantly from the first ruleset (match length first), then one naming the figures
    that do not differ clearly.  ``data`` is :meth:`Study.as_dict` (or the committed JSON of a
    study page): ``["With ru-classic, matches are 6.7 deals longer than with pl-standard
    (33.9 against 27.3 deals, p < 0.001).", …]``."""
    names = list(data["rulesets"])
    rows = sorted(data["rows"], key=lambda r: r["unit"] != "deals")
    out: list[str] = []
    unclear: list[str] = []
    for j, other in enumerate(names[1:]):
        for row in rows:
            a, b = row["estimates"][0]["value"], row["estimates"][j + 1]["value"]
            p = row["p_adjusted"][j]
            if p is None or not row["significant"][j]:
                unclear.append(row["label"])
                continue
            more = b > a
            if row["unit"] == "deals":
                longer = "longer" if more else "shorter"
                out.append(f"With {other}, matches are {abs(b - a):.1f} deals {longer} "
                           f"than with {names[0]} ({b:.1f} against {a:.1f} deals, {_p_text(p)}).")
            elif row["unit"] == "%":
                out.append(f"{row['label'].capitalize()}: {100 * b:.1f} % with {other} against "
                           f"{100 * a:.1f} % with {names[0]} ({100 * (b - a):+.1f} points, {_p_text(p)}).")
            else:
                unit = "" if row["unit"] == "per match" else f" {row['unit']}"
                per = " per match" if row["unit"] == "per match" else " on average"
                out.append(f"{row['label'].capitalize()}: {b:.2f}{unit}{per} with {other} against "
                           f"{a:.2f}{unit} with {names[0]} ({_p_text(p)}).")
    if unclear:
        out.append("No clear difference (p ≥ 0.05 after Holm's adjustment) in: "
                   + "; ".join(dict.fromkeys(unclear)) + ".")
    return out


def _html_body(study: Study, plots: Mapping[str, str], links: Mapping[str, str]) -> str:
    from .docs.render import inline

    e = html.escape
    head, body = _cells(study)
    names = [s.ruleset for s in study.runs]
    parts = [f"<h1>Study: {e(' against '.join(names))}</h1>", _finding_html(findings(study.as_dict()))]
    books = links.get("books_prefix")
    if books is not None:
        parts.append("<p>Rule books: " + ", ".join(
            f'<a href="{e(books)}{e(n)}.en.html">{e(n)}</a>' for n in names) + "; the rules that differ: "
            f'<a href="{e(links.get("compare", "compare.html"))}">the comparison</a>.</p>')
    figures_html = []
    for key, svg in plots.items():
        caption = _CAPTIONS[key]
        if key == "seats" and any(m.key.startswith("wins_side_") for m in study.metrics):
            caption = caption.replace("Win rate by seat", "Win rate by side").replace("no seat", "no side")
        figures_html.append(f'<figure class="plot">{svg}<figcaption>{e(caption)}</figcaption></figure>')
    parts.append("<h2>The figures</h2>")
    parts += figures_html
    parts.append('<div class="scroll"><table class="study"><thead><tr>')
    parts += [f"<th>{e(c)}</th>" for c in head]
    parts.append("</tr></thead><tbody>")
    for r in body:
        cells = "".join(f'<td class="sig">{e(c)}</td>' if c.endswith(" *") else f"<td>{e(c)}</td>"
                        for c in r[1:])
        parts.append(f"<tr><th>{e(r[0])}</th>{cells}</tr>")
    parts.append("</tbody></table></div>")
    parts.append("<p class=\"muted\">Intervals in brackets; per-deal figures (bid, contract, contracts made, "
                 "forfeits) treat deals as independent, so their intervals may be a little narrow.</p>")
    parts.append("<h2>How it was measured</h2>")
    parts += [f"<p>{inline(line)}</p>" for line in _header(study)]
    return "\n".join(parts)


def _finding_html(sentences: Sequence[str]) -> str:
    """The finding of a study page: its sentences (:func:`findings`) as a list under a heading."""
    items = "".join(f"<li>{html.escape(t)}</li>" for t in sentences)
    return f'<section class="finding"><h2>What we found</h2><ul>{items}</ul></section>'


def for_players(page: str, data: Mapping[str, Any]) -> str:
    """A study page committed before the finding came first (the figures' table, then the
    method in ``<p>`` lines under the title) laid out as :func:`render_study` lays out new
    ones: the title, the finding in words from ``data`` (the page's JSON), the figures, then
    the method; code spans as ``<code>``, never literal backticks.  A page already laid out
    so (it has the finding), or without a study's title, table and note, comes back as it is."""
    from .docs.render import inline

    parts = ("</h1>", '<div class="scroll"><table class="study">', '<p class="muted">')
    if '<section class="finding">' in page or not all(p in page for p in parts):
        return page  # laid out so already, or not a study page of ours: as it is
    start = page.index("</h1>") + len("</h1>")
    table = page.index('<div class="scroll"><table class="study">')
    method = [m for m in _P_LINE.findall(page[start:table]) if not m.startswith("Rule books: ")]
    links = [m for m in _P_LINE.findall(page[start:table]) if m.startswith("Rule books: ")]
    end_table = page.index("</p>", page.index('<p class="muted">', table)) + len("</p>")
    figures_start = page.find('<figure class="plot">', end_table)
    figures_end = page.rindex("</figure>") + len("</figure>") if figures_start >= 0 else end_table
    rest = page[figures_end:]
    method_html = "\n".join(f"<p>{inline(html.unescape(m))}</p>" for m in method)
    return "\n".join([
        page[:start], _finding_html(findings(data)), *(f"<p>{m}</p>" for m in links), "<h2>The figures</h2>",
        page[figures_start:figures_end] if figures_start >= 0 else "", page[table:end_table],
        "<h2>How it was measured</h2>", method_html,
    ]) + rest


_P_LINE = re.compile(r"<p>(.*?)</p>", re.S)


_STYLE = ("<style>figure.plot svg { max-width: 100%; height: auto; } td.sig { font-weight: 600; } "
          "table.study td { white-space: nowrap; } "
          "section.finding li { font-size: 1.08rem; margin: .3rem 0; }</style>")


def render_study(study: Study, fmt: str, *, links: Mapping[str, str] | None = None) -> str:
    """The study as ``text``, ``md``, ``json`` or ``html`` (a standalone page with the
    figures inline; ``links`` may give ``home``, ``books_prefix`` and ``compare`` for a page of
    the site: a page without them links nowhere, so a standalone page written anywhere has no
    link to an ``index.html`` that is not beside it).

    Raises:
        PlotsMissing: ``html`` without matplotlib.
        ValueError: an unknown format.
    """
    if fmt == "text":
        return _text(study)
    if fmt == "md":
        return _markdown(study)
    if fmt == "json":
        return json.dumps(study.as_dict(), ensure_ascii=False, indent=2) + "\n"
    if fmt == "html":
        from .docs.render import render_template

        links = dict(links or {})
        body = _STYLE + _html_body(study, figures(study), links)
        title = f"Study: {' against '.join(s.ruleset for s in study.runs)}"
        return render_template("page.html.j2", lang="en", title=title, body=body,
                               home=links.get("home"))
    raise ValueError(f"unknown format {fmt!r}")
