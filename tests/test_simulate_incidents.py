"""Table incidents injected into simulated matches (``simulate --incidents``, issue 26 item
17): the incident rules of a ruleset (``deal.incidents``, ``play.revoke``) exercised at a
rate; the fast path does not play them and says so.

The rulesets are the house examples ``examples/house/table-incidents.yaml`` (misdeal 20 to the
dealer, a talon look costing the bid, shared by the opponents) and
``examples/house/revoke-penalty.yaml`` (a revoke is played and costs the bid).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.errors import EngineUnavailable, EntryError, IncidentsError
from tysiac_spec.scoresheet.questions import questions
from tysiac_spec.scoresheet.settle import settle_sheet, start_state
from tysiac_spec.scoresheet.sheetfile import DealEntry, Sheet
from tysiac_spec.simulate import NO_INCIDENTS_FAST, parse_incidents, simulate

HOUSE = Path(__file__).parent.parent / "examples" / "house"


def test_parse_incidents() -> None:
    assert parse_incidents("revoke=0.01, misdeal=0.005,") == (("misdeal", 0.005), ("revoke", 0.01))
    assert parse_incidents("") == ()
    for text, message in (
        ("revoke", "`revoke`: write KIND=RATE with KIND one of misdeal, exposed_card, talon_look, "
                   "showing_hand, revoke"),
        ("cheating=0.1", "`cheating=0.1`: write KIND=RATE"),
        ("misdeal=1.5", "`misdeal=1.5`: the rate must be a number from 0 to 1"),
        ("misdeal=x", "`misdeal=x`: the rate must be a number from 0 to 1"),
        ("misdeal=0.1,misdeal=0.2", "`misdeal` is given twice"),
    ):
        with pytest.raises(IncidentsError) as err:
            parse_incidents(text)
        assert str(err.value).startswith(message)


def test_table_incidents_are_called_at_their_rate_on_the_engine() -> None:
    stats = simulate(str(HOUSE / "table-incidents.yaml"), players=3, games=2, seed=7,
                     incidents="misdeal=0.01,talon_look=0.01")
    data = stats.as_dict()
    assert data["incidents"] == {"misdeal": {"rate": 0.01, "called": 21},
                                 "talon_look": {"rate": 0.01, "called": 20}}
    # each misdeal deals again (effect: redeal); a talon look is played on
    assert (data["deals"], data["redeals"]) == (64, 21)
    assert data["mean_scores"] == [855.0, 687.5, 1047.5]  # one incident per decision point
    assert (stats.engine, stats.fallback_reason) == ("generic", NO_INCIDENTS_FAST)


def test_revokes_are_played_at_their_rate_and_a_zero_rate_changes_nothing() -> None:
    file = str(HOUSE / "revoke-penalty.yaml")
    data = simulate(file, players=3, games=2, seed=7, incidents="revoke=0.05").as_dict()
    assert data["incidents"] == {"revoke": {"rate": 0.05, "called": 24}}
    assert data["events"]["revoke"] == 24
    assert (data["deals"], data["mean_scores"]) == (45, [1125.0, 555.0, 400.0])
    # the incidents' draws have a generator of their own: at rate 0 the bots play as without
    zero = simulate(file, players=3, games=2, seed=7, incidents="revoke=0", engine="generic").as_dict()
    none = simulate(file, players=3, games=2, seed=7, engine="generic").as_dict()
    assert zero["mean_scores"] == none["mean_scores"] == [840.0, 765.0, 1050.0]
    assert zero["events"] == none["events"]


def test_incidents_the_ruleset_cannot_play_are_refused() -> None:
    with pytest.raises(IncidentsError, match=r"^`revoke`: the ruleset refuses a card that is not legal"):
        simulate("pl-standard", players=3, games=1, incidents="revoke=0.1")
    with pytest.raises(IncidentsError, match=r"^`misdeal`: the ruleset has no rule for it \(`deal.incidents` lists none\)"):
        simulate("pl-standard", players=3, games=1, incidents="misdeal=0.1")
    with pytest.raises(EngineUnavailable, match="the fast path does not play table incidents"):
        simulate(str(HOUSE / "revoke-penalty.yaml"), players=3, games=1, bots="random", engine="fast",
                 incidents="revoke=0.1")


def test_cli_incidents_option() -> None:
    result = CliRunner().invoke(main, ["simulate", "pl-standard", "--games", "1", "--incidents", "misdeal=2"])
    assert result.exit_code == 2
    assert "Invalid value for --incidents: `misdeal=2`: the rate must be a number from 0 to 1" in result.output


# ---------------------------------------------------------------------------- the scoresheet


def _incident_sheet() -> tuple[Any, Any, Sheet]:
    house = (HOUSE / "table-incidents.yaml").resolve()
    rules = load_ruleset(str(house))
    return rules, rules.form(3), Sheet(ruleset=str(house), players=3)


def test_a_sheet_records_an_incident_deal() -> None:
    # examples/house/table-incidents.yaml: a look at the talon costs the bid, shared by the
    # offender's opponents (played on); a misdeal costs the dealer 20 and he deals again.
    rules, form, sheet = _incident_sheet()
    looked = DealEntry(dealer=0, declarer=1, bid=120, contract=120, points=(20, 80, 20),
                       marriages=((1, "hearts"),), incidents=(("talon_look", 2),))
    sheet.deals.append(looked)
    row = settle_sheet(rules, form, sheet)[-1]
    # player 2, a defender, pays the bid 120 to the declarer; then the deal: 120 made, 20 / 20
    assert (row.deltas, row.notes) == (
        (20, 240, -100), ("talon look: player 2 −120", "talon look: player 1 +120", "P1: contract 120 made"))
    misdealt = DealEntry(dealer=1, declarer=2, bid=100, contract=100, points=(20, 0, 100), redeals=1,
                         incidents=(("misdeal", 1),))
    sheet.deals.append(misdealt)
    row = settle_sheet(rules, form, sheet)[-1]
    # the dealer (player 1, who deals again: `dealer: same`) pays 20, to nobody
    assert (row.deltas, row.scores) == ((20, -20, 100), (40, 220, 0))
    assert DealEntry.from_data(misdealt.to_data()) == misdealt
    assert misdealt.to_data()["incidents"] == [["misdeal", 1]]


def test_a_sheet_refuses_incidents_it_cannot_charge() -> None:
    rules, form, sheet = _incident_sheet()
    for entry, message in (
        (DealEntry(dealer=0, declarer=1, bid=100, contract=100, points=(20, 80, 20), incidents=(("revoke", 2),)),
         "incident `revoke`: the ruleset has no rule for it (`deal.incidents` lists `misdeal`, "
         "`exposed_card`, `talon_look`, `showing_hand`)"),
        (DealEntry(dealer=0, declarer=1, bid=100, contract=100, points=(20, 80, 20),
                   incidents=(("misdeal", 0),)),
         "1 incident(s) abandoned a deal, but `redeals` is 0"),
        (DealEntry(dealer=0, declarer=1, bid=100, contract=100, points=(20, 80, 20), redeals=1,
                   incidents=(("misdeal", 2),)),
         "incident `misdeal`: player 2 cannot be charged (it is the dealer, player 0)"),
        # a talon seen once is seen: ten looks by player 2 used to cost 120 each
        (DealEntry(dealer=0, declarer=1, bid=120, contract=120, points=(20, 80, 20),
                   incidents=(("talon_look", 2),) * 10),
         "incident `talon_look`: player 2 is charged with it twice in one deal; an incident played "
         "on is charged once per player and deal (a talon looked at or a hand shown is seen once); "
         "only one that abandons the deal ends it"),
    ):
        sheet.deals[:] = [entry]
        with pytest.raises(EntryError) as err:
            settle_sheet(rules, form, sheet)
        assert message in str(err.value)


def test_the_sheets_question_reads_incidents_played_on() -> None:
    rules, form, sheet = _incident_sheet()
    qs = {q.key: q for q in questions(rules, form, sheet, 0, start_state(rules, form, sheet))}
    q = qs["incidents"]
    assert q.prompt == "table incidents (talon_look, showing_hand: KIND PLAYER, comma-separated; empty: none)"
    assert q.parse("talon_look 2, showing_hand 1", {}) == (("talon_look", 2), ("showing_hand", 1))
    assert q.parse("", {}) == ()
    with pytest.raises(EntryError, match="`misdeal` is not a table incident played on here"):
        q.parse("misdeal 0", {})
    with pytest.raises(EntryError) as err:
        q.parse("talon_look 2, talon_look 2", {})
    assert str(err.value).endswith(
        "`talon_look` is given twice for P2: an incident played on is charged once per player and "
        "deal (a talon looked at or a hand shown is seen once); only one that abandons the deal ends it")
    # two players may each look once, and one player may look and show his hand
    assert q.parse("talon_look 1, talon_look 2, showing_hand 2", {}) == (
        ("talon_look", 1), ("talon_look", 2), ("showing_hand", 2))
    assert q.applies({}) and not _plain_questions()["incidents"].applies({})  # pl-standard: none


def test_an_incident_played_on_may_come_again_after_a_misdeal() -> None:
    # the misdeal abandons the first deal (`redeals: 1`): the talon look before it was in that
    # deal, the one after it in the deal played; each is charged (the bid is 0 before the redeal)
    rules, form, sheet = _incident_sheet()
    sheet.deals.append(DealEntry(dealer=0, declarer=1, bid=120, contract=120, points=(20, 80, 20), redeals=1,
                                 incidents=(("talon_look", 2), ("misdeal", 0), ("talon_look", 2))))
    row = settle_sheet(rules, form, sheet)[-1]
    assert row.notes == ("talon look: player 2 0", "misdeal: player 0 −20", "talon look: player 2 −120",
                         "talon look: player 1 +120", "P1: contract 120 failed")
    assert row.deltas == (0, 0, -100)  # P1: −120 for the contract, +120 for the look


def _plain_questions() -> dict[str, Any]:
    rules = load_ruleset("pl-standard")
    form = rules.form(3)
    sheet = Sheet(ruleset="pl-standard", players=3)
    return {q.key: q for q in questions(rules, form, sheet, 0, start_state(rules, form, sheet))}


@pytest.mark.slow
@pytest.mark.parametrize("incident, deals, called, redeals", [
    ("showing_hand=1", 5, 151, 0),
    ("talon_look=1", 2, 60, 0),
    ("exposed_card=1", 0, 5, 5),
    ("misdeal=1", 0, 5, 5),
    ("misdeal=0.9", 0, 5, 5),
])
def test_an_incident_at_every_decision_ends_within_the_most_deals(
    tmp_path: Path, incident: str, deals: int, called: int, redeals: int
) -> None:
    """A rate of 1 (or 0.9 for a misdeal) used to loop forever: an incident at every decision
    point, no move ever taken, and the redealt deals never counted.  Now one incident per
    decision point at most, and a deal an incident abandons counts against ``--max-deals``."""
    import json
    import subprocess
    import sys

    both = tmp_path / "both.yaml"
    both.write_text(f"id: both\nkind: house\nextends: {HOUSE / 'table-incidents.yaml'}\nname: {{en: both}}\n"
                    "play:\n  revoke:\n    handling: penalise\n    penalty: \"20\"\n")
    kind = incident.partition("=")[0]
    run = subprocess.run(
        [sys.executable, "-m", "tysiac_spec", "--rules-dir", "/", "simulate", str(both), "--games", "1",
         "--max-deals", "5", "--incidents", incident, "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert (data["deals"], data["redeals"]) == (deals, redeals)
    assert data["incidents"][kind]["called"] == called
    assert data["unfinished"] == (0 if kind == "talon_look" else 1)
