"""`tysiac play`: input resolution, the table display, and whole matches driven through stdin."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from tysiac_spec import load_ruleset
from tysiac_spec.cli import main
from tysiac_spec.commands.play import run_match
from tysiac_spec.engine import Bid, Game, GiveCard, Pass, PlayCard, parse_action
from tysiac_spec.errors import EntryError
from tysiac_spec.table import (
    choices_text,
    declarations,
    hand_by_suit,
    legal_summary,
    resolve_input,
    sort_hand,
    view_lines,
)

HANDS = {1: "AH KH QH 9H AS KS QS", 2: "TH JH TS JS 9S AD TD", 0: "KD QD JD 9D AC TC KC"}
TALON = ["QC JC 9C"]


def _stacked(ruleset_id: str = "pl-standard") -> Game:
    game = Game(load_ruleset(ruleset_id), players=3, seed=0)
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    return game


def test_sort_hand_by_suit_then_rank() -> None:
    deck = load_ruleset("pl-standard").deck
    cards = deck.parse_many("9S QH AC TH KD AH JS")
    assert [str(c) for c in sort_hand(cards, deck)] == ["AH", "TH", "QH", "KD", "AC", "JS", "9S"]
    assert [(s, [str(c) for c in cs]) for s, cs in hand_by_suit(cards, deck)] == [
        ("hearts", ["AH", "TH", "QH"]),
        ("diamonds", ["KD"]),
        ("clubs", ["AC"]),
        ("spades", ["JS", "9S"]),
    ]


def test_resolve_numbers_text_prefix_and_bare_cards() -> None:
    game = _stacked()
    deck = game.ruleset.deck
    assert game.legal_actions() == [Bid(100)]  # player 1 opens at exactly 100 (S000)
    legal = [Bid(b) for b in range(100, 261, 10)]  # bids 100 … 260, as a later speaker may have
    assert resolve_input("1", legal, deck) == Bid(100)
    assert resolve_input("BID 120", legal, deck) == Bid(120)
    with pytest.raises(EntryError, match=r"choice 99 does not exist: choose 1 to 17"):
        resolve_input("99", legal, deck)
    with pytest.raises(EntryError, match="could mean `bid 100`, `bid 110`"):
        resolve_input("bid", legal, deck)
    assert resolve_input("bid 105", legal, deck) == Bid(105)  # well formed: the game says why not
    with pytest.raises(EntryError, match="`dance` is not an action here"):
        resolve_input("dance", legal, deck)
    # in play: a bare card is the one legal action using it; a lead that may declare a
    # marriage is its plain play, and `declarations` names what the table asks about
    legal_play = [PlayCard(deck.parse("QH")), PlayCard(deck.parse("QH"), True), PlayCard(deck.parse("9H"))]
    assert resolve_input("9h", legal_play, deck) == PlayCard(deck.parse("9H"))
    assert resolve_input("QH", legal_play, deck) == PlayCard(deck.parse("QH"))
    assert resolve_input("play Q", legal_play, deck) == PlayCard(deck.parse("QH"))
    assert resolve_input("play QH", legal_play, deck) == PlayCard(deck.parse("QH"))
    assert declarations(PlayCard(deck.parse("QH")), legal_play) == [PlayCard(deck.parse("QH"), True)]
    assert declarations(PlayCard(deck.parse("9H")), legal_play) == []
    assert declarations(PlayCard(deck.parse("QH"), True), legal_play) == []
    assert resolve_input("play QH m", legal_play, deck) == PlayCard(deck.parse("QH"), True)
    # automatic announcement: `play QH` means the marriage lead
    auto = [PlayCard(deck.parse("QH"), True), PlayCard(deck.parse("9H"))]
    assert resolve_input("play QH", auto, deck) == PlayCard(deck.parse("QH"), True)
    # exchange: a bare card given to one of two players is ambiguous
    gives = [GiveCard(deck.parse("9S"), 1), GiveCard(deck.parse("9S"), 2)]
    with pytest.raises(EntryError, match="could mean `give 9S to 1`, `give 9S to 2`"):
        resolve_input("9S", gives, deck)
    assert resolve_input("give 9s to 2", gives, deck) == gives[1]
    # an illegal but well-formed action is returned, so the game can explain it
    assert resolve_input("pass", [Bid(100)], deck) == Pass()


NOT_A_CARD = "is not a card: write a rank (A T K Q J 9, or 10) then a suit (H D C S or its symbol), e.g. `AH`"


def test_a_token_that_is_no_card_of_the_pack_is_called_so() -> None:
    """`ZZ` (alone, or in an action) is answered with the deck's own wording, not "not an action
    here"; unknown words and the beginnings of action words keep the old answer."""
    deck = load_ruleset("pl-standard").deck
    legal_play = [PlayCard(deck.parse("QH")), PlayCard(deck.parse("9H"))]
    for text, bad in [("ZZ", "ZZ"), ("zz", "zz"), ("8H", "8H"), ("10X", "10X"), ("play ZZ", "ZZ"),
                      ("play ZZ marriage", "ZZ"), ("give ZZ to 1", "ZZ"), ("discard ZZ", "ZZ")]:
        with pytest.raises(EntryError) as info:
            resolve_input(text, legal_play, deck)
        assert info.value.diagnostic.code == "entry.card"
        assert info.value.diagnostic.message == f"`{bad}` {NOT_A_CARD}"
    for text in ("ZZ", "foo", "play ZZ"):  # the auction takes no card: what it takes is said
        with pytest.raises(EntryError) as info:
            resolve_input(text, [Bid(100), Pass()], deck)
        assert info.value.diagnostic.code == "entry.unknown"
        assert info.value.diagnostic.message == f"`{text}` is not an action here; you can: bid 100, pass"
    for word in ("dance", "pa", "Q", "give 9S to x"):
        with pytest.raises(EntryError) as info:
            resolve_input(word, legal_play, deck)
        assert info.value.diagnostic.code == "entry.unknown"
        assert info.value.diagnostic.message == f"`{word}` is not an action here; you can: play QH, play 9H"


def test_legal_summary_says_what_the_phase_takes() -> None:
    deck = load_ruleset("pl-standard").deck
    bids = [Bid(b) for b in range(110, 361, 10)]
    assert legal_summary([*bids, Pass()]) == "bid 110..360 (steps of 10), pass"
    assert legal_summary([Bid(110), Bid(120), Pass()]) == "bid 110, bid 120, pass"
    assert legal_summary([Bid(100), Bid(120), Bid(130), Pass()]) == "bid 100, bid 120, bid 130, pass"
    gives = [GiveCard(c, p) for c in deck.parse_many("AH KH QH JH TH 9H AS") for p in (1, 2)]
    assert legal_summary(gives) == (
        "give AH to 1, give AH to 2, give KH to 1, give KH to 2, give QH to 1, give QH to 2, "
        "give JH to 1, give JH to 2, give TH to 1, give TH to 2, give 9H to 1, give 9H to 2, "
        "… (`?` lists them all)"
    )
    assert legal_summary([]) == "nothing"


def test_view_lines_show_hand_trick_trump_bid_and_legal_cards() -> None:
    game = _stacked()
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.contract, deal.trump, deal.trick_number = "play", 1, 120, "spades", 3
    deal.trick = [(1, deck.parse("QH"))]
    deal.current = 2
    lines = view_lines(game.view(2), deck, game.legal_actions())
    assert "declarer: P1  contract: 120" in lines
    assert "trump: spades" in lines
    assert "trick: P1 QH" in lines
    assert "your hand: hearts: TH JH   diamonds: AD TD   spades: TS JS 9S" in lines
    assert lines[-1] == "legal cards: TH"  # must beat the queen of hearts (S000)
    assert choices_text(game.legal_actions()) == "1) play TH"


def _session(game: Game, lines: list[str], tmp_path: Path, seat: int = 0) -> tuple[int, str]:
    out = io.StringIO()
    feed = iter(lines)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    console = Console(file=out, width=200, highlight=False, soft_wrap=True)
    status = run_match(
        game, seat=seat, bots="random", seed=1, save_to=tmp_path / "game.json", console=console, read_line=read
    )
    return status, out.getvalue()


def test_illegal_card_is_explained_and_state_kept(tmp_path: Path) -> None:
    # cz-standard (S003: follow suit, no duty to beat).  P1 leads AH, P2 follows TH; P0
    # holds JH (swapped with P2's KD) and must follow hearts.
    hands = {1: "AH KH QH 9H AS KS QS", 2: "TH KD TS JS 9S AD TD", 0: "JH QD JD 9D AC TC KC"}
    game = Game(load_ruleset("cz-standard"), players=3, seed=0)
    game.start_deal(hands=hands, talons=TALON, dealer=0)
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.contract, deal.trick_number = "play", 1, 100, 1
    deal.trick = [(1, deck.parse("AH")), (2, deck.parse("TH"))]
    deal.hands[1].remove(deck.parse("AH"))
    deal.hands[2].remove(deck.parse("TH"))
    deal.current = 0
    before = game.snapshot()
    status, text = _session(game, ["play KD", "?", "play 9S", "KD", "JH", "quit"], tmp_path)
    assert "play KD: KD is not in player 0's hand" in text
    assert "play 9S: 9S is not in player 0's hand" in text
    assert "legal actions: 1) play JH" in text
    assert "legal cards: JH" in text
    assert "P0: play JH (you)" in text
    assert "trick P1 AH, P2 TH, P0 JH → P1" in text
    assert "game saved to" in text
    assert status == 0
    assert before[0] != game.snapshot()[0]


def test_must_follow_is_explained(tmp_path: Path) -> None:
    hands = {1: "AH KH QH 9H AS KS QS", 2: "TH KD TS JS 9S AD TD", 0: "JH QD JD 9D AC TC KC"}
    game = Game(load_ruleset("cz-standard"), players=3, seed=0)
    game.start_deal(hands=hands, talons=TALON, dealer=0)
    deck, deal = game.ruleset.deck, game.deal
    deal.phase, deal.declarer, deal.contract, deal.trick_number = "play", 1, 100, 1
    deal.trick = [(1, deck.parse("AH")), (2, deck.parse("TH"))]
    deal.hands[1].remove(deck.parse("AH"))
    deal.hands[2].remove(deck.parse("TH"))
    deal.current = 0
    status, text = _session(game, ["play QD", "quit"], tmp_path)
    assert "play QD: you must follow hearts" in text
    assert game.current_player == 0 and len(game.deal.trick) == 2  # unchanged
    assert status == 0


def test_a_card_not_in_the_pack_is_answered_at_the_table(tmp_path: Path) -> None:
    game = _stacked()
    status, text = _session(game, ["ZZ", "play ZZ", "dance", "quit"], tmp_path, seat=1)
    # the auction takes no card: `ZZ` is answered with what it takes, not "not a card"
    assert "P1> ZZ\n`ZZ` is not an action here; you can: bid 100\n" in text
    assert "P1> play ZZ\n`play ZZ` is not an action here; you can: bid 100\n" in text
    assert "P1> dance\n`dance` is not an action here; you can: bid 100\n" in text
    assert NOT_A_CARD not in text
    assert status == 0 and game.history == []  # nothing was played
    game = _leading_with_marriages()
    status, text = _session(game, ["ZZ", "quit"], tmp_path, seat=1)
    assert f"P1> ZZ\n`ZZ` {NOT_A_CARD}\n" in text  # in play, it has the shape of a card


def _leading_with_marriages() -> Game:
    """pl-standard, P1 (declarer, 120) leads the second trick holding K and Q of hearts and
    of spades: both marriages may be declared."""
    game = _stacked()
    deal = game.deal
    deal.phase, deal.declarer, deal.contract, deal.trick_number, deal.current = "play", 1, 120, 2, 1
    return game


ASK_QS = "`play QS` would forgo the marriage of spades: declare it (`play QS marriage`)? [Y/n] "


def test_a_marriage_lead_typed_without_it_is_asked_about(tmp_path: Path) -> None:
    # `play QS` holding K and Q of spades used to play the queen without the marriage,
    # losing its points with no warning.  Yes is the default; which plays declare is the
    # engine's legal actions' word.
    game = _leading_with_marriages()
    assert PlayCard(game.ruleset.deck.parse("QS"), True) in game.legal_actions()
    status, text = _session(game, ["play QS", "", "quit"], tmp_path, seat=1)
    assert f"P1> play QS\n{ASK_QS}\nP1: play QS marriage (you)\n" in text
    assert str(game.history[0]) == "play QS marriage" and status == 0
    assert "trump: spades\nmarriages: P1 spades\n" in text

    game = _leading_with_marriages()  # the card alone, `maybe`, then no
    status, text = _session(game, ["qs", "maybe", "n", "quit"], tmp_path, seat=1)
    assert (
        f"P1> qs\n{ASK_QS}maybe\n"
        "answer y to play `play QS marriage`, or n to play `play QS` without it\n"
        f"{ASK_QS}n\nP1: play QS (you)\n"
    ) in text
    assert str(game.history[0]) == "play QS"

    game = _leading_with_marriages()  # a choice number is taken as it is; so is `play QS marriage`
    legal = [str(a) for a in game.legal_actions()]
    status, text = _session(game, [str(legal.index("play QS") + 1), "quit"], tmp_path, seat=1)
    assert "[Y/n]" not in text and "P1: play QS (you)\n" in text
    game = _leading_with_marriages()
    status, text = _session(game, ["play KH marriage", "quit"], tmp_path, seat=1)
    assert "[Y/n]" not in text and "P1: play KH marriage (you)\n" in text

    game = _leading_with_marriages()  # the end of the input at the question saves the game
    status, text = _session(game, ["play QS"], tmp_path, seat=1)
    assert text.endswith(f"{ASK_QS}end of input: game saved to {tmp_path / 'game.json'}; "
                         f"resume with: tysiac play --resume {tmp_path / 'game.json'}\n")
    assert status == 0 and game.history == []


def test_input_the_auction_cannot_take_is_answered_with_what_it_can(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out = _play_cli(tmp_path, "pl-standard", "--seed", "3", "--save", str(save),
                          text="foo\nZZ\nplay QS\nquit\n")
    assert code == 0
    assert (
        "choices: 1) bid 110  2) bid 120  3) pass\n"
        "P0> foo\n`foo` is not an action here; you can: bid 110, bid 120, pass\n"
        "P0> ZZ\n`ZZ` is not an action here; you can: bid 110, bid 120, pass\n"
        "P0> play QS\nplay QS: only bids and passes are allowed in the auction\n"
    ) in out


def test_text_shown_at_the_table_cannot_drive_the_terminal(tmp_path: Path) -> None:
    from tysiac_spec.commands.play import Table

    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, soft_wrap=True)
    table = Table(_stacked(), 0, {}, console, input, lambda: "")
    table.say("rules \x1b[2J\x1b]0;pwned\x07 \u202eevil")
    assert out.getvalue() == "rules \\x1b[2J\\x1b]0;pwned\\x07 \\u202eevil\n"


# --------------------------------------------------------------------------- whole matches


def _play_cli(tmp_path: Path, *args: str, lines: int = 3000, text: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input=text if text is not None else "1\n" * lines)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _final(out: str) -> list[int]:
    [line] = [ln for ln in out.splitlines() if ln.startswith("match over: ")]
    return [int(v.replace("−", "-")) for v in re.findall(r"P\d+ (−?\d+)", line)]


@pytest.mark.parametrize(
    ("ruleset", "seed"),
    [("pl-standard", 4), ("ru-online", 2), pytest.param("cz-standard", 9, marks=pytest.mark.slow)],
)
def test_whole_match_through_stdin_matches_the_engine(tmp_path: Path, ruleset: str, seed: int) -> None:
    from tysiac_spec.engine.record import Record
    from tysiac_spec.engine.replay import replay

    save = tmp_path / "game.json"
    code, out = _play_cli(tmp_path, ruleset, "--seed", str(seed), "--save", str(save))
    assert code == 0, out[-2000:]
    assert f"record saved to {save}" in out
    record = Record.from_json(save.read_text(encoding="utf-8"))
    assert (record.ruleset, record.players, record.seed) == (ruleset, 3, seed)
    # the same seed and actions in a fresh engine give the scores printed at the terminal
    game = Game(load_ruleset(ruleset), players=3, seed=seed)
    for action in record.actions:
        game.apply(parse_action(action, game.ruleset.deck))
    assert game.is_over
    assert _final(out) == game.scores == replay(record).scores
    target = game.form.match.target
    assert max(game.scores) >= target
    assert f"winner: P{game.match.winner}" in out
    # every deal's row printed at the terminal is the engine's
    rows = re.findall(r"^deal (\d+) scores: (.*)$", out, flags=re.M)
    assert len(rows) == len(game.deal_scores)
    for (_, row), engine_row in zip(rows, game.deal_scores, strict=True):
        assert [int(v.replace("−", "-")) for v in re.findall(r"P\d+ ([+−]?\d+)", row)] == list(engine_row)


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_pl_standard_deal_rows_follow_s000(tmp_path: Path) -> None:
    """S000 scoring on a whole played match: the declarer scores exactly ± his contract, the
    defenders their points rounded to tens (unless capped at 990, only the declarer finishes)."""
    from tysiac_spec.engine.record import Record
    from tysiac_spec.engine.replay import replay

    save = tmp_path / "game.json"
    code, _ = _play_cli(tmp_path, "pl-standard", "--seed", "4", "--save", str(save))
    assert code == 0
    game = replay(Record.from_json(save.read_text(encoding="utf-8")))
    contracts = {e.deal: (e.player, e.value, e.kind) for e in game.events if e.kind.startswith("contract.")}
    capped = {(e.deal, e.player) for e in game.events if e.kind == "finish.capped"}
    assert len(contracts) == len(game.deal_scores)
    for deal, row in enumerate(game.deal_scores):
        declarer, contract, kind = contracts[deal]
        assert row[declarer] == (contract if kind == "contract.made" else -contract)
        for p, d in enumerate(row):
            if p != declarer and (deal, p) not in capped:
                assert d % 10 == 0 and d >= 0


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_end_of_input_saves_and_resume_finishes(tmp_path: Path) -> None:
    from tysiac_spec.engine.record import Record

    save = tmp_path / "game.json"
    code, out = _play_cli(tmp_path, "pl-standard", "--seed", "5", "--save", str(save), lines=25)
    assert code == 0
    assert f"end of input: game saved to {save}; resume with: tysiac play --resume {save}" in out
    first = Record.from_json(save.read_text(encoding="utf-8"))
    assert first.actions
    code, out = _play_cli(tmp_path, "--resume", str(save))
    assert code == 0
    assert f"resuming {save}: {len(first.actions)} actions" in out
    done = Record.from_json(save.read_text(encoding="utf-8"))
    assert done.actions[: len(first.actions)] == first.actions
    assert "match over: " in out


def test_quit_and_options_and_usage_errors(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out = _play_cli(tmp_path, "pl-standard", "--seed", "1", "--save", str(save), text="?\nquit\n")
    assert code == 0
    assert "legal actions: 1) " in out
    assert f"game saved to {save}" in out
    code, out = _play_cli(tmp_path, "pl-standard", "--seed", "1", "-O", "five_rounds=sideways", text="")
    assert code == 1
    code, out = _play_cli(tmp_path, text="")
    assert code == 2 and "give a ruleset id or path, or --resume FILE" in out


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_ctrl_c_saves_and_exits_130(tmp_path: Path) -> None:
    """A real process interrupted (SIGINT) while waiting for the player saves the record."""
    import os
    import signal
    import subprocess
    import sys

    from tysiac_spec.engine.record import Record

    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "tysiac_spec", "play", "pl-standard", "--seed", "3", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1"},
        # Ctrl-C as at a terminal even when this test runs in a background job, whose
        # children start with SIGINT ignored (Python then keeps ignoring it)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen = ""
    while not seen.endswith("P0> "):
        ch = proc.stdout.read(1)
        assert ch, seen
        seen += ch
    proc.send_signal(signal.SIGINT)
    # wait with its input still open: communicate() would close it at once, and on a busy
    # machine the end of input could reach the reader before the signal (status 0, "end of input")
    proc.wait(timeout=60)
    rest = proc.stdout.read()
    proc.stdin.close()
    assert proc.stderr is not None
    proc.stderr.close()
    assert proc.returncode == 130
    assert f"interrupted: game saved to {save}" in rest
    record = Record.from_json(save.read_text(encoding="utf-8"))
    assert record.seed == 3


@pytest.mark.slow  # about half a second of CPU (quick-loop budget, issue 25)
def test_closed_output_saves_the_record_and_stops_quietly(tmp_path: Path) -> None:
    """`tysiac play … | head`: when the reader of the output goes away mid-game, the record
    holds every action played so far (the same as a stop at the end of the input there), and
    the command stops with click's status for a broken pipe (1), without a traceback."""
    import os
    import subprocess
    import sys

    from tysiac_spec.engine.record import Record

    save = tmp_path / "game.json"
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "tysiac_spec", "play", "pl-standard", "--seed", "3", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    seen, prompts = "", 0
    while prompts < 7:  # the first six prompts are answered with choice 1; the game waits at the 7th
        ch = proc.stdout.read(1)
        assert ch, seen
        seen += ch
        if seen.endswith("P0> "):
            prompts += 1
            if prompts < 7:
                proc.stdin.write("1\n")
                proc.stdin.flush()
    proc.stdout.close()  # the reader goes away; the echo of the next line finds the pipe closed
    proc.stdin.write("1\n")
    proc.stdin.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert err == ""  # no traceback, no "Exception ignored"
    saved = save.read_text(encoding="utf-8")
    assert len(Record.from_json(saved).actions) > 6
    assert not list(tmp_path.glob(".game.json.*"))  # written atomically: no temporary file left
    # the same game stopped by the end of the input at the same prompt saves the same record
    other = tmp_path / "other.json"
    code, _ = _play_cli(tmp_path, "pl-standard", "--seed", "3", "--save", str(other), lines=6)
    assert code == 0
    assert saved == other.read_text(encoding="utf-8")


def test_completion_and_illegal_text() -> None:
    from tysiac_spec.commands.play import illegal_text
    from tysiac_spec.table import complete

    deck = load_ruleset("pl-standard").deck
    legal = [Bid(110), Bid(120), Pass(), PlayCard(deck.parse("QH"), True)]
    assert complete("b", legal) == ["bid 110", "bid 120"]
    assert complete("BID  12", legal) == ["bid 120"]
    assert complete("play qh", legal) == ["play QH marriage"]
    assert complete("x", legal) == []
    message = "`play 9S` is not legal for player 0 in the play phase: must follow hearts"
    assert illegal_text(PlayCard(deck.parse("9S")), message) == "play 9S: you must follow hearts"
    assert illegal_text(Pass(), "`pass`: the match is over") == "pass: the match is over"


# --------------------------------------------------------------------------- resuming


def _saved(path: Path) -> dict[str, object]:
    import json

    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("ruleset", "seed", "seat", "bots", "cuts"),
    [
        ("pl-standard", 5, 1, "heuristic", [24, 30]),
        pytest.param("ru-online", 2, 2, "random", [7, 30], marks=pytest.mark.slow),
        pytest.param("cz-standard", 9, 0, "heuristic", [5, 24, 14], marks=pytest.mark.slow),
    ],
)
def test_resumed_game_ends_exactly_as_the_uninterrupted_one(
    tmp_path: Path, ruleset: str, seed: int, seat: int, bots: str, cuts: list[int]
) -> None:
    """The same game and the same inputs (always the first legal action), played once without a
    break and once stopped at the end of the input after each cut (lines read per session) and
    resumed: the same final record (every bot action included) and the same scores.

    The cuts are chosen where it matters: bots made afresh at the stop (a restarted random
    generator, a heuristic bot that forgot the cards it saw in the deal) play differently."""
    from tysiac_spec.engine.record import Record, TableSetup

    whole = tmp_path / "whole.json"
    args = [ruleset, "--seed", str(seed), "--seat", str(seat), "--bots", bots]
    code, out = _play_cli(tmp_path, *args, "--save", str(whole))
    assert code == 0, out[-2000:]
    expected = Record.from_json(whole.read_text(encoding="utf-8"))
    assert expected.table == TableSetup(seat=seat, bots=bots, bot_seed=seed)
    assert _saved(whole)["table"] == {"seat": seat, "bots": bots, "bot_seed": seed}

    part = tmp_path / "part.json"
    code, _ = _play_cli(tmp_path, *args, "--save", str(part), lines=cuts[0])
    assert code == 0
    for cut in [*cuts[1:], 3000]:
        stopped = Record.from_json(part.read_text(encoding="utf-8"))
        assert stopped.table == expected.table
        assert 0 < len(stopped.actions) < len(expected.actions)
        assert stopped.actions == expected.actions[: len(stopped.actions)]
        code, resumed = _play_cli(tmp_path, "--resume", str(part), lines=cut)
        assert code == 0, resumed[-2000:]
        assert f"resuming {part}: {len(stopped.actions)} actions; you are P{seat}, {bots} bots" in resumed
        assert "note: " not in resumed  # the bots make the recorded choices again
    assert part.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert _final(resumed) == _final(out)


@pytest.mark.slow  # about 1 s of CPU (quick-loop budget, issue 25)
def test_a_record_without_table_resumes_with_the_seat_given(tmp_path: Path) -> None:
    """An older record (no `table`): --seat and --bots are taken from the command line and the
    bots are seeded as in a new game, so it also goes on as the uninterrupted game."""
    import json

    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    args = ["pl-standard", "--seed", "8", "--seat", "2"]
    _play_cli(tmp_path, *args, "--save", str(whole))
    _play_cli(tmp_path, *args, "--save", str(part), lines=17)  # mid-deal: the bots must watch
    data = _saved(part)
    del data["table"]
    part.write_text(json.dumps(data), encoding="utf-8")
    code, out = _play_cli(tmp_path, "--resume", str(part), "--seat", "2")
    assert code == 0, out[-2000:]
    assert "you are P2, heuristic bots" in out
    assert part.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_resume_refuses_a_seat_or_bots_contradicting_the_record(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _play_cli(tmp_path, "pl-standard", "--seed", "1", "--seat", "1", "--save", str(save), lines=4)
    before = save.read_text(encoding="utf-8")
    code, out = _play_cli(tmp_path, "--resume", str(save), "--seat", "2", text="")
    assert code == 2
    assert "--seat 2 contradicts the record: the game was played with --seat 1 (leave --seat out to " \
        "resume it)" in " ".join(out.split())
    code, out = _play_cli(tmp_path, "--resume", str(save), "--bots", "random", text="")
    assert code == 2
    assert "--bots random contradicts the record: the game was played with --bots heuristic" in " ".join(
        out.split()
    )
    assert save.read_text(encoding="utf-8") == before
    # the record's own values may be repeated
    code, out = _play_cli(tmp_path, "--resume", str(save), "--seat", "1", "--bots", "heuristic", text="")
    assert code == 0
    assert "you are P1, heuristic bots" in out
    assert save.read_text(encoding="utf-8") == before


def test_resume_with_other_bots_than_recorded_says_so(tmp_path: Path) -> None:
    import json

    save = tmp_path / "g.json"
    _play_cli(tmp_path, "pl-standard", "--seed", "4", "--save", str(save), lines=6)
    data = _saved(save)
    data["table"] = {"seat": 0, "bots": "random", "bot_seed": 4}
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = _play_cli(tmp_path, "--resume", str(save), text="")
    assert code == 0
    assert re.search(r"note: from action \d+ on, the bots choose differently from the record", out)
    data["table"] = {"seat": 0, "bots": "minimax", "bot_seed": 4}
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = _play_cli(tmp_path, "--resume", str(save), text="")
    assert code == 1
    assert "unknown kind of bots `minimax` (known: heuristic, random, strong)" in out


def test_an_unwritable_save_path_is_reported_before_any_play(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file, not a folder", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["play", "pl-standard", "--seed", "1", "--save", str(tmp_path / "file" / "g.json")], input="1\n"
    )
    assert result.exit_code == 1
    assert "cannot write" in result.output and "P0>" not in result.output


def test_resuming_a_file_that_is_not_text_is_a_clean_error(tmp_path: Path) -> None:
    bad = tmp_path / "r.json"
    bad.write_bytes(b"\xff{")
    result = CliRunner().invoke(main, ["play", "--resume", str(bad)])
    assert result.exit_code == 1
    assert "error[record.read]: not a game record: the file is not UTF-8 text (byte 0)" in result.output
    assert "Traceback" not in result.output


def test_resume_checks_the_record_s_player_count_before_making_bots(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _play_cli(tmp_path, "pl-standard", "--seed", "1", "--save", str(save), lines=2)
    data = json.loads(save.read_text(encoding="utf-8"))
    data["players"] = 10**12  # a bot per seat would need terabytes
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out = _play_cli(tmp_path, "--resume", str(save), text="")
    assert code == 1
    assert ("error[record.ruleset]: the record's ruleset `pl-standard` cannot be loaded: ruleset "
            "`pl-standard` has no 1000000000000-player form; it defines 2, 3, 4") in " ".join(out.split())


def test_resume_errors_name_the_record_file_like_replay(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _play_cli(tmp_path, "pl-standard", "--seed", "1", "--save", str(save), lines=2)
    data = json.loads(save.read_text(encoding="utf-8"))
    data["actions"][1] = "bid 105"
    save.write_text(json.dumps(data), encoding="utf-8")
    resumed = CliRunner().invoke(main, ["play", "--resume", str(save)], input="")
    replayed = CliRunner().invoke(main, ["replay", str(save)])
    assert resumed.exit_code == replayed.exit_code == 1
    [line] = [ln for ln in resumed.output.splitlines() if "error[" in ln]
    assert line.startswith(f"{save}: error[record.action]: action 2 of {len(data['actions'])} `bid 105` "
                           "cannot be replayed: ")
    assert line in replayed.output.splitlines()
    bad = tmp_path / "r.json"
    bad.write_bytes(b"\xff{")
    result = CliRunner().invoke(main, ["play", "--resume", str(bad)])
    assert result.exit_code == 1
    assert result.output == f"{bad}: error[record.read]: not a game record: the file is not UTF-8 text (byte 0)\n"


@pytest.mark.parametrize("face_up", [False, True])
def test_given_cards_shown_as_the_view_shows_them(tmp_path: Path, face_up: bool) -> None:
    # ru-classic, option exchange_face_up (PAGx1: some pass the two cards face up).  The
    # user sits at seat 2; bot P1 declares and gives one card to each opponent: the user
    # sees the card given to him, and the one given to P0 only when cards go face up.
    game = Game(load_ruleset("ru-classic"), players=3, seed=0, options={"exchange_face_up": face_up})
    game.start_deal(hands=HANDS, talons=TALON, dealer=0)
    for text in ("bid 100", "pass", "pass"):
        game.apply(parse_action(text, game.ruleset.deck))
    game.deal.may_forfeit = False  # the random bot is not to write the deal off (Rospisat')
    status, text = _session(game, ["quit"], tmp_path, seat=2)
    assert status == 0
    gifts = dict(game.deal.gifts)  # receiver -> the card the bot chose for him
    assert sorted(gifts) == [0, 2]
    card_p2, card_p0 = gifts[2], gifts[0]
    assert f"P1: give {card_p2} to 2\n" in text
    shown, hidden = f"P1: give {card_p0} to 0\n", "P1: gives a card to P0\n"
    assert (shown in text, hidden in text) == ((True, False) if face_up else (False, True))


# --------------------------------------------------------------------------- a fresh user's trial


from test_dsl_range import HUGE_DEFENDER  # noqa: E402  (one copy of the hostile house rule)


def test_a_runtime_error_keeps_the_actions_played_before_it(tmp_path: Path) -> None:
    # the record used to be the one written before play began (0 actions); now it holds
    # every action before the one that failed, and resumes at that point
    from tysiac_spec.engine.record import Record
    from tysiac_spec.engine.replay import replay

    rules = tmp_path / "house.yaml"
    rules.write_text(HUGE_DEFENDER, encoding="utf-8")
    save = tmp_path / "g.json"
    code, out = _play_cli(tmp_path, str(rules), "--seed", "1", "--save", str(save), lines=300)
    assert code == 1
    assert "error[dsl.runtime]: `(player.score + 3000000) * 1000000` gave 3,000,000,000,000" in out
    record = Record.read(save)
    assert len(record.actions) == 30  # the auction, the exchange, the first 23 cards of 24
    assert f"the game stopped on an error; its 30 action(s) before it are saved to {save}" in out
    game = replay(record)
    assert game.phase == "play" and len(game.history) == 30


def test_a_long_input_line_is_quoted_short(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out = _play_cli(tmp_path, "pl-standard", "--seed", "1", "--save", str(save),
                          text="x" * 100_000 + "\n" + "9" * 5000 + "\nquit\n")
    assert code == 0
    assert "`" + "x" * 60 + "…(+99,940 characters)` is not an action here; you can: " in out
    assert "choice 999999999999…(+4,988 characters) does not exist: choose 1 to 3" in out
    assert len(out) < 3000  # the echo of each line is cut too (at 200 characters)


def test_bytes_that_are_not_utf8_are_shown_as_bytes() -> None:
    # a terminal in another encoding: Python reads byte 0xff as "\udcff" (surrogateescape)
    from tysiac_spec.text import printable

    assert printable("bid \udcff\udcfe") == "bid \\xff\\xfe"
    assert printable("\ud800") == "\\ud800"  # another lone surrogate keeps its code
    game = _stacked()
    with pytest.raises(EntryError) as info:
        resolve_input("bid \udcff", game.legal_actions(), game.ruleset.deck)
    assert info.value.diagnostic.code == "entry.text"
    assert info.value.diagnostic.message == (
        "`bid \\xff` holds bytes that are not UTF-8 text (shown as \\xNN); type the action in plain letters")


def test_a_seat_not_at_the_table_is_refused_before_anything_is_said(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out = _play_cli(tmp_path, "pl-standard", "--seat", "5", "--save", str(save), text="")
    assert code == 1
    assert out == "error[entry.seat]: --seat must be 0 to 2 (got 5)\n"
    assert not save.exists()


def test_a_save_path_in_a_missing_folder_is_refused_without_making_it(tmp_path: Path) -> None:
    save = tmp_path / "missing" / "dir" / "g.json"
    code, out = _play_cli(tmp_path, "pl-standard", "--seed", "1", "--save", str(save), text="1\n")
    assert code == 1
    assert out == f"Error: cannot write {save}: the folder {save.parent} does not exist\n"
    assert not (tmp_path / "missing").exists()


@pytest.mark.slow  # a whole 4-player match through the command
def test_a_partnership_match_is_won_by_the_side(tmp_path: Path) -> None:
    # players.4.partnerships: across: the winner of the match is a side, named as one
    house = str(Path(__file__).parent.parent / "examples" / "house" / "partners-four.yaml")
    code, out = _play_cli(
        tmp_path, house, "-p", "4", "--seed", "1", "--save", str(tmp_path / "g.json"), lines=4000
    )
    assert code == 0, out[-2000:]
    assert _final(out) == [-9745, 1030, -9745, 1030]
    assert out.endswith(f"winners: P1 and P3\nrecord saved to {tmp_path / 'g.json'}\n")


def test_a_gold_set_deal_says_so_in_the_deal_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``-O golden_round=gold_set`` (ua-standard): the first deals are the gold set, bid for
    from 120; the terminal's deal header and the transcript say so (docs/terms.py words)."""
    from tysiac_spec.transcript import transcript

    monkeypatch.chdir(tmp_path)  # (the match left at the end of the input is saved here)
    _, out = _play_cli(tmp_path, "ua-standard", "-O", "golden_round=gold_set", "--seed", "1", text="")
    assert "dealer: P0  phase: exchange  (gold set deal: the auction starts at 120)" in out.splitlines()
    game = Game(load_ruleset("ua-standard", options={"golden_round": "gold_set"}), players=3, seed=1)
    assert "Deal 1: dealer P0 (gold set deal: the auction starts at 120)" in transcript(game).splitlines()
    plain = Game(load_ruleset("ua-standard"), players=3, seed=1)
    assert "Deal 1: dealer P0" in transcript(plain).splitlines()
