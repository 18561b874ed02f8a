"""The value types of the rules DSL.

A formula works with a handful of types: whole numbers (``int``, with a unit
used only for documentation), truth values (``bool``), suits and ranks (their
ids, such as ``"hearts"`` and ``"ace"``), an option's choices (``choice``), a
set of cards (``cards``: a hand, the talon, a trick) and records with named
fields (``player``, ``options``).  Types compare by kind and structure; an
int's unit never changes what a formula means.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "BOOL",
    "CARDS",
    "INT",
    "RANK",
    "SUIT",
    "TEXT",
    "BoolType",
    "CardsType",
    "ChoiceType",
    "FieldSpec",
    "IntType",
    "RankType",
    "RecordType",
    "SuitType",
    "TextType",
    "Type",
]


@dataclass(frozen=True, slots=True)
class Type:
    """Base of every DSL type; :meth:`describe` gives the short name used in messages."""

    def describe(self) -> str:
        """The type as it appears in messages and docs: ``int``, ``choice ("down", "up")``."""
        raise NotImplementedError

    def accepts(self, other: Type) -> bool:
        """Whether a value of type ``other`` may be used where this type is required."""
        return self == other

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True, slots=True)
class IntType(Type):
    """A whole number; ``unit`` ("points", "count", ...) is documentation only."""

    unit: str = field(default="", compare=False)

    def describe(self) -> str:
        return "int"

    def documented(self) -> str:
        """``int (points)`` when a unit is known, else ``int``."""
        return f"int ({self.unit})" if self.unit else "int"


@dataclass(frozen=True, slots=True)
class BoolType(Type):
    """A truth value: ``true`` or ``false``."""

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True, slots=True)
class SuitType(Type):
    """A suit, at run time its id string (``"hearts"``)."""

    def describe(self) -> str:
        return "suit"


@dataclass(frozen=True, slots=True)
class RankType(Type):
    """A rank, at run time its id string (``"ace"``)."""

    def describe(self) -> str:
        return "rank"


@dataclass(frozen=True, slots=True)
class ChoiceType(Type):
    """One of an option's fixed choices, at run time the choice's string."""

    values: tuple[str, ...]

    def describe(self) -> str:
        return "choice (" + ", ".join(f'"{v}"' for v in self.values) + ")"

    def accepts(self, other: Type) -> bool:
        if isinstance(other, ChoiceType):
            return set(other.values) <= set(self.values)
        return False


@dataclass(frozen=True, slots=True)
class TextType(Type):
    """A string literal such as ``"down"``; only compared with choices or passed as a keyword."""

    def describe(self) -> str:
        return "text"


@dataclass(frozen=True, slots=True)
class CardsType(Type):
    """A set of cards (a hand, the talon, a trick), read only by the library functions."""

    def describe(self) -> str:
        return "cards"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of a record: its name, type and a one-line description."""

    name: str
    type: Type
    doc: str = ""


@dataclass(frozen=True, slots=True)
class RecordType(Type):
    """A record with named fields (``player.score``, ``options.five_rounds``)."""

    name: str
    fields: tuple[FieldSpec, ...] = ()

    def describe(self) -> str:
        return f"record {self.name}"

    def get_field(self, name: str) -> FieldSpec | None:
        """The field called ``name``, or ``None``."""
        for spec in self.fields:
            if spec.name == name:
                return spec
        return None

    def with_fields(self, extra: tuple[FieldSpec, ...]) -> RecordType:
        """A copy with ``extra`` fields appended (replacing fields of the same name)."""
        names = {f.name for f in extra}
        kept = tuple(f for f in self.fields if f.name not in names)
        return RecordType(self.name, kept + extra)


INT = IntType()
BOOL = BoolType()
SUIT = SuitType()
RANK = RankType()
CARDS = CardsType()
TEXT = TextType()
