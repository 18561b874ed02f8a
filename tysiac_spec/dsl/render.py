"""Print formulas: canonical text, and natural language for the rule book.

:func:`to_text` gives the canonical form (single spaces around operators, the
fewest parentheses); parsing it gives back an equal tree.  :func:`to_words`
reads a formula aloud in English, Polish, Russian or Czech, in our own words,
using the field's standard terms (meldunek, марьяж, hláška for a marriage).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..text import LANGUAGES
from .nodes import (
    Assign,
    Attr,
    Binary,
    BoolLit,
    Call,
    Expr,
    If,
    InList,
    IntLit,
    Name,
    Stmt,
    StrLit,
    Unary,
)

__all__ = ["LANGUAGES", "effects_to_text", "effects_to_words", "to_text", "to_words"]


_PREC = {
    "or": 1,
    "and": 2,
    "==": 4,
    "!=": 4,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "//": 6,
    "%": 6,
}
_ATOM = 8


def _prec(node: Expr) -> int:
    if isinstance(node, If):
        return 0
    if isinstance(node, Binary):
        return _PREC[node.op]
    if isinstance(node, InList):
        return 4
    if isinstance(node, Unary):
        return 3 if node.op == "not" else 7
    return _ATOM


def _child_levels(node: Binary) -> tuple[int, int]:
    level = _PREC[node.op]
    if level == 4:  # comparisons do not chain
        return 5, 5
    return level, level + 1


# --- canonical text ----------------------------------------------------------------


def to_text(node: Expr) -> str:
    """The canonical text of ``node``: ``120 + marriages(hand)``."""
    return _text(node, 0)


def _text(node: Expr, least: int) -> str:
    out = _bare(node)
    return f"({out})" if _prec(node) < least else out


def _string(value: str) -> str:
    return f"'{value}'" if '"' in value else f'"{value}"'


def _bare(node: Expr) -> str:
    if isinstance(node, IntLit):
        return str(node.value)
    if isinstance(node, BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, StrLit):
        return _string(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Attr):
        return f"{_text(node.value, _ATOM)}.{node.attr}"
    if isinstance(node, Unary):
        if node.op == "not":
            return f"not {_text(node.operand, 3)}"
        inner = _text(node.operand, 7)
        return f"- {inner}" if inner.startswith("-") else f"-{inner}"
    if isinstance(node, Binary):
        lo, ro = _child_levels(node)
        return f"{_text(node.left, lo)} {node.op} {_text(node.right, ro)}"
    if isinstance(node, InList):
        items = ", ".join(_text(i, 0) for i in node.items)
        op = "not in" if node.negated else "in"
        return f"{_text(node.value, 5)} {op} [{items}]"
    if isinstance(node, If):
        return (
            f"if {_text(node.cond, 1)} then {_text(node.then, 1)} else {_text(node.else_, 0)}"
        )
    if isinstance(node, Call):
        parts = [_text(a, 0) for a in node.args]
        parts += [f"{k.name}={_text(k.value, 0)}" for k in node.keywords]
        return f"{node.func}({', '.join(parts)})"
    raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover


def effects_to_text(stmts: Sequence[Stmt]) -> str:
    """Canonical text of effects: ``player.score = 0; player.bolts += 1``."""
    out = []
    for stmt in stmts:
        assert isinstance(stmt, Assign)
        out.append(f"{stmt.target.dotted} {stmt.op} {to_text(stmt.value)}")
    return "; ".join(out)


# --- natural language ----------------------------------------------------------------

# Operators and phrases per language: {a}, {b} operands, {c} condition, {items} a list.
_OPS: dict[str, dict[str, str]] = {
    "en": {
        "+": "{a} plus {b}",
        "-": "{a} minus {b}",
        "*": "{a} times {b}",
        "//": "{a} divided by {b} (rounded down)",
        "%": "the remainder of {a} divided by {b}",
        "==": "{a} is {b}",
        "!=": "{a} is not {b}",
        "<": "{a} is less than {b}",
        "<=": "{a} is at most {b}",
        ">": "{a} is more than {b}",
        ">=": "{a} is at least {b}",
        "and": "{a} and {b}",
        "or": "{a} or {b}",
        "neg": "minus {a}",
        "not": "it is not so that {a}",
        "if": "if {c}, then {a}, otherwise {b}",
        "in": "{a} is one of {items}",
        "not in": "{a} is none of {items}",
        "list_or": "or",
        "true": "true",
        "false": "false",
        "quote": "“{s}”",
        "player_field": "the player's `{f}`",
        "option": "the option `{f}`",
        "field": "`{f}` of {a}",
        "cards_in": "in `{n}`",
        "set": "set {t} to {v}",
        "add": "add {v} to {t}",
        "sub": "subtract {v} from {t}",
    },
    "pl": {
        "+": "{a} plus {b}",
        "-": "{a} minus {b}",
        "*": "{a} razy {b}",
        "//": "{a} podzielone przez {b} (w dół)",
        "%": "reszta z dzielenia {a} przez {b}",
        "==": "{a} wynosi {b}",
        "!=": "{a} nie wynosi {b}",
        "<": "{a} wynosi mniej niż {b}",
        "<=": "{a} wynosi najwyżej {b}",
        ">": "{a} wynosi więcej niż {b}",
        ">=": "{a} wynosi co najmniej {b}",
        "and": "{a} i {b}",
        "or": "{a} lub {b}",
        "neg": "minus {a}",
        "not": "nieprawda, że {a}",
        "if": "jeśli {c}, to {a}, w przeciwnym razie {b}",
        "in": "{a} to jedno z: {items}",
        "not in": "{a} to żadne z: {items}",
        "list_or": "lub",
        "true": "prawda",
        "false": "fałsz",
        "quote": "„{s}”",
        "player_field": "`{f}` gracza",
        "option": "opcja `{f}`",
        "field": "`{f}` ({a})",
        "cards_in": "w `{n}`",
        "set": "ustaw {t} na {v}",
        "add": "dodaj {v} do: {t}",
        "sub": "odejmij {v} od: {t}",
    },
    "ru": {
        "+": "{a} плюс {b}",
        "-": "{a} минус {b}",
        "*": "{a} умножить на {b}",
        "//": "{a} нацело разделить на {b}",
        "%": "остаток от деления {a} на {b}",
        "==": "{a} равно {b}",
        "!=": "{a} не равно {b}",
        "<": "{a} меньше, чем {b}",
        "<=": "{a} не больше, чем {b}",
        ">": "{a} больше, чем {b}",
        ">=": "{a} не меньше, чем {b}",
        "and": "{a} и {b}",
        "or": "{a} или {b}",
        "neg": "минус {a}",
        "not": "неверно, что {a}",
        "if": "если {c}, то {a}, иначе {b}",
        "in": "{a} — одно из: {items}",
        "not in": "{a} — ни одно из: {items}",
        "list_or": "или",
        "true": "истина",
        "false": "ложь",
        "quote": "«{s}»",
        "player_field": "`{f}` игрока",
        "option": "опция `{f}`",
        "field": "`{f}` ({a})",
        "cards_in": "в `{n}`",
        "set": "установить {t} равным {v}",
        "add": "прибавить {v} к: {t}",
        "sub": "вычесть {v} из: {t}",
    },
    "cs": {
        "+": "{a} plus {b}",
        "-": "{a} minus {b}",
        "*": "{a} krát {b}",
        "//": "{a} děleno {b} (zaokrouhleno dolů)",
        "%": "zbytek po dělení {a} číslem {b}",
        "==": "{a} je {b}",
        "!=": "{a} není {b}",
        "<": "{a} je méně než {b}",
        "<=": "{a} je nejvýše {b}",
        ">": "{a} je více než {b}",
        ">=": "{a} je alespoň {b}",
        "and": "{a} a {b}",
        "or": "{a} nebo {b}",
        "neg": "minus {a}",
        "not": "neplatí, že {a}",
        "if": "pokud {c}, pak {a}, jinak {b}",
        "in": "{a} je jedno z: {items}",
        "not in": "{a} není žádné z: {items}",
        "list_or": "nebo",
        "true": "pravda",
        "false": "nepravda",
        "quote": "„{s}“",
        "player_field": "`{f}` hráče",
        "option": "volba `{f}`",
        "field": "`{f}` ({a})",
        "cards_in": "v `{n}`",
        "set": "nastav {t} na {v}",
        "add": "přičti {v} k: {t}",
        "sub": "odečti {v} od: {t}",
    },
}

# Context names, nominative; bool names read as statements.
_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "hand": "the hand",
        "talon": "the talon",
        "player": "the player",
        "players": "the number of players",
        "options": "the options",
        "bid": "the bid",
        "high_bid": "the highest bid",
        "forced": "the bidder is the forced opener",
        "contract": "the contract",
        "points": "the point total",
        "card_points": "the card points",
        "marriages": "the declared marriages",
        "tricks": "the number of tricks",
        "made": "the contract is made",
        "declarer": "the player is the declarer",
        "forfeited": "the deal was forfeited",
        "delta": "the score change",
        "target": "the target score",
        "count": "the number of forfeits",
        "player.score": "the player's score",
        "won": "the cards won",
        "last_trick": "the side took the last trick",
        "declared": "the number of declared marriages",
        "drowned": "the drowned marriages",
        "seat": "the defender's seat after the declarer",
        "top_bid": "the highest numeric bid",
        "player_seat": "the player's seat number",
        "dealer_seat": "the dealer's seat number",
        "declarer_seat": "the declarer's seat number",
        "others_points": "the other players' point total",
        "others_tricks": "the tricks the other players took",
        "declarer_points": "the declarer's point total",
        "mode": "the deal's mode",
    },
    "pl": {
        "hand": "ręka",
        "talon": "musik",
        "player": "gracz",
        "players": "liczba graczy",
        "options": "opcje",
        "bid": "podbicie",
        "high_bid": "najwyższe podbicie",
        "forced": "licytujący musi otworzyć licytację",
        "contract": "kontrakt",
        "points": "suma punktów",
        "card_points": "punkty z kart",
        "marriages": "zgłoszone meldunki",
        "tricks": "liczba lew",
        "made": "kontrakt jest ugrany",
        "declarer": "gracz jest grającym",
        "forfeited": "rozdanie zostało oddane",
        "delta": "zmiana wyniku",
        "target": "wynik docelowy",
        "count": "liczba oddanych rozdań",
        "player.score": "wynik gracza",
        "won": "wzięte karty",
        "last_trick": "strona wzięła ostatnią lewę",
        "declared": "liczba zgłoszonych meldunków",
        "drowned": "utopione meldunki",
        "seat": "miejsce obrońcy za grającym",
        "top_bid": "najwyższe podbicie liczbowe",
        "player_seat": "numer miejsca gracza",
        "dealer_seat": "numer miejsca rozdającego",
        "declarer_seat": "numer miejsca grającego",
        "others_points": "suma punktów pozostałych graczy",
        "others_tricks": "liczba lew wziętych przez pozostałych graczy",
        "declarer_points": "suma punktów grającego",
        "mode": "rodzaj rozdania",
    },
    "ru": {
        "hand": "рука",
        "talon": "прикуп",
        "player": "игрок",
        "players": "число игроков",
        "options": "опции",
        "bid": "ставка",
        "high_bid": "наибольшая ставка",
        "forced": "игрок обязан открыть торговлю",
        "contract": "заказ",
        "points": "набранные очки",
        "card_points": "очки за карты",
        "marriages": "объявленные марьяжи",
        "tricks": "число взяток",
        "made": "заказ выполнен",
        "declarer": "игрок — разыгрывающий",
        "forfeited": "раздача расписана",
        "delta": "изменение счёта",
        "target": "счёт для победы",
        "count": "число росписей",
        "player.score": "счёт игрока",
        "won": "взятые карты",
        "last_trick": "сторона взяла последнюю взятку",
        "declared": "число объявленных марьяжей",
        "drowned": "утопленные марьяжи",
        "seat": "место защитника после разыгрывающего",
        "top_bid": "наибольшая числовая ставка",
        "player_seat": "номер места игрока",
        "dealer_seat": "номер места сдающего",
        "declarer_seat": "номер места разыгрывающего",
        "others_points": "очки остальных игроков",
        "others_tricks": "взятки остальных игроков",
        "declarer_points": "очки разыгрывающего",
        "mode": "вид раздачи",
    },
    "cs": {
        "hand": "ruka",
        "talon": "talon",
        "player": "hráč",
        "players": "počet hráčů",
        "options": "volby",
        "bid": "sázka",
        "high_bid": "nejvyšší sázka",
        "forced": "hráč musí zahájit licitování",
        "contract": "závazek",
        "points": "součet bodů",
        "card_points": "body za karty",
        "marriages": "ohlášené hlášky",
        "tricks": "počet zdvihů",
        "made": "závazek je splněn",
        "declarer": "hráč vyhrál licitaci",
        "forfeited": "rozdání bylo vzdáno",
        "delta": "změna skóre",
        "target": "cílové skóre",
        "count": "počet vzdaných her",
        "player.score": "skóre hráče",
        "won": "získané karty",
        "last_trick": "strana vzala poslední zdvih",
        "declared": "počet ohlášených hlášek",
        "drowned": "utopené hlášky",
        "seat": "místo obránce za hráčem se závazkem",
        "top_bid": "nejvyšší číselná sázka",
        "player_seat": "číslo místa hráče",
        "dealer_seat": "číslo místa rozdávajícího",
        "declarer_seat": "číslo místa hráče se závazkem",
        "others_points": "součet bodů ostatních hráčů",
        "others_tricks": "štychy ostatních hráčů",
        "declarer_points": "součet bodů hráče se závazkem",
        "mode": "druh rozdání",
    },
}

_NEGATED: dict[str, dict[str, str]] = {
    "en": {
        "made": "the contract is not made",
        "last_trick": "the side did not take the last trick",
        "forced": "the bidder is not the forced opener",
    },
    "pl": {
        "made": "kontrakt nie jest ugrany",
        "last_trick": "strona nie wzięła ostatniej lewy",
        "forced": "licytujący nie musi otwierać",
    },
    "ru": {
        "made": "заказ не выполнен",
        "last_trick": "сторона не взяла последнюю взятку",
        "forced": "игрок не обязан открывать торговлю",
    },
    "cs": {
        "made": "závazek není splněn",
        "last_trick": "strana nevzala poslední zdvih",
        "forced": "hráč nemusí zahájit licitování",
    },
}

# Card sets, as "in X" (locative).
_IN: dict[str, dict[str, str]] = {
    "en": {"hand": "in the hand", "talon": "in the talon", "won": "in the cards won"},
    "pl": {"hand": "w ręce", "talon": "w musiku", "won": "we wziętych kartach"},
    "ru": {"hand": "на руке", "talon": "в прикупе", "won": "во взятых картах"},
    "cs": {"hand": "v ruce", "talon": "v talonu", "won": "v získaných kartách"},
}

# Suits and ranks: the name, and the plural used by count().
_CARD_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "nine": ("nine", "nines"),
        "ten": ("ten", "tens"),
        "jack": ("jack", "jacks"),
        "queen": ("queen", "queens"),
        "king": ("king", "kings"),
        "ace": ("ace", "aces"),
        "hearts": ("hearts", "hearts"),
        "diamonds": ("diamonds", "diamonds"),
        "clubs": ("clubs", "clubs"),
        "spades": ("spades", "spades"),
    },
    "pl": {
        "nine": ("dziewiątka", "dziewiątek"),
        "ten": ("dziesiątka", "dziesiątek"),
        "jack": ("walet", "waletów"),
        "queen": ("dama", "dam"),
        "king": ("król", "króli"),
        "ace": ("as", "asów"),
        "hearts": ("kier", "kart w kolorze kier"),
        "diamonds": ("karo", "kart w kolorze karo"),
        "clubs": ("trefl", "kart w kolorze trefl"),
        "spades": ("pik", "kart w kolorze pik"),
    },
    "ru": {
        "nine": ("девятка", "девяток"),
        "ten": ("десятка", "десяток"),
        "jack": ("валет", "валетов"),
        "queen": ("дама", "дам"),
        "king": ("король", "королей"),
        "ace": ("туз", "тузов"),
        "hearts": ("черви", "карт масти «черви»"),
        "diamonds": ("бубны", "карт масти «бубны»"),
        "clubs": ("трефы", "карт масти «трефы»"),
        "spades": ("пики", "карт масти «пики»"),
    },
    "cs": {
        "nine": ("devítka", "devítek"),
        "ten": ("desítka", "desítek"),
        "jack": ("kluk", "kluků"),
        "queen": ("dáma", "dam"),
        "king": ("král", "králů"),
        "ace": ("eso", "es"),
        "hearts": ("srdce", "karet v barvě srdce"),
        "diamonds": ("káry", "karet v barvě káry"),
        "clubs": ("kříže", "karet v barvě kříže"),
        "spades": ("piky", "karet v barvě piky"),
    },
}

# Library functions: {x}, {unit}, {y} arguments, {in} a card set, {what} count()'s plural,
# {suit} a suit, {half} the tie rule.
_FUNCS: dict[str, dict[str, str]] = {
    "en": {
        "min": "the smallest of {list}",
        "max": "the largest of {list}",
        "abs": "the absolute value of {x}",
        "round_to": "{x} rounded to the nearest multiple of {unit} ({half})",
        "round_up": "{x} rounded up to a multiple of {unit}",
        "round_down": "{x} rounded down to a multiple of {unit}",
        "count": "the number of {what} {in}",
        "points": "the card points {in}",
        "marriages": "the value of the marriages {in}",
        "has_marriage": "there is a {suit} marriage {in}",
        "len": "the number of cards {in}",
        "half.down": "halves down",
        "half.up": "halves up",
        "half.even": "halves to even",
        "half.other": "halves per {v}",
    },
    "pl": {
        "min": "najmniejsza z liczb {list}",
        "max": "największa z liczb {list}",
        "abs": "wartość bezwzględna z {x}",
        "round_to": "{x} po zaokrągleniu do najbliższej wielokrotności {unit} ({half})",
        "round_up": "{x} po zaokrągleniu w górę do wielokrotności {unit}",
        "round_down": "{x} po zaokrągleniu w dół do wielokrotności {unit}",
        "count": "liczba {what} {in}",
        "points": "punkty kart {in}",
        "marriages": "wartość meldunków {in}",
        "has_marriage": "jest meldunek w kolorze {suit} {in}",
        "len": "liczba kart {in}",
        "half.down": "połówki w dół",
        "half.up": "połówki w górę",
        "half.even": "połówki do parzystej",
        "half.other": "połówki według: {v}",
    },
    "ru": {
        "min": "наименьшее из чисел {list}",
        "max": "наибольшее из чисел {list}",
        "abs": "модуль числа {x}",
        "round_to": "{x} с округлением до ближайшего кратного {unit} ({half})",
        "round_up": "{x} с округлением вверх до кратного {unit}",
        "round_down": "{x} с округлением вниз до кратного {unit}",
        "count": "число {what} {in}",
        "points": "очки карт {in}",
        "marriages": "сумма марьяжей {in}",
        "has_marriage": "есть марьяж масти «{suit}» {in}",
        "len": "число карт {in}",
        "half.down": "половины вниз",
        "half.up": "половины вверх",
        "half.even": "половины к чётному",
        "half.other": "половины по правилу: {v}",
    },
    "cs": {
        "min": "nejmenší z čísel {list}",
        "max": "největší z čísel {list}",
        "abs": "absolutní hodnota z {x}",
        "round_to": "{x} po zaokrouhlení na nejbližší násobek {unit} ({half})",
        "round_up": "{x} po zaokrouhlení nahoru na násobek {unit}",
        "round_down": "{x} po zaokrouhlení dolů na násobek {unit}",
        "count": "počet {what} {in}",
        "points": "body karet {in}",
        "marriages": "hodnota hlášek {in}",
        "has_marriage": "je hláška v barvě {suit} {in}",
        "len": "počet karet {in}",
        "half.down": "poloviny dolů",
        "half.up": "poloviny nahoru",
        "half.even": "poloviny k sudé",
        "half.other": "poloviny podle: {v}",
    },
}


def to_words(node: Expr, lang: str = "en", *, option_names: Mapping[str, str] | None = None) -> str:
    """``node`` read aloud in ``lang`` (``en``, ``pl``, ``ru``, ``cs``); ``option_names`` gives
    table options' names in words (``{"five_rounds": "Rounding …"}``), said in quotes instead
    of the option's id.

    Raises:
        ValueError: for a language not in :data:`LANGUAGES`.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return _Words(lang, option_names).expr(node, 0)


def effects_to_words(stmts: Sequence[Stmt], lang: str = "en", *,
                     option_names: Mapping[str, str] | None = None) -> str:
    """Effects read aloud in ``lang``, one clause per statement, joined by ``; ``
    (``option_names``: as :func:`to_words`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    words = _Words(lang, option_names)
    out = []
    for stmt in stmts:
        assert isinstance(stmt, Assign)
        parts = stmt.target.parts
        target = words.dotted(parts[0], parts[1] if len(parts) > 1 else None)
        key = {"=": "set", "+=": "add", "-=": "sub"}[stmt.op]
        out.append(words.ops[key].format(t=target, v=words.expr(stmt.value, 0)))
    return "; ".join(out)


class _Words:
    def __init__(self, lang: str, option_names: Mapping[str, str] | None = None) -> None:
        self.lang = lang
        self.option_names = option_names or {}
        self.ops = _OPS[lang]
        self.names = _NAMES[lang]
        self.funcs = _FUNCS[lang]

    def expr(self, node: Expr, least: int) -> str:
        out = self.bare(node)
        return f"({out})" if _prec(node) < least else out

    def dotted(self, name: str, field: str | None) -> str:
        if field is None:
            return self.names.get(name, f"`{name}`")
        if f"{name}.{field}" in self.names:
            return self.names[f"{name}.{field}"]
        if name == "player":
            return self.ops["player_field"].format(f=field)
        if name == "options":
            if field in self.option_names:
                return self.ops["option"].replace("`{f}`", "“{f}”").format(f=self.option_names[field])
            return self.ops["option"].format(f=field)
        return self.ops["field"].format(f=field, a=self.dotted(name, None))

    def card_word(self, node: Expr, plural: bool) -> str:
        if isinstance(node, Name) and node.name in _CARD_WORDS[self.lang]:
            return _CARD_WORDS[self.lang][node.name][1 if plural else 0]
        return self.expr(node, _ATOM)

    def cards_in(self, node: Expr) -> str:
        if isinstance(node, Name):
            return _IN[self.lang].get(node.name) or self.ops["cards_in"].format(n=node.name)
        return self.expr(node, _ATOM)

    def bare(self, node: Expr) -> str:
        ops = self.ops
        if isinstance(node, IntLit):
            return str(node.value)
        if isinstance(node, BoolLit):
            return ops["true"] if node.value else ops["false"]
        if isinstance(node, StrLit):
            return ops["quote"].format(s=node.value)
        if isinstance(node, Name):
            if node.name in _CARD_WORDS[self.lang]:
                return _CARD_WORDS[self.lang][node.name][0]
            return self.dotted(node.name, None)
        if isinstance(node, Attr):
            if isinstance(node.value, Name):
                return self.dotted(node.value.name, node.attr)
            return ops["field"].format(f=node.attr, a=self.expr(node.value, _ATOM))
        if isinstance(node, Unary):
            if node.op == "-":
                return ops["neg"].format(a=self.expr(node.operand, 7))
            if isinstance(node.operand, Name) and node.operand.name in _NEGATED[self.lang]:
                return _NEGATED[self.lang][node.operand.name]
            return ops["not"].format(a=self.expr(node.operand, 3))
        if isinstance(node, Binary):
            lo, ro = _child_levels(node)
            return ops[node.op].format(a=self.expr(node.left, lo), b=self.expr(node.right, ro))
        if isinstance(node, InList):
            items = [self.expr(i, 1) for i in node.items]
            joined = self.join(items)
            key = "not in" if node.negated else "in"
            return ops[key].format(a=self.expr(node.value, 5), items=joined)
        if isinstance(node, If):
            return ops["if"].format(
                c=self.expr(node.cond, 1), a=self.expr(node.then, 1), b=self.expr(node.else_, 0)
            )
        if isinstance(node, Call):
            return self.call(node)
        raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover

    def join(self, items: list[str]) -> str:
        if not items:
            return "[]"
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + f" {self.ops['list_or']} " + items[-1]

    def call(self, node: Call) -> str:
        template = self.funcs.get(node.func)
        args = node.args
        if template is None:  # an unchecked tree: print it as code
            return f"`{to_text(node)}`"
        fields: dict[str, str] = {}
        if node.func in ("min", "max"):
            items = [self.expr(a, 1) for a in args]
            fields["list"] = self.join_and(items)
        elif node.func in ("count", "has_marriage"):
            if len(args) == 2:
                fields["in"] = self.cards_in(args[0])
                fields["what"] = self.card_word(args[1], plural=True)
                fields["suit"] = self.card_word(args[1], plural=False)
            else:
                return f"`{to_text(node)}`"
        elif node.func in ("points", "marriages", "len"):
            if len(args) != 1:
                return f"`{to_text(node)}`"
            fields["in"] = self.cards_in(args[0])
        else:
            if not args:
                return f"`{to_text(node)}`"
            fields["x"] = self.expr(args[0], 5)
            fields["unit"] = self.expr(args[1], 5) if len(args) > 1 else "?"
            half: Expr | None = next((k.value for k in node.keywords if k.name == "half"), None)
            if half is None:
                fields["half"] = self.funcs["half.up"]
            elif isinstance(half, StrLit) and f"half.{half.value}" in self.funcs:
                fields["half"] = self.funcs[f"half.{half.value}"]
            else:
                fields["half"] = self.funcs["half.other"].format(v=self.expr(half, 0))
        return template.format(**fields)

    def join_and(self, items: list[str]) -> str:
        conj = {"en": "and", "pl": "i", "ru": "и", "cs": "a"}[self.lang]
        if not items:
            return "[]"
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + f" {conj} " + items[-1]
