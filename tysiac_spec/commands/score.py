"""``tysiac score``: the scoresheet of a game played with real cards.

For each deal the user answers a few questions (declarer, bid, contract, card points,
marriages, and rospis / bomb / dark game where the ruleset has them); the engine's match
rules settle the deal (:func:`tysiac_spec.scoresheet.settle_sheet`, which calls
``engine.match.settle_deal``) and the running sheet is shown with every adjustment
explained.  The sheet file is written atomically after every deal, if nobody else changed it
since it was read (:mod:`tysiac_spec.savefile`; else, or when the disk refuses, the sheet is
kept and another file is asked for); ``--undo`` removes the last deal.  Input is read line
by line from standard input, so a script can drive it.

Seats count from 0 (``P0`` is the first seat) in every answer and prompt.  A sheet file is
untrusted input (:meth:`~tysiac_spec.scoresheet.Sheet.read`): read within the limits, its
ruleset a shipped one or a file in the sheet's folder or below (a ruleset file in that
folder is named relative to it on the sheet), or a file the user names on the command line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import Diagnostic, EntryError, SaveConflictError, SaveError, TysiacError
from ..savefile import check_writable, file_version, write_versioned
from ..text import shorten, signed
from ._common import line_reader, parse_option_args
from ._common import user_errors as _user_errors

if TYPE_CHECKING:  # the scoresheet, the engine's match rules and rich are imported when a
    # sheet is kept, not when the shell completes the command's arguments (a TAB answers fast)
    from rich.console import Console
    from rich.table import Table

    from ..engine.match import MatchState
    from ..ruleset.model import Form, Ruleset
    from ..scoresheet import Settled, Sheet

__all__ = ["score"]

EXIT_INTERRUPTED = 130

HELP = (
    "answer each question and press Enter; seats count from 0 (P0 is the first seat; a name "
    "given with --names also does); at the `declarer` question you may also type "
    "`undo` (remove the last deal), `sheet` (show the sheet) or `quit`; "
    "at any question `cancel` drops the deal being entered and `quit` drops it and stops"
)


class _Cancel(Exception):
    """The user typed `cancel` during a deal."""


class _Quit(Exception):
    """The user typed `quit`."""


def sheet_table(sheet: Sheet, settled: Sequence[Settled], form: Form | None = None) -> Table:
    """The running sheet: one row per deal, each player's change and total, and the notes; a
    named contract is shown by its name (``P0 Misère 120``) when ``form`` is given."""
    from rich.markup import escape
    from rich.table import Table

    from ..scoresheet import contract_label

    table = Table(title=escape(f"{shorten(sheet.ruleset)} — {sheet.players} players"), show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("declarer / contract")
    for p in range(sheet.players):
        table.add_column(escape(sheet.name(p)), justify="right")
    table.add_column("notes")
    for i, (entry, row) in enumerate(zip(sheet.deals, settled, strict=True), 1):
        what = ("all passed" if entry.all_pass else
                f"{sheet.name(entry.declarer)} {contract_label(form, entry) if form else entry.contract}")
        if entry.sold:
            what += " (bought)"
        if entry.contra != 1:
            what += f" (×{entry.contra})"
        if entry.forfeit:
            what += " (forfeit)"
        if entry.mode != "normal":
            what += f" ({entry.mode})"
        cells = [f"{signed(d)} = {signed(s, plus=False)}"
                 for d, s in zip(row.deltas, row.scores, strict=True)]
        table.add_row(str(i), escape(what), *cells, escape("; ".join(row.notes)))
    return table


class Session:
    """The interactive scoresheet: asks for deals, settles them, saves after each one.

    ``version`` is the sheet file's version when it was read (:mod:`tysiac_spec.savefile`):
    a save replaces the file only if nobody else changed it since; when a save fails (a
    conflict, a full or read-only disk) the sheet stays in memory with its last deal and the
    user is asked for another file."""

    def __init__(
        self,
        rules: Ruleset,
        form: Form,
        sheet: Sheet,
        path: Path,
        console: Console,
        read_line: Callable[[str], str],
        *,
        version: str | None = None,
    ) -> None:
        self.rules, self.form, self.sheet, self.path = rules, form, sheet, path
        from ..scoresheet import settle_sheet

        self.console, self.read_line = console, read_line
        self.settled = settle_sheet(rules, form, sheet)
        self.version = version
        self.written = False
        """Whether this session wrote the sheet file (so that "sheet saved" is true)."""
        self.unsaved = False
        """Whether the sheet in memory has changes no file holds (a save failed)."""

    def save(self) -> None:
        """Write the sheet to :attr:`path` if nobody else changed the file since it was read
        (:func:`~tysiac_spec.savefile.write_versioned`); when that fails, keep the sheet and
        ask for another file until one is written or the user types ``quit``.

        Raises:
            _Quit: the user gave up saving (the sheet is then not saved: :attr:`unsaved`).
            EOFError: the input ended while asking.
        """
        text = self.text()
        while True:
            try:
                self.version = write_versioned(self.path, text, expected=self.version)
            except SaveError as exc:
                self.unsaved = True
                self.say(f"not saved: {exc.diagnostic.message}", "red")
                again = "" if isinstance(exc, SaveConflictError) else f"empty: try {self.path} again; "
                self.say(f"the sheet and its last deal are kept: type another file to save it to ({again}"
                         "`quit`: stop without saving)", "yellow")
                while not self._other_file(self.read_line("save the sheet to: ").strip()):
                    pass
                continue
            self.written, self.unsaved = True, False
            return

    def text(self) -> str:
        """The sheet's file text, with its totals as settled now (``settled``, kept so that a
        change of its rules can be carried over: :mod:`tysiac_spec.scoresheet.carry`)."""
        from ..scoresheet.carry import totals_of

        self.sheet.settled = totals_of(self.rules, self.form, [row.scores for row in self.settled],
                                       self.state) if self.sheet.deals else None
        return self.sheet.to_json()

    def _other_file(self, answer: str) -> bool:
        """Take ``answer`` to the save question: ``quit``, empty (the same file again) or a new
        file; False for a file that exists (not overwritten: it may be another sheet)."""
        if answer.lower() in ("quit", "exit", "q"):
            raise _Quit
        if not answer:
            return True
        new = Path(answer).expanduser()
        if new.exists() or new.is_symlink():
            self.say(f"{shorten(answer, 300)} exists; give a new file", "yellow")
            return False
        self.path, self.version = new, ""
        return True

    def closing(self, saved: str) -> tuple[str, int]:
        """What to say when the session stops (``saved``: the words for a sheet on disk), and
        the exit status: ``1`` when the sheet has changes no file holds."""
        if self.unsaved:
            return "the sheet's last changes are NOT saved (no file could be written)", 1
        return saved, 0

    def say(self, text: str, style: str = "") -> None:
        from rich.markup import escape

        self.console.print(f"[{style}]{escape(text)}[/{style}]" if style else escape(text))

    def show(self) -> None:
        self.console.print(sheet_table(self.sheet, self.settled, self.form))

    def totals(self) -> str:
        scores = self.settled[-1].scores if self.settled else (0,) * self.sheet.players
        name = self.sheet.name
        return "totals: " + "  ".join(f"{name(p)} {signed(s, plus=False)}" for p, s in enumerate(scores))

    def status(self) -> str:
        """Counts that matter for the next deals: bolts, forfeits, who is on the barrel."""
        state, name, parts = self.state, self.sheet.name, []
        bolts = [f"{name(p)} {b}" for p, b in enumerate(state.bolts) if b]
        if bolts and self.form.special.bolts.enabled:
            parts.append("bolts: " + ", ".join(bolts))
        forfeits = [f"{name(p)} {f}" for p, f in enumerate(state.forfeits) if f]
        if forfeits:
            parts.append("forfeits: " + ", ".join(forfeits))
        b = self.form.special.barrel
        used = "" if b.attempts_unlimited else " ({} of " + str(b.attempts) + " attempts used)"
        barrel = [name(p) + used.format(seat.attempts) for p, seat in enumerate(state.barrel) if seat.on]
        if barrel:
            parts.append("on the barrel: " + ", ".join(barrel))
        return "; ".join(parts)

    def undo(self) -> None:
        if not self.sheet.deals:
            self.say("the sheet has no deal to remove", "yellow")
            return
        if self.sheet.carried is not None and len(self.sheet.deals) <= self.sheet.carried.deals:
            self.say(f"deal {len(self.sheet.deals)} was scored under the earlier rules; it cannot be "
                     "removed now", "yellow")
            return
        from ..scoresheet import settle_sheet

        self.sheet.deals.pop()
        self.settled = settle_sheet(self.rules, self.form, self.sheet)
        self.save()
        self.say(f"removed deal {len(self.sheet.deals) + 1}; sheet saved to {self.path}")
        self.say(self.totals())

    @property
    def winner(self) -> int | None:
        return self.settled[-1].winner if self.settled else None

    @property
    def state(self) -> MatchState:
        """The match state after the last deal on the sheet."""
        from ..scoresheet import start_state

        return self.settled[-1].state if self.settled else start_state(self.rules, self.form, self.sheet)

    def ask_deal(self) -> bool:
        """Ask for one deal; False when the user quits."""
        from ..engine.match import golden_deals
        from ..scoresheet import entry_from_answers, questions, settle_sheet, sitter_of

        number = len(self.sheet.deals) + 1
        state = self.state
        dealer = state.dealer
        head = f"dealer {self.sheet.name(dealer)}"
        sitter = sitter_of(self.form, dealer)
        if sitter is not None:
            head += f", {self.sheet.name(sitter)} sits out"
        if state.golden_left:
            n_golden = golden_deals(self.form)
            head += f", golden round: deal {n_golden - state.golden_left + 1} of {n_golden}"
        self.say(f"── deal {number} ({head}) ──", "bold")
        answers: dict[str, Any] = {}
        for q in questions(self.rules, self.form, self.sheet, dealer, state):
            if not q.applies(answers):
                continue
            while True:
                text = self.read_line(f"{q.prompt}: ")
                low = text.strip().lower()
                if low == "cancel":
                    raise _Cancel
                if q.key == "declarer" and low in ("quit", "q", "exit"):
                    raise _Quit
                if low in ("quit", "exit"):
                    self.say(f"deal {number} dropped (it was not complete)", "yellow")
                    raise _Quit
                if q.key == "declarer" and low in ("sheet", "show"):
                    self.show()
                    continue
                if q.key == "declarer" and low == "undo":
                    self.undo()
                    return True
                if low in ("?", "help"):
                    self.say(HELP)
                    continue
                try:
                    answers[q.key] = q.parse(text, answers)
                except EntryError as exc:
                    self.say(f"rejected: {exc.diagnostic.message}", "yellow")
                    continue
                break
        entry = entry_from_answers(self.form, dealer, answers)
        self.sheet.deals.append(entry)
        try:
            settled = settle_sheet(self.rules, self.form, self.sheet)
        except TysiacError as exc:
            self.sheet.deals.pop()
            self.say(f"rejected: {exc.diagnostic.message}", "yellow")
            return True
        self.settled = settled
        self.save()
        row = settled[-1]
        for note in row.notes:
            self.say(f"  {note}")
        self.say(
            f"deal {number}: "
            + "  ".join(f"{self.sheet.name(p)} {signed(d)}" for p, d in enumerate(row.deltas))
        )
        self.say(self.totals(), "bold")
        status = self.status()
        if status:
            self.say(status)
        self.say(f"sheet saved to {self.path}")
        return True

    def run(self) -> int:
        try:
            while self.winner is None:
                try:
                    if not self.ask_deal():
                        break
                except _Cancel:
                    self.say("deal cancelled; nothing saved for it")
        except _Quit:
            said, status = self.closing(
                f"sheet saved to {self.path}" if self.written else f"no change; the sheet is in {self.path}")
            self.say(said, "red" if status else "")
            return status
        except EOFError:
            said, status = self.closing(f"the sheet is saved in {self.path} (reopen it with --sheet)")
            self.say(f"end of input; {said}", "red" if status else "")
            return status
        except KeyboardInterrupt:
            said, status = self.closing(f"the sheet is saved in {self.path}")
            self.say(f"\ninterrupted; {said}", "red" if status else "")
            return EXIT_INTERRUPTED
        if self.winner is not None:
            self.show()
            self.say(f"match over: {self.sheet.name(self.winner)} wins", "bold")
        return 0


def open_sheet(
    ruleset: str | None,
    players: int | None,
    options: dict[str, str],
    path: Path,
    names: Sequence[str],
    dealer: int,
    confirm: Callable[[str], bool] = lambda question: False,
) -> tuple[Ruleset, Form, Sheet, bool]:
    """Load the sheet at ``path`` (checking it is for this ruleset and table) or start one;
    the ruleset, the form, the sheet, and whether the sheet changed in opening (a change of
    its rules carried over: to be saved at once).

    The sheet is read as untrusted input (:meth:`Sheet.read`).  Its ruleset is the one the
    user names (``ruleset``, any path), else the sheet's: a shipped id, or a file in the
    sheet's folder or below (through :func:`~tysiac_spec.ruleset.registry.find`).

    When the ruleset changed since the sheet was last saved, only what changes the scores
    counts (:func:`~tysiac_spec.scoresheet.carry.rules_fingerprint`); where that changed,
    ``confirm`` is asked whether to go on under the new rules from the next deal, the deals so
    far keeping their scores (:func:`~tysiac_spec.scoresheet.carry.carry_over`).

    Raises:
        EntryError: ``entry.sheet`` — the sheet cannot be read, belongs to another ruleset,
            player count or options (the message names the option that differs), or its
            rules changed and the sheet is not carried over; ``registry.outside`` — the sheet
            names a ruleset file outside its folder (it is not read).
        LimitError: the sheet is over a limit (:meth:`Sheet.read`).
    """
    from ..engine.record import ruleset_file_from
    from ..ruleset import load_ruleset, registry
    from ..scoresheet import Sheet, settle_sheet
    from ..scoresheet.carry import reconcile_rules, rules_fingerprint

    if path.exists() and path.stat().st_size > 0:
        sheet = Sheet.read(path)
        ref = sheet.ruleset_file or sheet.ruleset
        target: str | Path | None = None
        if ruleset is not None and ruleset != sheet.ruleset:
            rules_given = load_ruleset(ruleset)
            if rules_given.id != sheet.ruleset:
                message = f"{path} is a sheet for `{shorten(sheet.ruleset)}`, not `{rules_given.id}`"
                raise EntryError(Diagnostic("entry.sheet", message))
            target = ruleset  # named by the user: allowed wherever it is
        if names and list(names) != sheet.names:
            shown_names = ", ".join(sheet.name(p) for p in range(len(sheet.names)))
            raise click.BadParameter(
                f"{path} already names the players ({shown_names or 'P0, P1, …'}); "
                "names are given for a new sheet only", param_hint="--names",
            )
        if players is not None and players != sheet.players:
            raise EntryError(Diagnostic(
                "entry.sheet", f"{path} is a sheet for {sheet.players} players, not {players}"))
        for key, value in options.items():
            if str(sheet.options.get(key)) != str(value):
                had = sheet.options.get(key)
                started = f"-O {shorten(key)}={shorten(str(had), 40)}" if key in sheet.options else \
                    f"no option `{shorten(key)}`"
                given = f"-O {shorten(key)}={shorten(str(value), 40)}"
                raise EntryError(Diagnostic(
                    "entry.sheet", f"{path} was started with {started}, not {given}; options cannot change"))
        try:
            if target is None:
                target = registry.find(ref, relative_to=path) if registry.looks_like_path(ref) else ref
            rules = load_ruleset(target, options=sheet.options)
            form = rules.form(sheet.players)
        except TysiacError as exc:
            code = exc.diagnostic.code if exc.diagnostic.code == "registry.outside" else "entry.sheet"
            raise EntryError(Diagnostic(
                code, f"{path} cannot be reopened: {shorten(exc.diagnostic.message, 400)}",
                hint=exc.diagnostic.hint)) from None
        changed = reconcile_rules(rules, form, sheet, str(path), confirm)
        try:
            settle_sheet(rules, form, sheet, numbered=True)
        except TysiacError as exc:
            raise EntryError(Diagnostic(
                "entry.sheet", f"{path}: {exc.diagnostic.message}",
                hint="correct or delete that deal in the file (a text editor will do)",
            )) from None
        return rules, form, sheet, changed
    if ruleset is None:
        raise click.UsageError("give a ruleset id or path to start a new sheet")
    rules = load_ruleset(ruleset, options=options)
    n = players if players is not None else rules.default_players()
    form = rules.form(n)
    if len(names) not in (0, n):
        raise click.BadParameter(f"give {n} names (got {len(names)})", param_hint="--names")
    check_names(names)
    if not 0 <= dealer < n:
        message = f"the first dealer is a player 0 to {n - 1} (got {dealer})"
        raise click.BadParameter(message, param_hint="--dealer")
    sheet = Sheet(
        ruleset=rules.id,
        players=n,
        options={k: v for k, v in rules.selected.items()},
        content_hash=rules.content_hash,
        ruleset_file=None if _is_shipped(rules) or rules.file is None
        else ruleset_file_from(rules.file, path),
        names=list(names),
        first_dealer=dealer % n,
        rules_hash=rules_fingerprint(rules, form),
    )
    return rules, form, sheet, False


def check_names(names: Sequence[str]) -> None:
    """Names must tell the players apart and not look like seat numbers (``1``, ``P1``), since
    the questions accept either.

    Raises:
        click.BadParameter: a repeated or number-like name (an empty one leaves the seat
            unnamed: ``P1``).
    """
    from ..scoresheet import names_problem

    problem = names_problem(names)
    if problem:
        raise click.BadParameter(problem, param_hint="--names")


def _is_shipped(rules: Ruleset) -> bool:
    from ..ruleset import registry

    return any(e.id == rules.id for e in registry.entries())


@click.command("score")
@click.argument("ruleset", metavar="ID|PATH", required=False)
@click.option("--players", "-p", type=int, help="Players at the table (default: 3 if the ruleset has a "
              "3-player form, else its smallest count).")
@click.option(
    "--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
    help="Set a table option of the ruleset (repeatable), e.g. -O rospis=only_3.",
)
@click.option(
    "--sheet", "sheet_path", type=click.Path(dir_okay=False, path_type=Path),
    help="The sheet file (JSON): reopened if it exists (default: tysiac-sheet.json).",
)
@click.option("--undo", is_flag=True, help="Remove the last deal from the sheet first.")
@click.option("--names", help="Players' names, comma-separated (a new sheet only).")
@click.option("--dealer", type=int, default=0, show_default=True, help="Who deals first (a new sheet only).")
@_user_errors
def score(
    ruleset: str | None,
    players: int | None,
    options: Sequence[str],
    sheet_path: Path | None,
    undo: bool,
    names: str | None,
    dealer: int,
) -> None:
    """Keep the scoresheet of a game played with real cards.

    For each deal, answer: who declared, the bid, rospis / bomb / dark where the ruleset
    has them, the contract, each player's card points, the marriages declared (`1:H 2:D`:
    the seat, then the suit; seats count from 0, so `1:H` is the second seat's hearts),
    and who took no trick where bolts are counted. The ruleset's scoring and match rules
    are applied and each adjustment explained ("555 → 0"). Impossible entries are
    rejected with the reason. The sheet is saved after every deal and reopened by
    giving the same --sheet; --undo removes the last deal.

    At the `declarer` question you may also type `undo`, `sheet` or `quit`; `cancel`
    at any question drops the deal being entered, `quit` drops it and stops. With 4
    players the talon as dealt is asked for the sitter's score; in a golden round each
    deal is asked whether it is one (its declarer is the first hand).
    """
    from rich.console import Console
    from rich.markup import escape

    from ..scoresheet import parse_yes_no

    path = sheet_path or Path("tysiac-sheet.json")
    name_list = [n.strip() for n in names.split(",")] if names else []
    try:
        version = file_version(path)  # before it is read: a change made meanwhile is a conflict
    except SaveError as exc:  # a FIFO, a device, a folder: refused before anything is asked
        raise click.ClickException(exc.diagnostic.message) from None
    new_sheet = not version or not path.stat().st_size
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:
        console = Console(highlight=False, soft_wrap=True, width=max(console.width, 120))
    read_line = line_reader(console)

    def confirm(question: str) -> bool:
        while True:
            try:
                answer = read_line(f"{question}: ")
                if answer.strip().lower() in ("quit", "exit", "q"):  # as at every other question
                    raise _Quit
                return parse_yes_no(answer)
            except EOFError:
                return False
            except EntryError as exc:
                console.print(escape(f"rejected: {exc.diagnostic.message}"))

    try:
        rules, form, sheet, changed = open_sheet(
            ruleset, players, parse_option_args(options), path, name_list, dealer, confirm)
    except _Quit:
        console.print(escape(f"stopped: {path} is not changed"))
        sys.exit(0)
    session = Session(rules, form, sheet, path, console, read_line, version=version)
    try:  # can the sheet be written? asked before the first question, not after a deal is typed
        if new_sheet or changed:  # a new sheet, or the change of its rules, written at once
            session.version = write_versioned(path, session.text(), expected=version)
            session.written = True
        else:
            check_writable(path, sheet.to_json())
    except SaveError as exc:
        raise click.ClickException(exc.diagnostic.message) from None
    count = len(sheet.deals)
    click.echo(f"{rules.id}, {sheet.players} players; sheet {path} ({count} deal{'' if count == 1 else 's'})")
    if undo:
        try:
            session.undo()
        except (_Quit, EOFError):
            said, status = session.closing("")
            session.say(said, "red")
            sys.exit(status)
    if sheet.deals:
        session.show()
    sys.exit(session.run())
