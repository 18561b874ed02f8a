"""Nothing accepted that is not played (issue 26, items 15, 16, 18, 19): combinations and
formulas that would validate and then never play, or fail in play, are refused when the
ruleset is loaded, naming the fields and the range that goes wrong (:mod:`.ruleset.checks.ranges`,
``marriages.before-play``, ``match.target-tied``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysiac_spec import load_ruleset
from tysiac_spec.errors import RulesetError


def _refused(tmp_path: Path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "house.yaml"
    path.write_text("id: house-x\nkind: house\nname: {en: x}\n" + text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    return [(d.code, d.message) for d in info.value.diagnostics]


def _loads(tmp_path: Path, text: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("id: house-x\nkind: house\nname: {en: x}\n" + text, encoding="utf-8")
    load_ruleset(path)


def test_division_by_tricks_that_can_be_zero(tmp_path: Path) -> None:
    # a declarer can take no trick (tricks from 0), so 100 // tricks can divide by 0
    found = _refused(tmp_path, 'extends: pl-standard\nscoring:\n  declarer: "100 // tricks"\n')
    assert ("formula.range",
            "`scoring.declarer`: `100 // tricks` divides by a value that can be 0 (from 0 to 24)") in found
    _loads(tmp_path, 'extends: pl-standard\nscoring:\n  declarer: "100 // (tricks + 1)"\n')


def test_revoke_penalty_beyond_the_range(tmp_path: Path) -> None:
    # pl-standard's bids stop at 360 (3 and 4 players): 360 * 10**10 leaves the range
    text = ("extends: pl-standard\nplay:\n  revoke:\n    handling: penalise\n"
            '    penalty: "bid * 10000000000"\n')
    found = _refused(tmp_path, text)
    assert ("formula.range", "`play.revoke.penalty`: `bid * 10000000000` can reach "
            "3,600,000,000,000, outside the range of numbers (-1,000,000,000,000 to "
            "1,000,000,000,000)") in found
    _loads(tmp_path, text.replace("10000000000", "1000"))


def test_doubled_marriage_above_the_ceiling(tmp_path: Path) -> None:
    # ru-online without its 420 cap and without a bid formula: bids stop at the ceiling
    # 120 + 280 = 400, below a deal with a doubled hearts marriage
    text = ('extends: ru-online\nauction:\n  cap: null\nmarriages:\n'
            '  value: "value * 2"\n')
    found = _refused(tmp_path, text)
    assert ("marriages.ceiling", "`marriages.value`: a marriage can be worth up to 200, more "
            "than the 100 of `marriages.values`, but bids and contracts stop at the ceiling 400 "
            "(card points plus `marriages.values`), as neither `auction.cap` nor "
            "`auction.max_bid` is set") in found
    _loads(tmp_path, text.replace("cap: null", "cap: 680"))


def test_rebuy_price_never_above_the_bid(tmp_path: Path) -> None:
    # the contract is sold only above the winning bid; `bid` never is
    text = ("extends: ru-online\ntalon:\n  rebuy:\n    enabled: true\n    price: \"bid\"\n")
    found = _refused(tmp_path, text)
    assert ("talon.rebuy-price", "`talon.rebuy.price`: the price is never above the winning bid "
            "(bids 100 to 420), so the contract is never offered for sale (`talon.rebuy.enabled`)") in found
    # a fixed 100 (the lowest bid) neither; bid + 5 and the house example's 240 are offered
    assert [c for c, _ in _refused(tmp_path, text.replace('"bid"', '"100"'))] == ["talon.rebuy-price"]
    _loads(tmp_path, text.replace('"bid"', '"bid + 5"'))
    _loads(tmp_path, text.replace('"bid"', '"240"'))


def test_marriages_before_play_needing_a_won_trick(tmp_path: Path) -> None:
    # ru-classic: marriages only after a won trick; declared only before the first trick, none
    # could ever be
    found = _refused(tmp_path, "extends: ru-classic\nmarriages:\n  declared_by: before_play\n")
    assert ("marriages.before-play",
            "`marriages.declared_by` is `before_play`, but `marriages.requires_won_trick` is on: "
            "before the first trick nobody has won one, so no marriage could ever be declared") in found
    _loads(tmp_path, "extends: ru-classic\noptions:\n  first_trick_marriage: {$delete: true}\n"
           "marriages:\n  declared_by: before_play\n  requires_won_trick: false\n"
           "  declarer_first_lead: true\n")


def test_the_990_cap_follows_the_target(tmp_path: Path) -> None:
    # pl-standard: a non-declarer passing the target is written 990 (S000); with a target of
    # 500 that would be a win
    found = _refused(tmp_path, "extends: pl-standard\nmatch:\n  target: 500\n")
    assert ("match.target-tied", "`match.finishing.cap` is 990, not below the target 500: a "
            "non-declarer stopped there would reach the target") in found
    _loads(tmp_path, "extends: pl-standard\nmatch:\n  target: 500\n  finishing: {cap: 490}\n")


def test_the_barrel_goal_follows_the_target(tmp_path: Path) -> None:
    # ru-classic: barrel at 880, goal 120, target 1000; a target of 1500 is out of reach
    found = _refused(tmp_path, "extends: ru-classic\nmatch:\n  target: 1500\n")
    assert ("match.target-tied", "`special.barrel.goal` is 120: from the barrel at 880 it "
            "reaches 1000, short of the target 1500") in found


@pytest.mark.parametrize(("text", "code", "message"), [
    ("extends: ru-online\ntalon:\n  rebuy:\n    bidding: auction\n", "talon.rebuy-inert",
     "`talon.rebuy.bidding` is `auction`, but the contract may not be bought (`talon.rebuy.enabled` "
     "is false), so it changes nothing"),
    ("extends: pl-standard\ndeal:\n  cut:\n    swap: true\n", "deal.cut-swap",
     "`deal.cut.swap` is true, but the cut is not checked (`deal.cut.enabled` is false), so it "
     "changes nothing"),
    ("extends: pl-standard\ndeal:\n  cut:\n    enabled: true\n    swap: true\n"
     "    bad_ranks: [ace, ten, king, queen, jack, nine]\n", "deal.cut-swap",
     "`deal.cut.swap` is true, but `deal.cut.bad_ranks` names every rank of the deck (ace, ten, "
     "king, queen, jack, nine): no card could be swapped with a bad bottom card"),
    ("extends: pl-standard\nmatch:\n  finishing:\n    tie_score: below_target\n", "match.tie-score",
     "`match.finishing.tie_score` is `below_target`, but `match.finishing.tie_raise` is 0: no tie "
     "raises the target, so no score is ever set below it"),
    ("extends: ru-online\ntalon:\n  rebuy:\n    enabled: true\n    price: \"100000\"\n", "talon.rebuy-price",
     "`talon.rebuy.price`: the price is at least 100000, above the highest contract a deal can make "
     "(420), so a buyer could never make the contract"),
    ("extends: ru-online\ntalon:\n  rebuy:\n    enabled: true\n    bidding: auction\n    price: \"100000\"\n",
     "talon.rebuy-price",
     "`talon.rebuy.price`: the price is at least 100000, above the highest contract a deal can make "
     "(420), so no re-buy bid can ever be made (`talon.rebuy.bidding: auction`)"),
    ("extends: ru-online\nspecial:\n  golden_round: {auction: true, contract: 2000}\n",
     "special.golden-contract",
     "`special.golden_round.contract` is 2000, above the most a deal can make, 420 (`auction.cap`; "
     "120 card points and 280 in marriages make 400): nobody could ever make it"),
    ("extends: pl-standard\nspecial:\n  golden_round: {enabled: true, contract: 500}\n",
     "special.golden-contract",
     "`special.golden_round.contract` is 500, above the most a deal can make, 400 (120 card points "
     "and 280 in marriages): nobody could ever make it"),
])
def test_fields_that_would_change_nothing_are_refused(tmp_path: Path, text: str, code: str,
                                                     message: str) -> None:
    assert (code, message) in _refused(tmp_path, text)


def test_the_same_fields_where_they_change_play_load(tmp_path: Path) -> None:
    _loads(tmp_path, "extends: ru-online\ntalon:\n  rebuy:\n    enabled: true\n    bidding: auction\n"
                     "    price: \"bid + 10\"\n")
    _loads(tmp_path, "extends: pl-standard\ndeal:\n  cut:\n    enabled: true\n    swap: true\n")
    _loads(tmp_path, "extends: pl-standard\nmatch:\n  finishing:\n    tie: continue\n    tie_raise: 500\n"
                     "    tie_score: below_target\n")
    _loads(tmp_path, "extends: ru-online\ntalon:\n  rebuy:\n    enabled: true\n    price: \"420\"\n")
    _loads(tmp_path, "extends: ru-online\nspecial:\n  golden_round: {auction: true, contract: 420}\n")
