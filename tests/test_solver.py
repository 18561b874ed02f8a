"""The double-dummy solver (``bots/solver.py``) against brute force over the engine's own
game, and the determinized bot ``strong`` (``bots/strong.py``, ``bots/sampler.py``).

Brute force: plain minimax over :class:`Game` copies (``game.clone()``), every legal action of
the engine tried, the deal played to its end by the engine and the declarer side's card
points plus marriages (or tricks, for a kind scored by tricks) read from the finished deal."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from tysiac_spec import Game, load_ruleset
from tysiac_spec.bots import HeuristicBot, RandomBot, StrongBot, make_bot
from tysiac_spec.bots.sampler import Memory
from tysiac_spec.bots.solver import (
    _SOLVERS,
    Objective,
    Position,
    Solver,
    objective_of,
    played_form,
    solve_deal,
    unsupported,
)
from tysiac_spec.engine.actions import PlayCard
from tysiac_spec.engine.seating import side_of
from tysiac_spec.engine.state import DealState
from tysiac_spec.errors import LimitError

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "house"


def _side_value(game: Game, deal: DealState, objective: Objective) -> int:
    assert deal.declarer is not None
    side = side_of(game.form, deal.declarer)
    if objective.tricks:
        return sum(deal.tricks.get(p, 0) for p in side)
    return sum(sum(c.points for c in deal.won.get(p, [])) + deal.marriages.get(p, 0) for p in side)


def _brute(game: Game, side: tuple[int, ...], objective: Objective, base: int) -> int:
    deals = len(game.deal_scores)
    values = []
    for action in game.legal_actions():
        g = game.clone()
        g.apply(action)
        if len(g.deal_scores) != deals or g.is_over:
            assert g.last_deal is not None
            values.append(_side_value(g, g.last_deal, objective) - base)
        else:
            values.append(_brute(g, side, objective, base))
    maximise = (game.deal.current in side) != objective.fewest
    return max(values) if maximise else min(values)


def _ending(ruleset: str, players: int, seed: int, tricks: int, *, random_auction: bool = False) -> Game | None:
    """A game in the play of a deal with a declarer, ``tricks`` cards or fewer in the hand of
    the player to act (sometimes in the middle of a trick), reached by seeded bots."""
    rules = load_ruleset(str(HOUSE / f"{ruleset}.yaml") if (HOUSE / f"{ruleset}.yaml").exists() else ruleset)
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    bots = [RandomBot(seed + p) if random_auction else HeuristicBot(seed + p, game.form) for p in range(players)]
    while not game.is_over and len(game.deal_scores) < 6:
        d = game.deal
        if d.phase == "play" and d.declarer is not None:
            if len(d.hands[d.current]) <= tricks and rng.random() < 0.6:
                return game
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            continue
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    return None


def _check(ruleset: str, players: int, seeds: range, tricks: int, *, random_auction: bool = False) -> int:
    solved = 0
    for seed in seeds:
        game = _ending(ruleset, players, seed, tricks, random_auction=random_auction)
        if game is None:
            continue
        deal, form = game.deal, game.form
        if unsupported(played_form(form, deal), deal):
            continue
        assert deal.declarer is not None
        objective = objective_of(form, deal.kind)
        side = side_of(form, deal.declarer)
        base = _side_value(game, deal, objective)
        solution, values = solve_deal(form, deal, game.ruleset.deck.cards, every_move=True)
        expected = _brute(game, side, objective, base)
        assert solution.value == expected, (ruleset, players, seed, deal.text())
        # every legal play is valued, and the best one reaches the optimum
        legal = [a for a in game.legal_actions() if str(a) != "claim"]
        assert set(legal) <= set(values), (ruleset, seed)
        best = [values[a] for a in legal]
        assert (max(best) if (deal.current in side) != objective.fewest else min(best)) == expected
        # the optimum alone (null windows at the root after the first move), from a cold table:
        # the same value, and its move is one of the best
        _SOLVERS.clear()
        plain, _ = solve_deal(form, deal, game.ruleset.deck.cards)
        assert plain.value == expected, (ruleset, players, seed, deal.text())
        if isinstance(plain.move, tuple):
            i, marriage = plain.move
            assert values[PlayCard(game.ruleset.deck.cards[i], marriage)] == expected
        solved += 1
    return solved


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [("pl-standard", 3), ("ru-classic", 4), ("pl-standard", 2), ("ru-online", 2), ("cz-standard", 3),
     ("lead-trump-after-marriage", 3), ("first-marriage-double", 3), ("defenders-overtrump-declarer", 3),
     ("beat-with-highest", 3), ("partners-four", 4), ("last-trick-ten", 3)],
)
def test_solver_equals_brute_force_on_short_endings(ruleset: str, players: int) -> None:
    assert _check(ruleset, players, range(10), 2) >= 5


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), [("pl-standard", 3), ("ru-classic", 4), ("pl-standard", 2)])
def test_solver_equals_brute_force_on_endings_of_three_and_four_tricks(ruleset: str, players: int) -> None:
    assert _check(ruleset, players, range(100, 112), 3) >= 6
    assert _check(ruleset, players, range(200, 203), 4) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["misere", "slam"])
def test_solver_equals_brute_force_in_deals_of_a_named_kind(ruleset: str) -> None:
    solved = 0
    kinds = 0
    for seed in range(60):
        game = _ending(ruleset, 3, seed, 3, random_auction=True)
        if game is None or game.deal.kind is None:
            continue
        kinds += 1
        solved += _check(ruleset, 3, range(seed, seed + 1), 3, random_auction=True)
        if kinds >= 4:
            break
    assert solved >= 2


def test_objective_of_named_kinds() -> None:
    misere = load_ruleset(str(HOUSE / "misere.yaml")).form(3)
    slam = load_ruleset(str(HOUSE / "slam.yaml")).form(3)
    assert objective_of(misere, "misere") == Objective(tricks=True, fewest=True)
    assert objective_of(slam, "slam") == Objective(tricks=True, fewest=False)
    assert objective_of(slam, None) == Objective()


def test_solver_on_a_stated_ending() -> None:
    """No trump; declarer 0 holds AH 9S, player 1 TH KS, player 2 QS JS.  Leading AH: TH
    follows, player 2 throws JS (23), then 9S loses to KS.  Leading 9S: KS takes it with
    QS, then the ace takes TH and JS (23).  Either way 23 points."""
    rules = load_ruleset("pl-standard")
    pack = rules.deck.cards
    card = {str(c): c for c in pack}
    solver = Solver(rules.form(3), pack)
    hands = (card["AH"].bit | card["9S"].bit, card["TH"].bit | card["KS"].bit, card["QS"].bit | card["JS"].bit)
    pos = Position(hands=hands, order=(0, 1, 2), current=0, declarer=0, trick_number=6, won=1)
    solution = solver.solve(pos, every_move=True)
    assert solution.value == 23
    assert solution.moves == {(card["AH"].index, False): 23, (card["9S"].index, False): 23}
    # with 10 points set aside for the last trick's winner, leading 9S first wins them: the
    # ace takes the last trick (33); leading AH first gives the last trick away (23)
    with_last = solver.solve(replace(pos, set_aside_last=10), every_move=True)
    assert with_last.value == 33 and with_last.move == (card["9S"].index, False)
    assert with_last.moves[(card["AH"].index, False)] == 23
    # player 1 declarer, to lead: TH is taken by the ace (with QS smeared on it), KS takes
    # 9S and JS; leading KS first comes to the same 6
    pos1 = replace(pos, current=1, declarer=1)
    assert solver.solve(pos1, every_move=True).moves == {(card["TH"].index, False): 6, (card["KS"].index, False): 6}


def test_sampler_draws_worlds_consistent_with_the_view() -> None:
    rules = load_ruleset("pl-standard")
    game = Game(rules, players=3, seed=5)
    bots = [HeuristicBot(p, game.form) for p in range(3)]
    memory = Memory(game.form, rules.deck.cards)
    rng = random.Random(1)
    checked = 0
    while len(game.deal_scores) < 3 and not game.is_over:
        p = game.current_player
        view = game.view(p)
        if p == 0:
            memory.observe(view)
            if view.phase == "play":
                hands = memory.draw(view, rng)
                assert hands[0] == sum(c.bit for c in view.hand)
                for q, n in view.hand_sizes:
                    assert hands[q].bit_count() == n
                    truth = {c.suit_id for c in game.deal.hands[q]}
                    assert not memory.voids.get(q, set()) & truth  # a void shown is a true void
                seen = sum(c.bit for _, c in view.trick)
                assert all(not hands[q] & seen for q in hands)
                assert sum(bin(h).count("1") for h in hands.values()) == sum(n for _, n in view.hand_sizes)
                checked += 1
        game.apply(bots[p].choose(view, game.legal_actions()))
    assert checked >= 10


def test_strong_is_reproducible() -> None:
    rules = load_ruleset("pl-standard")

    def play(seed: int) -> list[str]:
        game = Game(rules, players=3, seed=seed)
        bots = [StrongBot(7, game.form, samples=3) if p == 0 else HeuristicBot(p, game.form) for p in range(3)]
        while len(game.deal_scores) < 2 and not game.is_over:
            p = game.current_player
            game.apply(bots[p].choose(game.view(p), game.legal_actions()))
        return game.history

    assert play(3) == play(3)


@pytest.mark.parametrize(("samples", "ms", "text"), [
    (0, None, "limit.bot_samples"), (1001, None, "limit.bot_samples"), (4, 0, "limit.bot_ms"),
    (4, 60_001, "limit.bot_ms"),
])
def test_strong_budget_over_the_limits_is_refused(samples: int, ms: int | None, text: str) -> None:
    form = load_ruleset("pl-standard").form(3)
    with pytest.raises(LimitError) as caught:
        StrongBot(1, form, samples=samples, ms=ms)
    assert caught.value.diagnostic.code == text
    if samples > 1000:
        assert "1,001 samples, more than the limit of 1,000" in str(caught.value)


SHIPPED = [("pl-standard", 2), ("pl-standard", 3), ("pl-standard", 4), ("ru-classic", 3), ("ru-classic", 4),
           ("ru-online", 2), ("ru-online", 3), ("ru-online", 4), ("cz-standard", 2), ("cz-standard", 3),
           ("ua-standard", 3), ("pl-online", 2), ("pl-online", 3), ("pl-tysiac-hd", 2), ("pl-tysiac-hd", 3),
           ("house-five-up", 3), ("house-ru-no-barrel", 3), ("house-ru-no-barrel", 4)]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), SHIPPED)
def test_strong_plays_every_shipped_form_legally(ruleset: str, players: int) -> None:
    rules = load_ruleset(ruleset)
    if players not in rules.player_counts:
        pytest.skip(f"{ruleset} has no {players}-player form")
    game = Game(rules, players=players, seed=11)
    bots = [make_bot("strong" if p % 2 == 0 else "heuristic", 20 + p, game.form) for p in range(players)]
    while len(game.deal_scores) < 3 and not game.is_over:
        p = game.current_player
        legal = game.legal_actions()
        action = bots[p].choose(game.view(p), legal)
        assert action in legal
        game.apply(action)
    assert len(game.deal_scores) >= 3 or game.is_over


# ---------------------------------------------------------------------------- the advisor


def test_advisor_refuses_a_bad_hand_in_deal_notation_terms() -> None:
    from tysiac_spec.bots.advisor import advise
    from tysiac_spec.errors import IllegalActionError, NotationError

    rules = load_ruleset("pl-standard")
    with pytest.raises(NotationError):
        advise(rules, 3, "AS TS KS QS AH TH XX")
    with pytest.raises(NotationError) as err:
        advise(rules, 3, "AS TS KS QS AH TH KH AH")
    assert str(err.value) == "error[notation.hand]: --hand: AH is written twice"
    with pytest.raises(NotationError) as err:
        advise(rules, 3, "AS TS KS QS AH TH")
    assert str(err.value) == "error[notation.hand]: --hand: a hand holds 7 cards at 3 players (got 6)"
    with pytest.raises(IllegalActionError, match="seat 9 does not play"):
        advise(rules, 3, "AS TS KS QS AH TH KH", seat=9)
    with pytest.raises(LimitError, match="5,000 samples, more than the limit of 1,000"):
        advise(rules, 3, "AS TS KS QS AH TH KH", samples=5000)


def test_advisor_on_a_strong_hand() -> None:
    """Two aces, two tens and the spade marriage: 100 is made in every
    sampled deal, scored +100 (the contract) by the engine's settlement."""
    from tysiac_spec.bots.advisor import advise, wilson

    advice = advise(load_ruleset("pl-standard"), 3, "AS TS KS QS AH TH KH", samples=4)
    first = advice.levels[0]
    assert (first.bid, first.made, first.deals, first.expected) == (100, 4, 4, 100.0)
    assert (first.low, first.high) == wilson(4, 4)
    assert advice.recommended is not None and advice.recommended >= 100
    assert advice.as_json()["levels"][0]["interval"] == [round(first.low, 3), 1.0]  # type: ignore[index]


def test_advisor_on_a_golden_deal_without_an_auction() -> None:
    """ru-online's first deals are golden: no auction, the first hand plays 120.  The advice
    is on the contract (played, not bid), and refused for a seat that does not play it."""
    from click.testing import CliRunner

    from tysiac_spec.bots.advisor import advise
    from tysiac_spec.commands.advise import advise_cmd
    from tysiac_spec.errors import IllegalActionError

    rules = load_ruleset("ru-online")
    advice = advise(rules, 3, "AS TS KS QS AH TH KH", samples=2)
    assert (advice.auction, advice.mode, advice.seat, advice.recommended) == (False, "golden", 1, 120)
    assert [x.bid for x in advice.levels] == [120]
    assert advice.as_json()["auction"] is False
    with pytest.raises(IllegalActionError) as err:
        advise(rules, 3, "AS TS KS QS AH TH KH", seat=2, samples=2)
    assert str(err.value).splitlines()[0] == (
        "error[advise.seat]: the deal has no auction (a golden deal): seat 1 plays the contract 120, "
        "so seat 2 has no bid to make")
    out = CliRunner().invoke(advise_cmd, ["ru-online", "-p", "3", "--hand", "AS TS KS QS AH TH KH", "--samples", "2"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[1] == "the deal has no auction (a golden deal): seat 1 plays the contract"
    assert lines[-1] == "recommended: play the contract 120"
    assert "bid 120" not in out.output


def test_advise_command_prints_json(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from tysiac_spec.commands.advise import advise_cmd

    result = CliRunner().invoke(advise_cmd, ["pl-standard", "-p", "3", "--hand", "AS TS KS QS AH TH KH",
                                             "--samples", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["levels"][0]["bid"] == 100 and data["deals"] == 2
    bad = CliRunner().invoke(advise_cmd, ["pl-standard", "-p", "3", "--hand", "AS AS"])
    assert bad.exit_code == 1


def test_view_shows_the_last_finished_trick() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=2)
    bots = [HeuristicBot(p, game.form) for p in range(3)]
    while game.deal.phase != "play":
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    assert game.view(0).last_trick == ()
    played = []
    for _ in range(3):
        p = game.current_player
        action = game.legal_actions()[0]
        played.append((p, action.card))  # type: ignore[attr-defined]
        game.apply(action)
    assert all(game.view(q).last_trick == tuple(played) for q in range(3))
    assert game.view(0).trick == ()


def test_play_hint_names_a_legal_action(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    result = CliRunner().invoke(main, ["play", "pl-standard", "--seed", "1", "--save", str(tmp_path / "g.json")],
                                input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    [line] = [ln for ln in result.output.splitlines() if ln.startswith("hint: ")]
    assert line.endswith("(the strong bot's choice)")
    assert line.split(": ", 1)[1].split(" (")[0].split(" ")[0] in ("bid", "pass", "play", "talon")


@pytest.mark.slow
def test_compiled_solver_equals_the_pure_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m tysiac_spec.bots.solver_build`` compiles the solver with mypyc (needs the
    ``[fast]`` extra and a C compiler); the compiled ``Solver`` gives the pure one's values and
    moves on many positions of several forms, from endings to whole deals."""
    pytest.importorskip("mypyc")
    from tysiac_spec.bots import solver_build
    from tysiac_spec.bots.solver import position_of

    monkeypatch.setenv("TYSIAC_FAST_CACHE", str(tmp_path))
    line = solver_build.build()
    assert line.endswith(" built"), line
    module = solver_build.compiled_module()
    assert module is not None
    compared = 0
    for ruleset, players in (("pl-standard", 3), ("ru-classic", 4), ("pl-standard", 2), ("cz-standard", 3),
                             ("lead-trump-after-marriage", 3), ("defenders-overtrump-declarer", 3)):
        for seed in range(12):
            game = _ending(ruleset, players, seed, 3 + seed % 6)
            if game is None or unsupported(played_form(game.form, game.deal), game.deal):
                continue
            form, deal, pack = played_form(game.form, game.deal), game.deal, game.ruleset.deck.cards
            objective = objective_of(game.form, deal.kind)
            pos = position_of(form, deal)
            for every in (True, False):
                pure = Solver(form, pack, objective).solve(pos, every_move=every)
                fast = module.Solver(form, pack, objective).solve(pos, every_move=every)
                assert (fast.value, fast.move, fast.moves, fast.nodes) == (
                    pure.value, pure.move, pure.moves, pure.nodes), (ruleset, players, seed, every)
            compared += 1
    assert compared >= 40
