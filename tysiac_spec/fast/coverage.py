"""What the fast path's generator covers: a whitelist of rule fields and values.

:func:`uncovered` walks every field of a :class:`~tysiac_spec.ruleset.model.Form` (the
dataclasses of ``ruleset/model.py``, whatever fields they have); a field named in
:data:`COVERED` must hold one of the values listed there (``ANY``: every value, because the
generated code reads it or the engine's settlement, called per deal, does), and every other
field must keep its model default.  A field added to the model later (a new mechanism) is
therefore not covered until it is added here, and a form that sets it is played by the
generic engine (:class:`~tysiac_spec.fast.EngineRunner`, with ``fallback_reason`` naming the
field).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from ..ruleset.model import Form, Formula
from ..text import shorten

__all__ = ["ANY", "COVERED", "uncovered"]

ANY = object()
"""Every value of the field is covered."""

COVERED: dict[str, Any] = {
    # the table: seating and sitter come from engine/seating.py, the sitter's score from the
    # settlement; partnerships and the stock are not generated
    "players": ANY,
    "table.active": ANY,
    "table.hand_size": ANY,
    "table.talons": ANY,
    "table.left_out": ANY,
    "table.sitter": ANY,
    "table.stock": (None, 0),
    "table.stock_trump": ANY,
    "table.stock_duties": ANY,
    "table.partnerships": ("none",),
    # dealing: the first dealer, the packets, the talon positions, the cut and the redeal
    # conditions by the engine's own functions (called from the generated code); incidents are never legal
    # actions (a table calls them), so they do not change what is played
    "deal.first_dealer": ANY,
    "deal.first_dealer_rank": ANY,
    "deal.direction": ANY,
    "deal.packet": ANY,
    "deal.talon_not_first": ANY,
    "deal.talon_not_last": ANY,
    "deal.talon_not_consecutive": ANY,
    "deal.talon_within_first": ANY,
    "deal.redeals": ANY,
    "deal.cut.enabled": ANY,
    "deal.cut.bad_ranks": ANY,
    "deal.cut.cutter": ANY,
    "deal.cut.recut_by": ANY,
    "deal.cut.penalised": ANY,
    "deal.cut.penalty": ANY,
    "deal.cut.payer": ANY,
    "deal.redeal_dealer": ANY,
    "deal.incidents": ANY,
    # the auction
    "auction.forced_seat": ANY,
    "auction.forced_bid": ANY,
    "auction.first_to_speak": ANY,
    "auction.forced_opening": ANY,
    "auction.min_bid": ANY,
    "auction.step": ANY,
    "auction.raise_by": ANY,
    "auction.max_raise": ANY,
    "auction.max_bid": ANY,
    "auction.cap": ANY,
    "auction.may_bid": ANY,
    "auction.pass_is_final": (True,),
    "auction.reentries": (0,),
    "auction.all_pass": ANY,
    "auction.dealer_exempt": ANY,
    # the talon and the exchange (who sees what changes views only)
    "talon.take": ANY,
    "talon.shown": ANY,
    "talon.shown_from": ANY,
    "talon.shown_when_unopposed": ANY,
    "talon.exchange": ("give_each", "discard", "none"),
    "talon.give_count": ANY,
    "talon.discard_count": ANY,
    "talon.give_face_up": ANY,
    "talon.give_order": ANY,
    "talon.hand_out": (False,),
    "talon.leftover.to": ANY,
    "talon.leftover.discards_to": ANY,
    "talon.leftover.cards": ANY,
    # the contract (contract_amounts is the engine's) and the forfeit (may_forfeit the engine's;
    # its scores by the engine's settlement)
    "contract.raise_allowed": ANY,
    "contract.step": ANY,
    "contract.max": ANY,
    "contract.allowed": ANY,
    "contract.forfeit.enabled": ANY,
    "contract.forfeit.only_when_forced": ANY,
    "contract.forfeit.when": ANY,
    "contract.forfeit.declarer": ANY,
    "contract.forfeit.defender": ANY,
    "contract.forfeit.mode.limit": ANY,
    "contract.forfeit.mode.free": ANY,
    "contract.forfeit.mode.penalty_every": ANY,
    "contract.forfeit.mode.penalty": ANY,
    "contract.claim_allowed": ANY,
    # the play; a revoke is never a legal action (a table plays it), so it changes nothing
    # the fast path plays
    "play.leader": ANY,
    "play.must_follow": ANY,
    "play.must_beat": ANY,
    "play.beat_when_trumped": ANY,
    "play.must_trump": ANY,
    "play.must_overtrump": ANY,
    "play.cannot_overtrump": ANY,
    "play.beat_with_highest": ANY,
    "play.trump_with_highest": ANY,
    "play.duties_bind": ("everyone",),
    "play.defenders_may_discard": (False,),
    "play.defenders_overtrump_declarer": (False,),
    "play.lead_after_marriage": ANY,
    "play.revoke.handling": ANY,
    "play.revoke.penalty": ANY,
    "play.revoke.to": ANY,
    "play.revoke.exempt_lead_rule": ANY,
    # marriages declared by a lead
    "marriages.values": ANY,
    "marriages.ranks": ANY,
    "marriages.announcement": ANY,
    "marriages.declared_by": ("lead",),
    "marriages.value": (None,),
    "marriages.requires_won_trick": ANY,
    "marriages.declarer_first_lead": ANY,
    "marriages.from_trick": ANY,
    "marriages.min_cards": ANY,
    "marriages.sets_trump": ANY,
    "marriages.trump_change": ANY,
    "marriages.trump_from": ANY,
    "marriages.ace_marriage.enabled": ANY,
    "marriages.ace_marriage.rank": ANY,
    "marriages.ace_marriage.value": ANY,
    "marriages.ace_marriage.sets_trump": ANY,
    "marriages.ace_marriage.requires_won_trick": ANY,
    # scoring and the match: the engine's settlement, called per deal
    "scoring": ANY,
    "match": ANY,
    "match.finishing.tie_score": ("kept",),  # (below_target: a form with it is played by the engine)
    # the deal's opening (a golden-round deal, a barrel deal without an auction, the dark game)
    # and the match's mechanisms (the engine's settlement)
    "special.barrel": ANY,
    "special.bolts": ANY,
    "special.dark.cancel_effect": ("normal_game",),
    "special.dark": ANY,
    "special.golden_round": ANY,
    "special.golden_round.auction": (False,),  # a golden deal with its auction: not generated
}
"""Field path → the values covered (a tuple) or :data:`ANY`.  A path covers the fields
under it unless a longer path names one of them."""


def _leaves(obj: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """(path, value, default) of every field under ``obj`` (a model dataclass); a field
    without a default gets ``dataclasses.MISSING``."""
    for f in dataclasses.fields(obj):
        if f.name == "provenance":
            continue
        value = getattr(obj, f.name)
        sub = f"{path}.{f.name}" if path else f.name
        if dataclasses.is_dataclass(value) and not isinstance(value, Formula | type):
            yield sub, value, None
            yield from _leaves(value, sub)
            continue
        default: Any = dataclasses.MISSING
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        yield sub, value, default


def _rule_for(path: str) -> Any:
    """The :data:`COVERED` entry of ``path`` or of its nearest ancestor, else ``None``."""
    while True:
        if path in COVERED:
            return COVERED[path]
        if "." not in path:
            return None
        path = path.rsplit(".", 1)[0]


def _shown(value: Any) -> str:
    """A short text of a field's value for a reason: a formula's text, the number of entries
    of a list of rules, else the value's ``repr`` (shortened)."""
    if isinstance(value, Formula):
        return repr(value.text)
    if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
        ids = [getattr(v, "id", None) or getattr(v, "kind", None) for v in value]
        return f"{len(value)} entries ({', '.join(str(i) for i in ids)})"
    return shorten(repr(value), 60)


def uncovered(form: Form, pack_size: int) -> str | None:
    """Why the generator does not cover ``form`` (a phrase naming the field and value), or
    ``None`` when it does.  ``pack_size``: cards in the pack (at most 64: a card is a bit of
    an int the generated code shifts by 6)."""
    if pack_size > 64:
        return f"a pack of {pack_size} cards (the fast path handles up to 64)"
    from ..engine.scoring import facts_read

    if facts_read(form):
        return f"scoring formulas read the deal facts {sorted(facts_read(form))}"
    for path, value, default in _leaves(form, ""):
        rule = _rule_for(path)
        if dataclasses.is_dataclass(value) and not isinstance(value, Formula):
            if rule is None or rule is ANY:
                continue  # a section: its fields are checked one by one
        if rule is ANY:
            continue
        if rule is None:
            if default is dataclasses.MISSING or value != default:
                return f"{path} = {_shown(value)} (not covered by the fast path's generator)"
            continue
        if value not in rule:
            return f"{path} = {_shown(value)} (the fast path covers {', '.join(map(_shown, rule))})"
    return None
