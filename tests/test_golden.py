"""Golden playthroughs: one seeded transcript per shipped ruleset and player count.

Each file tests/golden/<ruleset>-<players>p.txt is the transcript of a game with seed 1
in which one random bot (seed 1) chooses every action, up to two scored deals (or the end
of the match).  Any change of the engine's behaviour, of a shipped ruleset or of the
transcript format shows up here as a diff.  After an intended change, regenerate all of
them with::

    UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_golden.py

and review the diff (``git diff tests/golden``).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.engine.game import Game
from tysiac_spec.ruleset import registry
from tysiac_spec.transcript import transcript

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SEED = 1
DEALS = 2


def _forms() -> list[tuple[str, int]]:
    return [(e.id, n) for e in registry.entries() for n in load_ruleset(e.id).player_counts]


FORMS = _forms()


def golden_text(ruleset: str, players: int) -> str:
    """The transcript of the golden game of ``ruleset`` with ``players`` players."""
    game = Game(load_ruleset(ruleset), players=players, seed=SEED)
    bot = RandomBot(SEED)
    while not game.is_over and len(game.deal_scores) < DEALS:
        game.apply(bot.choose(game.view(game.current_player), game.legal_actions()))
    return transcript(game)


@pytest.mark.parametrize(("ruleset", "players"), FORMS, ids=[f"{r}-{n}p" for r, n in FORMS])
def test_golden_playthrough(ruleset: str, players: int) -> None:
    path = GOLDEN / f"{ruleset}-{players}p.txt"
    actual = golden_text(ruleset, players)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.is_file(), f"{path.name} is missing; run UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                fromfile=f"golden/{path.name}", tofile="now",
            )
        )
        pytest.fail(f"the playthrough differs from {path.name} "
                    f"(UPDATE_GOLDEN=1 regenerates it after an intended change):\n{diff}")


def test_no_stale_golden_files() -> None:
    wanted = {f"{r}-{n}p.txt" for r, n in FORMS}
    stale = sorted(p.name for p in GOLDEN.glob("*.txt") if p.name not in wanted)
    if UPDATE:
        for name in stale:
            (GOLDEN / name).unlink()
        return
    assert stale == [], "golden files of no shipped ruleset form; UPDATE_GOLDEN=1 removes them"
