"""A behaviour fingerprint of the engine, to check that a speed-up changes nothing.

For every shipped ruleset and player count (default options, ``--deals`` deals each) and
for every non-default value of every option (``--option-deals`` deals each), plays seeded
deals with :class:`~tysiac_spec.bots.RandomBot` and hashes, per step, the legal actions,
the view of the player to act, the state text and the error text of one illegal action
(checking the state is unchanged after it), and per match the history, the deal scores,
the events and the record.  Prints one JSON object: a hash per configuration and a total.

    python benchmarks/engine_fingerprint.py > before.json
    # ... optimise ...
    python benchmarks/engine_fingerprint.py > after.json && diff before.json after.json

``--games`` hashes, per step, only what the fast path (:mod:`tysiac_spec.fast`) also knows
— the player to act, the texts of the legal actions, the text of the action chosen — and per
match the deal scores, the events and the final match state, played by the engine;
``--fast`` hashes the same with the fast path playing (the forms it does not cover are
played by its engine fallback, listed on standard error).  The two outputs must be equal:

    python benchmarks/engine_fingerprint.py --games > engine.json
    python benchmarks/engine_fingerprint.py --fast > fast.json && diff engine.json fast.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from tysiac_spec import Game, load_ruleset
from tysiac_spec.bots import RandomBot
from tysiac_spec.engine import (
    Action,
    Bid,
    CancelDark,
    ChooseTalon,
    Claim,
    Dark,
    DeclareContract,
    Discard,
    Forfeit,
    GiveCard,
    Pass,
    PlayCard,
    Redeal,
)
from tysiac_spec.errors import IllegalActionError
from tysiac_spec.ruleset import Ruleset

SHIPPED = (
    "pl-standard", "pl-tysiac-hd", "pl-online", "cz-standard", "ru-online", "ru-classic",
    "house-five-up", "house-ru-no-barrel", "ua-standard",
)


def _candidates(rules: Ruleset, players: int) -> list[Action]:
    """Actions to try as illegal ones (most are illegal at any moment)."""
    out: list[Action] = [Pass(), Forfeit(), Dark(), CancelDark(), Claim(), Redeal()]
    out += [ChooseTalon(i) for i in range(-1, 3)]
    out += [Bid(a) for a in range(-10, 400, 5)]
    out += [DeclareContract(a) for a in range(0, 400, 5)]
    for c in rules.deck.cards:
        out += [PlayCard(c), PlayCard(c, True), PlayCard(c, aces=True), PlayCard(c, True, True)]
        out += [Discard(c)] + [GiveCard(c, p) for p in range(players + 1)]
    return out


def fingerprint(rules: Ruleset, players: int, deals: int, seed: int = 1) -> str:
    """The hash of ``deals`` seeded random deals of ``rules`` with ``players``."""
    h = hashlib.sha256()
    bot = RandomBot(seed)
    probe = random.Random(seed)
    candidates = _candidates(rules, players)
    played = match = 0
    while played < deals:
        game = Game(rules, players=players, seed=seed + match)
        match += 1
        h.update(f"M{match} {game.state_text()}".encode())
        while not game.is_over and len(game.deal_scores) < deals - played:
            legal = game.legal_actions()
            view = game.view(game.current_player)
            h.update(repr([str(a) for a in legal]).encode())
            h.update(repr(view).encode())
            illegal = candidates[probe.randrange(len(candidates))]
            if illegal not in legal:
                before = game.snapshot()
                try:
                    game.apply(illegal)
                except IllegalActionError as e:
                    h.update(str(e).encode())
                else:
                    raise AssertionError(f"{illegal} was applied though not legal")
                assert game.snapshot() == before, "an illegal action changed the state"
            game.apply(bot.choose(view, legal))
            h.update(game.state_text().encode())
        played += len(game.deal_scores)
        h.update(repr(game.history).encode())
        h.update(repr(game.deal_scores).encode())
        h.update(repr(game.events).encode())
        h.update(repr(game.scores).encode())
        h.update(game.record.to_json().encode())
    return h.hexdigest()[:16]


def games_fingerprint(rules: Ruleset, players: int, deals: int, seed: int = 1, fast: bool = False) -> str:
    """The hash of ``deals`` seeded random deals of ``rules`` with ``players`` as both the
    engine and the fast path can state them (``--games``/``--fast``): per step the player,
    the legal actions' texts and the chosen action's text, per match the deal scores, the
    events and the final match state.  ``fast``: played by :mod:`tysiac_spec.fast`."""
    from tysiac_spec import fast as fastpath

    h = hashlib.sha256()
    played = match = 0
    runner = fastpath.compile(rules, players) if fast else None
    policy = fastpath.random_policies(seed, players)
    bot = RandomBot(seed)
    while played < deals:
        game_seed = seed + match
        match += 1
        h.update(f"M{match}".encode())
        if runner is not None:
            result = runner.play_match(game_seed, policy, trace=True, max_deals=deals - played)
            assert result.steps is not None
            text = runner.text
            for player, legal, chosen in result.steps:
                h.update(f"{player} {[text(a) for a in legal]!r} {text(chosen)}".encode())
            deal_scores, events, state = result.deal_scores, result.events, result.state
        else:
            game = Game(rules, players=players, seed=game_seed)
            # (deals everyone passed and that were dealt again count against the most deals,
            # as the fast path and simulate count them: Game.passed_out)
            while not game.is_over and len(game.deal_scores) + game.passed_out < deals - played:
                legal = game.legal_actions()
                player = game.current_player
                action = bot.choose(game.view(player), legal)
                h.update(f"{player} {[str(a) for a in legal]!r} {action}".encode())
                game.apply(action)
            deal_scores, events, state = game.deal_scores, game.events, game.match
        played += len(deal_scores)
        h.update(repr(deal_scores).encode())
        h.update(repr(events).encode())
        h.update(repr(state).encode())
    return h.hexdigest()[:16]


def configurations(option_deals: int, deals: int) -> Iterator[tuple[str, dict[str, Any], int]]:
    """(ruleset id, options, deals) to fingerprint."""
    for rid in SHIPPED:
        yield rid, {}, deals
        if not option_deals:
            continue
        rules = load_ruleset(rid)
        for name, opt in rules.options.items():
            default = rules.selected[name]
            values: list[Any] = list(opt.choices) if opt.type == "choice" else [not default]
            if opt.type == "int":
                continue
            for v in values:
                if v != default:
                    yield rid, {name: v}, option_deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--option-deals", type=int, default=30)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--games", action="store_true",
                      help="Hash what the fast path can state, played by the engine.")
    kind.add_argument("--fast", action="store_true", help="The same hashes, played by the fast path.")
    args = parser.parse_args()
    out: dict[str, str] = {}
    for rid, options, deals in configurations(args.option_deals, args.deals):
        rules = load_ruleset(rid, options=options) if options else load_ruleset(rid)
        for n in rules.player_counts:
            key = f"{rid} {n}p {json.dumps(options, sort_keys=True)}"
            if args.fast or args.games:
                if args.fast:
                    from tysiac_spec import fast

                    runner = fast.compile(rules, n)
                    if runner.fallback_reason:
                        print(f"{key}: engine fallback: {runner.fallback_reason}", file=sys.stderr)
                out[key] = games_fingerprint(rules, n, deals, fast=args.fast)
            else:
                out[key] = fingerprint(rules, n, deals)
    total = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    print(json.dumps({"total": total, "configurations": out}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
