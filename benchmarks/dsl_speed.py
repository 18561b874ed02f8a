"""Benchmark: a compiled DSL formula's call cost against the equivalent hand-written lambda.

Run ``python benchmarks/dsl_speed.py``; prints one JSON line: the headline formula
(the bid cap ``120 + marriages(hand)``) with nanoseconds per call for the compiled
formula and the lambda and their ratio (``bare_*``: the same for ``CompiledFormula.evaluate``,
the evaluation as a plain function, which ``ruleset.model.Formula.evaluator()`` hands out:
the call without the method call), plus the same figures for a few more
formulas under ``"others"``.  Not a timed test: the numbers depend on the machine.
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tysiac_spec.dsl import INT, ChoiceType, ContextExtension, DeckInfo, compile_formula, library


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str


DECK = DeckInfo(
    rank_points={"nine": 0, "jack": 2, "queen": 3, "king": 4, "ten": 10, "ace": 11},
    marriage_values={"spades": 40, "clubs": 60, "diamonds": 80, "hearts": 100},
    suits=("spades", "clubs", "diamonds", "hearts"),
    ranks=("nine", "jack", "queen", "king", "ten", "ace"),
    marriage_ranks=("king", "queen"),
)
EXTRA = ContextExtension(
    options={"five_rounds": ChoiceType(("down", "up"))}, counters={"bolts": INT}
)
HAND = [
    Card("king", "hearts"),
    Card("queen", "hearts"),
    Card("ace", "spades"),
    Card("ten", "spades"),
    Card("nine", "clubs"),
    Card("jack", "diamonds"),
    Card("queen", "diamonds"),
]


def _marriages(cards: Iterable[Any]) -> int:
    """The hand-written equivalent of the library's ``marriages``."""
    kings: set[str] = set()
    queens: set[str] = set()
    for c in cards:
        if c.rank == "king":
            kings.add(c.suit)
        elif c.rank == "queen":
            queens.add(c.suit)
    return sum(DECK.marriage_values.get(s, 0) for s in kings & queens)


Env = Mapping[str, Any]
CASES: list[tuple[str, str, Callable[[Env], Any], dict[str, Any]]] = [
    (
        "120 + marriages(hand)",
        "auction.max_bid",
        lambda env: 120 + _marriages(env["hand"]),
        {"hand": HAND},
    ),
    (
        "if made then contract else -contract",
        "scoring.declarer",
        lambda env: env["contract"] if env["made"] else -env["contract"],
        {"made": False, "contract": 120},
    ),
    (
        'round_to(points, 10, half="down")',
        "scoring.defender",
        lambda env: library.round_to(env["points"], 10, "down"),
        {"points": 65},
    ),
    (
        "bid <= 120 or marriages(hand) > 0",
        "auction.may_bid",
        lambda env: env["bid"] <= 120 or _marriages(env["hand"]) > 0,
        {"bid": 130, "hand": HAND},
    ),
    (
        "player.score >= 880 and player.bolts % 3 == 0",
        "match.rule",
        lambda env: env["player"]["score"] >= 880 and env["player"]["bolts"] % 3 == 0,
        {"player": {"score": 900, "bolts": 3}},
    ),
]


def _ns_per_call(fn: Callable[[Env], Any], env: Env, number: int = 200_000) -> float:
    best = min(timeit.repeat(lambda: fn(env), number=number, repeat=5))
    return best / number * 1e9


def measure(text: str, context: str, hand_written: Callable[[Env], Any], env: Env) -> dict[str, Any]:
    formula = compile_formula(text, context, deck=DECK, extra=EXTRA)
    assert formula(env) == hand_written(env), text
    compiled_ns = _ns_per_call(formula, env)
    bare_ns = _ns_per_call(formula.evaluate, env)
    lambda_ns = _ns_per_call(hand_written, env)
    return {
        "formula": text,
        "compiled_ns": round(compiled_ns, 1),
        "lambda_ns": round(lambda_ns, 1),
        "ratio": round(compiled_ns / lambda_ns, 2),
        "bare_closure_ns": round(bare_ns, 1),
        "bare_ratio": round(bare_ns / lambda_ns, 2),
    }


def main() -> None:
    results = [measure(*case) for case in CASES]
    headline = dict(results[0])
    headline["others"] = results[1:]
    print(json.dumps(headline, ensure_ascii=False))


if __name__ == "__main__":
    main()
