"""`tysiac simulate` and `compare --simulate` on the fast path (`--engine`): the matches of
random bots, and of the shipped bots that read their view (heuristic, strong), played by a
form's compiled code give the engine's statistics exactly, match by match; a run the fast
path cannot play is refused with `--engine fast` and played by the engine with `auto`, which
says why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_simulate import run, untimed  # (one copy of the CLI runner and the untimed figures)

from tysiac_spec import fast, load_ruleset
from tysiac_spec.simulate import (
    EngineUnavailable,
    match_seed,
    play_match,
    seat_seeds,
    simulate,
)

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house"

SHORT = """\
id: fast-short
kind: house
extends: pl-standard
name: {en: A short match}
description: {en: The target lowered so that matches of random bots end (fast path tests).}
match:
  target: {value: 300, reason: test}
  finishing: {who: {value: anyone, reason: test (the 990 cap does not follow a target of 300)}}
"""


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("short") / "short.yaml"
    path.write_text(SHORT, encoding="utf-8")
    return str(path)


FORMS = [
    ("pl-standard", 3),
    ("ru-classic", 4),  # barrel, bolts, golden round, forfeits, redeals
    (str(HOUSE / "barrel-falls.yaml"), 3),  # the barrel's third fall resets, collisions
    ("pl-standard", 2),  # two talons chosen, discards
    (str(HOUSE / "dealer-exempt-in-minus.yaml"), 3),  # no forced bid: deals everyone passed
]


@pytest.mark.parametrize(("ref", "players"), FORMS, ids=lambda v: Path(str(v)).stem)
def test_each_match_is_the_engines(ref: str, players: int) -> None:
    rules = load_ruleset(ref)
    for i in range(3):
        seed = match_seed(4, i)
        generic = play_match(rules, players, seed, bots="random", index=i, max_deals=30, engine="generic")
        quick = play_match(rules, players, seed, bots="random", index=i, max_deals=30, engine="fast")
        assert quick == generic
        # a deal everyone passed and dealt again counts against the most deals (issue 30):
        # dealer-exempt-in-minus's are among its redeals (with four nines')
        redeals = generic.events.get("redeal", 0) if ref.endswith("dealer-exempt-in-minus.yaml") else 0
        assert 30 - redeals <= generic.deals <= 30 and generic.actions > 30 * players


@pytest.mark.parametrize(("ref", "players"), FORMS, ids=lambda v: Path(str(v)).stem)
def test_simulate_gives_the_same_statistics_on_both(ref: str, players: int) -> None:
    generic = simulate(ref, players=players, games=4, seed=3, bots="random", max_deals=40, engine="generic")
    quick = simulate(ref, players=players, games=4, seed=3, bots="random", max_deals=40, engine="fast")
    auto = simulate(ref, players=players, games=4, seed=3, bots="random", max_deals=40)
    assert (generic.engine, quick.engine, auto.engine) == ("generic", "fast", "fast")
    assert generic.fallback_reason is None and auto.fallback_reason is None
    g, q = generic.as_dict(), quick.as_dict()
    assert (g["engine"], q["engine"]) == ("generic", "fast")
    assert untimed(q) == untimed(g) == untimed(auto.as_dict())
    redeals = g["redeals"] if ref.endswith("dealer-exempt-in-minus.yaml") else 0  # (all-pass ones count)
    assert 160 - redeals <= g["deals"] <= 160 and g["contracts"]["declared"] > 0


def test_figures_of_finished_matches(short: str) -> None:
    # a target of 300: half the matches of random bots end within 60 deals
    generic = simulate(short, players=3, games=8, seed=1, bots="random", max_deals=60, engine="generic").as_dict()
    quick = simulate(short, players=3, games=8, seed=1, bots="random", max_deals=60, engine="fast").as_dict()
    assert untimed(quick) == untimed(generic)
    assert (quick["finished"], quick["wins"], quick["deals"]) == (4, [2, 1, 1], 277)
    assert quick["contracts"] == {"declared": 277, "made": 7, "failed": 270, "rate": 0.0253, "average": 157.65}
    assert quick["bids"] == {"count": 277, "average": 142.06}


def test_deals_everyone_passed_have_no_winning_bid() -> None:
    # no forced bid: a deal everyone passes goes to the dealer (auction.all_pass: dealer_plays)
    # without an auction winner, so it has no winning bid; the engine's runner reads the
    # engine's own high_bidder, the fast runner says the same
    rules = load_ruleset(str(HOUSE / "dealer-exempt-in-minus.yaml"))
    seed = match_seed(0, 0)
    passed = []
    for runner in (fast.compile(rules, 3), fast.EngineRunner(rules, 3, "a test")):
        result = runner.play_match(seed, [fast.random_policy(s) for s in seat_seeds(seed, 3)], max_deals=12)
        passed.append(result.passed_out)
    assert passed[0] == passed[1] == (1,)
    match = play_match(rules, 3, seed, bots="random", max_deals=12, engine="generic")
    # 10 deals scored and 2 passed out and dealt again (the dealer exempt): 12 against the most
    assert (match.deals, match.events["redeal"], len(match.bids)) == (10, 2, 9)
    assert match == play_match(rules, 3, seed, bots="random", max_deals=12)


@pytest.mark.parametrize(("ref", "players"), [("pl-standard", 3), ("ru-classic", 4)])
def test_bots_that_read_their_view_play_on_the_fast_path(ref: str, players: int) -> None:
    # heuristic bots (and a random one) on auto: the fast path, the engine's figures exactly
    for bots in ("heuristic", "heuristic,random" + ",heuristic" * (players - 2)):
        generic = simulate(ref, players=players, games=2, seed=3, bots=bots, max_deals=12, engine="generic")
        auto = simulate(ref, players=players, games=2, seed=3, bots=bots, max_deals=12)
        assert (auto.engine, auto.fallback_reason) == ("fast", None)
        assert untimed(auto.as_dict()) == untimed(generic.as_dict())
        assert [r.deals for r in auto.results] == [12, 12]
    code, out, err = run("simulate", ref, "--players", str(players), "--games", "1", "--bots", "heuristic",
                         "--max-deals", "3")
    assert code == 0 and "played by the fast path" in out, err


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_engine_fast_refuses_a_bot_it_cannot_play() -> None:
    mine = "tysiac_spec.bots:HeuristicBot"  # (a user's bot, though the shipped class)
    only = "the fast path plays only the shipped bots `random`, `heuristic`, `strong`"
    with pytest.raises(EngineUnavailable) as info:
        simulate("pl-standard", players=3, games=1, bots=f"random,{mine},random", engine="fast")
    assert str(info.value) == f"the fast path cannot play this run: seat 1 plays the bot `{mine}`; {only}"
    code, _, err = run("simulate", "pl-standard", "--games", "1", "--bots", f"random,random,{mine}",
                       "--engine", "fast")
    assert code == 2 and "Traceback" not in err
    assert f"Invalid value for --engine: the fast path cannot play this run: seat 2 plays the bot `{mine}`" in err
    code, _, err = run("compare", "pl-standard", "ru-classic", "--simulate", "1", "--engine", "fast",
                       "--bots", mine)
    assert code == 2 and f"seat 0 plays the bot `{mine}`" in err


def test_auto_falls_back_for_a_form_not_covered_and_says_why() -> None:
    path = str(HOUSE / "auction-comeback.yaml")
    reason = "the form is not covered: auction.reentries = 1 (the fast path covers 0)"
    stats = simulate(path, players=3, games=2, seed=1, bots="random", max_deals=10)
    assert (stats.engine, stats.fallback_reason) == ("generic", reason)
    generic = simulate(path, players=3, games=2, seed=1, bots="random", max_deals=10, engine="generic")
    assert generic.fallback_reason is None and untimed(generic.as_dict()) == untimed(stats.as_dict())
    code, out, err = run("simulate", path, "--games", "2", "--bots", "random", "--max-deals", "10", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["engine"], data["fallback_reason"]) == ("generic", reason)
    code, out, err = run("simulate", path, "--games", "2", "--bots", "random", "--max-deals", "10")
    assert code == 0 and f"played by the generic engine (not the fast path: {reason})" in out
    code, _, err = run("simulate", path, "--games", "1", "--bots", "random", "--engine", "fast")
    assert code == 2 and f"the fast path cannot play this run: {reason}" in err
    code, out, err = run("simulate", "pl-standard", "--games", "1", "--bots", "random", "--max-deals", "3")
    assert code == 0 and "played by the fast path" in out


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_study_says_what_played_each_ruleset() -> None:
    pytest.importorskip("scipy")
    path = str(HOUSE / "auction-comeback.yaml")
    code, out, err = run("compare", "pl-standard", path, "--simulate", "2", "--bots", "random",
                         "--max-deals", "5", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["engines"] == ["fast", "generic"]
    assert data["fallback_reasons"] == [None, "the form is not covered: auction.reentries = 1 (the fast "
                                              "path covers 0)"]
    code, out, err = run("compare", "pl-standard", "ru-classic", "--simulate", "2", "--bots", "random",
                         "--max-deals", "5")
    assert code == 0 and "Played by the fast path." in out
    code, fast_text, err = run("compare", "pl-standard", "ru-classic", "--simulate", "2", "--bots", "random",
                               "--max-deals", "5", "--engine", "generic")
    assert code == 0 and "Played by the generic engine." in fast_text
    assert out.replace("fast path", "generic engine") == fast_text


def test_worker_processes_play_the_fast_path() -> None:
    one = simulate("ru-online", players=3, games=6, seed=5, bots="random", max_deals=20, engine="generic")
    two = simulate("ru-online", players=3, games=6, seed=5, bots="random", max_deals=20, workers=2)
    assert two.engine == "fast" and untimed(two.as_dict()) == untimed(one.as_dict())


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_dask_runs_the_fast_path_with_the_local_figures(scheduler: str, short: str) -> None:
    local = simulate(short, players=3, games=6, seed=2, bots="random", max_deals=60, engine="generic").as_dict()
    remote = simulate(short, players=3, games=6, seed=2, bots="random", max_deals=60,
                      scheduler=scheduler).as_dict()
    assert (remote["backend"], remote["engine"]) == ("dask", "fast")
    assert untimed(remote) == untimed(local)
    assert (remote["finished"], remote["wins"], remote["deals"]) == (4, [1, 1, 2], 174)


@pytest.mark.slow
def test_every_covered_form_gives_the_engines_match_results() -> None:
    # every shipped form and house example the generator covers: each match's result (deals,
    # actions, winners, scores, contracts, events by kind, winning bids) is the engine's
    from tysiac_spec.ruleset import registry

    refs = [e.id for e in registry.entries()] + sorted(str(p) for p in HOUSE.glob("*.yaml"))
    played = 0
    for ref in refs:
        rules = load_ruleset(ref)
        for n in rules.player_counts:
            if fast.compile(rules, n).fallback_reason:
                continue
            played += 1
            for i in range(2):
                seed = match_seed(8, i)
                assert play_match(rules, n, seed, bots="random", max_deals=10, engine="fast") == play_match(
                    rules, n, seed, bots="random", max_deals=10, engine="generic"), (ref, n, i)
    assert played >= 140
