"""``tysiac play``: a whole match at the terminal against bots, saved as a game record.

The user's seat sees only its own view; the other seats are bots.  Input is read line by
line from standard input, so a script can drive a game as well as a person: a choice
number, the action text (``bid 120``, ``play QH``, ``give 9S to 2``) or a unique beginning
of it; ``?`` lists the legal actions, ``quit`` saves and stops.  A lead that may declare a
marriage, typed without it (``play QS``, ``QS``), is asked about (``[Y/n]``, yes by
default) rather than played silently without the marriage; a choice number is taken as it
is.  Every text shown passes through :func:`tysiac_spec.text.printable`, so text from a
ruleset or a record cannot drive the terminal.  The record is saved (with
:mod:`tysiac_spec.engine.record`) when the match ends, on ``quit``, at the end of the input,
on Ctrl-C, SIGTERM and SIGHUP (``kill``, ``timeout``, a closed terminal; exit status 130)
and when standard output is closed (``tysiac play … | head``: a broken pipe, after which the
command stops quietly with status 1, as every ``tysiac`` command does), and ``tysiac play
--resume FILE`` continues it.

The record keeps the table (:class:`~tysiac_spec.engine.record.TableSetup`): the user's
seat, the kind of bots and their seed.  A resumed game takes them from there and rebuilds
the bots by letting them watch the recorded game again (each bot is asked for its move at
each of its turns, which restores its random generator and its memory of the deal), so it
goes on exactly as it would have gone without the interruption.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..cards import Card
from ..errors import (
    Diagnostic,
    EntryError,
    IllegalActionError,
    NotationError,
    RecordError,
    SaveConflictError,
    SaveError,
    TysiacError,
)
from ..run_choices import BOTS
from ..savefile import file_version, write_versioned
from ..stopping import held_signals
from ..text import printable, shorten, signed
from ._common import (
    SEED_MAX,
    check_folder,
    line_reader,
    parse_option_args,
    stop_signals,
    user_errors,
)
from .replay import in_file

if TYPE_CHECKING:  # the engine, the table's texts and rich are imported when a game is
    # played, not when the shell completes the command's arguments (a TAB answers fast)
    from rich.console import Console

    from ..engine import Game
    from ..engine.actions import Action, PlayCard
    from ..engine.record import Record
    from ..engine.state import DealState
    from ..ruleset.model import Ruleset

__all__ = ["BOT_KINDS", "illegal_text", "make_bots", "play", "restore", "run_match", "user_errors"]

EXIT_INTERRUPTED = 130
BOT_KINDS = BOTS
"""The kinds of bots (``--bots``, the record's ``table.bots``); also ``cmd:COMMAND``, a bot in
another process (:mod:`tysiac_spec.bots.process`), started for each seat."""

CMD = "cmd:"
"""The prefix of a bot that is a command (:data:`tysiac_spec.bots.process.PREFIX`)."""


class _BotKind(click.ParamType[str]):
    """``--bots``: one of :data:`BOT_KINDS`, or ``cmd:COMMAND``; completes the kinds."""

    name = "bots"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(BOT_KINDS) + "|cmd:COMMAND]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        if text in BOT_KINDS or (text.startswith(CMD) and text[len(CMD):].strip()):
            return text
        self.fail(f"{text!r} is not one of {', '.join(map(repr, BOT_KINDS))}, nor cmd:COMMAND", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(k) for k in BOT_KINDS if k.startswith(incomplete)]
SUIT_STYLES = ("red", "blue", "green", "")
"""Display colours by the suit's position in the deck (a four-colour pack)."""


def _play_console() -> Console:
    """The table's console.  When its output is closed (``tysiac play … | head``) it raises
    :class:`BrokenPipeError`, so that the play loop saves the game before stopping, where rich
    would exit at once; standard output then writes to the null device, so that the final
    flush at exit does not fail again."""
    from rich.console import Console

    class _PlayConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            if self.file is sys.stdout:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)
            raise BrokenPipeError(errno.EPIPE, "the output was closed")

    return _PlayConsole(highlight=False, soft_wrap=True)


class _Chooser:
    """A bot as the play loop uses it: ``choose(game, player)``.  The bot is made at its first
    decision (a heuristic bot is told the marriage values of the game's form)."""

    def __init__(self, kind: str, seed: int) -> None:
        if kind not in BOT_KINDS and not kind.startswith(CMD):
            raise RecordError(Diagnostic(
                "record.table", f"unknown kind of bots `{kind}` (known: {', '.join(BOT_KINDS)})"))
        self.kind, self.seed = kind, seed
        self.bot: Any = None

    def choose(self, game: Game, player: int) -> Action:
        if self.bot is None:
            from ..bots import HeuristicBot, RandomBot, StrongBot

            if self.kind.startswith(CMD):
                from ..bots import make_bot

                self.bot = make_bot(self.kind, self.seed, game.form)
            elif self.kind == "heuristic":
                self.bot = HeuristicBot(self.seed, game.form)
            elif self.kind == "strong":
                self.bot = StrongBot(self.seed, game.form)
            else:
                self.bot = RandomBot(self.seed)
        legal = game.legal_actions()
        if not self.kind.startswith(CMD):
            action: Action = self.bot.choose(game.view(player), legal)
            return action
        from ..bots import illegal_action, raised_by, short_repr

        try:
            chosen = self.bot.choose(game.view(player), legal)
        except Exception as exc:  # a process bot that cannot answer: one line, never a traceback
            raise raised_by(self.bot, player, self.kind, exc) from None
        if chosen not in legal:
            raise illegal_action(player, self.kind, short_repr(chosen), type(chosen).__name__, len(legal))
        return chosen  # type: ignore[no-any-return]


def make_bots(kind: str, seed: int, players: int, seat: int) -> dict[int, _Chooser]:
    """The bots of every seat but ``seat``: bot ``p`` is seeded with ``seed * 100 + p + 1``.

    Raises:
        RecordError: ``record.table`` for an unknown ``kind`` (known: :data:`BOT_KINDS`).
    """
    return {p: _Chooser(kind, seed * 100 + p + 1) for p in range(players) if p != seat}


def restore(record: Record, bots: Mapping[int, _Chooser]) -> tuple[Game, int | None]:
    """Rebuild the game of ``record`` while ``bots`` watch it: before each recorded action of
    a bot's seat the bot is asked for its move, so that afterwards each bot is in the state it
    would be in had the game never stopped.

    Returns:
        The game, and the index of the first recorded bot action that the bot now chooses
        differently (the record was made with other bots or seeds), or ``None``.

    Raises:
        RecordError: as :func:`~tysiac_spec.engine.replay.replay`.
    """
    from ..engine.replay import replay

    differs: list[int] = []

    def watch(game: Game, action: Action) -> None:
        player = game.current_player
        if player in bots:
            chosen = bots[player].choose(game, player)
            if chosen != action and not differs:
                differs.append(len(game.history))

    game = replay(record, before=watch)
    return game, differs[0] if differs else None


def _shows(console: Console, game: Game) -> bool:
    """Whether ``console`` can show the suit symbols of ``game``'s pack (♥♦♣♠)."""
    symbols = "".join(s.symbol for s in game.ruleset.deck.suits)
    try:
        symbols.encode(console.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _style_cards(text: str, game: Game, colour: bool) -> str:
    """Escape ``text`` for rich and colour each card's notation by its suit."""
    from rich.markup import escape

    out = escape(text)
    if not colour:
        return out
    deck = game.ruleset.deck
    words = out.split(" ")
    for i, w in enumerate(words):
        core = w.rstrip(",")
        try:
            card = deck.parse(core) if 2 <= len(core) <= 3 else None
        except TysiacError:
            card = None
        if card is not None:
            style = SUIT_STYLES[deck.suits.index(card.suit) % len(SUIT_STYLES)]
            if style:
                words[i] = f"[{style}]{core}[/{style}]" + w[len(core):]
    return " ".join(words)


def illegal_text(action: Action, message: str) -> str:
    """The engine's reason for refusing ``action``, addressed to the player:
    ``play 9S: you must follow hearts``."""
    _, sep, reason = message.partition(" phase: ")
    if not sep:
        return message.replace("`", "")
    if reason.startswith("must "):
        reason = "you " + reason
    return f"{action}: {reason}"


class Table:
    """The terminal session: prints the table, reads the user's actions, runs the bots."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: dict[int, _Chooser],
        console: Console,
        read_line: Callable[[str], str],
        save: Callable[..., str],
    ) -> None:
        self.game, self.seat, self.bots = game, seat, bots
        self.console, self.read_line, self.save = console, read_line, save
        self.colour = console.is_terminal and not console.no_color
        self.symbols = console.is_terminal and _shows(console, game)  # Q♥, where it can
        self._hinter: Any = None
        """The ``strong`` bot of the user's seat that answers ``hint`` (made at the first
        turn; it watches every turn of the seat so that its memory of the deal stays whole)."""

    def resume_command(self, where: str) -> str:
        """The command that resumes the game saved to ``where``: ``tysiac play --resume
        WHERE``, with ``--rules-dir`` naming the ruleset's folder when the record names a
        ruleset file outside its own folder (which a record may only name when the folder
        is allowed: :func:`~tysiac_spec.engine.record.rules_dir_for`)."""
        from ..engine.record import record_of, rules_dir_for

        folder = rules_dir_for(record_of(self.game).saved_at(where))
        allow = "" if folder is None else f"--rules-dir {shlex.quote(str(folder))} "
        return f"tysiac {allow}play --resume {shlex.quote(where)}"

    def say(self, text: str, style: str = "") -> None:
        """Print ``text`` (control characters made visible: it may hold a ruleset's or a
        record's words), its cards coloured by suit on a colour terminal."""
        body = _style_cards(printable(text), self.game, self.colour)
        self.console.print(f"[{style}]{body}[/{style}]" if style and self.colour else body)

    def show(self) -> None:
        from ..docs.terms import golden_deal
        from ..engine.seating import side_of
        from ..table import view_lines

        game = self.game
        legal = game.legal_actions()
        partners = [p for p in side_of(game.form, self.seat) if p != self.seat]
        deck = game.ruleset.deck
        note = golden_deal(game.form.special.golden_round) if game.deal.mode == "golden" else ""
        for line in view_lines(game.view(self.seat), deck, legal, partners=partners, symbols=self.symbols,
                               deal_note=note):
            self.say(line)
        self.say("choices: " + self._choices(legal))

    def _choices(self, legal: Sequence[Action]) -> str:
        """The numbered choices, broken between two choices at a terminal's width."""
        from ..table import choices_text

        width = self.console.width if self.console.is_terminal else None
        return choices_text(legal, width, len("choices: "))

    def _ask(self) -> Action | None:
        """One action of the user, or None for `quit`."""
        from ..engine.actions import Incident
        from ..table import declarations, resolve_input

        game = self.game
        legal = game.legal_actions()
        if self._hinter is None:
            from ..bots import StrongBot

            self._hinter = StrongBot(self.seat, game.form)
        view = game.view(self.seat)
        self._hinter.observe(view)
        while True:
            text = self.read_line(f"P{self.seat}> ").strip()
            low = text.lower()
            if low in ("quit", "q", "exit"):
                return None
            if low in ("?", "help", "h"):
                self.say("legal actions: " + self._choices(legal))
                self.say("type a number, an action (`bid 120`, `play QH`), `show`, `hint` "
                         "(what the strong bot would do), or `quit` to save and stop")
                continue
            if low == "hint":
                self.say(f"hint: {self._hinter.choose(view, legal)} (the strong bot's choice)")
                continue
            if low in ("show", "table", "hand", ""):
                self.show()
                continue
            try:
                action = resolve_input(text, legal, game.ruleset.deck)
            except EntryError as exc:
                self.say(exc.diagnostic.message, "yellow")
                continue
            if action not in legal:
                if isinstance(action, Incident):
                    self.say("a table incident is called from Python (`Game.incident`) or written in a "
                             "record, not at the terminal", "yellow")
                    continue
                if action in game.playable_actions():  # a revoke the rules let stand (play.revoke)
                    return action
                try:  # the game explains why and stays unchanged
                    game.apply(action)
                except IllegalActionError as exc:
                    self.say(illegal_text(action, exc.diagnostic.message), "yellow")
                    continue
                raise AssertionError("an action outside legal_actions() was accepted")  # pragma: no cover
            offered = [] if text.isdigit() else declarations(action, legal)
            if offered:
                return self._declare_or_not(action, offered)
            return action

    def _declare_or_not(self, plain: Action, offered: Sequence[PlayCard]) -> Action:
        """Ask whether the plain lead ``plain`` should declare what ``offered`` (the legal
        plays of the same card that declare) would; yes by default.  Raises ``EOFError`` at
        the end of the input, like every read."""
        if len(offered) > 1:  # pragma: no cover - no ruleset offers two declarations with one card
            listed = ", ".join(f"`{a}`" for a in offered)
            self.say(f"`{plain}` could also be {listed}; answer with a choice number", "yellow")
            return self._ask_again(plain)
        declaring = offered[0]
        what = "the ace marriage" if declaring.aces else f"the marriage of {declaring.card.suit.id}"
        question = printable(f"`{plain}` would forgo {what}: declare it (`{declaring}`)? [Y/n] ")
        while True:
            answer = self.read_line(question).strip().lower()
            if answer in ("", "y", "yes"):
                return declaring
            if answer in ("n", "no"):
                return plain
            self.say(f"answer y to play `{declaring}`, or n to play `{plain}` without it", "yellow")

    def _ask_again(self, plain: Action) -> Action:  # pragma: no cover - see _declare_or_not
        action = self._ask()
        return plain if action is None else action

    def _apply(self, player: int, action: Action) -> None:
        from ..table import format_card, format_cards

        game = self.game
        deal, deals_before = game.deal, len(game.deal_scores)
        trick: list[tuple[int, Card]] = list(deal.trick)
        phase = deal.phase
        declarer = deal.declarer  # before the action: a pass in the contra round is his redouble declined
        events_before = len(game.events)
        game.apply(action)
        self.say(f"P{player}: {self._public(player, action, deal, phase, declarer)}")
        card = getattr(action, "card", None)
        if phase == "play" and isinstance(card, Card):
            done = [*trick, (player, card)]
            if len(done) == len(deal.order):
                winner = deal.last_trick_winner
                self.say(
                    "trick " + ", ".join(f"P{p} {format_card(c, symbols=self.symbols)}" for p, c in done)
                    + f" → P{winner}", "bold"
                )
        elif game.deal is deal and phase in ("auction", "talon") and deal.phase in ("exchange", "play"):
            view = game.view(self.seat)
            if view.talon and deal.talon_shown:
                self.say(f"talon shown: {format_cards(view.talon, symbols=self.symbols)}")
        self._events(events_before)
        if len(game.deal_scores) > deals_before:
            self._deal_end(deals_before)
        elif game.deal is not deal:
            self.say("the deal is redealt", "bold")

    def _public(self, player: int, action: Action, deal: DealState, phase: str, declarer: int | None) -> str:
        """The action (just applied in ``deal``, in ``phase``) as the user sees it: a given card
        only if the user's view shows it (``View.given``), a discard never, a pass after the
        auction with what it declined (:func:`~tysiac_spec.table.said`)."""
        from ..engine.actions import Discard, GiveCard
        from ..engine.talon import gifts_seen
        from ..table import said

        text = said(action, phase, player, declarer)
        if player == self.seat:
            return f"{text} (you)"
        if isinstance(action, GiveCard):
            game = self.game
            # The view of the deal the card was given in; a mandatory redeal after the
            # exchange has already replaced it, and the engine's rule is asked directly.
            seen = game.view(self.seat).given if game.deal is deal else gifts_seen(game.form, deal, self.seat)
            if (action.to, action.card) not in seen:
                return f"gives a card to P{action.to}"
        if isinstance(action, Discard):
            return "discards a card"
        return text

    def _events(self, start: int) -> None:
        """Print the match events since ``start`` with their explanations."""
        for ev in self.game.events[start:]:
            text = ev.text or ev.kind + (f" P{ev.player}" if ev.player is not None else "") + (
                f" {ev.value}" if ev.value is not None else ""
            )
            if ev.player is not None:
                text = text.replace(f"player {ev.player}", f"P{ev.player}")
                if f"P{ev.player}" not in text:
                    text = f"P{ev.player}: {text}"
            self.say(f"  {text}")

    def _deal_end(self, number: int) -> None:
        game = self.game
        row = game.deal_scores[number]
        deal = game.last_deal
        if deal is not None:  # the card points each took, and the marriages declared
            self.say("points taken: " + ", ".join(
                f"P{p} {sum(c.points for c in deal.won.get(p, []))}"
                + (f" + marriages {deal.marriages[p]}" if deal.marriages.get(p) else "")
                for p in sorted(deal.order)))
        self.say(
            f"deal {number + 1} scores: " + "  ".join(f"P{p} {signed(d)}" for p, d in enumerate(row)), "bold"
        )
        self.say("totals: " + _scores(game.scores), "bold")

    def run(self) -> int:
        """Play until the match is over or the user stops; returns the exit status.

        However the play stops (``quit``, the end of the input, Ctrl-C, SIGTERM or SIGHUP, an
        error writing to the terminal) every move so far is saved first, with the signals held
        while the file is written, and only then said: a closed terminal (SIGHUP, the end of
        its input and errors writing to it, in any order) cannot lose the save."""
        stop: BaseException | None = None
        where = ""
        for _attempt in range(4):  # (each stop signal interrupts at most once: stop_signals)
            try:
                try:
                    if stop is None:
                        return self._play()
                    with held_signals():
                        where = self.save()
                    break
                except (KeyboardInterrupt, EOFError, OSError) as exc:
                    # a signal wins over what it interrupted (the end of the input, a write)
                    if isinstance(exc, KeyboardInterrupt) or not isinstance(stop, KeyboardInterrupt):
                        stop = exc
            except KeyboardInterrupt as exc:  # (a signal arriving within the handler above)
                stop = exc
        try:
            if isinstance(stop, KeyboardInterrupt):
                self.say(f"\ninterrupted: game saved to {where}; resume with: {self.resume_command(where)}")
                return EXIT_INTERRUPTED
            if isinstance(stop, EOFError):
                self.say(f"end of input: game saved to {where}; resume with: {self.resume_command(where)}")
                return 0
        except KeyboardInterrupt:  # (the game is saved)
            return EXIT_INTERRUPTED
        except OSError:  # the terminal is gone: nothing can be said, the game is saved
            _discard_output()
            return EXIT_INTERRUPTED
        # an error writing the output (nobody reads it, `| head`; a closed terminal): the game
        # is kept and the error goes on to click, which stops without a traceback (status 1)
        assert isinstance(stop, OSError)
        raise stop

    def _play(self) -> int:
        """The play loop of :meth:`run`, which saves when it stops before the end."""
        from ..engine.seating import seats_text

        game = self.game
        played = len(game.history)
        try:
            shown_for: tuple[int, int, str] | None = None
            while not game.is_over:
                player = game.current_player
                if player == self.seat:
                    key = (len(game.history), len(game.deal_scores), game.phase)
                    if key != shown_for:
                        self.say(f"── deal {len(game.deal_scores) + 1}, your turn ──", "bold")
                        self.show()
                        shown_for = key
                    action = self._ask()
                    if action is None:
                        where = self.save()
                        self.say(f"game saved to {where}; resume with: {self.resume_command(where)}")
                        return 0
                else:
                    action = self.bots[player].choose(game, player)
                played = len(game.history)
                self._apply(player, action)
        except TysiacError:
            # the engine stopped the match (a formula out of range): the actions played up to
            # the one that failed are kept, so that the game is not lost; the error follows
            where = self.save(played)
            self.say(f"the game stopped on an error; its {played} action(s) before it are saved to {where}")
            raise
        where = self.save()
        if game.match.winner is None:  # stopped by the engine (event all-pass.stopped)
            self.say("match stopped without a winner: " + _scores(game.scores), "bold")
            self.say(f"record saved to {where}")
            return 0
        winners = list(game.winners) or [p for p, s in enumerate(game.scores) if s == max(game.scores)]
        self.say("match over: " + _scores(game.scores), "bold")
        you = " (you)" if self.seat in winners else ""
        self.say(("winners: " if len(winners) > 1 else "winner: ") + seats_text(winners) + you)
        self.say(f"record saved to {where}")
        return 0


def _scores(scores: Sequence[int]) -> str:
    """``P0 120  P1 −40  P2 0``: the players' scores (:func:`~tysiac_spec.text.signed`)."""
    return "  ".join(f"P{p} {signed(s, plus=False)}" for p, s in enumerate(scores))


def _discard_output() -> None:
    """Point standard output and error at ``os.devnull`` (a closed terminal), so that what is
    still buffered for them is dropped at exit instead of failing again."""
    for stream in (sys.stdout, sys.stderr):
        try:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, stream.fileno())
            os.close(fd)
        except (OSError, AttributeError, ValueError):
            pass


def _install_completion(game: Game) -> None:  # pragma: no cover - needs a terminal
    try:
        import readline
    except ImportError:
        return
    from ..table import complete

    def completer(text: str, state: int) -> str | None:
        buffer = readline.get_line_buffer()
        options = complete(buffer, game.legal_actions())
        start = len(buffer) - len(text)
        hits = [o[start:] for o in options]
        return hits[state] if state < len(hits) else None

    readline.set_completer_delims(" ")
    readline.set_completer(completer)
    readline.parse_and_bind("tab: complete")


def _check_seat(seat: int, players: int) -> None:
    """Refuse a seat that is not at a table of ``players``.

    Raises:
        EntryError: ``entry.seat``.
    """
    if not 0 <= seat < players:
        raise EntryError(Diagnostic("entry.seat", f"--seat must be 0 to {players - 1} (got {seat})"))


def run_match(
    game: Game | Record,
    *,
    seat: int,
    bots: str,
    seed: int,
    save_to: Path,
    console: Console | None = None,
    read_line: Callable[[str], str] | None = None,
    save_version: str | None = None,
) -> int:
    """Play ``game`` at the terminal with the user at ``seat`` and ``bots`` bots (made by
    :func:`make_bots` from ``seed``) in the other seats; returns the exit status (0, or 130
    after Ctrl-C).  A :class:`~tysiac_spec.engine.record.Record` is resumed: the game is
    rebuilt with :func:`restore`.  The record, with its ``table`` section, is written
    atomically to ``save_to`` if the file's version is still ``save_version`` (taken before the
    resumed record was read; ``None``: the first save writes whatever is there), else, not to
    drop another session's moves, to a new file beside it (:func:`_save_record`).

    Raises:
        EntryError: ``entry.seat`` (no such seat).
        RecordError: an unknown kind of bots, or a record that cannot be replayed.
        BrokenPipeError: the console's output was closed during the match; the record was
            saved first.
    """
    from rich.markup import escape

    from ..engine.record import Record, TableSetup, record_of
    from ..engine.replay import start

    console = console or _play_console()
    if isinstance(game, Record):
        start(game)  # the record's ruleset, options and player count checked before bots are made
    players = game.players
    _check_seat(seat, players)
    choosers = make_bots(bots, seed, players, seat)
    if isinstance(game, Record):
        game, differs = restore(game, choosers)
        if differs is not None:
            console.print(escape(
                f"note: from action {differs} on, the bots choose differently from the record "
                f"(it was played with other bots); they play on from the saved position"))
    live = game
    setup = TableSetup(seat=seat, bots=bots, bot_seed=seed)

    version = save_version  # the save file's version, as last read or written

    def save(actions: int | None = None) -> str:
        """Write the record (its first ``actions`` actions when given) to the save file."""
        nonlocal save_to, version
        record = record_of(live, table=setup)
        if actions is not None:
            record = dataclasses.replace(record, actions=record.actions[:actions])
        save_to, version = _save_record(record, save_to, version, console)
        return str(save_to)

    save()  # at once: a place that cannot be written is reported before any play, not after
    if sys.stdin.isatty():  # pragma: no cover - needs a terminal
        _install_completion(game)
    table = Table(game, seat, choosers, console, read_line or line_reader(console, highlight=False), save)
    with stop_signals():  # SIGTERM, SIGHUP (a closed terminal): saved as on Ctrl-C
        return table.run()



def _save_record(record: Record, path: Path, version: str | None, console: Console) -> tuple[Path, str]:
    """Write ``record`` to ``path`` if its version is still ``version``
    (:func:`~tysiac_spec.savefile.write_versioned`); when another session changed the file
    (``play --resume`` of the same record twice), to the first free ``NAME-2.json``,
    ``NAME-3.json``… beside it instead, saying so.  The file written and its new version.

    Raises:
        click.ClickException: the file cannot be written (``cannot write …``).
    """
    from rich.markup import escape

    try:
        try:
            return path, write_versioned(path, record.saved_at(path).to_json(), expected=version)
        except SaveConflictError as exc:
            for number in range(2, 1000):
                other = path.with_name(f"{path.stem}-{number}{path.suffix}")
                if other.exists() or other.is_symlink():
                    continue
                try:
                    new = write_versioned(other, record.saved_at(other).to_json(), expected="")
                except SaveConflictError:  # taken meanwhile: the next one
                    continue
                # one sentence on one line (never wrapped by the console's width)
                note = f"note: {exc.diagnostic.message}, and this game is saved to {other} instead"
                console.print(escape(note), soft_wrap=True)
                return other, new
            raise
    except SaveError as exc:
        raise click.ClickException(exc.diagnostic.message) from None


def _version_of(path: Path) -> str | None:
    """The version of the record file ``path`` (``None`` when it is not a regular file:
    :meth:`Record.read` then says why it cannot be read)."""
    try:
        return file_version(path)
    except SaveError:
        return None


def _set_deal(game: Game, text: str) -> None:
    """Set the first deal of ``game`` from ``--deal``'s text; a text that is not deal notation
    is shown under its error with a caret at the column (``--deal:1:12: error[notation.card]``),
    and the command stops with status 1.

    A deal that does not fit the table (``deal.stack``: sizes, a card dealt twice) is named
    ``--deal: error[deal.stack]: …`` the same way, and stops the command with status 1.
    """
    try:
        game.start_deal(text)
    except (NotationError, IllegalActionError) as exc:
        d = dataclasses.replace(exc.diagnostic, file="--deal")
        print(d.render(source=text), file=sys.stderr)
        sys.exit(1)


def _from_position(rules: Ruleset, text: str, seed: int, players: int | None) -> Game:
    """The game that starts at ``--position``'s text (:meth:`Game.from_position`); a text that
    is not a position is shown under its error with a caret at the column
    (``--position:1:12: error[notation.card]``), and the command stops with status 1.

    Raises:
        click.UsageError: ``--players`` differs from the position's seats.
    """
    from ..engine import Game

    try:
        game = Game.from_position(rules, text, seed=seed)
    except NotationError as exc:
        d = dataclasses.replace(exc.diagnostic, file="--position")
        print(d.render(source=text), file=sys.stderr)
        sys.exit(1)
    if players is not None and players != game.players:
        raise click.UsageError(f"--players {players} contradicts the position, which gives "
                               f"{game.players} hands")
    return game


@click.command("play")
@click.argument("ruleset", metavar="ID|PATH", required=False)
@click.option("--players", "-p", type=int, help="Players at the table (default: 3 if the ruleset has a "
              "3-player form, else its smallest count).")
@click.option(
    "--seat", type=int,
    help="Your seat (0 = first player; default 0, or the resumed record's seat).",
)
@click.option(
    "--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
    help="Set a table option of the ruleset (repeatable), e.g. -O five_rounds=up.",
)
@click.option(
    "--bots", type=_BotKind(),
    help="Which bots take the other seats (default: heuristic, or the resumed record's bots); "
    "cmd:COMMAND starts COMMAND for each seat, a bot in any language speaking JSON lines "
    "(tysiac_spec/bots/process.py, examples/bots/json_bot.py).",
)
@click.option(
    "--seed", type=click.IntRange(0, SEED_MAX), metavar="N",
    help=f"Seed of the shuffles, 0 to {SEED_MAX:,} (default: random).",
)
@click.option(
    "--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game record here (default: tysiac-ID-SEED.json, or the resumed file).",
)
@click.option(
    "--resume", type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Continue a saved game record.",
)
@click.option(
    "--deal", "deal_text", metavar="TEXT",
    help="Play this first deal instead of a shuffled one, in deal notation: "
    "'DEALER:HAND / HAND / ... | TALON / ...' (as `tysiac check` prints a scenario's deal).",
)
@click.option(
    "--position", "position_text", metavar="TEXT",
    help="Start from this position in the middle of a deal, in position notation "
    "(as `tysiac position` prints it); the players are its seats.",
)
@user_errors
def play(
    ruleset: str | None,
    players: int | None,
    seat: int | None,
    options: Sequence[str],
    bots: str | None,
    seed: int | None,
    save_path: Path | None,
    resume: Path | None,
    deal_text: str | None = None,
    position_text: str | None = None,
) -> None:
    """Play a match at the terminal against bots.

    Shows your hand by suit and rank, the trick, trump, the bids and the scores, and
    which cards are legal. Type a choice number, an action (`bid 120`, `play QH`,
    `give 9S to 2`) or its beginning; `?` lists the legal actions, `quit` saves and
    stops. The game record is saved at the end, on `quit`, at the end of the input, on
    Ctrl-C, SIGTERM or SIGHUP (a closed terminal) and when the output is closed (`| head`);
    `tysiac play --resume FILE` continues it with the seat, bots and bot seed saved in the
    record, exactly as the game would have gone on. `--deal TEXT` sets the first deal by hand (deal notation,
    e.g. `0:AS KS … / … | 9C TC JC`); the record keeps it. `--position TEXT` starts from a
    position in the middle of a deal (position notation, `tysiac position`); the record keeps it.
    """
    from ..engine import Game
    from ..engine.record import Record
    from ..ruleset import load_ruleset

    game: Game | Record
    version: str | None = None
    if resume is not None:
        if (ruleset is not None or options or players is not None or seed is not None or deal_text
                or position_text):
            raise click.UsageError(
                "--resume takes the ruleset, players, options, seed and deals from the record")
        try:
            version = _version_of(resume)  # before it is read: a change meanwhile is a conflict
            record = Record.read(resume)  # untrusted: limits, and its ruleset in its folder
        except RecordError as exc:
            raise in_file(exc, resume) from None
        saved = record.table
        if saved is not None:
            for name, given, recorded in (("--seat", seat, saved.seat), ("--bots", bots, saved.bots)):
                if given is not None and given != recorded:
                    raise click.UsageError(
                        f"{name} {given} contradicts the record: the game was played with "
                        f"{name} {recorded} (leave {name} out to resume it)"
                    )
            seat, bots, seed = saved.seat, saved.bots, saved.bot_seed
            if bots not in BOT_KINDS:  # the record's text, cut in the message
                raise RecordError(Diagnostic("record.table", f"unknown kind of bots `{shorten(bots)}` "
                                             f"(known: {', '.join(BOT_KINDS)})", file=str(resume)))
        else:  # an older record: the seat and bots as given, the bots seeded as a new game's
            seed = record.seed
        seat = seat if seat is not None else 0
        bots = bots or "heuristic"
        game = record
        target = save_path or resume
        _check_seat(seat, record.players)
        check_folder(target)
        click.echo(f"resuming {resume}: {len(record.actions)} actions; you are P{seat}, {bots} bots")
    else:
        if ruleset is None:
            raise click.UsageError("give a ruleset id or path, or --resume FILE")
        rules = load_ruleset(ruleset, options=parse_option_args(options))
        if deal_text is not None and position_text is not None:
            raise click.UsageError("give --deal or --position, not both")
        n = players if players is not None else rules.default_players()
        if seed is None:
            import secrets

            seed = secrets.randbelow(10**6)
        seat = seat if seat is not None else 0
        bots = bots or "heuristic"
        if position_text is not None:
            game = _from_position(rules, position_text, seed, players)
            n = game.players
        rules.form(n)  # an unknown player count is refused before the seat is judged by it
        _check_seat(seat, n)
        if position_text is None:
            game = Game(rules, players=n, seed=seed)
            if deal_text is not None:
                _set_deal(game, deal_text)
        target = save_path or Path(f"tysiac-{rules.id}-{seed}.json")
        check_folder(target)
        click.echo(f"{printable(rules.id)}, {n} players, seed {seed}; you are P{seat}")
    try:
        status = run_match(game, seat=seat, bots=bots, seed=seed, save_to=target,
                           save_version=version if resume is not None and target == resume else None)
    except RecordError as exc:
        if resume is None:
            raise
        raise in_file(exc, resume) from None  # named like `tysiac replay` names it
    sys.exit(status)
