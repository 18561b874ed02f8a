"""The deal's opening and the redeal flow, each stated once in the engine
(``auction.opening_of``, ``dark_declared``, ``dark_allowed``, ``dark_cancellers``;
``dealing.redeal_decided``, ``redeals_capped``): ``Game`` calls them and the fast path calls
or inlines them (``fast.generate.INLINED``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tysiac_spec.engine import dealing
from tysiac_spec.engine.auction import (
    MODE_DARK,
    MODE_GOLDEN,
    MODE_NORMAL,
    MODES,
    dark_allowed,
    dark_cancellers,
    dark_declared,
    opening_of,
)
from tysiac_spec.fast import generate as gen


def test_the_opening_golden_then_barrel_then_the_auction() -> None:
    #                golden dark_ok contract mult taker goal dark first
    assert opening_of(True, False, 120, 2, 1, 121, True, 2) == (MODE_GOLDEN, 2, 120, 2, False, False)
    assert opening_of(True, True, 120, 2, 1, 121, True, 2) == (MODE_GOLDEN, 2, 120, 2, False, True)
    # no golden deal: the player on the barrel takes it at the goal, no dark game offered
    assert opening_of(False, True, 120, 2, 1, 121, True, 2) == (MODE_NORMAL, 1, 121, 1, True, False)
    # nobody on the barrel: the auction, the dark game offered first when the form has it
    assert opening_of(False, True, 120, 2, -1, 121, True, 2) == (MODE_NORMAL, -1, 0, 1, False, True)
    assert opening_of(False, True, 120, 2, -1, 121, False, 2) == (MODE_NORMAL, -1, 0, 1, False, False)
    assert MODES[MODE_GOLDEN] == "golden" and MODES[MODE_DARK] == "dark"


def test_a_dark_game_declared() -> None:
    #                    mode decl contract mult dark_player contract mult
    assert dark_declared(MODE_NORMAL, -1, 0, 1, 3, 120, 2) == (MODE_DARK, 3, 120, 2)
    # in a golden deal the golden declarer and contract stay, the multipliers multiply
    assert dark_declared(MODE_GOLDEN, 1, 120, 2, 1, 100, 3) == (MODE_GOLDEN, 1, 120, 6)


def test_who_may_declare_and_who_may_cancel_the_dark_game() -> None:
    assert dark_allowed(-10, True) is False
    assert dark_allowed(-10, False) is True
    assert dark_allowed(0, True) is True
    # players 0..3, dark player 2; players 0 and 3 hold a marriage: asked in turn from 2
    assert dark_cancellers([1, 2, 3, 0], 2, False, True, 0b1001) == [3, 0]
    assert dark_cancellers([1, 2, 3, 0], 2, False, True, 0b1101) == [3, 0]  # (not the dark player)
    assert dark_cancellers([1, 2, 3, 0], 2, True, True, 0b1001) == []  # a golden deal
    assert dark_cancellers([1, 2, 3, 0], 2, False, False, 0b1001) == []


def _form(*effects: str) -> Any:
    return SimpleNamespace(deal=SimpleNamespace(redeals=[SimpleNamespace(effect=e) for e in effects]))


def test_a_mandatory_condition_redeals_or_plays_on() -> None:
    form = _form("redeal", "play_on")
    called: list[tuple[int, int]] = []

    def never(player: int, index: int) -> bool | None:
        raise AssertionError("nobody is asked after a mandatory condition")

    def charge(player: int, index: int) -> None:
        called.append((player, index))

    assert dealing.redeal_decided(form, (2, 0), [(1, 1)], never, charge) == (dealing.REDEAL_DEALT, 2, 0)
    assert called == []
    assert dealing.redeal_decided(form, (2, 1), [], never, charge) == (dealing.REDEAL_PLAY, None, -1)
    assert called == [(2, 1)]


def test_the_offers_are_asked_in_turn() -> None:
    form = _form("redeal", "play_on")
    called: list[tuple[int, int]] = []
    asked: list[int] = []

    def answers(*said: bool | None) -> Any:
        left = list(said)

        def ask(player: int, index: int) -> bool | None:
            asked.append(player)
            return left.pop(0)
        return ask

    def charge(player: int, index: int) -> None:
        called.append((player, index))

    # player 0 calls the play_on condition (charged, the next asked), player 1 calls a redeal
    offers = [(0, 1), (1, 0), (2, 0)]
    assert dealing.redeal_decided(form, None, offers, answers(True, True), charge) == (dealing.REDEAL_DEALT, 1, 0)
    assert (asked, called, offers) == ([0, 1], [(0, 1)], [(2, 0)])
    # everyone passes: play on
    asked.clear()
    offers = [(0, 0), (1, 0)]
    assert dealing.redeal_decided(form, None, offers, answers(False, False), charge) == (dealing.REDEAL_PLAY, None, -1)
    assert (asked, offers) == ([0, 1], [])
    # the game waits for the second answer: the offer stays first
    offers = [(0, 0), (1, 0)]
    assert dealing.redeal_decided(form, None, offers, answers(False, None), charge) == (dealing.REDEAL_ASK, 1, 0)
    assert offers == [(1, 0)]


def test_the_cap_on_redeals_in_a_row() -> None:
    assert not dealing.redeals_capped(dealing.MAX_REDEALS - 1)
    assert dealing.redeals_capped(dealing.MAX_REDEALS)


def test_the_fast_path_inlines_the_opening() -> None:
    for name in ("I_opening_of", "I_dark_declared", "I_dark_allowed", "I_dark_cancellers"):
        assert name in gen.INLINED
    assert "opening_of(" not in gen.template_source().replace("I_opening_of(", "")
