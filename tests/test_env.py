"""The formula environments (``engine/env.py``) against the contexts (``dsl/contexts.py``):
each context has a builder, each builder gives exactly the context's names with values of
the declared types (inputs from a real seeded game), and each context is used."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tysiac_spec import Game, load_ruleset
from tysiac_spec.cards import Card
from tysiac_spec.dsl import contexts as ctx
from tysiac_spec.dsl.types import (
    BOOL,
    INT,
    BoolType,
    CardsType,
    ChoiceType,
    IntType,
    RecordType,
    SuitType,
    Type,
)
from tysiac_spec.engine import env as envs
from tysiac_spec.engine import scoring
from tysiac_spec.ruleset import model


def _game() -> Game:
    """pl-standard, three players, seeded, a few actions into the first deal."""
    game = Game(load_ruleset("pl-standard"), players=3, seed=7)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    return game


GAME = _game()
RULESET = GAME.ruleset
FORM = GAME.form
OPTION_TYPES: dict[str, Type] = {
    name: BOOL if o.type == "bool" else INT if o.type == "int" else ChoiceType(tuple(o.choices))
    for name, o in RULESET.options.items()
}
EXTENSION = ctx.ContextExtension(
    options=OPTION_TYPES, counters={c.id: INT for c in FORM.match.counters}
)


def _inputs() -> dict[str, Callable[[], Mapping[str, Any]]]:
    deal = GAME.deal
    p = deal.order[0]
    base = envs.base(GAME.match.player_record(p), FORM.active, RULESET.selected)
    record, players, options = base["player"], base["players"], base["options"]
    hand = tuple(deal.hands[p])
    talon = tuple(deal.dealt_talon)
    outcome = scoring.DealOutcome(
        declarer=p, bid=110, contract=110, card_points={p: 60}, marriages={p: 20},
        won={p: hand}, last_trick=p, declarations=((p, "hearts"),), players=tuple(deal.order),
        tricks={p: 3}, dealer=deal.dealer,
    )
    every = frozenset(ctx.DEAL_FACTS)
    facts = scoring.deal_facts(FORM, outcome, p, tuple(deal.order), every - {"declarer_points", "seat"})
    defender_facts = scoring.deal_facts(FORM, outcome, deal.order[1], tuple(deal.order), every)
    scored = (record, players, options, 60, 20, 3, 110)
    return {
        "auction.max_bid": lambda: envs.auction_max_bid(base, hand),
        "auction.may_bid": lambda: envs.auction_may_bid(base, hand, 110, deal.high_bid, p == deal.forced),
        "contract.max": lambda: envs.contract_max(base, hand, 110),
        "contract.allowed": lambda: envs.contract_allowed(base, hand, 110, 120),
        "deal.redeal": lambda: envs.deal_redeal(base, hand, talon, 100, 0),
        "deal.incident": lambda: envs.deal_incident(base, hand, 110, 0, True),
        "scoring.made": lambda: envs.scoring_made(players, options, 60, 20, 3, 110, facts),
        "scoring.declarer": lambda: envs.scoring_declarer(*scored, False, facts),
        "scoring.defender": lambda: envs.scoring_defender(*scored, False, defender_facts),
        "scoring.sitter": lambda: envs.scoring_sitter(record, players, options, talon),
        "scoring.all_pass": lambda: envs.scoring_all_pass(record, players, options, 35, 2, 4, 1, hand, True),
        "talon.rebuy": lambda: envs.talon_rebuy(base, 110, talon),
        "forfeit.declarer": lambda: envs.forfeit_declarer(record, players, options, 110, 110, 1),
        "forfeit.defender": lambda: envs.forfeit_defender(record, players, options, 110, 110, 1, 2),
        "marriage.value": lambda: envs.marriage_value(80, True, False, True, 1, players, "hearts", "spades"),
        "match.rule": lambda: envs.match_rule(
            record, players, options, delta=-110, declarer=True, made=False, contract=110,
            tricks=3, forfeited=False, target=FORM.match.target,
        ),
    }


INPUTS = _inputs()


def _problems(value: Any, typ: Type, where: str) -> list[str]:
    """Why ``value`` is not a run-time value of ``typ`` (nothing when it is)."""
    if isinstance(typ, IntType):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(typ, BoolType):
        ok = isinstance(value, bool)
    elif isinstance(typ, CardsType):
        ok = isinstance(value, tuple) and all(isinstance(c, Card) for c in value)
    elif isinstance(typ, ChoiceType):
        ok = isinstance(value, str) and value in typ.values
    elif isinstance(typ, SuitType):  # a suit id, or "" for none (`trump` with no trump)
        ok = isinstance(value, str) and value in {*RULESET.form(3).marriages.values, ""}
    elif isinstance(typ, RecordType):
        if not isinstance(value, Mapping):
            return [f"{where}: {value!r} is not a record"]
        declared = {f.name for f in typ.fields}
        if set(value) != declared:
            return [f"{where}: fields {sorted(value)}, declared {sorted(declared)}"]
        return [p for f in typ.fields for p in _problems(value[f.name], f.type, f"{where}.{f.name}")]
    else:  # pragma: no cover - a type no context uses yet
        return [f"{where}: no check for {typ.describe()}"]
    return [] if ok else [f"{where}: {value!r} is not {typ.describe()}"]


def test_every_context_has_a_builder() -> None:
    assert set(envs.BUILDERS) == set(ctx.CONTEXTS)
    assert set(INPUTS) == set(ctx.CONTEXTS)


@pytest.mark.parametrize("context_id", sorted(ctx.CONTEXTS))
def test_builder_gives_the_declared_names_and_types(context_id: str) -> None:
    context = ctx.CONTEXTS[context_id].extend(EXTENSION)
    built = INPUTS[context_id]()
    assert sorted(built) == sorted(n.name for n in context.names)
    problems = [p for n in context.names for p in _problems(built[n.name], n.type, n.name)]
    assert problems == []


def test_player_record_with_counters() -> None:
    record = envs.player_record(120, 1, 2, True, [("barrels", 3)])
    typ = ctx.CONTEXTS["match.rule"].extend(ctx.ContextExtension(counters={"barrels": INT}))
    spec = typ.lookup("player")
    assert spec is not None
    assert _problems(record, spec.type, "player") == []


def _model_contexts() -> set[str]:
    """Every context a formula field of the ruleset model is written in."""
    out = set()
    for obj in vars(model).values():
        if isinstance(obj, type) and dataclasses.is_dataclass(obj):
            for f in dataclasses.fields(obj):
                formula = f.metadata.get("formula")
                if formula:
                    out.add(formula.split(":", 1)[0])
    return out


def test_every_context_is_used_by_a_formula_field() -> None:
    used = _model_contexts()
    assert used <= set(ctx.CONTEXTS)
    assert set(ctx.CONTEXTS) - used == set()
