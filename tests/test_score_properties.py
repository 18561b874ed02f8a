"""The scoresheet and the engine's settlement agree on which deals can happen: both read the
one statement in ``engine/outcome.py`` (review 2026-12, finding 1: they used to disagree)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from _quick import sample
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec.engine import outcome as rules_of
from tysiac_spec.engine.auction import bid_steps
from tysiac_spec.engine.match import settle_deal
from tysiac_spec.engine.seating import active_players, first_hand, sitter_of
from tysiac_spec.errors import EntryError, MatchError
from tysiac_spec.ruleset import Ruleset
from tysiac_spec.ruleset.registry import entries
from tysiac_spec.scoresheet import (
    ACE_MARRIAGE,
    DealEntry,
    Sheet,
    check_entry,
    outcome_of_entry,
    questions,
    settle_sheet,
    start_state,
)

FORMS = [(e.id, n) for e in entries() for n in load_ruleset(e.id).player_counts]
"""Every shipped ruleset with each of its player counts."""


def _form_id(form: tuple[str, int]) -> str:
    return f"{form[0]}-{form[1]}"

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _rules(ruleset: str) -> Ruleset:
    return load_ruleset(ruleset)


def entries_for(rules: Ruleset, players: int) -> st.SearchStrategy[DealEntry]:
    """Deal entries near the edge of validity for the deal dealt by seat 0: mostly a
    declarer who plays, a bid on or off the auction's step, card points split among the
    players who play (adding up to the pack, or a little less), few marriages; now and then
    a field out of place (another dealer, a sitter with points, an unknown mode, a talon)."""
    form = rules.form(players)
    total = rules.deck.total_points
    active = active_players(form, 0)
    sitter = sitter_of(form, 0)
    seat = st.integers(0, players - 1)
    a = form.auction
    bids = st.one_of(
        st.integers(0, 12).map(lambda k: a.min_bid + k * a.step),
        st.integers(-1, 80).map(lambda k: k * 5),
    )
    suits = [*form.marriages.values, ACE_MARRIAGE]
    cards = [str(c) for c in rules.deck.cards]
    talon_size = sum(form.table.talons)

    @st.composite
    def points(draw: st.DrawFn) -> tuple[int, ...]:
        short = draw(st.sampled_from([0, 0, 0, 10, 20, -5]))
        cuts = sorted(draw(st.lists(st.integers(0, (total - short) // 5), min_size=len(active) - 1,
                                    max_size=len(active) - 1)))
        shares = [5 * (b - c) for c, b in zip([0, *cuts], [*cuts, (total - short) // 5], strict=True)]
        out = [0] * players
        for p, v in zip(active, shares, strict=True):
            out[p] = v
        if sitter is not None and draw(st.sampled_from([False] * 9 + [True])):
            out[sitter] = 5
        return tuple(out)

    return st.builds(
        _entry,
        dealer=st.one_of(st.just(0), st.just(0), st.just(0), seat),
        declarer=st.one_of(st.sampled_from(active), st.integers(-1, players)),
        bid=bids,
        raised=st.sampled_from([0, 0, 0, 5, 10, 20, -10]),
        points=points(),
        marriages=st.lists(st.tuples(seat, st.sampled_from(suits)), max_size=2),
        forfeit=st.sampled_from([False, False, False, True]),
        mode=st.sampled_from(["normal"] * 6 + ["dark", "golden", "blind"]),
        no_trick=st.one_of(st.just([]), st.lists(seat, max_size=2)),
        talon=st.one_of(st.just([]), st.just([]), st.lists(st.sampled_from(cards), min_size=talon_size,
                                                          max_size=talon_size, unique=True)),
    )


def _entry(*, dealer: int, declarer: int, bid: int, raised: int, points: tuple[int, ...],
           marriages: list[tuple[int, str]], forfeit: bool, mode: str, no_trick: list[int],
           talon: list[str]) -> DealEntry:
    return DealEntry(dealer, declarer, bid, bid + raised, points, tuple(marriages), forfeit, mode,
                     tuple(no_trick), tuple(talon))


@pytest.mark.parametrize(("ruleset", "players"), sample(FORMS, every=4, ids=_form_id))
def test_the_sheet_accepts_an_entry_exactly_when_settlement_does(ruleset: str, players: int) -> None:
    rules = _rules(ruleset)
    form = rules.form(players)

    @SETTINGS
    @given(entries_for(rules, players))
    def check(entry: DealEntry) -> None:
        sheet = Sheet(ruleset=ruleset, players=players, deals=[entry])
        state = start_state(rules, form, sheet)
        try:
            check_entry(rules, form, entry, state)
            sheet_ok = True
        except EntryError:
            sheet_ok = False
        try:
            settle_sheet(rules, form, sheet)
            settled = True
        except (EntryError, MatchError):
            settled = False
        assert sheet_ok == settled
        # and the engine, given the same deal directly, refuses what the sheet refuses
        try:
            settle_deal(form, state, outcome_of_entry(rules, form, entry))
            engine_ok = True
        except MatchError:
            engine_ok = False
        assert engine_ok or not sheet_ok

    check()


def test_two_players_card_points_short_of_the_pack_are_refused_by_sheet_and_settlement_alike() -> None:
    # pl-standard, 2 players: the two discarded cards go to the declarer (`leftover.cards:
    # unchosen_and_discards`, to the taker), so card points add up to 120 (S000); the sheet
    # used to accept 70 + 30 and settlement then refused it.
    rules = load_ruleset("pl-standard")
    form = rules.form(2)
    sheet = Sheet(ruleset="pl-standard", players=2)
    entry = DealEntry(dealer=0, declarer=1, bid=100, contract=100, points=(70, 30))
    sheet.deals.append(entry)
    with pytest.raises(EntryError) as info:
        check_entry(rules, form, entry, start_state(rules, form, sheet))
    assert info.value.diagnostic.code == "entry.points"
    assert info.value.diagnostic.message == "card points must add up to the deck total 120 (got 100)"
    with pytest.raises(EntryError) as info:
        settle_sheet(rules, form, sheet)
    assert info.value.diagnostic.message == "deal 1: card points must add up to the deck total 120 (got 100)"
    # ru-online, 2 players: the declarer's two discards score for nobody (assumed), so the
    # same entry stands on both: 70 for the defender (P0), the declarer P1 failed 100 with 30
    ru = load_ruleset("ru-online")
    ru_sheet = Sheet(ruleset="ru-online", players=2, deals=[entry])
    ru_form = ru.form(2)
    check_entry(ru, ru_form, entry, start_state(ru, ru_form, ru_sheet))
    [row] = settle_sheet(ru, ru_form, ru_sheet)
    assert row.scores == (70, -100)


def _asked(rules: Ruleset, form, sheet: Sheet, state, answers: dict) -> set[str]:  # type: ignore[no-untyped-def]
    """The keys of the questions that apply to ``answers`` (dealer 0)."""
    return {q.key for q in questions(rules, form, sheet, 0, state) if q.applies(dict(answers))}


def _passes(rules: Ruleset, form, state, entry: DealEntry) -> bool:  # type: ignore[no-untyped-def]
    try:
        check_entry(rules, form, entry, state)
    except EntryError:
        return False
    return True


@pytest.mark.parametrize(("ruleset", "players"), FORMS)
def test_a_question_is_asked_exactly_when_the_engine_accepts_an_answer_to_it(
    ruleset: str, players: int
) -> None:
    # Issue 13: the scoresheet's questions used to restate when a dark game, a forfeit or a
    # raise is possible; they read engine/outcome.py now.  For a deal dealt by seat 0 and won
    # by the first hand at the lowest bid, each question is asked exactly when settlement
    # accepts an entry that answers it other than by default.
    rules = _rules(ruleset)
    form = rules.form(players)
    sheet = Sheet(ruleset=ruleset, players=players)
    state = start_state(rules, form, sheet)
    total = rules.deck.total_points
    declarer = first_hand(form, 0)
    active = active_players(form, 0)
    sitter = sitter_of(form, 0)
    low = bid_steps(form).lowest
    points = tuple(total if p == declarer else 0 for p in range(players))
    no_trick = tuple(p for p in active if p != declarer) if rules_of.tricks_needed(form) else ()
    talon = tuple(str(c) for c in rules.deck.cards[: sum(form.table.talons)]) \
        if rules_of.sitter_talon_needed(form, sitter) else ()

    def entry(**change: object) -> DealEntry:
        base = DealEntry(0, declarer, low, low, points, no_trick=no_trick, talon=talon)
        return replace(base, **change)  # type: ignore[arg-type]

    normal = {"declarer": declarer, "golden": False}
    assert _passes(rules, form, state, entry())
    asked = _asked(rules, form, sheet, state, normal)
    assert ("dark" in asked) == _passes(
        rules, form, state, entry(mode="dark", bid=form.special.dark.contract,
                                  contract=form.special.dark.contract))
    bid = {**normal, "dark": False, "bid": low}
    asked = _asked(rules, form, sheet, state, bid)
    assert ("forfeit" in asked) == _passes(
        rules, form, state, entry(forfeit=True, points=(0,) * players, no_trick=()))
    raised = low + form.contract.step
    assert ("contract" in asked) == _passes(rules, form, state, entry(contract=raised))
    assert ("no_trick" in asked) == bool(no_trick)
    assert ("talon" in asked) == bool(talon)
    # a dark game has no bid to ask: its contract is the ruleset's
    if form.special.dark.enabled:
        assert "bid" not in _asked(rules, form, sheet, state, {**normal, "dark": True})


def test_a_contract_is_raised_only_where_the_game_allows_a_raise() -> None:
    # ru-online (S002): the golden round has no raising (`golden_round.raise_allowed: false`)
    # and the dark game keeps its contract (`dark.raise_allowed` false), while a normal deal
    # may be raised; the sheet used to accept a raised golden contract that no game can reach
    rules = load_ruleset("ru-online")
    form = rules.form(3)
    sheet = Sheet(ruleset="ru-online", players=3)
    state = start_state(rules, form, sheet)
    golden = DealEntry(0, 1, 120, 130, (120, 0, 0), mode="golden", no_trick=(0, 2))
    with pytest.raises(EntryError) as info:
        check_entry(rules, form, golden, state)
    assert info.value.diagnostic.message == "a golden deal's contract may not be raised above the bid 120 (got 130)"
    assert info.value.diagnostic.code == "entry.contract"
    with pytest.raises(MatchError, match="a golden deal's contract may not be raised"):
        settle_deal(form, state, outcome_of_entry(rules, form, golden))
    assert not rules_of.may_raise(form, "golden")
    assert not rules_of.may_raise(form, "dark")
    assert rules_of.may_raise(form, "normal")
    assert rules_of.fixed_bid(form, "dark") == 120
    assert rules_of.fixed_bid(form, "normal") is None
