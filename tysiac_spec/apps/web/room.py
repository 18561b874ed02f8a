"""A web table's room: the authoritative :class:`~tysiac_spec.engine.game.Game`, its seats
(humans, bots, humans handed to a bot), the connections, and the order of every change:
check → apply → write to the store → send to the clients.

The engine, the bots and the store are synchronous and a room never awaits while it
changes the game, so each action (with the bots' replies) is atomic in the server's event
loop: no other action of the table runs between the check and the broadcast.  A client is
never sent an action the store does not hold.  Every message to a client is made by
:mod:`.views`; an engine error never reaches one (the room answers with its own codes).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ...bots import BUILTIN, Bot, make_bot
from ...engine.actions import Action
from ...engine.game import Game
from ...engine.record import Record
from ...errors import IllegalActionError, TysiacError
from ...limits import limit
from ...ruleset import Ruleset
from . import views
from .auth import same_token
from .protocol import CHAT_CHARS, ERRORS, clean_name
from .rulesets import load_table_ruleset
from .store import MatchRow, SeatRow, Store, TableRow

__all__ = ["Conn", "Refused", "Room", "new_seed"]

log = logging.getLogger("tysiac.web")

BOT_CHUNK = 400
"""Bot moves made in one go at a table with a human player; more are scheduled on the
event loop."""

BOTS_ONLY_CHUNK = 24
"""Bot moves made in one go at a table where no human plays (every seat a bot, or handed to
one); the next ones follow after :data:`BOT_PACE`, so that people can watch and the other
tables keep playing."""

BOT_PACE = 0.05
"""Seconds between two runs of :data:`BOTS_ONLY_CHUNK` bot moves."""

# A match that has played ``limit("web_deals")`` deals (500, TYSIAC_MAX_WEB_DEALS) without a
# winner is abandoned (random bots, or a house file whose target cannot be reached): nobody
# acts any more; a rematch may start.  The same after ``limit("web_actions")`` actions (20,000,
# TYSIAC_MAX_WEB_ACTIONS; deals abandoned for a redeal score nothing), so a stored table
# always replays in bounded time.  Both are read when a room is opened (tysiac_spec/limits.py).

REQS_KEPT = 64
"""Request ids remembered per seat (an ``act`` re-sent after a reconnect is applied once)."""

CHAT_KEPT = 50


def new_seed() -> int:
    """A match seed: random, secret until the match is over."""
    return secrets.randbelow(2**31)


class Refused(Exception):
    """A request the room refuses: ``code`` (:data:`.protocol.ERRORS`), ``status`` (HTTP),
    a message in the room's own words; ``version`` for ``stale``."""

    def __init__(
        self, code: str, status: int, message: str | None = None, version: int | None = None
    ) -> None:
        super().__init__(message or ERRORS[code])
        self.code, self.status, self.message, self.version = code, status, message or ERRORS[code], version


class Conn(Protocol):
    """A client connection as the room sees it: who it is and how to reach it."""

    seat: int | None
    host: bool
    watcher: bool

    def send(self, text: str) -> None:
        """Queue one frame (never blocks)."""

    def close(self, code: int) -> None:
        """Close the connection with ``code``."""


@dataclass(slots=True)
class _Who:
    seat: int | None
    host: bool
    watcher: bool


class Room:
    """One table: create with :meth:`create` (a new table, stored) or :meth:`restore` (a
    stored one, its match replayed)."""

    def __init__(self, row: TableRow, ruleset: Ruleset, store: Store) -> None:
        self.row = row
        self.id = row.id
        self.ruleset = ruleset
        self.store = store
        self.conns: set[Conn] = set()
        self.away_since: list[float | None] = [None] * row.players
        self._reqs: list[OrderedDict[str, int]] = [OrderedDict() for _ in range(row.players)]
        self.chat: list[tuple[int | None, str, float]] = list(row.chat)
        self.timings: Callable[[float], None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._pending = False
        self.words = views.table_words(ruleset, row.players)
        self.max_deals = limit("web_deals")
        self.max_actions = limit("web_actions")
        self._start_match(row.match)

    # ------------------------------------------------------------------ building

    @classmethod
    def create(cls, row: TableRow, ruleset: Ruleset, store: Store) -> Room:
        """A new table: its first deal dealt, then stored, then the bots play (up to the
        first human turn, or paced where no human plays).

        Raises:
            Refused: ``rules_failed`` (422) when the rules fail to deal (a formula out of
                range); nothing is stored then.
        """
        try:
            room = cls(row, ruleset, store)
        except Exception as exc:
            raise _failure(row.id, 0, exc) from None
        store.create_table(row)
        room._bots_move()
        return room

    @classmethod
    def restore(cls, row: TableRow, store: Store) -> Room:
        """A stored table with its current match replayed action by action.

        Raises:
            TysiacError: the ruleset cannot be loaded any more; Refused: a stored action is
                not legal (the ruleset changed).
        """
        ruleset = load_table_ruleset(
            None if row.ruleset_text is not None else row.ruleset_ref, row.ruleset_text, row.options
        )
        room = cls(row, ruleset, store)
        room._more_bots(0.0)  # the bots play once the server runs (a bounded replay now)
        return room

    def _start_match(self, match: MatchRow) -> None:
        self.match = match
        self.broken: str | None = None
        """Why the rules failed on a bot's move at a table of bots alone (see :meth:`_bots_move`)."""
        self.game = Game(self.ruleset, players=self.row.players, seed=match.seed)
        self.actors: list[int] = []
        self.deal_start = 0
        self._deal = self.game.deal
        self._deals = 0
        self.bots: dict[int, Bot] = {}
        for s in self.row.seats:
            if s.bot is not None:
                self.bots[s.seat] = self._bot(s.seat, s.bot)
        for seat, text in match.actions:
            self._apply(self._legal_by_text(text), seat)
        self._deals = len(self.game.deal_scores)

    def _bot(self, seat: int, name: str) -> Bot:
        return make_bot(name, self.match.seed * 8 + seat + 1, self.game.form)

    def _legal_by_text(self, text: str) -> Action:
        for action in self.game.legal_actions():
            if action.text == text:
                return action
        raise Refused("illegal", 422, f"`{text[:40]}` is not legal now")

    def _apply(self, action: Action, seat: int) -> None:
        game = self.game
        game.apply(action)
        self.actors.append(seat)
        if game.deal is not self._deal:
            self._deal = game.deal
            self.deal_start = len(game.history)

    # ------------------------------------------------------------------ who is who

    def who(self, token: str) -> _Who | None:
        """The role of a token at this table (``None``: unknown here)."""
        for s in self.row.seats:
            if s.token_hash is not None and same_token(token, s.token_hash):
                return _Who(s.seat, self.row.host_seat == s.seat, False)
        if same_token(token, self.row.host_token_hash):
            return _Who(self.row.host_seat, True, False)
        if same_token(token, self.row.watch_token_hash):
            return _Who(None, False, True)
        return None

    def admit(self, token: str) -> _Who:
        """The role of ``token`` at this table, for the websocket's hello and every HTTP
        route alike.

        Raises:
            Refused: ``bad_token`` (401: unknown here), ``forbidden`` (403: the watch link
                while the host allows no watchers).
        """
        who = self.who(token)
        if who is None:
            raise Refused("bad_token", 401)
        if who.watcher and not self.row.settings.get("spectators"):
            raise Refused("forbidden", 403, "the host allows no watchers")
        return who

    @property
    def version(self) -> int:
        return len(self.game.history)

    @property
    def abandoned(self) -> str | None:
        """Why the match is abandoned (it passed :attr:`max_deals` deals or
        :attr:`max_actions` actions without a winner), in words; ``None`` while it goes on or
        once it is won."""
        game = self.game
        if game.is_over:
            return None
        if self.broken is not None:
            return f"the rules failed on a bot's move and the match cannot go on: {self.broken}"
        if len(game.deal_scores) >= self.max_deals:
            return f"the match passed {self.max_deals} deals without a winner and is abandoned"
        if len(game.history) >= self.max_actions:
            return f"the match passed {self.max_actions} actions without a winner and is abandoned"
        return None

    def seats_json(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.conns if c.seat is not None and not c.watcher}
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "connected": s.seat in connected,
                "away_since": None if s.seat in connected else self.away_since[s.seat],
                "handed": s.kind == "human" and s.bot is not None,
            }
            for s in self.row.seats
        ]

    def state(
        self,
        seat: int | None,
        rows: list[dict[str, Any]] | None = None,
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The STATE body for ``seat`` (``None``: public); an abandoned match (see
        :attr:`abandoned`) adds ``"abandoned": "<why>"`` and lists no legal action."""
        body = views.state_body(
            self.game,
            seat=seat,
            match_no=self.match.match_no,
            seats=seats or self.seats_json(),
            settings=self.row.settings,
            actors=self.actors,
            deal_start=self.deal_start,
            rows=rows,
        )
        why = self.abandoned
        if why is not None:
            body["abandoned"] = why
            if "legal" in body:
                body["legal"] = []
        return body

    def welcome(self, conn: Conn, lang: str) -> dict[str, Any]:
        return {
            "type": "welcome",
            "proto": 1,
            "table": self.id,
            "role": "watcher" if conn.watcher else "seat" if conn.seat is not None else "host",
            "seat": conn.seat,
            "host": conn.host,
            "ruleset": {"id": self.ruleset.id, "names": dict(self.ruleset.name)},
            "players": self.row.players,
            "deck": views.deck_json(self.ruleset),
            "settings": dict(self.row.settings),
            "lang": lang,
            "options": views.table_options(self.ruleset, self.row.players),
            "words": self.words,
        }

    # ------------------------------------------------------------------ acting

    def act(self, seat: int | None, version: int, text: str, req: str | None = None) -> None:
        """Apply the action ``text`` of ``seat`` answering ``version``, then the bots' replies;
        store them; send every client its state.

        Raises:
            Refused: ``forbidden`` (no seat), ``over``, ``not_your_turn``, ``stale``
                (``version`` is not the current one), ``illegal`` (not one of the legal
                actions' texts), ``rules_failed`` (the engine failed applying the action or a
                bot's reply: the game is back at the last stored action).
        """
        started = time.perf_counter()
        if seat is None:
            raise Refused("forbidden", 403, "a watcher or a host without a seat cannot act")
        if req is not None and req in self._reqs[seat]:
            return  # applied already (re-sent after a reconnect)
        game = self.game
        if game.is_over:
            raise Refused("over", 422)
        if self.abandoned is not None:
            raise Refused("over", 422, self.abandoned)
        if self.row.seats[seat].bot is not None:
            raise Refused("forbidden", 403, "a bot plays this seat; open the seat link to take it back")
        if version != self.version:
            raise Refused("stale", 409, version=self.version)
        if game.current_player != seat:
            raise Refused("not_your_turn", 422)
        action = self._legal_by_text(text)
        start = self.version
        try:
            self._apply(action, seat)
            self._play_bots()
        except Exception as exc:  # the rules failed (a formula out of range): back to the store
            raise self._rolled_back(exc) from None
        self._commit(start)
        if req is not None:
            reqs = self._reqs[seat]
            reqs[req] = self.version
            while len(reqs) > REQS_KEPT:
                reqs.popitem(last=False)
        self._broadcast()
        if self.timings is not None:
            self.timings(time.perf_counter() - started)

    def _bots_move(self) -> None:
        """Let the bots play up to a human's turn (or the end), store, send."""
        start = self.version
        try:
            moved = self._play_bots()
        except Exception as exc:  # the rules failed on a bot's move: back to the store, stop
            refused = self._rolled_back(exc)
            if not any(s.kind == "human" and s.bot is None for s in self.row.seats):
                # no one would ever act again: the match is abandoned, and everyone told why
                self.broken = refused.message
                self._broadcast()
            return
        if moved:
            self._commit(start)
            self._broadcast()

    def _rolled_back(self, exc: Exception) -> Refused:
        """The game back at the last stored action after the engine failed (``exc``), the
        bots' next moves cancelled; the refusal to answer (one line logged)."""
        self.stop()
        self._start_match(self.match)
        return _failure(self.id, self.version, exc)

    def _play_bots(self) -> bool:
        """The bots' moves up to a human's turn, at most :data:`BOT_CHUNK` of them now
        (:data:`BOTS_ONLY_CHUNK` where no human plays): the rest is scheduled on the event
        loop (after :data:`BOT_PACE` where no human plays), so that a table of bots never
        holds up the others; an abandoned match (:attr:`abandoned`) stops them."""
        game, moved = self.game, False
        humans = any(s.kind == "human" and s.bot is None for s in self.row.seats)
        for _ in range(BOT_CHUNK if humans else BOTS_ONLY_CHUNK):
            if game.is_over or self.abandoned is not None:
                break
            seat = game.current_player
            bot = self.bots.get(seat)
            if bot is None:
                break
            legal = game.legal_actions()
            try:
                choice = bot.choose(game.view(seat), legal)
            except Exception:  # a bot's failure must not stop the table
                log.exception(
                    "table %s: the bot of seat %d failed; it plays the first legal action", self.id, seat
                )
                choice = legal[0]
            if choice not in legal:
                choice = legal[0]
            self._apply(choice, seat)
            moved = True
        else:
            self._more_bots(0.0 if humans else BOT_PACE)
        return moved

    def _more_bots(self, delay: float) -> None:
        """Play the bots' next moves from the event loop after ``delay`` seconds (no loop
        running, as while the server starts: once it runs, see :meth:`resume`)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._pending = True
            return
        if self._timer is not None:
            return
        self._timer = loop.call_later(delay, self._bots_timer)

    def _bots_timer(self) -> None:
        self._timer = None
        self._bots_move()

    def resume(self) -> None:
        """Let the bots go on once the event loop runs (a table restored at start)."""
        if self._pending:
            self._pending = False
            self._more_bots(0.0)

    def stop(self) -> None:
        """Cancel the bots' next moves (the server stops)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _commit(self, start: int) -> None:
        """Store the actions after ``start`` (the human's and the bots'), then the match's end.
        If the store fails, the game goes back to what is stored and the error propagates."""
        game = self.game
        new = [(self.actors[n], game.history[n]) for n in range(start, len(game.history))]
        try:
            self.store.append_actions(self.id, self.match.match_no, start, new)
            self.match.actions.extend(new)
            if game.is_over and self.match.winners is None:
                self.match.winners = list(game.winners)
                self.store.end_match(self.id, self.match.match_no, self.match.winners)
        except Exception:
            del self.match.actions[start:]
            self._start_match(self.match)
            raise

    # ------------------------------------------------------------------ sending

    def _broadcast(self) -> None:
        rows = views.deal_rows(self.game)
        seats = self.seats_json()
        ended = len(self.game.deal_scores) > self._deals
        self._deals = len(self.game.deal_scores)
        cache: dict[tuple[int | None], str] = {}
        extra: list[str] = []
        if ended and rows:
            extra.append(
                views.dumps(
                    {
                        "type": "deal_over",
                        "deal": rows[-1]["deal"],
                        "row": rows[-1],
                        "trick": self._last_trick(),
                    }
                )
            )
        if self.game.is_over:
            extra.append(
                views.dumps(
                    {
                        "type": "match_over",
                        "winners": list(self.game.winners),
                        "record": f"/api/tables/{self.id}/record?match={self.match.match_no}",
                    }
                )
            )
        for conn in list(self.conns):
            key = (None if conn.watcher else conn.seat,)
            text = cache.get(key)
            if text is None:
                text = cache[key] = views.dumps({"type": "state", **self.state(key[0], rows, seats)})
            conn.send(text)
            for frame in extra:
                conn.send(frame)

    def _last_trick(self) -> list[list[Any]]:
        """The plays that closed the deal just finished (public cards): the trailing run of
        ``play`` actions, at most one per player."""
        out: list[list[Any]] = []
        history, actors = self.game.history, self.actors
        n = self.deal_start - 1
        while n >= 0 and history[n].startswith("play ") and len(out) < self.row.players:
            out.insert(0, [actors[n], history[n].split()[1]])
            n -= 1
        return out

    def send_all(self, frame: dict[str, Any], *, watchers: bool = True) -> None:
        text = views.dumps(frame)
        for conn in list(self.conns):
            if watchers or not conn.watcher:
                conn.send(text)

    # ------------------------------------------------------------------ connections

    def join(self, conn: Conn) -> None:
        """A connection said hello: the newest connection of a seat wins (the older is closed
        with 4409); a seat handed to a bot comes back to its player."""
        if conn.seat is not None and not conn.watcher:
            for old in [c for c in self.conns if c.seat == conn.seat and not c.watcher]:
                self.conns.discard(old)
                old.close(4409)
        self.conns.add(conn)
        if conn.seat is not None and not conn.watcher:
            self.away_since[conn.seat] = None
            seat = self.row.seats[conn.seat]
            self.send_all({"type": "presence", "seat": conn.seat, "connected": True})
            if seat.kind == "human" and seat.bot is not None:  # the player takes the seat back
                seat.bot = None
                self.bots.pop(conn.seat, None)
                self.store.update_seat(self.id, seat)
                self._broadcast()

    def leave(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if (
            conn.seat is not None
            and not conn.watcher
            and not any(c.seat == conn.seat and not c.watcher for c in self.conns)
        ):
            self.away_since[conn.seat] = time.time()
            self.send_all({"type": "presence", "seat": conn.seat, "connected": False})

    def hand_to_bot(self, seat: int, bot: str) -> None:
        """The host gives the seat of a player away longer than the grace period to ``bot``.

        Raises:
            Refused: ``bad_request`` (no such seat or bot), ``not_away``.
        """
        if not 0 <= seat < self.row.players or bot not in BUILTIN:
            raise Refused(
                "bad_request",
                400,
                f"name a seat 0 to {self.row.players - 1} and a bot: {', '.join(sorted(BUILTIN))}",
            )
        s = self.row.seats[seat]
        connected = any(c.seat == seat and not c.watcher for c in self.conns)
        since = self.away_since[seat]
        grace = float(self.row.settings.get("grace", 60))
        if s.kind != "human" or connected or (since is not None and time.time() - since < grace):
            raise Refused("not_away", 409)
        s.bot = bot
        self.bots[seat] = self._bot(seat, bot)
        self.store.update_seat(self.id, s)
        self._bots_move()
        self._broadcast()

    def rename(self, seat: int, name: str) -> None:
        clean = clean_name(name)
        if clean is None:
            raise Refused(
                "bad_request", 400, "a name has 1 to 24 characters, none of them a control character"
            )
        s = self.row.seats[seat]
        s.name = clean
        self.store.update_seat(self.id, s)
        self._broadcast()

    def settings(self, changes: dict[str, Any]) -> None:
        for key in ("chat", "spectators", "hints"):
            if key in changes:
                self.row.settings[key] = bool(changes[key])
        self.store.update_settings(self.id, self.row.settings)
        if not self.row.settings.get("spectators"):
            for conn in [c for c in self.conns if c.watcher]:
                self.conns.discard(conn)
                conn.close(4403)
        self._broadcast()

    def hint(self, seat: int | None, version: int) -> str:
        """The action the ``strong`` bot would take in ``seat``'s place now (the text of one of
        its legal actions), judged from that seat's views of this deal only: the match is
        replayed from its seed and the bot watches the seat's view before each action of the
        deal (as ``tysiac play``'s ``hint``), so it knows what that player saw and nothing
        of the other hands.

        Raises:
            Refused: ``forbidden`` (no seat), ``hints_off`` (the host has switched hints
                off), ``over``, ``stale``, ``not_your_turn``.
        """
        if seat is None:
            raise Refused("forbidden", 403, "a watcher or a host without a seat has no hand to advise")
        if not self.row.settings.get("hints", True):
            raise Refused("hints_off", 403)
        game = self.game
        if game.is_over or self.abandoned is not None:
            raise Refused("over", 422, self.abandoned)
        if version != self.version:
            raise Refused("stale", 409, version=self.version)
        if game.current_player != seat:
            raise Refused("not_your_turn", 422)
        from ...bots import StrongBot

        again = Game(self.ruleset, players=self.row.players, seed=self.match.seed)
        hinter = StrongBot(self.match.seed * 8 + seat + 1, again.form)
        for i, text in enumerate(game.history):
            if i >= self.deal_start:
                hinter.observe(again.view(seat))
            action = next((a for a in again.legal_actions() if a.text == text), None)
            if action is None:  # not a move of the table (cannot happen: every move was legal)
                raise Refused("server", 500)
            again.apply(action)
        legal = game.legal_actions()
        return hinter.choose(game.view(seat), legal).text

    def say(self, conn: Conn, text: str) -> None:
        if conn.watcher:
            raise Refused("forbidden", 403, "watchers cannot chat")
        if not self.row.settings.get("chat", True):
            raise Refused("chat_off", 403)
        line = text.strip()
        if not 1 <= len(line) <= CHAT_CHARS or clean_name(line, CHAT_CHARS) is None:
            raise Refused(
                "bad_request", 400, f"a chat line has 1 to {CHAT_CHARS} characters, no control characters"
            )
        at = time.time()
        self.store.add_chat(self.id, conn.seat, line, at)
        self.chat = [*self.chat[-(CHAT_KEPT - 1) :], (conn.seat, line, at)]
        name = self.row.seats[conn.seat].name if conn.seat is not None else "host"
        self.send_all(
            {"type": "chat", "seat": conn.seat, "name": name, "text": line, "at": at}, watchers=False
        )

    def chat_frames(self) -> Iterable[dict[str, Any]]:
        for seat, text, at in self.chat:
            name = self.row.seats[seat].name if seat is not None else "host"
            yield {"type": "chat", "seat": seat, "name": name, "text": text, "at": at}

    def rematch(self) -> None:
        """A new match at the table: the same seats, a new seed.

        Raises:
            Refused: ``bad_request`` while the match goes on (not won, not abandoned).
        """
        if not self.game.is_over and self.abandoned is None:
            raise Refused("bad_request", 400, "a rematch starts when the match is over")
        match = MatchRow(self.match.match_no + 1, new_seed())
        self.store.new_match(self.id, match.match_no, match.seed)
        self.row.match = match
        self._start_match(match)
        self._bots_move()
        self._broadcast()

    # ------------------------------------------------------------------ the record

    def record(self, match_no: int | None = None) -> Record:
        """The record of a match of the table (the current one by default), in the ``tysiac
        play --save`` format; an uploaded ruleset is named ``house-<table>.yaml`` (its text is
        at ``/api/tables/<t>/ruleset``).

        Raises:
            Refused: ``not_over`` while that match goes on; ``bad_request`` for no such match.
        """
        number = self.match.match_no if match_no is None else match_no
        if number == self.match.match_no:
            if not self.game.is_over:
                raise Refused("not_over", 403)
            record = self.game.record
        else:
            row = self.store.match(self.id, number)
            if row is None or row.winners is None:
                raise Refused("bad_request", 400, "no finished match with that number at this table")
            game = Game(self.ruleset, players=self.row.players, seed=row.seed)
            for _, text in row.actions:
                game.apply(next(a for a in game.legal_actions() if a.text == text))
            record = game.record
        if self.row.ruleset_text is not None:
            record = replace(record, ruleset_file=f"house-{self.id}.yaml")
        return record


def _failure(table: str, version: int, exc: Exception) -> Refused:
    """``rules_failed`` for an engine error while dealing or applying an action: a
    :class:`~tysiac_spec.errors.TysiacError`'s first line (``file:line:col: …``), never an
    illegal-action hint (it may list hands) nor any other exception's text; one log line."""
    if isinstance(exc, TysiacError) and not isinstance(exc, IllegalActionError):
        words = str(exc).splitlines()[0][:300]
    else:
        words = ERRORS["rules_failed"]
    kind = type(exc).__name__
    log.error("table %s: the rules failed after action %d (%s): %s", table, version, kind, words)
    return Refused("rules_failed", 422, words)


def table_row(
    *,
    table_id: str,
    ruleset_ref: str,
    ruleset_text: str | None,
    ruleset: Ruleset,
    options: dict[str, Any],
    players: int,
    settings: dict[str, Any],
    host_hash: str,
    watch_hash: str | None,
    host_seat: int | None,
    seats: list[SeatRow],
    seed: int,
) -> TableRow:
    """A new table's stored form."""
    return TableRow(
        table_id,
        ruleset_ref,
        ruleset_text,
        ruleset.content_hash,
        options,
        players,
        settings,
        host_hash,
        watch_hash,
        host_seat,
        seats,
        MatchRow(1, seed),
    )
