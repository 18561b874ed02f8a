"""Worked examples of the rule book: the ruleset's scenarios told in words.

A scenario file (``scenarios/<id>.yaml`` beside the ruleset file, see
:mod:`tysiac_spec.scenarios`) holds executable examples: a stacked deal, actions and the
values that must follow.  :func:`examples` turns each one into an :class:`Example` a player
can read — the table and hands, then numbered steps (“Auction: player 1 bids 100, player 2
passes…”, “Trick 1: player 1 leads K♦ declaring the marriage, … — player 0 takes the
trick”, “Then: only 9♦ may be played”) — and files it under the chapter it illustrates
(play, marriages, scoring, the match, …) by what it checks.

Who acts at each step is found by replaying the scenario on the engine; if the engine
refuses a step (a scenario out of date), the rest is told without the players' names.
Scenario texts (name, description, refusal messages) are written in English only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TysiacError
from ..ruleset.model import Ruleset
from . import fields, terms

__all__ = ["Example", "examples", "scenario_file"]


@dataclass(slots=True)
class Example:
    """One worked example, in words.

    ``topic`` is the key of the chapter it belongs to (``play``, ``marriages``, ``scoring``…),
    ``players`` the number of players of its table;
    ``setup`` lines describe the table; ``hands`` are (who, cards) rows; ``steps`` are
    (label, text) pairs, the label in bold (``Auction``, ``Trick 2``, ``Then``); ``options``
    the table options the scenario sets (the others at their defaults).
    """

    name: str
    title: str
    description: str
    description_lang: str | None
    sources: list[str]
    cite: str | None
    topic: str
    players: int
    setup: list[str] = field(default_factory=list)
    hands: list[tuple[str, str]] = field(default_factory=list)
    hand_cards: list[list[str]] = field(default_factory=list)
    """The cards of each row of ``hands``, as written in the scenario (``QH``), for pictures."""
    steps: list[tuple[str, str]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


def scenario_file(ruleset: Ruleset) -> Path | None:
    """The scenario file of ``ruleset``: ``scenarios/<id>.yaml`` beside the ruleset file, if any."""
    if not ruleset.file:
        return None
    path = Path(ruleset.file).parent / "scenarios" / f"{ruleset.id}.yaml"
    return path if path.is_file() else None


_CACHE: dict[tuple[str, int, str], tuple[Any, ...]] = {}


def _load(path: Path, ruleset: Ruleset) -> tuple[Any, ...]:
    """The checked scenarios of the file (cached by path, modification time and ruleset);
    none if the file does not load (``tysiac check`` reports why)."""
    from ..scenarios import load_scenarios

    key = (str(path), path.stat().st_mtime_ns, ruleset.content_hash)
    if key not in _CACHE:
        try:
            _CACHE[key] = load_scenarios(path, ruleset=ruleset).scenarios
        except TysiacError:
            _CACHE[key] = ()
    return _CACHE[key]


def examples(ruleset: Ruleset, lang: str) -> list[Example]:
    """The ruleset's scenarios as worked examples in ``lang``, in file order; ``[]`` without a
    scenario file or when it does not load."""
    path = scenario_file(ruleset)
    if path is None:
        return []
    return [_example(ruleset, sc, lang) for sc in _load(path, ruleset)]


# --------------------------------------------------------------------------- words


def _w(key: str, lang: str, **kwargs: object) -> str:
    text = terms.pick(terms.EXAMPLE_WORDS[key], lang)
    return text.format(**kwargs) if kwargs else text


class _Cards:
    """Card notation for players: ``QH`` -> ``Q♥``, ``TD`` -> ``10♦`` (from the deck's data)."""

    def __init__(self, ruleset: Ruleset, lang: str) -> None:
        pack = ruleset.deck
        self.suits = {s.letter: s.symbol for s in pack.suits}
        self.ranks = {r.letter: next((a for a in r.aliases if a.isdigit()), r.letter) for r in pack.ranks}
        self.suit_names = {s.id: s.names.get(lang) or s.id for s in pack.suits}
        ranks = "|".join(re.escape(k) for k in sorted(self.ranks, key=len, reverse=True))
        suits = "".join(re.escape(k) for k in self.suits)
        self.pattern = re.compile(rf"\b({ranks})([{suits}])\b")
        rank = fields.ace_marriage_rank(ruleset)  # the ace marriage of another rank: its name
        self.four = None if rank is None else fields.rank_name(ruleset, rank, lang)

    def aces(self, key: str, lang: str) -> str:
        """The words ``key`` (``aces``, ``act.aces``) for the ace marriage of the pack's rank."""
        return _w(key, lang) if self.four is None else terms.four_of_a_rank(key, self.four, lang)

    def card(self, text: str) -> str:
        m = self.pattern.fullmatch(text)
        return f"{self.ranks[m.group(1)]}{self.suits[m.group(2)]}" if m else text

    def hand(self, text: str) -> str:
        return " ".join(self.card(c) for c in str(text).split())


def _player(p: Any, lang: str) -> str:
    return _w("player", lang, p=p)


def _by_player(values: Sequence[Any] | Mapping[Any, Any], lang: str, signed: bool = False) -> str:
    items = values.items() if isinstance(values, Mapping) else enumerate(values)
    out = []
    for p, v in items:
        shown = f"{v:+d}" if signed and isinstance(v, int) and not isinstance(v, bool) and v else str(v)
        out.append(f"{_player(p, lang)}: {shown}")
    return ", ".join(out)


def _action(text: str, who: str | None, lang: str, cards: _Cards, lead: bool,
            talons: Sequence[str] | None = None) -> str:
    """An action text (``play KD marriage``) in words with the player acting (``who``); only
    the action (:func:`_short`) when ``who`` is ``None`` (unknown)."""
    if who is None:  # the replay stopped: the action alone
        return _short(text, lang, cards)
    words = text.split()
    verb, rest = (words[0], words[1:]) if words else ("", [])
    subject = who
    if verb == "bid" and rest:
        return _w("act.bid", lang, who=subject, n=rest[0])
    if verb == "pass":
        return _w("act.pass", lang, who=subject)
    if verb == "contract" and rest:
        return _w("act.contract", lang, who=subject, n=rest[0])
    if verb == "give" and len(rest) == 3:
        return _w("act.give", lang, who=subject, card=cards.card(rest[0]), to=rest[2])
    if verb == "discard" and rest:
        return _w("act.discard", lang, who=subject, card=cards.card(rest[0]))
    if verb == "play" and rest:
        out = _w("act.lead" if lead else "act.play", lang, who=subject, card=cards.card(rest[0]))
        if "marriage" in rest:
            out += _w("act.marriage", lang)
        if "aces" in rest:
            out += cards.aces("act.aces", lang)
        return out
    if text == "cancel dark":
        return _w("act.cancel_dark", lang, who=subject)
    if verb == "talon" and rest and rest[0].isdigit() and talons is not None and int(rest[0]) < len(talons):
        return _w("act.talon", lang, who=subject, cards=cards.hand(talons[int(rest[0])]))
    if verb in ("forfeit", "dark", "redeal") and not rest:
        return _w(f"act.{verb}", lang, who=subject)
    return f"{subject}: `{text}`"


def _short(text: str, lang: str, cards: _Cards) -> str:
    """A legal action as a short item of a list: ``K♦ + marriage``, ``105``, ``pass``."""
    words = text.split()
    if words and words[0] == "play" and len(words) > 1:
        out = cards.card(words[1])
        if "marriage" in words:
            out += " + " + _w("marriage", lang)
        if "aces" in words:
            out += " + " + cards.aces("aces", lang)
        return out
    if words and words[0] in ("bid", "contract") and len(words) == 2:
        return f"{_w(words[0], lang)} {words[1]}"
    if words == ["pass"]:
        return _w("pass", lang)
    if words and words[0] == "discard" and len(words) == 2:
        return f"{_w('discard', lang)} {cards.card(words[1])}"
    if words and words[0] == "give" and len(words) == 4:
        return f"{cards.card(words[1])} → {_player(words[3], lang)}"
    if words and words[0] == "talon" and len(words) == 2:
        return f"{_w('talon', lang)} {words[1]}"
    return f"`{text}`"


def _category(text: str) -> str:
    verb = text.split()[0] if text.split() else ""
    if verb in ("bid", "pass", "dark", "cancel", "redeal"):
        return "auction"
    if verb in ("talon", "give", "discard"):
        return "exchange"
    if verb in ("contract", "forfeit"):
        return "contract"
    return "play" if verb == "play" else "other"


def _expect(key: str, value: Any, lang: str, cards: _Cards) -> str:
    if key == "phase":
        phase = terms.EXAMPLE_WORDS.get(f"phase.{value}")
        return _w("x.phase", lang, phase=terms.pick(phase, lang) if phase else f"`{value}`")
    if key == "current_player":
        return _w("x.current", lang, who=_player(value, lang))
    if key == "declarer":
        return _w("x.declarer", lang, who=_player(value, lang))
    if key == "contract":
        return _w("x.contract", lang, n=value)
    if key == "legal":
        items = [_short(str(a), lang, cards) for a in value or []]
        if not items:
            return _w("x.legal_none", lang)
        return _w("x.legal_only" if len(items) == 1 else "x.legal", lang, items=", ".join(items))
    if key == "trump":
        return _w("x.no_trump", lang) if value is None else _w("x.trump", lang, suit=cards.suit_names.get(
            str(value), str(value)))
    if key == "trick_winner":
        return _w("x.trick_winner", lang, who=_player(value, lang))
    if key == "tricks":
        return _w("x.tricks", lang, list=_by_player(value, lang))
    if key == "talon_seen":
        return _w("x.talon_seen", lang, list=_by_player(value, lang))
    if key == "deal_scores":
        return _w("x.deal_scores", lang, list=_by_player(value, lang, signed=True))
    if key == "scores":
        return _w("x.scores", lang, list=_by_player(value, lang))
    if key == "counters" and isinstance(value, Mapping):
        return "; ".join(f"{name}: {_by_player(v, lang)}" for name, v in value.items())
    if key == "events":
        shown = []
        for kind in value or []:
            phrase = terms.EXAMPLE_WORDS.get(f"event.{kind}")
            shown.append(terms.pick(phrase, lang) if phrase else f"`{kind}`")
        return ", ".join(shown) if shown else _w("x.no_events", lang)
    if key == "is_over":
        return _w("x.over" if value else "x.not_over", lang)
    if key == "winner":
        return _w("x.no_winner", lang) if value is None else _w("x.winner", lang, who=_player(value, lang))
    return f"`{key}` = `{value}`"  # pragma: no cover - the scenario schema allows only the keys above


# --------------------------------------------------------------------------- topic


def _topic(sc: Any) -> str:
    """The chapter a scenario illustrates, from what it checks (first match wins):
    the barrel, bolts, the dark game and the golden round (``special``); a forfeit
    (``contract``); the match's end, or scores from a starting match state (``match``); a
    redeal (``table``); scores (``scoring``); a marriage offered or refused, or a scenario
    about a marriage and trump (``marriages``); legal cards (``play``); a trump set by a
    marriage (``marriages``); else the first action checked (contract, exchange, auction)."""
    checks: list[str] = []
    keys: set[str] = set()
    actions: list[str] = []
    for step in sc.steps:
        if step.kind == "expect":
            keys.update(step.expect)
            checks += [str(a) for a in step.expect.get("legal") or []]
            checks += [f"event {e}" for e in step.expect.get("events") or []]
            checks += [f"counter {c}" for c in step.expect.get("counters") or {}]
        else:
            actions += step.actions
            if step.kind == "illegal":
                checks += step.actions
    text = " ".join(checks + actions + [sc.name])
    special = ("barrel", "bolt", "dark", "golden")
    if any(word in text for word in special) or (sc.match and "counters" in sc.match):
        return "special"
    if "forfeit" in text or "rospis" in text or "bomb" in text:
        return "contract"
    over = any(step.kind == "expect" and step.expect.get("is_over") for step in sc.steps)
    if over or "winner" in keys or (sc.match and keys & {"scores", "deal_scores", "counters", "is_over"}):
        return "match"
    if "redeal" in actions:
        return "table"
    if keys & {"deal_scores", "events", "scores"}:
        return "scoring"
    if any("marriage" in c or " aces" in c for c in checks):
        return "marriages"
    if "marriage" in sc.name and ("trump" in keys or any("marriage" in a for a in actions)):
        return "marriages"
    cats = [_category(c) for c in checks if c.split()]
    if "play" in cats:
        return "play"
    if "trump" in keys and any("marriage" in a for a in actions):
        return "marriages"
    for cat in cats:
        if cat in ("contract", "exchange", "auction"):
            return "talon" if cat == "exchange" else cat
    if "redeal" in text:
        return "table"
    last = _category(actions[-1]) if actions else "auction"
    return {"exchange": "talon", "other": "play"}.get(last, last)


# --------------------------------------------------------------------------- one example


class _Replay:
    """The scenario replayed on the engine, to name who acts; ``game`` is ``None`` once a
    step is refused (the rest is told without names)."""

    def __init__(self, ruleset: Ruleset, sc: Any) -> None:
        from ..scenarios import start_game

        self.game: Any = None
        try:
            self.game = start_game(sc, ruleset)
        except TysiacError:  # a set-up the engine refuses (`tysiac check` reports it): no names
            self.game = None

    def actor(self) -> Any:
        return self.game.current_player if self.game is not None else None

    def tricks(self) -> int:
        from ..scenarios import actual_value

        if self.game is None:
            return 0
        return int(sum(actual_value(self.game, "tricks").values()))

    def apply(self, text: str) -> None:
        from ..engine.actions import parse_action

        if self.game is None:
            return
        try:
            self.game.apply(parse_action(text, self.game.ruleset.deck))
        except TysiacError:  # a refused step (`tysiac check` reports it): the rest without names
            self.game = None

    def trick_winner(self) -> Any:
        from ..scenarios import actual_value

        return actual_value(self.game, "trick_winner") if self.game is not None else None


def _position(ruleset: Ruleset, sc: Any) -> Any:
    """The scenario's starting position (:class:`~tysiac_spec.engine.position.Position`), or
    ``None`` (none, or one the engine refuses: `tysiac check` reports it)."""
    from ..engine.position import Position

    if getattr(sc, "position", None) is None:
        return None
    try:
        rules = ruleset.with_options(sc.options) if sc.options else ruleset
        return Position.parse(sc.position, rules, sc.players)
    except TysiacError:
        return None


def _title(name: str) -> str:
    words = name.replace("_", "-").split("-")
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def _example(ruleset: Ruleset, sc: Any, lang: str) -> Example:
    cards = _Cards(ruleset, lang)
    ex = Example(
        name=sc.name, title=_title(sc.name), description=sc.description.strip(),
        description_lang="en" if lang != "en" else None, sources=list(sc.source), cite=sc.cite,
        topic=_topic(sc), players=sc.players, options=dict(sc.options or {}),
    )
    setup = _w("x.players", lang, n=sc.players)
    position = _position(ruleset, sc)
    if position is not None:
        setup += "; " + _w("x.dealer", lang, who=_player(position.deal.dealer, lang))
    elif sc.deal is not None:
        setup += "; " + _w("x.dealer", lang, who=_player(sc.deal["dealer"], lang))
    ex.setup.append(setup)
    if sc.options:
        ex.setup.append(_w("x.options", lang, list="; ".join(
            terms.option_setting(k, v, lang) for k, v in sc.options.items())))
    if sc.match:
        for key, value in sc.match.items():
            if key == "scores":
                ex.setup.append(_w("x.start_scores", lang, list=_by_player(value, lang)))
            elif key == "counters" and isinstance(value, Mapping):
                ex.setup.append(_w("x.start_counters", lang, list="; ".join(
                    f"{name}: {_by_player(v, lang)}" for name, v in value.items())))
            elif key == "barrel" and isinstance(value, list):
                on = [_player(p, lang) if v is True
                      else _w("x.failed_attempts", lang, who=_player(p, lang), n=v)
                      for p, v in enumerate(value) if v is not False and v is not None]
                if on:
                    ex.setup.append(_w("x.start_barrel", lang, list="; ".join(on)))
            elif isinstance(value, list):
                ex.setup.append(f"{_w('x.start', lang)}: {key}: {_by_player(value, lang)}")
            else:
                ex.setup.append(f"{_w('x.start', lang)}: {key}: {value}")
    if position is not None:  # the cards as they lie: each hand, the talons, the trick
        ex.setup.append(_w("x.position", lang))
        for p, hand in enumerate(position.deal.hands):
            who = _player(p, lang) + (f" ({_w('dealer', lang)})" if p == position.deal.dealer else "")
            ex.hands.append((who, cards.hand(" ".join(hand))))
            ex.hand_cards.append(list(hand))
        for i, talon in enumerate(position.deal.talons):
            label = _w("talon", lang) + (f" {i}" if len(position.deal.talons) > 1 else "")
            ex.hands.append((label, cards.hand(" ".join(talon))))
            ex.hand_cards.append(list(talon))
        if position.trick:  # in the order played, each card's player named
            played = [c for _, c in position.trick]
            players = ", ".join(_player(p, lang) for p, _ in position.trick)
            ex.hands.append((f"{_w('x.on_table', lang)} ({players})", cards.hand(" ".join(played))))
            ex.hand_cards.append(played)
        made = []
        if position.declarer is not None:
            made.append(_w("x.declarer", lang, who=_player(position.declarer, lang)))
        if position.contract:
            made.append(_w("x.contract", lang, n=position.contract))
        if made:
            ex.setup.append("; ".join(made))
    elif sc.deal is None:
        ex.setup.append(_w("x.shuffled", lang))
    else:
        for p, hand in sc.deal["hands"].items():
            who = _player(p, lang)
            if p == sc.deal["dealer"]:
                who += f" ({_w('dealer', lang)})"
            ex.hands.append((who, cards.hand(hand)))
            ex.hand_cards.append(str(hand).split())
        talons = sc.deal["talons"]
        for i, talon in enumerate(talons):
            label = _w("talon", lang) + (f" {i}" if len(talons) > 1 else "")
            ex.hands.append((label, cards.hand(talon)))
            ex.hand_cards.append(str(talon).split())
        if sc.deal.get("stock"):
            ex.hands.append((_w("stock", lang), cards.hand(sc.deal["stock"])))
            ex.hand_cards.append(str(sc.deal["stock"]).split())
    ex.steps = _steps(ruleset, sc, lang, cards)
    return ex


@dataclass(frozen=True, slots=True)
class _Act:
    """One action of a scenario as replayed: who made it (``None`` once the replay stopped),
    its kind (:func:`_category`), the number of the trick it goes to (plays), whether it
    leads that trick, and who took the trick it completed."""

    text: str
    who: int | None
    cat: str
    trick: int | None = None
    lead: bool = False
    winner: int | None = None


_TRACES: dict[int, tuple[Any, list[tuple[Any, ...]]]] = {}


def _trace(ruleset: Ruleset, sc: Any) -> list[tuple[Any, ...]]:
    """The scenario replayed once for every language (cached): ``("expect", values)``,
    ``("illegal", act, error)`` and ``("do", [act, …])`` per step."""
    cached = _TRACES.get(id(sc))
    if cached is not None and cached[0] is sc:
        return cached[1]
    replay = _Replay(ruleset, sc)
    out: list[tuple[Any, ...]] = []
    # cards played to the current trick (a scenario from a position may start in one)
    in_trick = len(replay.game.deal.trick) if replay.game is not None else 0
    for step in sc.steps:
        if step.kind == "expect":
            out.append(("expect", step.expect))
        elif step.kind == "illegal":
            text = step.actions[0]
            act = _Act(text, replay.actor(), _category(text), lead=in_trick == 0)
            out.append(("illegal", act, step.error))
        else:
            acts = []
            for text in step.actions:
                cat = _category(text)
                who, before = replay.actor(), replay.tricks()
                known = replay.game is not None
                replay.apply(text)
                if replay.game is None:
                    who = None
                if cat != "play":
                    acts.append(_Act(text, who, cat))
                    continue
                done = replay.game is not None and replay.tricks() > before
                winner = replay.trick_winner() if done else None
                acts.append(_Act(text, who, cat, before + 1 if known else None, in_trick == 0, winner))
                in_trick = 0 if winner is not None else in_trick + 1
            out.append(("do", acts))
    _TRACES[id(sc)] = (sc, out)
    return out


def _steps(ruleset: Ruleset, sc: Any, lang: str, cards: _Cards) -> list[tuple[str, str]]:
    talons = sc.deal["talons"] if sc.deal is not None else None
    steps: list[tuple[str, str]] = []
    label = ""
    group: list[str] = []

    def flush() -> None:
        if group:
            steps.append((label, ", ".join(group) + "."))
            group.clear()

    def told(act: _Act) -> str:
        who = _player(act.who, lang) if act.who is not None else None
        return _action(act.text, who, lang, cards, lead=act.cat == "play" and act.lead, talons=talons)

    for entry in _trace(ruleset, sc):
        if entry[0] == "expect":
            parts = [_expect(k, v, lang, cards) for k, v in entry[1].items()]
            steps.append((_w("then", lang), "; ".join(parts) + "."))
            continue
        if entry[0] == "illegal":
            reason = f" — “{entry[2]}”" if entry[2] else ""
            steps.append((_w("refused", lang), told(entry[1]) + reason + "."))
            continue
        for act in entry[1]:
            if act.cat == "play":
                if act.lead or not label:
                    flush()
                    label = _w("trick", lang, n=act.trick) if act.trick is not None else _w("play", lang)
            elif _w(f"cat.{act.cat}", lang) != label:
                flush()
                label = _w(f"cat.{act.cat}", lang)
            group.append(told(act))
            if act.winner is not None:
                group[-1] += " — " + _w("takes_trick", lang, who=_player(act.winner, lang))
                flush()
        flush()
    return steps
