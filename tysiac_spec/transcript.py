"""The text transcript of a game: what happened at the table, deal by deal, as
``tysiac replay`` prints it and the golden playthroughs (``tests/golden/``) keep it.

A tool above the engine: it replays a :class:`~tysiac_spec.engine.record.Record` with
:func:`tysiac_spec.engine.replay.start` and the engine's public state, and the engine does
not import it.
"""

from __future__ import annotations

from typing import Any

from .docs.terms import four_of, golden_deal, option_text
from .engine.actions import DeclareContract, Incident, PlayCard, parse_action
from .engine.game import Game
from .engine.record import Record, record_error, record_of
from .engine.replay import action_error, set_deals, start
from .engine.seating import seats_text
from .errors import TysiacError
from .table import said
from .text import signed

__all__ = ["transcript"]


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards) or "-"


class _Writer:
    """Replays a record action by action and writes what happens at the table."""

    def __init__(self, record: Record) -> None:
        self.game = start(record)
        self.record = record
        self.lines: list[str] = []
        self.deal_no = 0
        self.trick: list[str] = []
        self.trick_no = 0
        self.shown: Any = None  # the deal written (a new one: before its first action)
        self.redeal = False  # whether the deal to write is a redeal
        self.printed = 0  # the match events written
        self.totals = [0] * record.players  # the totals as last written (0 at the start)

    def out(self, text: str) -> None:
        self.lines.append(text)

    def header(self) -> None:
        r, g = self.record, self.game
        opts = ", ".join(f"{k}={option_text(v)}" for k, v in sorted(r.options.items())) or "none"
        self.out(f"Ruleset {r.ruleset} ({g.ruleset.title()}), {r.players} players, seed {r.seed}")
        self.out(f"Options: {opts}")
        self.out(f"Target: {g.form.match.target} points")
        if r.position is not None:  # a game started from a position (Game.from_position)
            self.out(f"From the position: {r.position}")

    def show_deal(self) -> None:
        """Write the deal in play when it is not written yet: a new deal, or one set by hand."""
        if self.game.deal is not self.shown:
            self.start_deal(self.redeal)
            self.redeal = False

    def start_deal(self, redeal: bool = False) -> None:
        d = self.shown = self.game.deal
        self.deal_no += 1
        # a deal from a position may open in play: the cards already in the trick and the
        # tricks already taken belong to the lines to come
        self.trick = [f"P{p} {c}" for p, c in d.trick]
        self.trick_no = d.trick_number
        self.out("")
        self.out(f"Deal {self.deal_no}" + (" (redeal)" if redeal else "") + f": dealer P{d.dealer}"
                 + (f", P{d.sitter} sits out" if d.sitter is not None else "")
                 + (f" ({golden_deal(self.game.form.special.golden_round)})" if d.mode == "golden" else ""))
        self.events()  # a redeal, a bad cut before this deal: with what they cost
        self.changes(totals=True)
        for p in sorted(d.order):
            self.out(f"  P{p} hand: {_cards(d.hands[p])}")
        for i, t in enumerate(d.talons):
            self.out(f"  talon{'' if len(d.talons) == 1 else f' {i}'}: {_cards(t)}")
        if d.stock:
            self.out(f"  stock (top first, the last face up): {_cards(d.stock)}")
        if d.declarer is not None:
            self.out(f"  declarer: P{d.declarer} at {d.high_bid}")

    def step(self, text: str) -> None:
        g = self.game
        deal, player, deal_phase = g.deal, g.current_player, g.deal.phase
        trump, declared, taken = deal.trump, len(deal.declared), len(deal.taken)
        declarer, scored = deal.declarer, len(g.deal_scores)
        action = parse_action(text, g.ruleset.deck)
        g.apply(action)
        if isinstance(action, PlayCard) and deal_phase == "play":
            note = str(action.card)
            am = g.form.marriages.ace_marriage
            for _, suit in deal.declared[declared:]:
                if action.aces and suit == am.rank:  # the ace marriage: four cards of its rank
                    ranks = {r.id: r.names.get("en") or r.id for r in g.ruleset.deck.ranks}
                    note += f" (ace marriage: {four_of(ranks.get(am.rank, am.rank))}, {am.value})"
                    continue
                value = g.form.marriages.values.get(suit)
                note += f" (marriage of {suit}" + (f", {value}" if value is not None else "") + ")"
            if deal.trump != trump and deal.trick:
                note += f" [trump: {deal.trump or 'none'}]"
                trump = deal.trump
            self.trick.append(f"P{player} {note}")
            if not deal.trick:  # the trick is complete
                self.trick_no += 1
                self.out(f"  trick {self.trick_no}: {', '.join(self.trick)} → P{deal.last_trick_winner}")
                self.trick = []
        elif isinstance(action, Incident):  # a table call, against any player
            self.out(f"  incident: {action.kind.replace('_', ' ')} by P{action.player}")
        else:
            self.out(f"  P{player}: {said(action, deal_phase, player, declarer)}")
        if declarer is None and deal.declarer is not None:
            mode = f" ({deal.mode} game)" if getattr(deal, "mode", "normal") != "normal" else ""
            if deal.kind is not None:  # a named contract (contract.kinds), played for its value
                mode += f" ({deal.kind})"
            self.out(f"  declarer: P{deal.declarer} at {deal.high_bid}{mode}")
        if not taken and deal.taken:
            self.out(f"  talon taken: {_cards(deal.taken)}" + ("" if deal.talon_shown else " (not shown)"))
        if deal_phase != "play" and deal.phase == "play" and not isinstance(action, DeclareContract):
            self.out(f"  contract: {deal.contract} (P{deal.declarer})")
        if deal.trump != trump:
            self.out(f"  trump: {deal.trump or 'none'}")
        if len(g.deal_scores) > scored:
            self.end_deal(deal)
        if g.deal is not deal:  # written before the next action: a deal set by hand may replace it
            self.redeal = len(g.deal_scores) == scored

    def end_deal(self, deal: Any) -> None:
        g = self.game
        index = len(g.deal_scores) - 1
        points = []
        for p in sorted(deal.order):
            cards = sum(c.points for c in deal.won.get(p, []))
            extra = deal.marriages.get(p, 0)
            points.append(f"P{p} {cards}" + (f" + marriages {extra}" if extra else ""))
        self.out("  points: " + ", ".join(points))
        self.events(index)
        row = g.deal_scores[index]
        self.out("  deal scores: " + ", ".join(f"P{p} {signed(v)}" for p, v in enumerate(row)))
        # (other changes since, a bad cut of the next deal among them, are written with it)
        self.totals = [t + v for t, v in zip(self.totals, row, strict=True)]
        self.out("  totals: " + ", ".join(f"P{p} {signed(v, plus=False)}" for p, v in enumerate(self.totals)))

    def events(self, deal: int | None = None) -> None:
        """Write the match events not written yet (those of deals up to index ``deal``)."""
        g = self.game
        for e in g.events[self.printed:]:
            if deal is not None and e.deal > deal:
                break
            self.printed += 1
            who = f" P{e.player}" if e.player is not None else ""
            value = f" {e.value}" if e.value is not None else ""
            text = e.text
            if text and e.player is not None:  # in words, each player as P1, as play says it
                text = text.replace(f"player {e.player}", f"P{e.player}")
                if f"P{e.player}" not in text:
                    text = f"P{e.player}: {text}"
            self.out(f"  {text}" if text else f"  {e.kind}{who}{value}")

    def changes(self, *, totals: bool = False) -> None:
        """Write the score changes made beside the deal scores since the totals were last
        written (a bad cut's or a redeal's penalty: the engine charges them to the match, not
        to a deal), so that the deal scores and these add up to the totals; with ``totals``,
        the new totals too."""
        scores = list(self.game.scores)
        if scores == self.totals:
            return
        pairs = enumerate(zip(scores, self.totals, strict=True))
        changed = ", ".join(f"P{p} {signed(s - t)}" for p, (s, t) in pairs if s != t)
        self.out(f"  other score changes: {changed}")
        self.totals = scores
        if totals:
            self.out("  totals: " + ", ".join(f"P{p} {signed(v, plus=False)}" for p, v in enumerate(scores)))

    def run(self) -> str:
        self.header()
        record, g = self.record, self.game
        for i, text in enumerate(record.actions):
            if i and record.deals:  # (the deals at 0: set by start)
                set_deals(g, record, i)
            self.show_deal()
            try:
                self.step(text)
            except TysiacError as exc:
                raise action_error(i, record, exc) from None
        if record.actions and record.deals:
            set_deals(g, record, len(record.actions))
        self.show_deal()
        self.events()
        self.changes(totals=True)
        self.out("")
        if g.is_over and g.match.winner is None:  # (stopped by the engine, as `tysiac play` says)
            self.out("Match stopped without a winner")
        elif g.is_over:
            won = g.winners or (max(range(g.players), key=lambda p: g.scores[p]),)
            verb = "win" if len(won) > 1 else "wins"
            self.out(f"Match over: {seats_text(won)} {verb} with {g.scores[won[0]]} points")
        else:
            self.out(f"Match not finished ({len(g.deal_scores)} deal(s) scored; phase {g.phase}, "
                     f"P{g.current_player} to act)")
        self.out("Scores: " + ", ".join(f"P{p} {v}" for p, v in enumerate(g.scores)))
        return "\n".join(self.lines) + "\n"


def transcript(game_or_record: Game | Record) -> str:
    """A readable text of a whole game: for each deal the dealer, hands and talons, the
    auction, the talon taken and the exchange, the contract, every trick (cards in play order,
    marriages declared, trump changes, the winner), the card points, the match events, the
    deal scores and the running totals; then the winner.  Players are ``P0``…; points.

    The game is rebuilt from its record, so the text is the same for the same seed and
    actions.

    Raises:
        RecordError: as :func:`~tysiac_spec.engine.replay.replay` (``record.ruleset``,
            ``registry.outside``, ``record.hash``, ``record.action``, ``record.deal``), or
            ``record.setup`` for a game whose record does not reproduce it (a starting match
            state set with ``set_match_state``).  Deals set by hand (``start_deal``, kept in
            the record) are set again where the record says, as the replay does
            (:func:`~tysiac_spec.engine.replay.set_deals`), and written as deals.
    """
    if isinstance(game_or_record, Record):
        return _Writer(game_or_record).run()
    writer = _Writer(record_of(game_or_record))
    text = writer.run()
    if writer.game.state_text() != game_or_record.state_text():
        raise record_error(
            "setup",
            "the game was set up by hand (a starting match state), so its record does not "
            "reproduce it; transcripts are made of seeded games and deals set by hand",
        )
    return text
