"""Studies (`tysiac compare A B --simulate N`, tysiac_spec.study): the formulas against known
values, a small study of pl-standard against ru-classic (a few hundred deals), mixed seats,
a user's bot through the Bot protocol, clear errors, the HTML page and the site's copy of it."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tysiac_spec._paths import STUDIES_DIR
from tysiac_spec.bots import BotActionError, BotError, BotRaisedError, seat_bots
from tysiac_spec.cli import main
from tysiac_spec.simulate import TIMING_FIELDS, simulate
from tysiac_spec.study import (
    METRICS,
    PlotsMissing,
    StatsMissing,
    Study,
    figures,
    findings,
    for_players,
    holm,
    mean_interval,
    render_study,
    require_stats,
    run_study,
    two_proportion_p,
    welch_p,
    wilson,
)

PAIR = ["pl-standard", "ru-classic"]

# the study extra (SciPy for the statistics, matplotlib for the plots) is in the test extra
needs_scipy = pytest.mark.skipif(importlib.util.find_spec("scipy") is None, reason="needs the study extra")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def study() -> Study:
    """8 matches of each ruleset, seed 1: 212 deals of pl-standard, 356 of ru-classic."""
    pytest.importorskip("scipy")
    return run_study(PAIR, players=3, matches=8, seed=1)


# --- formulas ------------------------------------------------------------------------------


@needs_scipy
def test_wilson_interval_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


@needs_scipy
def test_mean_interval_uses_the_t_table() -> None:
    # the half-width over s / sqrt(n) is the table value t(0.975, n - 1)
    for df, expected in ((1, 12.7062), (5, 2.5706), (10, 2.2281), (30, 2.0423), (3999, 1.9606)):
        sample = [float(i % 2) for i in range(df + 1)]
        n = len(sample)
        mean = sum(sample) / n
        s = math.sqrt(sum((v - mean) ** 2 for v in sample) / (n - 1))
        _, _, high = mean_interval(sample)
        assert round((high - mean) / (s / math.sqrt(n)), 4) == expected


@needs_scipy
def test_mean_interval_and_tests() -> None:
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    half = 2.7764 * math.sqrt(2.5 / 5)  # t(0.975, 4) * s / sqrt(n)
    assert mean == 3 and round(low, 3) == round(3 - half, 3) and round(high, 3) == round(3 + half, 3)
    assert mean_interval([7]) == (7, 7, 7)
    # Welch: means 3 and 5.5, variances 2.5 and 3.5, t = -2.402 on 8.99 degrees of freedom
    assert round(welch_p([1, 2, 3, 4, 5], [3, 4, 5, 6, 7, 8]) or 0, 4) == 0.0398
    assert welch_p([1, 1, 1], [1, 1, 1]) is None
    # pooled two-proportion z-test: 45/100 against 60/100, z = -2.124
    assert round(two_proportion_p(45, 100, 60, 100) or 0, 4) == 0.0337
    assert two_proportion_p(0, 10, 0, 10) is None
    assert holm([0.01, 0.04, None, 0.03]) == [0.03, 0.06, None, 0.06]


@needs_scipy
def test_the_interval_of_a_count_is_clipped_at_zero() -> None:
    """t8 finding F6: a count per match cannot have a negative mean; its t interval is clipped
    at 0 (the high end and the mean unchanged)."""
    mean, low, high = mean_interval([0, 0, 0, 1, 4])
    assert (mean, round(low, 4), round(high, 4)) == (1.0, -1.1506, 3.1506)
    assert mean_interval([0, 0, 0, 1, 4], floor=0.0) == (1.0, 0.0, high)
    assert mean_interval([3, 4, 5], floor=0.0) == mean_interval([3, 4, 5])  # nothing to clip
    assert mean_interval([0, 0, 0], floor=0.0) == (0.0, 0.0, 0.0)
    assert [m.key for m in METRICS if m.floor == 0.0] == ["deals", "barrel_entries", "barrel_falls", "bolts"]
    assert [m.floor for m in METRICS if m.key not in ("deals", "barrel_entries", "barrel_falls", "bolts")] == [
        None] * 4


# --- a study -------------------------------------------------------------------------------


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_study_figures_side_by_side(study: Study) -> None:
    data = study.as_dict()
    assert data["rulesets"] == PAIR and data["matches"] == [8, 8] and data["deals"] == [212, 356]
    rows = {r["key"]: r for r in data["rows"]}
    assert list(rows) == ["contracts_made", "bid", "contract", "forfeits", "deals", "barrel_entries",
                          "barrel_falls", "bolts", "wins_seat_0", "wins_seat_1", "wins_seat_2"]
    made = rows["contracts_made"]["estimates"]
    assert (made[0]["k"], made[0]["n"], made[1]["k"], made[1]["n"]) == (102, 212, 160, 257)
    assert made[0]["low"] < 102 / 212 < made[0]["high"]
    # ru-classic forfeits 99 of its 356 deals (the 257 others have a contract); pl-standard never
    forfeits = rows["forfeits"]["estimates"]
    assert (forfeits[0]["k"], forfeits[1]["k"], forfeits[1]["n"]) == (0, 99, 356)
    assert [e["value"] for e in rows["deals"]["estimates"]] == [26.5, 44.5]
    assert [e["value"] for e in rows["bolts"]["estimates"]] == [0.0, 9.25]
    assert [e["k"] for e in rows["wins_seat_0"]["estimates"]] == [2, 4]
    # significant after Holm: contracts made, forfeits, barrel, bolts; not bids, match length, seats
    significant = {k for k, r in rows.items() if r["significant"][0]}
    assert significant == {"contracts_made", "forfeits", "barrel_entries", "barrel_falls", "bolts"}
    assert round(rows["deals"]["p_adjusted"][0], 4) == 0.1507


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_study_statistics_are_those_of_simulate(study: Study) -> None:
    for stats in study.runs:
        alone = simulate(stats.ruleset, players=3, games=8, seed=1).as_dict()
        assert {k: v for k, v in alone.items() if k not in TIMING_FIELDS} == {
            k: v for k, v in stats.as_dict().items() if k not in TIMING_FIELDS}


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_text_and_markdown(study: Study) -> None:
    text = render_study(study, "text")
    assert "3 players, bots heuristic, 8 matches per ruleset (seed 1); deals: pl-standard 212, ru-classic 356" in text
    assert ("95 % intervals: Wilson for proportions, Student's t for means (a count per match: the low end "
            "clipped at 0, below which its mean cannot be).") in text
    assert "contracts made" in text and "48.1 % [" in text and "62.3 % [" in text and "+14.1 pts, p = 0.019 *" in text
    assert "deals per match (deals)" in text and "26.50 [" in text and "+18.00, p = 0.151" in text
    md = render_study(study, "md")
    assert md.startswith("# Study: pl-standard against ru-classic\n")
    assert "| figure | pl-standard | ru-classic | ru-classic − pl-standard |" in md


@pytest.mark.slow  # draws the three plots with matplotlib
def test_html_page_has_three_inline_svg_plots_and_no_script(study: Study) -> None:
    pytest.importorskip("matplotlib")  # the study extra, in the test extra
    page = render_study(study, "html", links={"home": "../index.html", "books_prefix": "../rules/"})
    assert page.count("<svg") == 3 and "<script" not in page and "<?xml" not in page
    assert '<a href="../rules/ru-classic.en.html">ru-classic</a>' in page
    assert "deals per match" in page and "matches won (%)" in page
    assert render_study(study, "html") == render_study(study, "html")  # no date, fixed ids
    assert '<a href="../index.html">All rulesets</a>' in page
    # for players first: the finding in words, then the figures, then the method; no backticks
    assert page.index("What we found") < page.index("<figure") < page.index("How it was measured")
    assert "`" not in page


@pytest.mark.slow  # draws the plots
def test_a_standalone_html_page_links_to_no_index(study: Study, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")  # the study extra, in the test extra
    page = render_study(study, "html")
    assert "index.html" not in page and "All rulesets" not in page and "../rules/" not in page
    out = tmp_path / "x.html"
    code, _, err = run("compare", *PAIR, "--simulate", "1", "--format", "html", "-o", str(out))
    assert code == 0, err
    written = out.read_text(encoding="utf-8")
    assert "index.html" not in written and "All rulesets" not in written
    code, _, err = run("compare", *PAIR, "--simulate", "1", "--format", "html", "--site-page", "-o", str(out))
    assert code == 0, err
    assert '<a href="../index.html">All rulesets</a>' in out.read_text(encoding="utf-8")


def test_plots_without_matplotlib_are_a_clear_error(monkeypatch: pytest.MonkeyPatch, study: Study) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotsMissing, match=r"pip install 'tysiac-spec\[study\]'"):
        figures(study)
    code, _, err = run("compare", *PAIR, "--simulate", "1", "--format", "html")
    assert code == 1 and "figures need matplotlib: pip install 'tysiac-spec[study]'" in err and "Traceback" not in err


def test_a_study_without_scipy_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(StatsMissing, match=r"^a study's statistics need SciPy: pip install 'tysiac-spec\[study\]'$"):
        require_stats()
    with pytest.raises(StatsMissing):
        wilson(5, 10)
    with pytest.raises(StatsMissing):  # before any match is played
        run_study(PAIR, players=3, matches=1_000_000)
    for fmt in ("text", "json", "html"):
        code, out, err = run("compare", *PAIR, "--simulate", "1", "--format", fmt)
        assert (code, out) == (1, "")
        assert err == "Error: a study's statistics need SciPy: pip install 'tysiac-spec[study]'\n"
    # the comparison of rules needs no SciPy
    code, out, _ = run("compare", *PAIR)
    assert code == 0 and "pl-standard" in out


@pytest.mark.slow
def test_build_needs_neither_scipy_nor_matplotlib(tmp_path: Path) -> None:
    # a fresh interpreter in which SciPy, matplotlib and numpy cannot be imported
    script = ("import sys\n"
              "for m in ('scipy', 'matplotlib', 'numpy'): sys.modules[m] = None\n"
              "from tysiac_spec.cli import main\n"
              "main(['build', '-o', sys.argv[1]])\n")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "site")], capture_output=True,
                          text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr
    copied = (tmp_path / "site/studies/pl-standard-vs-ru-classic.html").read_text(encoding="utf-8")
    committed = (STUDIES_DIR / "pl-standard-vs-ru-classic.html").read_text(encoding="utf-8")
    data = json.loads((STUDIES_DIR / "pl-standard-vs-ru-classic.json").read_text(encoding="utf-8"))
    assert copied == for_players(committed, data)


def test_study_page_tells_the_finding_first_then_figures_then_method() -> None:
    data = json.loads((STUDIES_DIR / "pl-standard-vs-ru-classic.json").read_text(encoding="utf-8"))
    said = findings(data)
    assert said[0] == ("With ru-classic, matches are 6.7 deals longer than with pl-standard "
                       "(33.9 against 27.3 deals, p < 0.001).")
    assert "Contracts made: 65.9 % with ru-classic against 47.6 % with pl-standard (+18.4 points, p < 0.001)." in said
    assert said[-1] == ("No clear difference (p ≥ 0.05 after Holm's adjustment) in: wins, seat 0; wins, seat 1; "
                        "wins, seat 2.")
    page = for_players((STUDIES_DIR / "pl-standard-vs-ru-classic.html").read_text(encoding="utf-8"), data)
    order = [page.index(mark) for mark in ("<h1>", "What we found", "<h2>The figures</h2>", '<figure class="plot">',
                                           '<table class="study">', "<h2>How it was measured</h2>",
                                           "<p>3 players, bots heuristic")]
    assert order == sorted(order)
    assert "`" not in page and "<code>heuristic</code>" in page
    assert page.count("<svg") == 3
    assert for_players(page, data) == page  # a page laid out so already stays as it is
    assert for_players("<p>not a study</p>", data) == "<p>not a study</p>"
    # a small difference is told with its p-value as players read it
    row = {"key": "deals", "label": "deals per match", "kind": "mean", "unit": "deals", "p": [0.03],
           "p_adjusted": [0.04], "significant": [True], "estimates": [{"value": 40.0}, {"value": 53.2}]}
    assert findings({"rulesets": ["a", "b"], "rows": [row]}) == [
        "With b, matches are 13.2 deals longer than with a (53.2 against 40.0 deals, p = 0.04)."]


@needs_scipy
def test_cli_study_json_and_data_file(tmp_path: Path) -> None:
    data = tmp_path / "study.json"
    code, out, err = run("compare", *PAIR, "--simulate", "3", "--seed", "4", "--format", "json",
                         "--data", str(data))
    assert code == 0, err
    printed, saved = json.loads(out), json.loads(data.read_text(encoding="utf-8"))
    printed.pop("seconds"), saved.pop("seconds")
    assert printed == saved and printed["matches"] == [3, 3] and printed["seed"] == 4


# --- seats and bots ------------------------------------------------------------------------


@needs_scipy
def test_mixed_seats() -> None:
    data = simulate("pl-standard", players=3, games=8, seed=1, bots="heuristic,random,heuristic").as_dict()
    assert data["bots"] == "heuristic,random,heuristic"
    assert data["wins"] == [3, 0, 5]  # the random seat wins nothing
    assert (data["contracts"]["declared"], data["contracts"]["made"]) == (158, 22)
    code, out, err = run("compare", *PAIR, "--simulate", "2", "--bots", "heuristic,random,heuristic")
    assert code == 0, err
    assert "bots heuristic,random,heuristic" in out


USER_BOTS = '''
from tysiac_spec.bots import RandomBot


class MyRandom:
    """The shipped random bot, wrapped: a user's class following the Bot protocol."""

    def __init__(self, seed, form):
        self._inner = RandomBot(seed)

    def choose(self, view, legal):
        return self._inner.choose(view, legal)


NotABot = 3


class Silent:
    def __init__(self, seed, form):
        pass
'''


def test_a_users_bot_by_path_and_by_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mybots.py").write_text(USER_BOTS, encoding="utf-8")
    shipped = simulate("pl-standard", players=3, games=3, seed=2, bots="random", max_deals=20).as_dict()
    by_path = simulate("pl-standard", players=3, games=3, seed=2, max_deals=20,
                       bots=f"{tmp_path / 'mybots.py'}:MyRandom").as_dict()
    monkeypatch.syspath_prepend(str(tmp_path))
    by_module = simulate("pl-standard", players=3, games=3, seed=2, bots="mybots:MyRandom",
                         max_deals=20).as_dict()
    same = [k for k in shipped if k not in (*TIMING_FIELDS, "bots")]
    assert shipped["deals"] == 60 and shipped["contracts"]["declared"] > 0
    assert {k: by_path[k] for k in same} == {k: shipped[k] for k in same} == {k: by_module[k] for k in same}
    assert by_module["bots"] == "mybots:MyRandom"
    assert seat_bots(f"heuristic,{tmp_path / 'mybots.py'}:MyRandom,random", 3)[1] == \
        f"{(tmp_path / 'mybots.py').resolve()}:MyRandom"


@needs_scipy
@pytest.mark.parametrize(("spec", "message"), [
    ("nosuchmodule_xyz:Bot", "bot `nosuchmodule_xyz:Bot`: no module named `nosuchmodule_xyz`"),
    ("{dir}/missing.py:Bot", "no file {dir}/missing.py"),
    ("{dir}/mybots.py:Nope", "`{dir}/mybots.py` has no `Nope`"),
    ("{dir}/mybots.py:NotABot", "`NotABot` is not a class or function"),
    ("{dir}/mybots.py:Silent", "has no method choose(view, legal) (the Bot protocol)"),
    ("{dir}/broken.py:Bot", "loading {dir}/broken.py failed: SyntaxError"),
    ("clever", "unknown bot `clever`; expected random, heuristic, strong, or MODULE:NAME"),
    ("heuristic,random", "bots `heuristic,random`: 2 names for 3 seats (give one, or one per seat)"),
    ("heuristic,,random", "an empty name in the list"),
])
def test_bad_bots_are_clear_errors(tmp_path: Path, spec: str, message: str) -> None:
    (tmp_path / "mybots.py").write_text(USER_BOTS, encoding="utf-8")
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")
    spec, message = spec.format(dir=tmp_path), message.format(dir=tmp_path)
    with pytest.raises(BotError) as info:
        simulate("pl-standard", players=3, games=1, bots=spec)
    assert message in str(info.value)
    for command in (["simulate", "pl-standard"], ["compare", *PAIR, "--simulate"]):
        code, _, err = run(*command, "1", "--bots", spec) if command[0] == "compare" else \
            run(*command, "--games", "1", "--bots", spec)
        assert code == 2 and message in " ".join(err.split()) and "Traceback" not in err


BAD_BOT = '''
class Bad:
    """Returns the word "pass" instead of one of the legal actions it is given."""

    def __init__(self, seed, form):
        pass

    def choose(self, view, legal):
        return "pass"
'''


CRASH_BOT = '''
class Crash:
    """Plays its first legal action three times, then divides by zero."""

    def __init__(self, seed, form):
        self.calls = 0

    def choose(self, view, legal):
        self.calls += 1
        if self.calls > 3:
            return helper()
        return legal[0]


def helper():
    return 1 / 0
'''


def _bot_error_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, source: str,
                           spec: str, error: type[Exception], expected: str) -> Any:
    """Run ``spec`` (a bot in mybots.py, made of ``source``) in seat 1 through simulate() and
    the simulate and compare commands; each gives ``expected``, one error; returns the error."""
    (tmp_path / "mybots.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TYSIAC_BOT_TRACEBACK", raising=False)
    with pytest.raises(error) as info:
        simulate("pl-standard", players=3, games=2, bots=f"heuristic,{spec},heuristic", workers=workers)
    assert info.value.diagnostic.render() == expected  # type: ignore[attr-defined]
    for command in (["simulate", "pl-standard", "--games"], ["compare", *PAIR, "--simulate"]):
        code, _, err = run(*command, "1", "-j", str(workers), "--bots", f"heuristic,{spec},heuristic")
        assert (code, err) == (1, expected + "\n")
    return info.value


@needs_scipy
@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_returning_an_illegal_action_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int,
) -> None:
    expected = ("error[bot.illegal]: bot `mybots.py:Bad` in seat 1 returned 'pass' (a str), which is not one "
                "of the 3 legal actions it was given: choose(view, legal) must return an element of legal")
    error = _bot_error_is_one_line(tmp_path, monkeypatch, workers, BAD_BOT, "mybots.py:Bad", BotActionError,
                                   expected)
    assert (error.seat, error.name, error.type_name) == (1, "mybots.py:Bad", "str")


@needs_scipy
@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_raises_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int,
) -> None:
    """t8 finding F20: a user's bot raising in choose() is error[bot.raised] naming the bot, its
    seat, the exception and the bot file's line (not a traceback); TYSIAC_BOT_TRACEBACK=1 adds it."""
    first = ("error[bot.raised]: bot `mybots.py:Crash` in seat 1 raised ZeroDivisionError: division by zero "
             "(at mybots.py:16)")
    expected = first + "\n  hint: for the Python traceback run again with TYSIAC_BOT_TRACEBACK=1"
    error = _bot_error_is_one_line(tmp_path, monkeypatch, workers, CRASH_BOT, "mybots.py:Crash", BotRaisedError,
                                   expected)
    assert (error.seat, error.name, error.type_name) == (1, "mybots.py:Crash", "ZeroDivisionError")
    monkeypatch.setenv("TYSIAC_BOT_TRACEBACK", "1")
    code, _, err = run("simulate", "pl-standard", "--games", "1", "-j", str(workers),
                       "--bots", "heuristic,mybots.py:Crash,heuristic")
    lines = err.splitlines()
    assert code == 1 and lines[0] == first and lines[-1] == "  note: ZeroDivisionError: division by zero"
    assert f'  note:   File "{tmp_path / "mybots.py"}", line 11, in choose' in lines
    assert "  note:     return 1 / 0" in lines and "Traceback" not in err


PARTNERS = Path(__file__).resolve().parents[1] / "examples/house/partners-four.yaml"


@pytest.mark.slow  # a study of its own
@needs_scipy
def test_fixed_partnerships_are_counted_by_side(tmp_path: Path) -> None:
    """t8 finding F11: with fixed partnerships both partners win a match; the study's wins are
    by side when every ruleset plays the same sides (4 matches: 3 to 1, adding up to 100 %),
    and by seat with a note saying they add up to 200 % when only some rulesets do."""
    (tmp_path / "partners-four.yaml").write_text(PARTNERS.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "b.yaml").write_text("id: partners-b\nkind: house\nextends: partners-four.yaml\n"
                                     "name: {en: partners b}\nspecial: {bolts: {every: 2}}\n", encoding="utf-8")
    files = [str(tmp_path / "partners-four.yaml"), str(tmp_path / "b.yaml")]
    both = run_study(files, players=4, matches=4, seed=2)
    rows = {r["key"]: r for r in both.as_dict()["rows"]}
    assert [k for k in rows if k.startswith("wins")] == ["wins_side_0_2", "wins_side_1_3"]
    assert [(e["k"], e["n"]) for e in rows["wins_side_0_2"]["estimates"]] == [(3, 4), (3, 4)]
    assert [(e["k"], e["n"]) for e in rows["wins_side_1_3"]["estimates"]] == [(1, 4), (1, 4)]
    text = render_study(both, "text")
    assert "Fixed partnerships: wins by side (partners share their side's win).\n" in text
    assert "wins, seats 0+2" in text and "75.0 % [" in text and "wins, seat 0" not in text
    mixed = run_study(["ru-classic", files[0]], players=4, matches=1, seed=2)
    assert [m.key for m in mixed.metrics if m.key.startswith("wins")] == [f"wins_seat_{p}" for p in range(4)]
    assert ("Fixed partnerships in house-partners-four (0+2 against 1+3): partners share their side's win, "
            "so there the wins by seat add up to 200 %.") in render_study(mixed, "text")


# --- the site ------------------------------------------------------------------------------


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_site_copies_the_committed_study_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               study: Study) -> None:
    pytest.importorskip("matplotlib")  # the study extra, in the test extra
    from tysiac_spec.docs import site

    pages = tmp_path / "studies"
    pages.mkdir()
    (pages / "a-vs-b.html").write_text(render_study(study, "html"), encoding="utf-8")
    (pages / "a-vs-b.json").write_text(json.dumps(study.as_dict()), encoding="utf-8")
    monkeypatch.setattr(site, "STUDIES_DIR", pages)
    written: list[Path] = []
    out = tmp_path / "site"
    entries = site._copy_studies(out, written)
    assert entries == [{"href": "studies/a-vs-b.html",
                        "title": "Study: pl-standard against ru-classic, 3 players", "deals": "568",
                        "names": "pl-standard / ru-classic", "players": "3"}]
    assert written == [Path("studies/a-vs-b.html")]
    assert (out / "studies/a-vs-b.html").read_text(encoding="utf-8").count("<svg") == 3


def test_the_shipped_study_covers_100000_deals_of_each_ruleset() -> None:
    data = json.loads((STUDIES_DIR / "pl-standard-vs-ru-classic.json").read_text(encoding="utf-8"))
    assert data["rulesets"] == PAIR and data["players"] == 3 and data["bots"] == "heuristic"
    assert min(data["deals"]) >= 100_000 and data["unfinished"] == [0, 0]
    page = (STUDIES_DIR / "pl-standard-vs-ru-classic.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and '<a href="../index.html">' in page


@needs_scipy
def test_the_shipped_studys_proportions_are_those_of_todays_formulas() -> None:
    # the page was made before the formulas moved to SciPy: its Wilson intervals and z-test p-values
    # (the seats' rows, printed as p = 0.548, 0.794, 0.531 after Holm) are recomputed from its counts
    data = json.loads((STUDIES_DIR / "pl-standard-vs-ru-classic.json").read_text(encoding="utf-8"))
    rows = [r for r in data["rows"] if r["kind"] == "proportion"]
    assert [r["key"] for r in rows] == ["contracts_made", "forfeits", "wins_seat_0", "wins_seat_1", "wins_seat_2"]
    for row in rows:
        for e in row["estimates"]:
            assert wilson(e["k"], e["n"]) == pytest.approx((e["low"], e["high"]), abs=1e-12)
        a, b = row["estimates"]
        assert two_proportion_p(a["k"], a["n"], b["k"], b["n"]) == pytest.approx(row["p"][0], abs=1e-12)
    page = (STUDIES_DIR / "pl-standard-vs-ru-classic.html").read_text(encoding="utf-8")
    assert "<td>32.5 % [31.0, 33.9]</td><td>33.6 % [32.2, 35.1]</td><td>+1.2 pts, p = 0.548</td>" in page


def test_the_readme_bot_example_plays(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in readme.split("```py\n")[1:] if b.startswith("# mybots.py")]
    (tmp_path / "mybots.py").write_text(block.split("```", 1)[0], encoding="utf-8")
    data = simulate("pl-standard", players=3, games=2, seed=1,
                    bots=f"heuristic,{tmp_path / 'mybots.py'}:First,heuristic", max_deals=30).as_dict()
    assert data["matches"] == 2 and data["deals"] > 0
