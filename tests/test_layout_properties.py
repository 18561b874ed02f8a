"""Random house rules never stall a game: a house rule over a shipped ruleset, with its deal
layout (hand size, talons), talon and exchange, auction and dealing fields drawn at random
within the schema, either fails validation with clear diagnostics, or random play of its
match never reaches a position without a legal action before the match ends.

The layouts are drawn so that most use the whole pack (the card-count check is not what is
tested here); the exchange is drawn independently, so many layouts come out uneven and must
be refused by the semantic check ``table.exchange`` (ruleset/validate.py).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysiac_spec import RulesetError, load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.engine import Game
from tysiac_spec.ruleset.registry import entries

SHIPPED = sorted(e.id for e in entries() if e.kind == "variant")

MAX_ACTIONS = 400
"""Actions played per drawn house rule (a few deals; a whole match of random bots may take
hundreds of deals)."""


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value, or ``...``: the field is not written (the parent's value stands)."""
    return st.one_of(st.just(...), strategy)


def _written(draw: st.DrawFn, fields: dict[str, st.SearchStrategy[Any]]) -> dict[str, Any]:
    """The fields drawn as written (``...``: left out)."""
    drawn = {k: draw(v) for k, v in fields.items()}
    return {k: v for k, v in drawn.items() if v is not ...}


@st.composite
def house_rules(draw: st.DrawFn) -> tuple[str, int]:
    """``(YAML text of a house rule, player count)``."""
    parent = draw(st.sampled_from(SHIPPED))
    rules = load_ruleset(parent)
    n = draw(st.sampled_from(rules.player_counts))
    active = rules.form(n).table.active or n
    size = len(rules.deck.cards)
    # the talons' total leaves a whole number of cards per hand (at least one)
    totals = [t for t in range(0, 9) if (size - t) % active == 0 and size - t >= active]
    total = draw(st.sampled_from(totals))
    cut = sorted(draw(st.lists(st.integers(1, max(1, total - 1)), max_size=2, unique=True)))
    talons = [b - a for a, b in zip([0, *cut], [*cut, total], strict=True) if b > a] if total else []
    entry: dict[str, Any] = {"hand_size": (size - total) // active, "talons": talons}
    talon = _written(draw, {
        "take": _maybe(st.sampled_from(["all", "choose_one"])),
        "exchange": _maybe(st.sampled_from(["give_each", "discard", "none"])),
        "give_count": _maybe(st.integers(0, 3)),
        "discard_count": _maybe(st.integers(0, 4)),
        "give_face_up": _maybe(st.booleans()),
        "give_order": _maybe(st.sampled_from(["declarer_choice", "clockwise"])),
    })
    step = draw(st.sampled_from([5, 10]))
    auction = _written(draw, {
        "forced_seat": _maybe(st.sampled_from([None, *range(n)])),
        "forced_bid": _maybe(st.sampled_from([step * k for k in (0, 10, 12)])),
        "first_to_speak": _maybe(st.sampled_from(["forced", "after_forced"])),
        "forced_opening": _maybe(st.sampled_from(["exact", "at_least"])),
        "min_bid": _maybe(st.sampled_from([step * k for k in (0, 10, 12)])),
        "raise_by": _maybe(st.sampled_from(["any", "exactly_step"])),
        "pass_is_final": _maybe(st.booleans()),
        "reentries": _maybe(st.integers(0, 2)),
        "all_pass": _maybe(st.sampled_from(["forced_plays", "redeal", "dealer_plays"])),
    })
    auction["step"] = step
    deal = _written(draw, {
        "packet": _maybe(st.integers(1, 4)),
        "talon_not_first": _maybe(st.integers(0, 3)),
        "talon_not_last": _maybe(st.integers(0, 3)),
        "talon_not_consecutive": _maybe(st.booleans()),
    })
    for name, section in (("talon", talon), ("auction", auction), ("deal", deal)):
        if section:
            entry[name] = section
    doc = {
        "id": "random-house",
        "kind": "house",
        "extends": parent,
        "name": {"en": "Random house rule"},
        "players": {str(n): entry},
    }
    return yaml.safe_dump(doc, sort_keys=False), n


@pytest.mark.slow
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=house_rules(), seed=st.integers(0, 2**16))
def test_a_valid_house_rule_never_stalls(case: tuple[str, int], seed: int) -> None:
    text, players = case
    try:
        rules = load_ruleset("random-house.yaml", text=text)
    except RulesetError as exc:
        for diagnostic in exc.diagnostics:  # a clear error: a code, a place, a message
            assert diagnostic.code and diagnostic.message and diagnostic.line is not None, text
        return
    game, bot = Game(rules, players=players, seed=seed), RandomBot(seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        legal = game.legal_actions()
        assert legal, f"no legal action in phase {game.phase}:\n{text}\n{game.state_text()}"
        game.apply(bot.choose(game.view(game.current_player), legal))


def test_the_stalling_layouts_of_the_issue_are_refused() -> None:
    # no talon with the give-one-card exchange inherited from pl-standard (3 players)
    no_talon = (
        "id: h\nkind: house\nextends: pl-standard\nname: {en: H}\n"
        "players:\n  3:\n    hand_size: 8\n    talons: []\n"
    )
    # two 2-card talons, both taken, and one card given to the one opponent (2 players)
    both_talons = (
        "id: h\nkind: house\nextends: pl-standard\nname: {en: H}\n"
        "players:\n  2:\n    talon: {take: all, exchange: give_each}\n"
    )
    for text, words in (
        (no_talon, "for 3 players the hands do not come out even: the declarer takes 0 card(s) "
                   "(talons: none) and gives 1 card(s) to each of 2 opponent(s), ending with 6 "
                   "cards against the opponents' 9; play would stall"),
        (both_talons, "for 2 players the hands do not come out even: the declarer takes 4 "
                      "card(s) (talons: 2 + 2) and gives 1 card(s) to each of 1 opponent(s), "
                      "ending with 13 cards against the opponents' 11; play would stall"),
    ):
        with pytest.raises(RulesetError) as info:
            load_ruleset("h.yaml", text=text)
        assert [(d.code, d.message) for d in info.value.diagnostics] == [("table.exchange", words)]
