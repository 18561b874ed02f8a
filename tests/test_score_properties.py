"""The scoresheet and the engine's settlement agree on which deals can happen: both read the
one statement in ``engine/outcome.py`` (review 2026-12, finding 1: they used to disagree)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec.engine.match import settle_deal
from tysiac_spec.engine.seating import active_players, sitter_of
from tysiac_spec.errors import EntryError, MatchError
from tysiac_spec.ruleset import Ruleset
from tysiac_spec.ruleset.registry import entries
from tysiac_spec.scoresheet import (
    ACE_MARRIAGE,
    DealEntry,
    Sheet,
    check_entry,
    outcome_of_entry,
    settle_sheet,
    start_state,
)

FORMS = [(e.id, n) for e in entries() for n in load_ruleset(e.id).player_counts]
"""Every shipped ruleset with each of its player counts."""

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


@pytest.mark.parametrize(("ruleset", "players"), FORMS)
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
