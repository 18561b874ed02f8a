"""Copying and pickling a game's state: what :meth:`.game.Game.clone`, ``copy`` and
``pickle`` do with each value a game holds.

A copy (:func:`copied`) copies the mutable containers, the deals and the random generator,
rebinds the functions and bound methods that refer to the game, and shares everything
immutable (cards, actions, the match state, the ruleset and its compiled forms).  A pickle
(:func:`packed`, :func:`unpacked`) writes every card as its index in the pack, a list of cards
as bytes, each deal once as its field values, the generator's state as bytes and each event
as a tuple; :mod:`.game` names the ruleset by reference and makes the attributes a game makes
from its ruleset again on load.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from dataclasses import fields, replace
from functools import partial
from operator import attrgetter
from types import CellType, FunctionType, MethodType
from typing import Any

from ..cards import Card
from .events import MatchEvent
from .phase import Phase
from .state import Around, DealState

__all__ = ["copied", "packed", "rebound", "unpacked"]

_DEAL_FIELDS = tuple(f.name for f in fields(DealState))


def copied(value: Any, memo: dict[int, Any]) -> Any:
    """``value`` as a game's copy holds it (:meth:`.game.Game.clone`): lists, dicts and sets copied
    (their contents too), a :class:`DealState` (with its :class:`~.state.Around`, when it has
    one) and a ``random.Random`` copied (each once:
    ``memo``, by id, keeps the game's own references to one deal one), a function or bound
    method that refers to the game rebound to the copy (those of a :class:`~.phase.Phase`
    too); anything else (cards, actions,
    tuples, frozen values, the ruleset and its compiled form) shared."""
    kind = type(value)
    if kind is list:
        return [copied(x, memo) if type(x) in _DEEP else x for x in value]
    if kind is dict:
        return {k: copied(x, memo) if type(x) in _DEEP else x for k, x in value.items()}
    if kind is set:
        return set(value)
    if kind is DealState:
        made = memo.get(id(value))
        if made is None:
            made = memo[id(value)] = DealState.__new__(DealState)
            deep = _DEEP
            for name in _DEAL_FIELDS:
                x = getattr(value, name)
                setattr(made, name, copied(x, memo) if type(x) in deep else x)
        return made
    if kind is partial:  # (a phase's step with the game's functions among its arguments)
        return partial(copied(value.func, memo), *[copied(a, memo) for a in value.args],
                       **{k: copied(v, memo) for k, v in value.keywords.items()})
    if kind is Phase:  # (a game's phase: its functions bound to the copy)
        return Phase(copied(value.legal, memo), copied(value.apply, memo), copied(value.explain, memo))
    if kind is Around:  # (mutable: each deal's own; its values are immutable)
        return replace(value)
    if kind is random.Random:
        rng = random.Random.__new__(random.Random)  # (not seeded from the system: set below)
        rng.setstate(value.getstate())
        return rng
    if kind is MethodType:
        owner = memo.get(id(value.__self__))
        return value if owner is None else MethodType(value.__func__, owner)
    if kind is FunctionType and value.__closure__:
        return rebound(value, memo)
    return value


def rebound(function: FunctionType, memo: dict[int, Any]) -> FunctionType:
    """``function`` with the cells of its closure that hold the game (or anything else
    ``memo`` has a copy of) or one of its bound methods made to hold the copy's; itself when
    none does.  (A function held in a cell is not looked into: the phase functions of a
    game hold the game directly, and ``tests/test_clone.py`` checks that no part of a copy
    reaches the original.)"""
    assert function.__closure__ is not None
    cells = []
    changed = False
    for cell in function.__closure__:
        try:
            content = cell.cell_contents
        except ValueError:  # an empty cell
            cells.append(cell)
            continue
        kind = type(content)
        made = content
        if kind is MethodType:
            made = copied(content, memo)
        else:  # (the game, or anything else the copy has its own of)
            made = memo.get(id(content), content)
        changed = changed or made is not content
        cells.append(CellType(made) if made is not content else cell)
    if not changed:
        return function
    new = FunctionType(function.__code__, function.__globals__, function.__name__,
                       function.__defaults__, tuple(cells))
    new.__kwdefaults__ = function.__kwdefaults__
    new.__dict__.update(function.__dict__)
    return new


_DEEP = frozenset({
    list, dict, set, DealState, Around, random.Random, MethodType, FunctionType, Phase, partial,
})
"""The types :func:`copied` copies or rebinds (anything else is shared)."""


class _CardAt(int):
    """A card in a pickled game: its index in the pack (made the pack's own card on load)."""

    __slots__ = ()


class _Cards(bytes):
    """A list (or tuple) of cards only, in a pickled game: the cards' indexes in the pack as
    2-byte words, the first byte telling a list (``L``) from a tuple (``T``)."""

    __slots__ = ()


class _PickledDeal:
    """A :class:`DealState` in a pickled game: its field names (one tuple, shared by every
    deal of the pickle) and their values in that order, cards packed (:func:`packed`)."""

    __slots__ = ("names", "values")

    def __init__(self, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
        self.names, self.values = names, values

    def __reduce__(self) -> tuple[Any, ...]:
        return _PickledDeal, (self.names, self.values)


class _PickledRandom:
    """A game's ``random.Random`` in a pickled game: its state, the 625 words of the
    generator as 4-byte words (a few times quicker to pickle than a tuple of ints)."""

    __slots__ = ("gauss", "internal", "version")

    def __init__(self, version: int, internal: bytes, gauss: float | None) -> None:
        self.version, self.internal, self.gauss = version, internal, gauss

    def __reduce__(self) -> tuple[Any, ...]:
        return _PickledRandom, (self.version, self.internal, self.gauss)


class _PickledEvent(tuple):  # type: ignore[type-arg]
    """A :class:`MatchEvent` in a pickled game: its fields in order (a tuple pickles without
    the dataclass's own state functions, a few times quicker)."""

    __slots__ = ()


_EVENT_FIELDS = attrgetter(*(f.name for f in fields(MatchEvent)))

_PLAIN = frozenset({str, int, bool, type(None)})
"""Values :func:`packed` and :func:`unpacked` leave as they are, without a call."""


def packed(value: Any, memo: dict[int, Any]) -> Any:
    """``value`` with every card replaced by :class:`_CardAt` and every deal by
    :class:`_PickledDeal` (one per deal: ``memo``), inside lists, tuples, dicts and sets."""
    kind = type(value)
    if kind is Card:
        return _CardAt(value.index)
    plain, at = _PLAIN, _CardAt
    if kind is list or kind is tuple:
        if value and type(value[0]) is Card and all([type(x) is Card for x in value]):
            return _Cards((b"L" if kind is list else b"T") + array("H", [c.index for c in value]).tobytes())
        return kind([x if type(x) in plain else at(x.index) if type(x) is Card else packed(x, memo)
                     for x in value])
    if kind is dict:
        return {k if type(k) in plain else packed(k, memo):
                x if type(x) in plain else at(x.index) if type(x) is Card else packed(x, memo)
                for k, x in value.items()}
    if kind is set or kind is frozenset:
        return kind([x if type(x) in plain else at(x.index) if type(x) is Card else packed(x, memo)
                     for x in value])
    if kind is MatchEvent:
        return _PickledEvent(_EVENT_FIELDS(value))
    if kind is random.Random:
        version, internal, gauss = value.getstate()
        return _PickledRandom(version, array("I", internal).tobytes(), gauss)
    if kind is DealState:
        made = memo.get(id(value))
        if made is None:
            values = []
            for name in _DEAL_FIELDS:
                x = getattr(value, name)
                values.append(x if type(x) in plain or not x else packed(x, memo))
                # (an empty list, dict or set is pickled as it is: the pickle copies it)
            made = memo[id(value)] = _PickledDeal(_DEAL_FIELDS, tuple(values))
        return made
    return value


def unpacked(value: Any, pack: Sequence[Card], memo: dict[int, Any]) -> Any:
    """The inverse of :func:`packed`: cards are the pack's own objects again."""
    kind = type(value)
    if kind is _CardAt:
        return pack[value]
    plain, at = _PLAIN, _CardAt
    if kind is _Cards:
        cards = [pack[i] for i in array("H", value[1:])]
        return cards if value[:1] == b"L" else tuple(cards)
    if kind is list or kind is tuple:
        return kind([pack[x] if type(x) is at else x if type(x) in plain else unpacked(x, pack, memo)
                     for x in value])
    if kind is dict:
        return {k if type(k) in plain else unpacked(k, pack, memo):
                pack[x] if type(x) is at else x if type(x) in plain else unpacked(x, pack, memo)
                for k, x in value.items()}
    if kind is set or kind is frozenset:
        return kind([pack[x] if type(x) is at else x if type(x) in plain else unpacked(x, pack, memo)
                     for x in value])
    if kind is _PickledEvent:
        return MatchEvent(*value)
    if kind is _PickledRandom:
        rng = random.Random.__new__(random.Random)
        rng.setstate((value.version, tuple(array("I", value.internal)), value.gauss))
        return rng
    if kind is _PickledDeal:
        made = memo.get(id(value))
        if made is None:
            made = memo[id(value)] = DealState.__new__(DealState)
            for name, x in zip(value.names, value.values, strict=True):
                setattr(made, name, x if type(x) in plain or not x else unpacked(x, pack, memo))
        return made
    return value
