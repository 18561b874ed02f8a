"""Copying and pickling a game (issue 16): ``Game.clone()``, ``copy.copy``, ``copy.deepcopy`` and
``pickle`` give a game with the same future, share the compiled form, and never reach back into
the original; a record keeps a deal set by hand and replays it exactly."""

from __future__ import annotations

import copy
import os
import pickle
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FunctionType, MethodType
from typing import Any

import pytest
from _quick import sample

from tysiac_spec import load_ruleset
from tysiac_spec.bots import HeuristicBot
from tysiac_spec.engine.deal_notation import Deal
from tysiac_spec.engine.game import Game
from tysiac_spec.engine.record import Record
from tysiac_spec.engine.replay import replay
from tysiac_spec.engine.state import DealState
from tysiac_spec.errors import IllegalActionError, RecordError
from tysiac_spec.ruleset import registry

ROOT = Path(__file__).resolve().parent.parent

COPIES: dict[str, Callable[[Game], Game]] = {
    "clone": Game.clone,
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
}


def _forms() -> list[tuple[str, int]]:
    return [(e.id, n) for e in registry.entries() for n in load_ruleset(e.id).player_counts]


def _advance(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            return
        game.apply(rng.choice(legal))


def _same_future(a: Game, b: Game, seed: int, steps: int) -> None:
    """Drive ``a`` and ``b`` with the same choices and compare everything at each step."""
    ra, rb = random.Random(seed), random.Random(seed)
    for _ in range(steps):
        la, lb = a.legal_actions(), b.legal_actions()
        assert [str(x) for x in la] == [str(x) for x in lb]
        for p in range(a.players):
            assert a.view(p) == b.view(p)
        if not la:
            break
        a.apply(la[ra.randrange(len(la))])
        b.apply(lb[rb.randrange(len(lb))])
    assert a.snapshot() == b.snapshot()
    assert a.events == b.events and a.deal_scores == b.deal_scores and a.scores == b.scores
    assert a.history == b.history and a.winners == b.winners


@pytest.mark.parametrize(("rules_id", "players"), sample(_forms(), every=4, ids=lambda f: f"{f[0]}-{f[1]}"))
def test_every_kind_of_copy_has_the_same_future(rules_id: str, players: int) -> None:
    game = Game(load_ruleset(rules_id), players=players, seed=11)
    rng = random.Random(4)
    for stop in (0, 23, 61):
        _advance(game, rng, stop)
        before = game.snapshot()
        for name, make in COPIES.items():
            other = make(game)
            assert other.snapshot() == before, name
            reference = Game.clone(game)
            _same_future(other, reference, seed=stop + 1, steps=120)
            assert game.snapshot() == before, f"{name}: playing the copy changed the original"


def test_a_copy_shares_the_compiled_form_and_keeps_the_fast_path() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=2)
    legal = game.legal_actions()
    for name, make in COPIES.items():
        other = make(game)
        assert other.ruleset is game.ruleset and other.form is game.form, name
        assert other.compiled is game.compiled, name
        assert other.deal is not game.deal and other.deal.hands[1] is not game.deal.hands[1], name
        assert all(a is b for a, b in zip(other.deal.hands[1], game.deal.hands[1], strict=True)), name
        # the copy's actions are the form's interned objects (the identity fast path of apply)
        assert [a is b for a, b in zip(other.legal_actions(), legal, strict=True)] == [True] * len(legal), name


def _reaches(value: Any, target: object, seen: set[int]) -> Iterator[str]:
    """Paths from ``value`` to ``target`` through containers, deals, bound methods and closures."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if value is target:
        yield ""
        return
    items: list[tuple[str, Any]] = []
    if isinstance(value, list | tuple | set | frozenset):
        items = [(f"[{i}]", x) for i, x in enumerate(value)]
    elif isinstance(value, dict):
        items = [(f"[{k!r}]", x) for k, x in value.items()]
    elif isinstance(value, DealState):
        items = [(f".{n}", getattr(value, n)) for n in value.__slots__]
    elif isinstance(value, MethodType):
        items = [(".__self__", value.__self__)]
    elif isinstance(value, FunctionType) and value.__closure__:
        items = [(f".<cell {i}>", c.cell_contents) for i, c in enumerate(value.__closure__)]
    for where, x in items:
        for rest in _reaches(x, target, seen):
            yield where + rest


@pytest.mark.parametrize("name", list(COPIES))
def test_no_part_of_a_copy_reaches_the_original(name: str) -> None:
    """The copy's phase functions (closures over the game) are bound to the copy, and its deals
    and lists are its own: nothing the copy holds leads back to the original game or deal."""
    game = Game(load_ruleset("ru-classic"), players=4, seed=3)
    _advance(game, random.Random(1), 30)
    other = COPIES[name](game)
    for key, value in other.__dict__.items():
        paths = list(_reaches(value, game, set())) + list(_reaches(value, game.deal, set()))
        assert not paths, f"{name}: {key}{paths[0]} is the original"


def test_the_random_generator_is_copied() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=9)
    other = game.clone()
    assert other._rng is not game._rng and other._rng.getstate() == game._rng.getstate()
    _advance(game, random.Random(5), 400)  # through several deals: shuffles draw from the generator
    _advance(other, random.Random(5), 400)
    assert other.snapshot() == game.snapshot() and len(game.deal_scores) >= 2


def test_a_finished_match_copies_with_its_last_deal() -> None:
    rules = load_ruleset("pl-standard")
    game = Game(rules, players=3, seed=9)
    bots = [HeuristicBot(p, rules.form(3)) for p in range(3)]
    game.set_match_state(scores=[900, 900, 900])
    while not game.is_over:
        p = game.current_player
        game.apply(bots[p].choose(game.view(p), game.legal_actions()))
    assert game.last_deal is game.deal
    for name, make in COPIES.items():
        other = make(game)
        assert other.is_over and other.winners == game.winners, name
        assert other.last_deal is other.deal and other.deal is not game.deal, name
        assert other.snapshot() == game.snapshot(), name


def test_the_bound_attributes_are_found_not_kept_by_hand() -> None:
    """``Game._BOUND``: what ``Game._bind`` makes from the ruleset and player count, the same
    names for every form (so that a pickle leaves out the same ones), and none of the state."""
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    assert Game._BOUND is not None and Game._BOUND <= set(vars(game))
    state = set(vars(game)) - Game._BOUND  # (every attribute made after _bind is state)
    assert state == {"seed", "_rng", "deal_scores", "history", "events", "last_deal", "_over",
                     "_dealer", "_match", "deal", "passed_out", "_passed_run"}
    for rules_id, players in (("ru-online", 4), ("house-five-up", 3), ("pl-standard", 2)):
        bare = Game.__new__(Game)
        bare._bind(load_ruleset(rules_id), players)
        assert set(vars(bare)) == Game._BOUND, rules_id
    assert {"compiled", "_on", "_phases", "_legal"} <= Game._BOUND


def test_a_pickle_names_the_ruleset_not_its_compiled_closures() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1, options={"five_rounds": "up"})
    data = pickle.dumps(game)
    assert b"pl-standard" in data and b"five_rounds" in data
    assert b"tysiac_spec.ruleset" not in data and b"compile" not in data
    assert len(data) < 8000


def test_a_house_file_game_pickles_by_path_and_a_changed_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "barrel-900.yaml"
    shutil.copy(ROOT / "examples" / "house" / "barrel-900.yaml", path)
    game = Game(load_ruleset(path), players=3, seed=4)
    _advance(game, random.Random(2), 25)
    data = pickle.dumps(game)
    assert str(path).encode() in data  # a house file is named by its path, as a record names it
    loaded = pickle.loads(data)
    assert loaded.snapshot() == game.snapshot() and loaded.ruleset is game.ruleset
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("threshold: {value: 900", "threshold: {value: 880"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, (stat.st_atime + 5, stat.st_mtime + 5))
    with pytest.raises(RecordError) as info:
        pickle.loads(data)
    assert info.value.diagnostic.code == "record.hash"


def test_a_game_of_a_ruleset_loaded_by_a_relative_path_unpickles_after_a_change_of_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "house").mkdir()
    shutil.copy(ROOT / "examples" / "house" / "barrel-900.yaml", tmp_path / "house" / "b.yaml")
    monkeypatch.chdir(tmp_path)
    game = Game(load_ruleset("house/b.yaml"), players=3, seed=4)
    _advance(game, random.Random(2), 25)
    data = pickle.dumps(game)
    assert str((tmp_path / "house" / "b.yaml").resolve()).encode() in data
    monkeypatch.chdir(ROOT)
    loaded = pickle.loads(data)
    assert loaded.snapshot() == game.snapshot()
    assert loaded.ruleset.content_hash == game.ruleset.content_hash


def test_a_game_of_a_ruleset_loaded_from_text_is_refused_at_pickling() -> None:
    text = (ROOT / "examples" / "house" / "barrel-900.yaml").read_text(encoding="utf-8")
    game = Game(load_ruleset("x", text=text), players=3, seed=4)
    with pytest.raises(RecordError) as info:
        pickle.dumps(game)
    d = info.value.diagnostic
    assert d.code == "record.pickle"
    assert d.message == (
        f"a game of the ruleset `{game.ruleset.id}` loaded from text (as `x`) cannot be pickled: a "
        "pickled game names its ruleset by its file or shipped id, to load it again"
    )
    assert d.hint == "write the text to a .yaml file and load it with load_ruleset(path)"


# --------------------------------------------------------------------------- hand-set deals in records


HANDS = "0:KC QC JC 9C AD TD KD / AH TH KH QH JH 9H 9S / AS TS KS QS JS AC TC | QD JD 9D"


def test_a_record_keeps_a_hand_set_deal_and_replays_it_exactly() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    game.start_deal(HANDS)
    _advance(game, random.Random(3), 60)
    record = game.record
    assert record.deals == ((0, HANDS),)
    again = replay(Record.from_json(record.to_json()))
    assert again.snapshot() == game.snapshot()
    assert again.record == record


def test_a_copy_keeps_the_hand_set_deals_in_its_record() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    game.start_deal(HANDS)
    _advance(game, random.Random(3), 10)
    for name, make in COPIES.items():
        assert make(game).record == game.record, name
    pair = copy.deepcopy([game, game])
    assert pair[0] is pair[1] and pair[0] is not game


def test_a_deal_set_by_hand_in_the_middle_of_a_match_replays_at_its_place() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    _advance(game, random.Random(3), 7)
    game.start_deal(HANDS.replace("0:", "2:"))
    _advance(game, random.Random(4), 40)
    game.start_deal(HANDS)  # after the last action: kept at the record's end
    record = game.record
    assert record.deals == ((7, HANDS.replace("0:", "2:")), (47, HANDS))
    assert len(record.actions) == 47
    assert replay(Record.from_json(record.to_json())).snapshot() == game.snapshot()


def test_before_the_fix_a_stacked_record_replayed_another_deal() -> None:
    """The record without its ``deals`` (as records were) replays the seeded shuffle instead."""
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    game.start_deal(HANDS)
    seeded = replay(Record.from_json(game.record.to_json()).__class__(
        ruleset="pl-standard", content_hash=game.ruleset.content_hash, players=3, seed=1))
    assert seeded.deal.hands != game.deal.hands
    assert replay(game.record).deal.hands == game.deal.hands


def test_start_deal_takes_a_deal_or_its_text() -> None:
    rules = load_ruleset("pl-standard")
    a, b, c = (Game(rules, players=3, seed=1) for _ in range(3))
    a.start_deal(HANDS)
    b.start_deal(Deal.parse(HANDS))
    c.start_deal(hands={0: "KC QC JC 9C AD TD KD", 1: "AH TH KH QH JH 9H 9S", 2: "AS TS KS QS JS AC TC"},
                 talons=["QD JD 9D"])
    assert a.snapshot() == b.snapshot() == c.snapshot()
    with pytest.raises(IllegalActionError, match="give the deal or its hands and talons, not both"):
        a.start_deal(HANDS, dealer=1)
    with pytest.raises(IllegalActionError, match="the deal gives 2 hand"):
        a.start_deal("0:AS / KS | QD")
    with pytest.raises(IllegalActionError, match="dealer 5 is not a seat"):
        a.start_deal(HANDS.replace("0:", "5:"))


def test_a_four_player_deal_with_a_sitter_round_trips() -> None:
    rules = load_ruleset("pl-standard")
    game = Game(rules, players=4, seed=2)
    sitter = game.deal.sitter
    assert sitter is not None
    hands = {p: game.deal.hands[p] for p in game.deal.order}
    written = Deal.of(game.deal.dealer, hands, game.deal.talons, players=4)
    assert written.hands[sitter] == ()
    other = Game(rules, players=4, seed=99)
    other.start_deal(str(written))
    assert other.deal.hands == game.deal.hands and other.deal.talons == game.deal.talons
    assert replay(other.record).deal.hands == game.deal.hands


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('[{"at": 0}]', "`deals[0]` must be an object with the keys `at` and `deal` (got the keys `at`)"),
        ('[[0, "0:AS"]]', "`deals[0]` must be an object with the keys `at` and `deal` (got a list)"),
        ('[{"at": 3, "deal": "0:AS | KS"}]', "`deals[0]`: `at` must be an action count from 0 to 0 (got 3)"),
        ('[{"at": 0, "deal": 5}]', "`deals[0]`: `deal` must be a text in deal notation (got 5)"),
        ('[{"at": 0, "deal": "0 AS"}]',
         "`deals[0]`: a deal opens with the dealer's seat and a colon (`0:…`) (column 1)"),
        ('"x"', "`deals` must be a list (got \"x\")"),
    ],
)
def test_bad_deal_entries_in_a_record(entry: str, message: str) -> None:
    text = ('{"format": "tysiac-record/1", "ruleset": "pl-standard", "content_hash": "x", "options": {}, '
            f'"players": 3, "seed": 1, "deals": {entry}, "actions": []}}')
    with pytest.raises(RecordError) as info:
        Record.from_json(text)
    assert info.value.diagnostic.message == message


def test_a_deal_the_ruleset_refuses_is_a_record_deal_error() -> None:
    rules = load_ruleset("pl-standard")
    record = Record(ruleset="pl-standard", content_hash=rules.content_hash, players=3, seed=1,
                    deals=((0, "0:AS | KS"),))
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.diagnostic.code == "record.deal"
    assert info.value.diagnostic.message.startswith("`deals[0]` `0:AS | KS` cannot be dealt: stacked deal:")


@pytest.mark.parametrize("house", ["misere", "slam", "open-hand"])
def test_a_copy_in_the_play_of_a_named_contract_has_the_same_future(house: str) -> None:
    # the play of a named kind (contract.kinds) is pointed at the kind's own legal plays; a copy
    # and a pickle taken in the middle of it keep them (misère: no trump, no marriage)
    rules = load_ruleset(str(ROOT / "examples" / "house" / f"{house}.yaml"))
    rng = random.Random(0)
    for seed in range(400):
        game = Game(rules, players=3, seed=seed)
        for _ in range(60):
            legal = game.legal_actions()
            named = [a for a in legal if str(a) == f"bid {rules.forms[3].contract.kinds[0].id}"]
            game.apply(named[0] if named else rng.choice(legal))
            d = game.deal
            if game.phase == "play" and d.kind is not None and not d.trick and d.current == d.declarer:
                ranks = {(c.rank.id, c.suit_id) for c in d.hands[d.current]}
                if any(("king", s) in ranks and ("queen", s) in ranks for _, s in ranks):
                    break  # the declarer leads holding a marriage he may not declare
        else:
            continue
        before = game.snapshot()
        for name, make in COPIES.items():
            other = make(game)
            assert other.snapshot() == before, name
            assert not any("marriage" in str(a) for a in other.legal_actions()), name
            _same_future(other, Game.clone(game), seed=seed, steps=120)
        return
    pytest.fail(f"no deal of {house} reached the play of its named contract")
