"""The scoresheet's questions for one deal (``tysiac score`` asks them in order): which
apply given the earlier answers, each answer's parser checked against the ruleset with the
engine's own statement of a valid outcome, and the :class:`~.sheetfile.DealEntry` the
answers make.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..docs.terms import sheet_prompt
from ..engine import outcome as rules_of
from ..engine.all_pass import AllPassOutcome
from ..engine.match import MatchState
from ..engine.seating import active_players, sitter_of
from ..errors import EntryError, MatchError
from ..ruleset.model import Form, Ruleset
from ..text import shorten
from .notation import (
    _entry_error,
    _iter_talon_errors,
    _marriage_points,
    marriage_example,
    parse_amount,
    parse_marriages,
    parse_player,
    parse_players_list,
    parse_yes_no,
)
from .settle import ONCE_PER_DEAL
from .sheetfile import DealEntry, Sheet, _err

__all__ = ["Question", "entry_from_answers", "questions"]


@dataclass(frozen=True, slots=True)
class Question:
    """One thing asked for a deal: ``key`` in the answers, the prompt, whether it applies
    given the answers so far, and a parser (text, answers) -> value raising EntryError."""

    key: str
    prompt: str
    applies: Callable[[dict[str, Any]], bool]
    parse: Callable[[str, dict[str, Any]], Any]


def questions(
    rules: Ruleset, form: Form, sheet: Sheet, dealer: int, state: MatchState, lang: str = "en"
) -> list[Question]:
    """The questions for one deal under ``form``, in order, their prompts in ``lang`` (the
    rule book's words, :data:`~tysiac_spec.docs.terms.SHEET_PROMPTS`; ``tysiac score`` asks
    in English; the answers' notation is the same in every language); each parser checks its answer
    against the ruleset and the earlier answers with the engine's own statement of a valid
    outcome (:mod:`tysiac_spec.engine.outcome`: a contract below the bid, points not adding up
    to the deck total, a bid off the step are rejected with the reason, players named as on
    the sheet); the sheet's notation (a marriage counted twice, a talon) is checked here.

    Which questions apply is the engine's too (:mod:`tysiac_spec.engine.outcome`, "which
    fields apply"), for what the earlier answers say of the deal: ``golden`` while ``state``
    is in a golden round (``golden_round_on``), ``dark`` when the declarer may play one
    (``may_declare``: ``special.dark`` on, the first hand when ``dark.who`` is
    ``first_hand``, not with a negative score when that is forbidden), ``bid`` when the deal
    has an auction (``fixed_bid``), ``forfeit`` (rospis, or bomb when only the forced player
    may forfeit) when the declarer may forfeit this deal (``can_forfeit``: the forced bid,
    the limit per match), ``contract`` when the deal's contract may be raised
    (``may_raise``), ``marriages`` when there are marriage points to declare,
    ``no_trick`` when bolts count deals without a trick (``tricks_needed``), ``talon`` when
    the sitter scores the talon (``sitter_talon_needed``); ``kind``, the named contract, when
    the ruleset has some (``contract.kinds``): then no bid nor contract (its fixed value), no
    marriages when it allows none, and who took no trick (its goal may count them); around
    the contract (issue 17): the declarer may be given as ``-`` (nobody: everyone passed)
    when a deal everyone passes is played out (``all_pass_played``; then only the card points
    are asked, checked by ``iter_all_pass_errors``), ``sold`` when the contract may have been
    bought (``may_sell``), ``contra`` when it may have been doubled (``contra_factors``);
    ``incidents``, the table incidents played on (``deal.incidents`` with ``effect: play_on``)
    and their offenders, when the ruleset has some (one that abandons the deal is written in
    the sheet file, :class:`~.sheetfile.DealEntry`).
    """
    deck = rules.deck
    n = form.players
    names = sheet.names
    active = active_players(form, dealer)
    sitter = sitter_of(form, dealer)
    total = deck.total_points
    forfeit_word = "bomb" if form.contract.forfeit.only_when_forced else "rospis"

    all_pass = rules_of.all_pass_played(form)

    def declarer(text: str, ans: dict[str, Any]) -> int:
        if all_pass and text.strip().lower() in ("-", "nobody", "none"):
            return -1  # everyone passed: the deal played out without a declarer
        p = parse_player(text, n, names)
        if p not in active:
            raise _err("player", f"{sheet.name(p)} sits out this deal")
        # (a golden round comes first, and no dark game is offered on the barrel)
        taker = rules_of.barrel_deal_taker(form, state, mode="normal")
        if taker is not None and p != taker:
            raise _err("declarer", f"{sheet.name(taker)} is on the barrel and takes this deal "
                       f"without an auction, not {sheet.name(p)}")
        return p

    def first(errors: Iterator[MatchError], mode: str = "", hint: str = "") -> None:
        """Raise the engine's first problem with the answer, named as on the sheet."""
        for error in errors:
            entry = _entry_error(error, mode=mode, sheet=sheet)
            if hint:
                d = entry.diagnostic
                entry = EntryError(replace(d, message=f"{d.message}; {hint}"))
            raise entry

    def forfeited(text: str, ans: dict[str, Any]) -> bool:
        v = parse_yes_no(text)
        if v:
            first(rules_of.iter_forfeit_errors(form, state, declarer=ans["declarer"], bid=bid_of(ans),
                                               mode=mode_of(ans)))
        return v

    def golden(text: str, ans: dict[str, Any]) -> bool:
        v = True if not text.strip() else parse_yes_no(text)
        if v:
            problems = rules_of.iter_mode_errors(form, state, mode="golden", declarer=ans["declarer"],
                                                 dealer=dealer)
            first(problems, "golden", "answer n, or `cancel` and enter the deal again")
        return v

    def dark(text: str, ans: dict[str, Any]) -> bool:
        v = parse_yes_no(text)
        if v:
            problems = rules_of.iter_mode_errors(form, state, mode="dark", declarer=ans["declarer"],
                                                 dealer=dealer)
            first(problems, "dark")
        return v

    def kind(text: str, ans: dict[str, Any]) -> str:
        word = text.strip().lower()
        if word:
            first(rules_of.iter_kind_errors(form, kind=word, bid=kind_value(word), contract=kind_value(word),
                                            mode=mode_of(ans), marriages={}))
        return word

    def kind_value(word: str) -> int:
        return next((k.value or 0 for k in form.contract.kinds if k.id == word), 0)

    def kind_marries(ans: dict[str, Any]) -> bool:
        """Whether the deal's named contract (if any) lets marriages be declared."""
        return all(k.marriages for k in form.contract.kinds if k.id == ans.get("kind"))

    def on_barrel(ans: dict[str, Any]) -> bool:
        """A deal on the barrel without an auction (the engine's ``barrel_deal_taker``)."""
        return rules_of.barrel_deal_taker(form, state, mode=mode_of(ans)) is not None

    def bid(text: str, ans: dict[str, Any]) -> int:
        v = parse_amount(text, "the bid")
        first(rules_of.iter_bid_errors(form, mode=mode_of(ans), bid=v, barrel=on_barrel(ans)))
        return v

    def contract(text: str, ans: dict[str, Any]) -> int:
        if not text.strip():
            return bid_of(ans)
        v = parse_amount(text, "the contract")
        first(rules_of.iter_contract_errors(form, bid=bid_of(ans), contract=v, mode=mode_of(ans),
                                            barrel=on_barrel(ans)))
        return v

    def points(text: str, ans: dict[str, Any]) -> tuple[int, ...]:
        words = text.replace(",", " ").split()
        if len(words) != len(active):
            order = " ".join(sheet.name(p) for p in active)
            raise _err("points", f"give the card points of {len(active)} players, in the order {order}")
        values = dict(zip(active, (parse_amount(w, "card points") for w in words), strict=True))
        if not declared(ans):
            plain = AllPassOutcome(card_points=values, players=tuple(active), sitter=sitter)
            first(rules_of.iter_all_pass_errors(form, state, plain))
        else:
            first(rules_of.iter_card_point_errors(form, deck_points=total, card_points=values, active=active))
        return tuple(values.get(p, 0) for p in range(n))

    def sold(text: str, ans: dict[str, Any]) -> bool:
        v = parse_yes_no(text) if text.strip() else False
        if v:
            first(rules_of.iter_sold_errors(form, mode=mode_of(ans)))
        return v

    def contra(text: str, ans: dict[str, Any]) -> int:
        v = parse_amount(text, "the contra factor") if text.strip() else 1
        first(rules_of.iter_contra_errors(form, contra=v, mode=mode_of(ans)))
        return v

    def marriages(text: str, ans: dict[str, Any]) -> tuple[tuple[int, str], ...]:
        out = parse_marriages(text, form, deck, n, names)
        first(rules_of.iter_marriage_errors(form, marriages=_marriage_points(form, out), active=active))
        return out

    def no_trick(text: str, ans: dict[str, Any]) -> tuple[int, ...]:
        out = parse_players_list(text, n, names)
        for p in out:
            if p not in active:
                raise _err("player", f"{sheet.name(p)} sits out this deal")
        first(rules_of.iter_trick_errors(
            form,
            tricks={p: 0 if p in out else 1 for p in active},
            card_points={p: ans["points"][p] for p in active},
            marriages=_marriage_points(form, ans.get("marriages", ())),
        ))
        return out

    played_on: dict[str, Any] = {r.kind: r for r in form.deal.incidents if r.effect == "play_on"}

    def incidents(text: str, ans: dict[str, Any]) -> tuple[tuple[str, int], ...]:
        """``talon_look 2, showing_hand Ala``: each a table incident played on (``effect:
        play_on``) and its offender (the dealer when its rule charges him and none is named)."""
        out: list[tuple[str, int]] = []
        for part in (p.strip() for p in text.replace(";", ",").split(",")):
            if part in ("", "-"):
                continue
            kind, _, who = part.partition(" ")
            rule = played_on.get(kind)
            if rule is None:
                listed = ", ".join(played_on) or "none"
                raise _err("sheet", f"`{shorten(kind)}` is not a table incident played on here ({listed})")
            p = dealer if rule.who == "dealer" and not who.strip() else parse_player(who, n, names)
            if p not in active or (rule.who == "dealer" and p != dealer):
                raise _err("player", f"`{kind}` cannot be charged to {sheet.name(p)}")
            if (kind, p) in out:
                raise _err("sheet", f"`{kind}` is given twice for {sheet.name(p)}: {ONCE_PER_DEAL}")
            out.append((kind, p))
        return tuple(out)

    def talon(text: str, ans: dict[str, Any]) -> tuple[str, ...]:
        cards = tuple(text.split())
        for error in _iter_talon_errors(form, deck, cards):
            raise error
        return tuple(str(c) for c in deck.parse_many(text))

    def mode_of(ans: dict[str, Any]) -> str:
        return "golden" if ans.get("golden") else "dark" if ans.get("dark") else "normal"

    def declared(ans: dict[str, Any]) -> bool:
        """Somebody declared (not a deal everyone passed and played out)."""
        return int(ans.get("declarer", 0)) >= 0

    def played(ans: dict[str, Any]) -> bool:
        return not ans.get("forfeit")

    def played_declared(ans: dict[str, Any]) -> bool:
        return played(ans) and declared(ans)

    def bid_of(ans: dict[str, Any]) -> int:
        if ans.get("kind"):
            return kind_value(ans["kind"])
        fixed = rules_of.fixed_bid(form, mode_of(ans))
        return int(ans["bid"]) if "bid" in ans else int(fixed or 0)

    # which questions apply: the engine's statement of which outcome fields a deal has
    # (engine/outcome.py), for what the earlier answers say of it
    def asks_dark(ans: dict[str, Any]) -> bool:
        return declared(ans) and not ans.get("golden") and rules_of.may_declare(
            form, state, "dark", declarer=ans["declarer"], dealer=dealer)

    def asks_forfeit(ans: dict[str, Any]) -> bool:
        return declared(ans) and rules_of.can_forfeit(
            form, state, declarer=ans["declarer"], bid=bid_of(ans), mode=mode_of(ans))

    def asks_contract(ans: dict[str, Any]) -> bool:
        return declared(ans) and not ans.get("forfeit") and not ans.get("kind") and rules_of.may_raise(
            form, mode_of(ans)) and not on_barrel(ans)

    order = " ".join(sheet.name(p) for p in active)

    def say(key: str, **kwargs: object) -> str:
        return sheet_prompt(key, lang, **kwargs)

    named = say("declarer.names") if any(names) else ""
    nobody = say("declarer.nobody") if all_pass else ""
    seats = say("declarer.seats", last=n - 1)
    return [
        Question("declarer", say("declarer", names=named, seats=seats, nobody=nobody),
                 lambda ans: True, declarer),
        Question("golden", say("golden"),
                 lambda ans: declared(ans) and rules_of.golden_round_on(form, state), golden),
        Question("dark", say("dark"), asks_dark, dark),
        Question(
            "kind", say("kind", kinds=", ".join(k.id for k in form.contract.kinds)),
            lambda ans: declared(ans) and bool(form.contract.kinds) and mode_of(ans) == "normal", kind,
        ),
        Question("bid", say("bid.rebuy") if form.talon.rebuy.enabled else say("bid"),
                 lambda ans: declared(ans) and rules_of.fixed_bid(form, mode_of(ans)) is None
                 and not ans.get("kind"), bid),
        Question("sold", say("sold"),
                 lambda ans: declared(ans) and rules_of.may_sell(form, mode_of(ans)), sold),
        Question("contra", say("contra", factors=", ".join(map(str, rules_of.contra_factors(form)))),
                 lambda ans: declared(ans) and mode_of(ans) == "normal"
                 and rules_of.contra_factors(form) != (1,), contra),
        Question("forfeit", say(f"forfeit.{forfeit_word}"), asks_forfeit, forfeited),
        Question("contract", say("contract"), asks_contract, contract),
        Question("points", say("points", order=order), played, points),
        Question(
            "marriages", say("marriages", example=marriage_example(form, deck, lang)),
            lambda ans: played_declared(ans) and rules_of.marriages_possible(form) and kind_marries(ans),
            marriages,
        ),
        Question(
            "no_trick", say("no_trick", names=say("no_trick.names") if any(names) else ""),
            lambda ans: played_declared(ans) and (rules_of.tricks_needed(form) or bool(ans.get("kind"))),
            no_trick,
        ),
        Question(
            "talon", say("talon"),
            lambda ans: declared(ans) and rules_of.sitter_talon_needed(form, sitter), talon,
        ),
        Question("incidents", say("incidents", kinds=", ".join(played_on)), lambda ans: bool(played_on),
                 incidents),
    ]


def entry_from_answers(form: Form, dealer: int, ans: Mapping[str, Any]) -> DealEntry:
    """The :class:`DealEntry` for a complete set of answers (missing ones take their
    defaults: the contract is the bid; a dark or golden deal's bid is the ruleset's
    contract unless a bid was asked)."""
    n = form.players
    if int(ans["declarer"]) < 0:  # everyone passed: the deal played out (all-pass play)
        points = tuple(ans.get("points") or (0,) * n)
        return DealEntry(dealer=dealer, declarer=-1, bid=0, contract=0, points=points, all_pass=True)
    mode = "golden" if ans.get("golden") else "dark" if ans.get("dark") else "normal"
    fixed = rules_of.fixed_bid(form, mode)
    kind = str(ans.get("kind") or "")
    if kind:  # a named contract: its fixed value
        fixed = next((k.value for k in form.contract.kinds if k.id == kind), 0)
    bid = int(ans["bid"]) if "bid" in ans else int(fixed or 0)
    contract = int(ans.get("contract", bid))
    return DealEntry(
        dealer=dealer,
        declarer=int(ans["declarer"]),
        bid=bid,
        contract=contract,
        points=tuple(ans.get("points") or (0,) * n),
        marriages=tuple(ans.get("marriages") or ()),
        forfeit=bool(ans.get("forfeit")),
        mode=mode,
        no_trick=tuple(ans.get("no_trick") or ()),
        talon=tuple(ans.get("talon") or ()),
        kind=kind,
        contra=int(ans.get("contra", 1)),
        sold=bool(ans.get("sold")),
        incidents=tuple(ans.get("incidents") or ()),
    )
