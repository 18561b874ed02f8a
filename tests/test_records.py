"""Game records: JSON round trips, replay, transcripts, and clear errors for bad records."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysiac_spec import load_ruleset
from tysiac_spec.engine.actions import Action
from tysiac_spec.engine.game import Game
from tysiac_spec.engine.record import FORMAT, Record, TableSetup, record_of
from tysiac_spec.engine.replay import replay
from tysiac_spec.errors import RecordError, TysiacError
from tysiac_spec.ruleset import registry
from tysiac_spec.text import signed
from tysiac_spec.transcript import transcript


def _play(rules_id: str, players: int, seed: int, *, deals: int = 1, limit: int = 400,
          options: dict[str, object] | None = None) -> Game:
    """A game of random legal actions (the generator seeded by ``seed``) until ``deals`` deals
    are scored, the match ends or ``limit`` actions are applied."""
    game = Game(load_ruleset(rules_id), players=players, seed=seed, options=options)
    rng = random.Random(seed)
    while not game.is_over and len(game.deal_scores) < deals and len(game.history) < limit:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _forms() -> list[tuple[str, int]]:
    out = []
    for entry in registry.entries():
        rules = load_ruleset(entry.id)
        out += [(entry.id, n) for n in rules.player_counts]
    return out


FORMS = _forms()


def test_every_shipped_variant_has_forms_to_replay() -> None:
    assert ("pl-standard", 3) in FORMS and ("ru-online", 3) in FORMS


# --------------------------------------------------------------------------- round trips


def test_record_of_a_game() -> None:
    game = _play("pl-standard", 3, 7)
    record = game.record
    rules = load_ruleset("pl-standard")
    assert record.format == FORMAT == "tysiac-record/1"
    assert record.ruleset == "pl-standard"
    assert record.ruleset_file is None  # shipped
    assert record.content_hash == rules.content_hash
    assert record.options == dict(rules.selected)
    assert (record.players, record.seed) == (3, 7)
    assert record.actions == tuple(game.history)
    assert record.actions[0].startswith("bid ")


def test_json_round_trip_and_shape() -> None:
    record = _play("pl-standard", 3, 7).record
    text = record.to_json()
    assert Record.from_json(text) == record
    data = json.loads(text)
    assert list(data) == [
        "format", "ruleset", "ruleset_file", "content_hash", "options", "players", "seed", "actions",
    ]
    assert data["actions"] == list(record.actions)
    assert text.endswith("}\n")


def test_a_small_record_as_exact_json() -> None:
    record = Record(ruleset="pl-standard", content_hash="abc", players=3, seed=1,
                    options={"five_rounds": "down"}, actions=("bid 100", "pass"))
    assert record.to_json() == (
        '{\n  "format": "tysiac-record/1",\n  "ruleset": "pl-standard",\n  "ruleset_file": null,\n'
        '  "content_hash": "abc",\n  "options": {\n    "five_rounds": "down"\n  },\n  "players": 3,\n'
        '  "seed": 1,\n  "actions": [\n    "bid 100",\n    "pass"\n  ]\n}\n'
    )


@pytest.mark.parametrize(("ruleset", "players"), FORMS, ids=[f"{r}-{n}p" for r, n in FORMS])
def test_replay_gives_the_same_game(ruleset: str, players: int) -> None:
    game = _play(ruleset, players, 11, deals=2)
    assert game.deal_scores, "no deal was scored"
    again = replay(Record.from_json(game.record.to_json()))
    assert again.history == game.history
    assert again.scores == game.scores
    assert again.deal_scores == game.deal_scores
    assert again.events == game.events
    assert again.state_text() == game.state_text()
    assert transcript(again) == transcript(game)
    assert again.record == game.record


def test_a_ruleset_file_is_recorded_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8")
    game = Game(load_ruleset(path), players=3, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    record = game.record
    assert record.ruleset == "mine" and record.ruleset_file == str(path)
    assert replay(record).state_text() == game.state_text()
    # the file changes: the record no longer matches it
    path.write_text(path.read_text(encoding="utf-8") + "match: {target: 500, finishing: {cap: 490}}\n", encoding="utf-8")
    changed = load_ruleset(path).content_hash
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.diagnostic.code == "record.hash"
    assert info.value.diagnostic.message == (
        f"ruleset `mine` has changed since the game was recorded: its content hash is {changed}, "
        f"the record's is {record.content_hash}"
    )


def test_options_are_recorded() -> None:
    game = _play("pl-standard", 3, 5, options={"five_rounds": "up"})
    assert game.record.options["five_rounds"] == "up"
    assert replay(game.record).ruleset.selected["five_rounds"] == "up"


# --------------------------------------------------------------------------- replay errors


def test_hash_mismatch() -> None:
    rules = load_ruleset("pl-standard")
    record = Record(ruleset="pl-standard", content_hash="0000", players=3, seed=1,
                    options=dict(rules.selected))
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value) == (
        "error[record.hash]: ruleset `pl-standard` has changed since the game was recorded: its "
        f"content hash is {rules.content_hash}, the record's is 0000"
    )
    with pytest.raises(RecordError) as info:
        transcript(record)
    assert info.value.diagnostic.code == "record.hash"


def test_an_illegal_action_names_its_index_and_the_reason() -> None:
    good = _play("pl-standard", 3, 2).record
    bad = Record(ruleset=good.ruleset, content_hash=good.content_hash, players=3, seed=2,
                 options=good.options, actions=(*good.actions[:2], "bid 105"))
    with pytest.raises(RecordError) as info:
        replay(bad)
    message = info.value.diagnostic.message
    assert info.value.diagnostic.code == "record.action"
    assert message.startswith("action 3 of 3 `bid 105` cannot be replayed: `bid 105` is not legal for player ")
    assert message.endswith("bids are multiples of 10")


def test_an_unparsable_action() -> None:
    good = _play("pl-standard", 3, 2).record
    bad = Record(ruleset=good.ruleset, content_hash=good.content_hash, players=3, seed=2,
                 options=good.options, actions=("play ZZ",))
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert info.value.diagnostic.message.startswith("action 1 of 1 `play ZZ` cannot be replayed: `ZZ` is not a card")


def test_an_unknown_ruleset_or_player_count() -> None:
    with pytest.raises(RecordError) as info:
        replay(Record(ruleset="nope", content_hash="x", players=3, seed=1))
    assert info.value.diagnostic.message.startswith(
        "the record's ruleset `nope` cannot be loaded: unknown ruleset `nope`; known: "
    )
    with pytest.raises(RecordError) as info:
        replay(Record(ruleset="pl-standard", content_hash="x", players=7, seed=1))
    assert info.value.diagnostic.message == (
        "the record's ruleset `pl-standard` cannot be loaded: ruleset `pl-standard` has no 7-player "
        "form; it defines 2, 3, 4"
    )


# --------------------------------------------------------------------------- malformed records

GOOD = json.loads(Record(ruleset="pl-standard", content_hash="abc", players=3, seed=1).to_json())


def _with(**changes: object) -> str:
    data = {**GOOD, **changes}
    return json.dumps({k: v for k, v in data.items() if v is not _DROP})


_DROP = object()
TABLE = {"seat": 1, "bots": "heuristic", "bot_seed": 7}


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("{", "record.json",
         "the record is not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2)"),
        ("[1, 2]", "record.shape", "a record must be a JSON object (got a list)"),
        (_with(moves=[]), "record.unknown-key", "unknown key `moves` in the record"),
        (_with(seed=_DROP), "record.missing", "the record is missing the key `seed`"),
        (_with(players="3"), "record.type", '`players` must be an integer (got "3")'),
        (_with(players=True), "record.type", "`players` must be an integer (got true)"),
        (_with(actions="bid 100"), "record.type", '`actions` must be a list (got "bid 100")'),
        (_with(actions=["bid 100", 7]), "record.type", "`actions[1]` must be a text (got 7)"),
        (_with(options={"x": [1]}), "record.type",
         "option `x` must be a text, an integer or true/false (got a list)"),
        (_with(ruleset_file=3), "record.type", "`ruleset_file` must be a text or null (got 3)"),
        (_with(format="tysiac-record/9"), "record.format",
         "unsupported record format `tysiac-record/9` (expected `tysiac-record/1`)"),
        (_with(table=[1]), "record.type", "`table` must be an object or null (got a list)"),
        (_with(table={**TABLE, "colour": "red"}), "record.unknown-key",
         "unknown key `colour` in the record's `table`"),
        (_with(table={"seat": 1, "bots": "random"}), "record.missing",
         "the record's `table` is missing the key `bot_seed`"),
        (_with(table={**TABLE, "seat": "1"}), "record.type", '`table.seat` must be an integer (got "1")'),
        (_with(table={**TABLE, "bot_seed": True}), "record.type",
         "`table.bot_seed` must be an integer (got true)"),
        (_with(table={**TABLE, "bots": 2}), "record.type", "`table.bots` must be a text (got 2)"),
        (_with(table={**TABLE, "seat": 3}), "record.table",
         "`table.seat` is 3, but the game has 3 players (seats 0 to 2)"),
        (_with(table={**TABLE, "bots": " "}), "record.table",
         "`table.bots` must name the kind of bots (got an empty text)"),
        # the bound play --seed takes (record.SEED_MAX)
        (_with(seed=-5), "record.seed", "`seed` must be a seed from 0 to 999,999,999,999,999,999 (got -5)"),
        (_with(table={**TABLE, "bot_seed": -1}), "record.seed",
         "`table.bot_seed` must be a seed from 0 to 999,999,999,999,999,999 (got -1)"),
    ],
    ids=["json", "shape", "unknown", "missing", "type-text", "type-bool", "type-list", "type-item",
         "type-option", "type-file", "format", "table-shape", "table-unknown", "table-missing",
         "table-seat-type", "table-seed-type", "table-bots-type", "table-seat-range", "table-bots-empty",
         "seed-negative", "bot-seed-negative"],
)
def test_malformed_records(text: str, code: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        Record.from_json(text)
    assert info.value.diagnostic.code == code
    assert info.value.diagnostic.message == message


def test_ruleset_file_may_be_left_out() -> None:
    text = json.dumps({k: v for k, v in GOOD.items() if k != "ruleset_file"})
    assert Record.from_json(text).ruleset_file is None


# --------------------------------------------------------------------------- the table section


def test_table_section_round_trip_and_exact_json() -> None:
    table = TableSetup(seat=1, bots="heuristic", bot_seed=7)
    record = Record(ruleset="pl-standard", content_hash="abc", players=3, seed=1, actions=("bid 100",),
                    table=table)
    text = record.to_json()
    assert text == (
        '{\n  "format": "tysiac-record/1",\n  "ruleset": "pl-standard",\n  "ruleset_file": null,\n'
        '  "content_hash": "abc",\n  "options": {},\n  "players": 3,\n  "seed": 1,\n'
        '  "table": {\n    "seat": 1,\n    "bots": "heuristic",\n    "bot_seed": 7\n  },\n'
        '  "actions": [\n    "bid 100"\n  ]\n}\n'
    )
    assert Record.from_json(text) == record
    assert Record.from_json(text).table == table


def test_a_record_without_table_loads_and_writes_none() -> None:
    assert "table" not in GOOD  # to_json leaves the section out when there is none
    assert Record.from_json(json.dumps(GOOD)).table is None
    assert Record.from_json(_with(table=None)).table is None
    assert Record.from_json(_with(table=TABLE)).table == TableSetup(seat=1, bots="heuristic", bot_seed=7)


def test_record_of_with_a_table_and_replay_watchers() -> None:
    game = _play("pl-standard", 3, 5)
    table = TableSetup(seat=2, bots="random", bot_seed=11)
    record = record_of(game, table=table)
    assert record.table == table
    assert record == replace(game.record, table=table)
    assert game.record.table is None
    seen: list[tuple[int, str]] = []

    def before(g: Game, action: Action) -> None:
        seen.append((len(g.history), str(action)))

    again = replay(record, before=before)
    assert seen == list(enumerate(record.actions))
    assert again.scores == game.scores


# --------------------------------------------------------------------------- transcripts


def test_transcript_shows_the_deal_and_the_play() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    first = game.deal
    hands = {p: " ".join(str(c) for c in first.hands[p]) for p in first.order}
    talon = " ".join(str(c) for c in first.talons[0])
    rng = random.Random(1)
    while not game.deal_scores:
        game.apply(rng.choice(game.legal_actions()))
    text = transcript(game)
    lines = text.splitlines()
    assert lines[0] == "Ruleset pl-standard (Thousand — Polish standard), 3 players, seed 1"
    assert f"Deal 1: dealer P{first.dealer}" in lines
    for p, h in hands.items():
        assert f"  P{p} hand: {h}" in lines
    assert f"  talon: {talon}" in lines
    assert sum(1 for line in lines if line.startswith("  trick ")) == 8
    assert any(line.startswith("  declarer: P") for line in lines)
    row = ", ".join(f"P{p} {signed(v)}" for p, v in enumerate(game.deal_scores[0]))
    assert f"  deal scores: {row}" in lines
    assert "Deal 2: dealer P" in text
    assert transcript(game.record) == text


def test_transcript_names_the_winner(tmp_path: Path) -> None:
    path = tmp_path / "short.yaml"
    path.write_text(
        "id: short\nkind: house\nextends: pl-standard\nname: {en: Short}\nmatch: {target: 150, finishing: {cap: 140}}\n",
        encoding="utf-8",
    )
    game = Game(load_ruleset(path), players=2, seed=3)
    rng = random.Random(3)
    while not game.is_over and len(game.history) < 5_000:
        legal = game.legal_actions()
        passes = [a for a in legal if str(a) == "pass"]
        # cautious bidders (pass, lowest contract) so that declarers make their contracts
        action = passes[0] if passes else legal[0] if game.phase in ("auction", "contract") else rng.choice(legal)
        game.apply(action)
    assert game.is_over
    winner = game.match.winner
    assert transcript(game).splitlines()[-2] == f"Match over: P{winner} wins with {game.scores[winner]} points"


# --------------------------------------------------------------------------- determinism


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), picks=st.lists(st.integers(0, 1000), max_size=40),
       form=st.sampled_from(FORMS))
def test_same_seed_and_actions_give_the_same_record(seed: int, picks: list[int], form: tuple[str, int]) -> None:
    ruleset, players = form
    games = [Game(load_ruleset(ruleset), players=players, seed=seed) for _ in range(2)]
    for pick in picks:
        legal = games[0].legal_actions()
        if not legal:
            break
        action = legal[pick % len(legal)]
        for g in games:
            g.apply(action)
    a, b = (g.record for g in games)
    assert a == b
    assert a.to_json() == b.to_json()
    assert transcript(a) == transcript(b)
    assert replay(a).record == a


def test_a_stacked_game_has_a_transcript_of_its_stacked_deal() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    game.start_deal(hands={1: "AH TH KH QH JH 9H 9S", 2: "AS TS KS QS JS AC TC", 0: "KC QC JC 9C AD TD KD"},
                    talons=["QD JD 9D"], dealer=0)
    assert game.record.deals == ((0, "0:KC QC JC 9C AD TD KD / AH TH KH QH JH 9H 9S / AS TS KS QS JS AC TC "
                                      "| QD JD 9D"),)
    assert "  P1 hand: AH TH KH QH JH 9H 9S\n" in transcript(game)


def test_a_game_with_a_starting_match_state_has_no_transcript() -> None:
    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    game.set_match_state(scores=[100, 200, 300])
    with pytest.raises(RecordError) as info:
        transcript(game)
    assert info.value.diagnostic.message == (
        "the game was set up by hand (a starting match state), so its record does not reproduce it; "
        "transcripts are made of seeded games and deals set by hand"
    )


HANDS = "0:KC QC JC 9C AD TD KD / AH TH KH QH JH 9H 9S / AS TS KS QS JS AC TC | QD JD 9D"


def _played(game: Game, seed: int, actions: int) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_a_transcript_sets_the_deals_set_by_hand_in_the_middle_of_a_match_as_the_replay_does(
    tmp_path: Path,
) -> None:
    from click.testing import CliRunner

    from tysiac_spec.cli import main

    game = Game(load_ruleset("pl-standard"), players=3, seed=1)
    _played(game, 3, 7)
    game.start_deal(HANDS.replace("0:", "2:"))
    _played(game, 4, 40)
    game.start_deal(HANDS)  # no action after it
    record = game.record
    assert record.deals == ((7, HANDS.replace("0:", "2:")), (47, HANDS))
    text = transcript(game)
    assert text == transcript(Record.from_json(record.to_json()))
    deal_2 = text[text.index("\nDeal 2: dealer P2\n"):]
    assert deal_2.startswith(
        "\nDeal 2: dealer P2\n"
        "  P0 hand: AD TD KD KC QC JC 9C\n"
        "  P1 hand: AH TH KH QH JH 9H 9S\n"
        "  P2 hand: AC TC AS TS KS QS JS\n"
        "  talon: QD JD 9D\n"
        "  P0: bid 100\n"
    )
    assert text.endswith(
        "\nDeal 4: dealer P0\n"
        "  P0 hand: AD TD KD KC QC JC 9C\n"
        "  P1 hand: AH TH KH QH JH 9H 9S\n"
        "  P2 hand: AC TC AS TS KS QS JS\n"
        "  talon: QD JD 9D\n"
        "\n"
        "Match not finished (1 deal(s) scored; phase auction, P1 to act)\n"
        "Scores: P0 30, P1 -200, P2 50\n"
    )
    path = tmp_path / "g.json"
    path.write_text(record.to_json(), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == text


# --------------------------------------------------------------------------- untrusted records


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        (_with(seed=0).replace('"seed": 0', '"seed": ' + "7" * 5_000), "limit.int_digits",
         "an integer in a file: 5,000 digits, more than the limit of 18"),
        ("[" * 100_000, "limit.depth",
         "the nesting of a YAML or JSON document: 100,000 levels, more than the limit of 64"),
        (_with(seed=0).replace('"seed": 0', '"seed": NaN'), "record.json",
         "the record is not valid JSON: `NaN` is not a JSON value (NaN and Infinity are refused)"),
        (_with(seed=0).replace('"seed": 0', '"seed": 1, "seed": 2'), "record.json",
         "the record is not valid JSON: the key `seed` is given twice in one object"),
        (_with(actions=["bid 100", "x" * 20_001]), "limit.text_chars",
         "a single text value: 20,001 characters, more than the limit of 20,000"),
        (_with(**{"\x1b[2J" + "k" * 100: 1}), "record.unknown-key",
         f"unknown key `\\x1b[2J{'k' * 53}…(+44 characters)` in the record"),
        (_with(format="f" * 1_000), "record.format",
         f"unsupported record format `{'f' * 60}…(+940 characters)` (expected `tysiac-record/1`)"),
        (_with(players="3" * 1_000), "record.type",
         f'`players` must be an integer (got "{"3" * 60}…(+940 characters)")'),
    ],
    ids=["seed-digits", "depth", "nan", "duplicate-key", "long-action", "control-key", "long-format",
         "long-text"],
)
def test_hostile_records_are_refused_with_short_messages(text: str, code: str, message: str) -> None:
    with pytest.raises(TysiacError) as info:
        Record.from_json(text)
    assert info.value.diagnostic.code == code
    assert info.value.diagnostic.message == message


def test_a_long_action_is_cut_in_the_replay_error() -> None:
    good = _play("pl-standard", 3, 2).record
    bad = replace(good, actions=("bid " + "1" * 10_000,))
    with pytest.raises(RecordError) as info:
        replay(bad)
    assert str(info.value) == (
        f"error[record.action]: action 1 of 1 `bid {'1' * 56}…(+9,944 characters)` cannot be replayed: "
        f"`bid {'1' * 56}…(+9,944 characters)` is not an action: expected a whole number, got "
        f"`{'1' * 60}…(+9,940 characters)`"
    )


def _house(folder: Path, name: str = "mine.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("id: mine\nkind: house\nextends: pl-standard\nname: {en: Mine}\n", encoding="utf-8")
    return path


def test_a_ruleset_file_beside_the_record_is_saved_relative_and_read_from_the_record_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_path = _house(tmp_path / "games" / "house")
    game = Game(load_ruleset(rules_path), players=3, seed=3)
    saved = game.record.saved_at(tmp_path / "games" / "game.json")
    assert saved.ruleset_file == "house/mine.yaml"
    assert saved.source == str(tmp_path / "games" / "game.json")
    (tmp_path / "games" / "game.json").write_text(saved.to_json(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the record's folder, not the current one, is where it looks
    record = Record.read(Path("games/game.json"))
    assert record == saved
    assert replay(record).ruleset.content_hash == game.ruleset.content_hash
    # a ruleset elsewhere is kept as it was named
    elsewhere = game.record.saved_at(tmp_path / "other" / "game.json")
    assert elsewhere.ruleset_file == str(rules_path)


@pytest.mark.parametrize("ref", ["../outside.yaml", "ABSOLUTE"], ids=["dotdot", "absolute"])
def test_a_record_naming_a_ruleset_outside_its_folder_is_refused(tmp_path: Path, ref: str) -> None:
    outside = _house(tmp_path, "outside.yaml")
    ref = str(outside) if ref == "ABSOLUTE" else ref
    content_hash = load_ruleset(outside).content_hash
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "game.json"
    path.write_text(_with(ruleset="mine", ruleset_file=ref, content_hash=content_hash), encoding="utf-8")
    record = Record.read(path)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.diagnostic.code == "registry.outside"
    assert info.value.diagnostic.message == (
        f"the record's ruleset `{ref}` cannot be loaded: `{ref}` is outside the folders a file may "
        "name: a shipped ruleset id, or a file in the naming file's folder or below"
    )
