"""The single-agent Gymnasium environment (tysiac_spec/adapters/gym.py, the `[gymnasium]`
extra): Gymnasium's check_env on a few forms, the mask against the engine's legal actions, a
deal's rewards against the engine's deal score, seeding, the registered ids, the bots of
the other seats, illegal actions and the render modes."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.ruleset.registry import entries

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from tysiac_spec.adapters import gym as tgym  # noqa: E402
from tysiac_spec.adapters._core import AdapterError  # noqa: E402
from tysiac_spec.bots import BotActionError, BotError, HeuristicBot  # noqa: E402
from tysiac_spec.engine.state import PHASES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FORMS = [(e.id, n) for e in entries() if e.kind != "base" for n in load_ruleset(e.id).player_counts]


def _play(env: tgym.TysiacGymEnv, rng: random.Random, check: bool = False) -> tuple[float, int]:
    """Play the learner at random among the legal actions until the episode ends; the sum of
    the rewards and the steps.  With ``check``, every mask is compared with the engine's
    legal actions."""
    total, steps, done = 0.0, 0, False
    while not done:
        mask = env.action_masks()
        if check:
            game = env.game
            assert game.current_player == env.seat
            legal = {str(a) for a in game.legal_actions()}
            assert {str(env.index.actions[i]) for i in np.flatnonzero(mask)} == legal
        action = rng.choice(np.flatnonzero(mask).tolist())
        _, reward, terminated, truncated, info = env.step(action)
        assert info["action_mask"].dtype == np.int8
        total += float(reward)
        steps += 1
        done = terminated or truncated
    return total, steps


def test_registered_ids_are_every_shipped_form() -> None:
    # read from the files' players: keys (ua-standard deletes the 4-player form of ru-classic;
    # the house rules inherit theirs), equal to the loaded rulesets' player counts
    ids = [spec for spec in gymnasium.registry if spec.startswith("tysiac/")]
    assert sorted(ids) == sorted(f"tysiac/{r}-{n}p-v0" for r, n in FORMS)
    assert len(ids) == 21 and "tysiac/ua-standard-3p-v0" in ids and "tysiac/ua-standard-4p-v0" not in ids
    env = gymnasium.make("tysiac/ru-classic-4p-v0", bots="heuristic", seat=2)
    assert env.unwrapped.players == 4 and env.unwrapped.seat == 2 and env.unwrapped.rules.id == "ru-classic"


@pytest.mark.parametrize(("ruleset", "players", "kwargs"), [
    ("pl-standard", 3, {}),
    ("ru-classic", 4, {"bots": "heuristic", "seat": 1}),
    ("cz-standard", 2, {"episode": "match", "max_steps": 40}),
    ("ua-standard", 3, {"render_mode": "ansi"}),
])
def test_check_env_passes(ruleset: str, players: int, kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a failed check is an error; its advice is silenced below
        warnings.filterwarnings("ignore", message=".*(infinity|render fps).*")
        # made through gymnasium.make (its spec lets check_env try every render mode)
        check_env(gymnasium.make(f"tysiac/{ruleset}-{players}p-v0", **kwargs).unwrapped)


def test_check_env_on_a_house_example() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(tgym.TysiacGymEnv(str(ROOT / "examples" / "house" / "misere.yaml"), 3, bots="heuristic"))


@pytest.mark.parametrize(("ruleset", "players"), [("pl-standard", 3), ("ru-classic", 4), ("pl-online", 2)])
def test_mask_is_the_engines_legal_actions_and_rewards_add_up_to_the_deal_score(ruleset: str, players: int) -> None:
    env = tgym.TysiacGymEnv(ruleset, players, seat=1, bots="heuristic")
    rng = random.Random(4)
    settled = 0
    for seed in range(6):
        env.reset(seed=seed)
        total, _ = _play(env, rng, check=True)
        game = env.game
        if game.deal_scores:  # settled (not abandoned for a redeal)
            settled += 1
            assert total == game.deal_scores[0][1] == game.scores[1]
        else:
            assert total == game.scores[1]  # a redeal's charges, if any
        assert not env.action_masks().any()
    assert settled >= 4


def test_one_deal_by_hand_pl_standard() -> None:
    # seed 0, the learner in seat 0 always passes when it may: its reward is its deal score
    env = tgym.TysiacGymEnv("pl-standard", 3, bots="heuristic")
    obs, info = env.reset(seed=0)
    parts = env.layout.views(obs)
    assert parts["to_act"].tolist() == [1, 0, 0] and parts["phase"].tolist().index(1) == PHASES.index("auction")
    assert info["action_mask"][0] == 1  # pass
    rewards = []
    done = False
    while not done:
        mask = env.action_masks()
        action = 0 if mask[0] else int(np.flatnonzero(mask)[0])
        _, reward, done, _, _ = env.step(action)
        rewards.append(reward)
    game = env.game
    assert sum(rewards) == game.deal_scores[0][0]
    assert all(r == 0 for r in rewards[:-1])  # scored once, when the deal is settled


def test_match_episode_rewards_add_up_to_the_match_scores() -> None:
    env = tgym.TysiacGymEnv("pl-standard", 3, bots="random", episode="match", max_steps=60)
    env.reset(seed=2)
    total, steps = _play(env, random.Random(2))
    assert total == env.game.scores[0] and steps <= 60
    assert len(env.game.deal_scores) >= 2


def test_seeding_reproduces_the_episode() -> None:
    def run(seed: int) -> tuple[list[Any], list[float]]:
        env = tgym.TysiacGymEnv("ru-online", 3, bots="random,heuristic", options={"golden_round": False})
        obs, _ = env.reset(seed=seed)
        seen, rewards, rng, done = [obs], [], random.Random(0), False
        while not done:
            obs, reward, done, cut, _ = env.step(rng.choice(np.flatnonzero(env.action_masks()).tolist()))
            seen.append(obs)
            rewards.append(float(reward))
            done = done or cut
        return seen, rewards

    a, b, c = run(7), run(7), run(8)
    assert len(a[0]) == len(b[0]) and all((x == y).all() for x, y in zip(a[0], b[0], strict=True))
    assert a[1] == b[1]
    assert len(a[0]) != len(c[0]) or any((x != y).any() for x, y in zip(a[0], c[0], strict=True))


def test_the_learner_never_acting_in_a_deal_is_skipped() -> None:
    # ru-classic with 4 players: the dealer sits out; every reset gives the learner a turn
    env = tgym.TysiacGymEnv("ru-classic", 4, seat=3)
    seeds = set()
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        assert env.game.current_player == 3 and info["action_mask"].any()
        assert env.layout.views(obs)["to_act"].tolist() == [1, 0, 0, 0]
        seeds.add(info["game_seed"])
    assert len(seeds) == 8


class _FirstLegal:
    """A bot object (the Bot protocol): the first legal action; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: object, legal: list[Any]) -> Any:
        self.calls += 1
        return legal[0]


class _Cheat:
    def choose(self, view: object, legal: list[Any]) -> Any:
        return "bid 999"


def test_bots_by_name_and_object() -> None:
    mine = _FirstLegal()
    env = tgym.TysiacGymEnv("pl-standard", 3, bots=[mine, "heuristic"])
    env.reset(seed=1)
    _play(env, random.Random(1))
    assert mine.calls > 0
    assert isinstance(env._bots[2], HeuristicBot) and env._bots[1] is mine
    with pytest.raises(AdapterError) as err:
        tgym.TysiacGymEnv("pl-standard", 3, bots="random,random,random")
    assert err.value.diagnostic.message == "bots: 3 given for the 2 other seats (give one, or one per other seat)"
    with pytest.raises(BotError, match="no-such-bot"):
        tgym.TysiacGymEnv("pl-standard", 3, bots="no-such-bot")
    cheated = tgym.TysiacGymEnv("pl-standard", 3, bots=_Cheat())
    with pytest.raises(BotActionError) as bad:
        cheated.reset(seed=0)
        cheated.step(int(np.flatnonzero(cheated.action_masks())[0]))
    assert "returned 'bid 999' (a str)" in str(bad.value)


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = tgym.TysiacGymEnv("pl-standard", 3)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    with pytest.raises(AdapterError, match="call reset"):
        env.step(0)
    strict = tgym.TysiacGymEnv("pl-standard", 3, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(AdapterError, match="is not legal now"):
        strict.step(illegal)


def test_bad_arguments_are_clear_errors() -> None:
    cases = [({"seat": 3}, "adapter.seat", "seat must be 0 to 2 (got 3)"),
             ({"render_mode": "human"}, "adapter.render-mode",
              "render_mode must be one of ansi, ansi_omniscient (got 'human')"),
             ({"illegal": "ignore"}, "adapter.illegal-mode", "illegal must be one of terminate, raise (got 'ignore')"),
             ({"episode": "season"}, "adapter.episode", "episode must be one of deal, match (got 'season')")]
    for kwargs, code, message in cases:
        with pytest.raises(AdapterError) as err:
            tgym.TysiacGymEnv("pl-standard", 3, **kwargs)
        assert (err.value.diagnostic.code, err.value.diagnostic.message) == (code, message)


def test_render_modes() -> None:
    env = tgym.TysiacGymEnv("pl-standard", 3, seat=2, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert text is not None
    lines = text.splitlines()
    hand = " ".join(str(c) for c in env.game.view(2).hand)
    assert lines[0] == "P2's view" and lines[1].startswith("scores: P0 0  P1 0  P2 (you) 0")
    assert any(line.startswith("your hand: ") for line in lines)
    assert all(str(c) in text for c in env.game.view(2).hand) and hand
    others = [c for p in (0, 1) for c in env.game.deal.hands[p]]
    assert not any(f" {c}" in lines[-1] for c in others)  # the others' hands stay hidden
    _play(env, random.Random(5))  # to the end of the deal: each seat's return and the scores
    r = env.game.deal_scores[0]
    assert env.render() == (f"P2's view\nthe episode is over: P0 {r[0]:+d}  P1 {r[1]:+d}  P2 {r[2]:+d}\n"
                            f"scores: P0 {r[0]}  P1 {r[1]}  P2 {r[2]}")
    full = tgym.TysiacGymEnv("pl-standard", 3, seat=2, render_mode="ansi_omniscient")
    full.reset(seed=5)
    assert full.render() == full.game.state_text()
    assert tgym.TysiacGymEnv("pl-standard", 3).render() is None


def test_readme_gym_example_runs() -> None:
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (code,) = [b for b in re.findall(r"```py\n(.*?)```", readme, flags=re.S) if "gymnasium.make" in b]
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    game = namespace["learner"].unwrapped.game
    assert namespace["score"] == game.deal_scores[0][0] and namespace["done"]


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_the_gym_adapter_needs_neither_pettingzoo_nor_openspiel() -> None:
    # the [gymnasium] extra alone: importing the module loads no other framework
    import subprocess
    import sys

    code = ("import sys, tysiac_spec.adapters.gym; "
            "print(sorted(m for m in ('pettingzoo', 'pyspiel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def _example() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("masked_reinforce", ROOT / "examples/rl/masked_reinforce.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_example_runs_briefly(capsys: pytest.CaptureFixture[str]) -> None:
    # the example trains for minutes (not run here); a few deals check that it works: the
    # evaluation's interval brackets the mean difference of the paired deals
    example = _example()
    env = gymnasium.make("tysiac/pl-standard-3p-v0")
    policy = example.train(env, 20, seed=0)
    assert policy.w.shape == (env.action_space.n, env.observation_space.shape[0]) and policy.w.any()
    result = example.evaluate(env, policy, 10, seed=1)
    assert result["low"] < result["difference"] < result["high"]
    assert result["difference"] == pytest.approx(result["trained"] - result["random"])
    with pytest.raises(SystemExit) as done:
        example.main(["--ruleset", "no-such-ruleset"])
    assert done.value.code == 2 and "no-such-ruleset" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), FORMS)
def test_check_env_and_masks_on_every_shipped_form(ruleset: str, players: int) -> None:
    env = gymnasium.make(f"tysiac/{ruleset}-{players}p-v0", bots="heuristic", seat=players - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    rng = random.Random(players)
    for seed in range(3):
        env.reset(seed=seed)
        total, _ = _play(env.unwrapped, rng, check=True)
        assert total == env.unwrapped.game.scores[players - 1]
