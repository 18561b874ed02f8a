"""The scoresheet service (``tysiac_spec.scoresheet.service``) for the web table: the same
deals entered through it and typed at ``tysiac score`` give the same sheet, totals and notes;
every write names the version it saw, and a stale one is a conflict that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tysiac_spec.cli import main
from tysiac_spec.errors import EntryError, SaveConflictError
from tysiac_spec.ruleset import load_ruleset
from tysiac_spec.scoresheet import Sheet, settle_sheet
from tysiac_spec.scoresheet.service import FileStore, MemoryStore, ScoresheetService, error_data
from tysiac_spec.text import signed

ROOT = Path(__file__).resolve().parents[1]

PL_DEALS = [
    ["1", "100", "150", "8 107 5", "1:S"],
    ["2", "110", "120", "24 26 70", "2:H"],
    ["0", "100", "", "60 40 20", ""],
]
FOUR = [  # 4 players, names; the third deal's two rejected answers are typed again
    ["Ola", "100", "", "60 40 20", "", "AH KH QH"],
    ["2", "110", "120", "25 80 15", "2:D", "AS AC 9D"],
    ["2", "3", "100", "", "30 30 60", "2:S", "3:S", "9H 9S JD"],
]
MISERE = [
    ["0", "misere", "", "0 60 60", "0"],
    ["1", "misere", "", "0 60 60", ""],
    ["2", "", "100", "", "", "20 30 70", ""],
]
CASES = {
    "pl-standard": ("pl-standard", None, PL_DEALS, {}),
    "pl-standard-4": ("pl-standard", None, FOUR, {"players": 4, "names": ["Ala", "Ola", "Ela", "Iza"]}),
    "misere-text": (None, ROOT / "examples/house/misere.yaml", MISERE, {}),
}


def typed_at_the_terminal(tmp_path: Path, ruleset: str, deals: list[list[str]], **table: object) -> tuple[str, Path]:
    path = tmp_path / "cli.json"
    args = ["score", ruleset, "--sheet", str(path)]
    if table.get("players"):
        args += ["--players", str(table["players"])]
    if table.get("names"):
        args += ["--names", ",".join(table["names"])]  # type: ignore[arg-type]
    result = CliRunner().invoke(main, args, input="\n".join(line for deal in deals for line in deal) + "\nquit\n")
    assert result.exit_code == 0, result.output
    return result.output, path


def entered(service: ScoresheetService, key: str, deal: list[str], version: str) -> dict:
    """Answer the service's questions with the deal's lines in turn, as `tysiac score` reads
    them (a rejected answer is asked again, taking the next line); then add the deal."""
    lines = iter(deal)
    answers: dict[str, str] = {}
    while not (reply := service.next_question(key, answers))["done"]:
        answers[reply["key"]] = next(lines)
    assert next(lines, None) is None
    return service.add_deal(key, answers, expected=version)


@pytest.mark.parametrize("case", CASES)
def test_the_service_and_tysiac_score_give_the_same_sheet(tmp_path: Path, case: str) -> None:
    shipped, ruleset_file, deals, table = CASES[case]
    ruleset = shipped or str(ruleset_file)
    out, path = typed_at_the_terminal(tmp_path, ruleset, deals, **table)
    service = ScoresheetService(MemoryStore())
    if ruleset_file is not None:
        view = service.create("t1", ruleset_text=ruleset_file.read_text(encoding="utf-8"), **table)  # type: ignore[arg-type]
    else:
        view = service.create("t1", ruleset=shipped, **table)  # type: ignore[arg-type]
    totals = []
    for deal in deals:
        view = entered(service, "t1", deal, view["version"])
        totals.append("totals: " + "  ".join(f"{n} {signed(s, plus=False)}" for n, s in zip(view["names"], view["totals"], strict=True)))
    assert totals == [line for line in out.splitlines() if line.startswith("totals:")]
    typed = json.loads(path.read_text(encoding="utf-8"))
    assert view["deals"] == typed["deals"]  # the same entries, field for field
    assert json.loads(service.export_sheet("t1")["sheet"])["settled"] == typed["settled"]
    sheet = Sheet.read(path)  # the terminal's sheet settled again: the same rows and notes
    rules = load_ruleset(ruleset, options=sheet.options)
    rows = settle_sheet(rules, rules.form(sheet.players), sheet)
    assert view["rows"] == [{"deltas": list(r.deltas), "scores": list(r.scores), "notes": list(r.notes)}
                            for r in rows]
    for note in (n for row in rows for n in row.notes):
        assert f"  {note}" in out


def test_a_rejected_answer_reads_as_at_the_terminal(tmp_path: Path) -> None:
    service = ScoresheetService(MemoryStore())
    service.create("t", ruleset="pl-standard")
    reply = service.next_question("t", {"declarer": "1", "bid": "105"})
    labels = reply.pop("labels")
    assert reply == {"done": False, "key": "bid", "prompt": "bid", "label": "Bid", "error": {
        "code": "entry.bid", "message": "bids are multiples of 10 (got 105)", "hint": None}}
    assert labels["declarer"] == "Who declared?" and set(labels) >= {"declarer", "bid", "points"}
    result = CliRunner().invoke(main, ["score", "pl-standard", "--sheet", str(tmp_path / "s.json")],
                                input="1\n105\nquit\n")
    assert f"rejected: {reply['error']['message']}" in result.output
    with pytest.raises(EntryError, match="`trump` is not a question of the scoresheet"):
        service.next_question("t", {"declarer": "1", "trump": "H"})
    deal = dict(zip(["declarer", "bid", "contract", "points", "marriages"], PL_DEALS[0], strict=True))
    assert service.next_question("t", deal)["done"] is True
    with pytest.raises(EntryError, match=r"`talon` was not asked for this deal \(asked: bid, contract, "
                       r"declarer, marriages, points\)"):
        service.next_question("t", {**deal, "talon": "AH KH QH"})
    with pytest.raises(EntryError) as info:
        service.add_deal("t", {"declarer": "1", "bid": "105"}, expected=service.view("t")["version"])
    assert error_data(info.value) == {"code": "entry.bid", "message": "bid: bids are multiples of 10 (got 105)",
                                      "hint": None}


@pytest.mark.parametrize("store", ["memory", "files"])
def test_a_stale_version_is_a_conflict_that_changes_nothing(tmp_path: Path, store: str) -> None:
    service = ScoresheetService(MemoryStore() if store == "memory" else FileStore(tmp_path))
    seen = service.create("t", ruleset="pl-standard", names=["Ala", "Ola", "Ela"])["version"]
    after = entered(service, "t", PL_DEALS[0], seen)
    with pytest.raises(SaveConflictError) as info:  # a second table that still holds `seen`
        entered(service, "t", PL_DEALS[1], seen)
    assert info.value.diagnostic.code == "save.conflict"
    with pytest.raises(SaveConflictError):
        service.undo("t", expected=seen)
    with pytest.raises(SaveConflictError, match="a sheet `t` exists already"):
        service.create("t", ruleset="pl-standard")
    assert service.view("t") == after and len(after["deals"]) == 1
    undone = service.undo("t", expected=after["version"])
    assert undone["deals"] == [] and undone["totals"] == [0, 0, 0] and undone["next"]["dealer"] == 0
    if store == "files":  # the store's file is a `tysiac score` sheet
        assert Sheet.read(tmp_path / "t.json").names == ["Ala", "Ola", "Ela"]


def test_export_and_import_go_through_tysiac_score(tmp_path: Path) -> None:
    service = ScoresheetService(MemoryStore())
    view = service.create("t", ruleset="pl-standard")
    for deal in PL_DEALS[:2]:
        view = entered(service, "t", deal, view["version"])
    path = tmp_path / "s.json"
    path.write_text(service.export_sheet("t")["sheet"], encoding="utf-8")
    result = CliRunner().invoke(main, ["score", "--sheet", str(path)], input="\n".join(PL_DEALS[2]) + "\nquit\n")
    assert "(2 deals)" in result.output and "totals: P0 −70  P1 −80  P2 140" in result.output
    back = service.import_sheet("t", path.read_text(encoding="utf-8"), expected=view["version"])
    assert len(back["deals"]) == 3 and back["totals"] == [-70, -80, 140]
    with pytest.raises(EntryError, match="not a scoresheet"):
        service.import_sheet("u", "{}", expected="")
    names = Sheet(ruleset="pl-standard", players=3, names=["1", "Ola", "Ela"]).to_json()
    with pytest.raises(EntryError, match="`1` looks like a seat number"):
        service.import_sheet("u", names, expected="")
    with pytest.raises(EntryError, match="there is no sheet `u`"):
        service.view("u")


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_sheet_goes_on_under_changed_rules_only_when_asked(tmp_path: Path) -> None:
    house = "id: my-house\nkind: house\nextends: pl-standard\nname: {en: My house}\n"
    store = MemoryStore()
    service = ScoresheetService(store)
    view = service.create("t", ruleset_text=house)
    for deal in PL_DEALS[:2]:
        view = entered(service, "t", deal, view["version"])
    store.texts["t.ruleset"] = house.replace("My house", "Our house")  # a new name: nothing scores
    assert service.view("t")["totals"] == [30, -120, 120]
    store.texts["t.ruleset"] = house + "match:\n  target: {value: 300, reason: House.}\n  finishing: {cap: 290}\n"
    with pytest.raises(EntryError) as info:
        service.view("t")
    assert info.value.diagnostic.message.startswith("the rules of `my-house` changed (match) since t was last saved")
    view = service.go_on_under_new_rules("t", expected=view["version"])
    assert view["carried"] == 2 and view["totals"] == [30, -120, 120]
    view = entered(service, "t", ["2", "100", "", "0 20 100", ""], view["version"])
    view = entered(service, "t", ["0", "100", "", "100 10 10", ""], view["version"])
    assert view["totals"] == [130, -90, 230] and view["winner"] is None
    view = entered(service, "t", ["2", "100", "", "10 10 100", ""], view["version"])
    assert view["totals"] == [140, -80, 330] and view["winner"] == 2  # the new target, 300
    for _ in range(3):  # deals 5, 4 and 3 were scored under the new rules
        view = service.undo("t", expected=view["version"])
    assert view["totals"] == [30, -120, 120] and len(view["deals"]) == 2
    with pytest.raises(EntryError, match="deal 2 was scored under the earlier rules; it cannot be removed"):
        service.undo("t", expected=view["version"])
