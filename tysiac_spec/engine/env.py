"""The formula environments: one builder per DSL context (:data:`tysiac_spec.dsl.contexts.CONTEXTS`).

A compiled formula reads its names from a dict; each function below builds that dict for
one context, with exactly the names the context declares (``tests/test_env.py`` checks the
names and their types against ``dsl/contexts.py``).  :data:`BUILDERS` maps each context id
to its builder.

Most contexts share ``player`` (:func:`player_record`), ``players`` (the active players of a
deal) and ``options`` (the table's options).  The engine hands those around as a *base*
(:func:`base`, what :meth:`Game._env <tysiac_spec.engine.game.Game._env>` gives per
player); the auction and contract builders take a base and add their own names.

These run on hot paths (every legal bid, every settled deal): they are plain dict literals,
and a caller that tries many values of one name (bids, contracts) may assign that one name
in the dict it got (``e["bid"] = b``) rather than build a new one each time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ..cards import Card
from ..dsl import marriage_env

__all__ = [
    "BASE_NAMES",
    "BUILDERS",
    "NO_FACTS",
    "UNREAD_BASE",
    "auction_max_bid",
    "auction_may_bid",
    "base",
    "contract_allowed",
    "contract_max",
    "deal_incident",
    "deal_redeal",
    "forfeit_declarer",
    "forfeit_defender",
    "marriage_value",
    "match_rule",
    "player_record",
    "scoring_all_pass",
    "scoring_declarer",
    "scoring_defender",
    "scoring_made",
    "scoring_sitter",
    "talon_rebuy",
]

Env = dict[str, Any]
Record = Mapping[str, Any]
Options = Mapping[str, Any]
Hand = tuple[Card, ...]


def player_record(
    score: int, forfeits: int, bolts: int, on_barrel: bool, counters: Iterable[tuple[str, int]] = ()
) -> dict[str, Any]:
    """The ``player`` record: ``score``, ``forfeits``, ``bolts``, ``on_barrel`` and each of the
    ruleset's counters (``counters``: name and value; a counter replaces a field of its name)."""
    record: dict[str, Any] = {"score": score, "forfeits": forfeits, "bolts": bolts, "on_barrel": on_barrel}
    for name, value in counters:
        record[name] = value
    return record


def base(player: Record, players: int, options: Options) -> Env:
    """The names most contexts share: ``player``, ``players``, ``options`` (a new dict)."""
    return {"player": player, "players": players, "options": options}


BASE_NAMES = frozenset({"player", "players", "options"})
"""The names of :func:`base`."""

UNREAD_BASE: Mapping[str, Any] = MappingProxyType(
    {"player": MappingProxyType({}), "players": 0, "options": MappingProxyType({})}
)
"""A base for a formula that reads none of :data:`BASE_NAMES` (``Formula.reads``): the names
are there, with values no formula reads, so the player's own base need not be built (as the
deal facts are built only for the formulas that read them)."""


# ------------------------------------------------------------------ auction and contract


def auction_max_bid(b: Mapping[str, Any], hand: Hand) -> Env:
    """``auction.max_bid``: the base ``b`` of the bidder and the bidder's ``hand``."""
    return {"player": b["player"], "players": b["players"], "options": b["options"], "hand": hand}


def auction_may_bid(b: Mapping[str, Any], hand: Hand, bid: int, high_bid: int, forced: bool) -> Env:
    """``auction.may_bid``: the bidder's base and hand, the ``bid`` being made, the
    ``high_bid`` so far and whether the bidder is the ``forced`` opener."""
    return {
        "player": b["player"],
        "players": b["players"],
        "options": b["options"],
        "hand": hand,
        "bid": bid,
        "high_bid": high_bid,
        "forced": forced,
    }


def contract_max(b: Mapping[str, Any], hand: Hand, bid: int) -> Env:
    """``contract.max``: the declarer's base, hand after the exchange and winning ``bid``."""
    return {"player": b["player"], "players": b["players"], "options": b["options"], "hand": hand, "bid": bid}


def contract_allowed(b: Mapping[str, Any], hand: Hand, bid: int, contract: int) -> Env:
    """``contract.allowed``: as :func:`contract_max`, and the ``contract`` being announced."""
    return {
        "player": b["player"],
        "players": b["players"],
        "options": b["options"],
        "hand": hand,
        "bid": bid,
        "contract": contract,
    }


def deal_redeal(b: Mapping[str, Any], hand: Hand, talon: Hand, bid: int, contract: int) -> Env:
    """``deal.redeal``: :func:`contract_allowed`'s names (the player's base and hand, the
    winning ``bid``, 0 before the auction has ended, and the ``contract``, 0 before it is
    announced) and the dealt ``talon``."""
    return {
        "player": b["player"],
        "players": b["players"],
        "options": b["options"],
        "hand": hand,
        "bid": bid,
        "contract": contract,
        "talon": talon,
    }


def deal_incident(b: Mapping[str, Any], hand: Hand, bid: int, contract: int, declarer: bool) -> Env:
    """``deal.incident``: the offender's base and ``hand``, the highest ``bid`` so far (0
    before any bid), the ``contract`` (0 before it is announced) and whether the offender is
    the ``declarer``."""
    return {**contract_allowed(b, hand, bid, contract), "declarer": declarer}


# ------------------------------------------------------------------ scoring

NO_FACTS: Mapping[str, Any] = {}
"""The deal facts (:data:`~tysiac_spec.dsl.contexts.DEAL_FACTS`) of a form whose scoring
formulas read none of them."""


def scoring_made(
    players: int,
    options: Options,
    card_points: int,
    marriages: int,
    tricks: int,
    contract: int,
    facts: Mapping[str, Any] = NO_FACTS,
) -> Env:
    """``scoring.made``: the declarer's card points, marriages (and their sum, ``points``),
    tricks, and the contract; ``facts``: the deal facts the form's scoring formulas read
    (``won``, ``last_trick``, ``declared``, ``others_points``, ``mode``; built by
    :func:`tysiac_spec.engine.scoring.deal_facts`)."""
    e = {
        "players": players,
        "options": options,
        "card_points": card_points,
        "marriages": marriages,
        "points": card_points + marriages,
        "tricks": tricks,
        "contract": contract,
    }
    if facts:
        e.update(facts)
    return e


def scoring_declarer(
    player: Record,
    players: int,
    options: Options,
    card_points: int,
    marriages: int,
    tricks: int,
    contract: int,
    made: bool,
    facts: Mapping[str, Any] = NO_FACTS,
) -> Env:
    """``scoring.declarer``: :func:`scoring_made`'s names (``facts`` included), ``made`` and
    the declarer's record.

    (:func:`scoring_made`'s names are written out here again rather than built by a call to
    it: this builder runs for every active player of every deal, and ``tests/test_env.py``
    checks both against ``dsl/contexts.py``, so the two lists cannot drift apart.)"""
    e = {
        "player": player,
        "players": players,
        "options": options,
        "card_points": card_points,
        "marriages": marriages,
        "points": card_points + marriages,
        "tricks": tricks,
        "contract": contract,
        "made": made,
    }
    if facts:
        e.update(facts)
    return e


scoring_defender = scoring_declarer
"""``scoring.defender``: a defender's record, card points, marriages, ``points``, tricks, the
contract, whether the declarer ``made`` it, and ``facts`` as in :func:`scoring_made` (with
``declarer_points``): :func:`scoring_declarer`'s names, for the other side (the same
builder, not a call through it)."""


def scoring_sitter(player: Record, players: int, options: Options, talon: Hand) -> Env:
    """``scoring.sitter``: the sitter's record and the dealt ``talon`` it scores."""
    return {"player": player, "players": players, "options": options, "talon": talon}


def forfeit_declarer(
    player: Record, players: int, options: Options, bid: int, contract: int, count: int
) -> Env:
    """``forfeit.declarer``: the forfeiting declarer's record, the winning ``bid``, the
    ``contract`` and ``count``, the declarer's forfeits in the match, this one included."""
    return {
        "player": player,
        "players": players,
        "options": options,
        "bid": bid,
        "contract": contract,
        "count": count,
    }


def forfeit_defender(
    player: Record, players: int, options: Options, bid: int, contract: int, count: int, seat: int
) -> Env:
    """``forfeit.defender``: as :func:`forfeit_declarer`, with a defender's record (``count`` is
    still the declarer's forfeits) and his ``seat`` after the declarer (1: the next player)."""
    env = forfeit_declarer(player, players, options, bid, contract, count)
    env["seat"] = seat
    return env


# ------------------------------------------------------------------ match


def match_rule(
    player: Record,
    players: int,
    options: Options,
    *,
    delta: int,
    declarer: bool,
    made: bool,
    contract: int,
    tricks: int,
    forfeited: bool,
    target: int,
) -> Env:
    """``match.rule``: the player's record and this deal's ``delta``, whether the player was
    the ``declarer``, whether the contract was ``made``, the ``contract``, the player's
    ``tricks``, whether the deal was ``forfeited``, and the match ``target``."""
    return {
        "player": player,
        "players": players,
        "options": options,
        "delta": delta,
        "declarer": declarer,
        "made": made,
        "contract": contract,
        "tricks": tricks,
        "forfeited": forfeited,
        "target": target,
    }


def scoring_all_pass(
    player: Record,
    players: int,
    options: Options,
    card_points: int,
    tricks: int,
    most_tricks: int,
    fewest_tricks: int,
    won: Hand,
    last_trick: bool,
) -> Env:
    """``scoring.all_pass``: a player's record, card points, tricks, the most and fewest
    tricks any active player won, his won cards and whether he won the last trick (a deal
    played out without a declarer, ``auction.all_pass_play``)."""
    return {
        "player": player,
        "players": players,
        "options": options,
        "card_points": card_points,
        "tricks": tricks,
        "most_tricks": most_tricks,
        "fewest_tricks": fewest_tricks,
        "won": won,
        "last_trick": last_trick,
    }


def talon_rebuy(b: Mapping[str, Any], bid: int, talon: Hand) -> Env:
    """``talon.rebuy``: the base of the defender offered the contract, the winning ``bid`` and
    the ``talon`` turned face up."""
    return {**b, "bid": bid, "talon": talon}


# ------------------------------------------------------------------ play


marriage_value = marriage_env
"""``marriage.value``: the marriage's ``value`` by suit, whether the declaring player is the
``declarer``, whether it is the ``first`` marriage of the deal, whether it ``sets_trump``, the
``number`` of marriages declared before it in the deal, the active ``players``, its ``suit``
and the ``trump`` as it is declared: :func:`tysiac_spec.dsl.marriage_env`, the one statement
of this environment (``marriages(cards)`` in the DSL builds it there too)."""


BUILDERS: Mapping[str, Callable[..., Env]] = {
    "auction.max_bid": auction_max_bid,
    "auction.may_bid": auction_may_bid,
    "contract.max": contract_max,
    "contract.allowed": contract_allowed,
    "deal.redeal": deal_redeal,
    "deal.incident": deal_incident,
    "scoring.made": scoring_made,
    "scoring.declarer": scoring_declarer,
    "scoring.defender": scoring_defender,
    "scoring.sitter": scoring_sitter,
    "scoring.all_pass": scoring_all_pass,
    "talon.rebuy": talon_rebuy,
    "forfeit.declarer": forfeit_declarer,
    "forfeit.defender": forfeit_defender,
    "match.rule": match_rule,
    "marriage.value": marriage_value,
}
"""Each context id (:data:`tysiac_spec.dsl.contexts.CONTEXTS`) and its builder."""
