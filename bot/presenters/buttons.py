"""The one language of a game's table buttons: the engine's own action encoding, plus a
few typed compound codes, parsed in one place.

A button's code (the `c` of its callback data, bot/callbacks.py) is either

- an **action**: `game.encode_action(a)` as it is — it begins with an upper-case letter
  («M,2,5», «P,M13,C,0»; the registry's conformance test checks every engine's), and
  pressing it applies exactly that action; or
- a **compound code**: a lower-case tag and its typed fields, joined by dots («run.3»,
  «pg.1»): a `Code` dataclass of the game's presenter, which expands into several
  actions (place the longest run, finish the turn), opens a menu, or answers a
  simultaneous decision without naming what is in a hand.

`Buttons.parse` turns a code back into the action or the `Code`, and refuses anything
else (`Unknown`: the button is out of date).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Run(Code):
    ...     tag = "run"
    ...     track: int
    >>> Run(3).code()
    'run.3'
    >>> import games
    >>> b = Buttons(games.get("sea_cross"), (Run,))
    >>> b.parse("run.3"), b.parse("E").type.value
    (Run(track=3), 'E')
    >>> b.parse("run.x")
    Traceback (most recent call last):
    ...
    bot.presenters.buttons.Unknown: run.x
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar, Union

from games import Game, IllegalAction

A = TypeVar("A")
SEP = "."


class Unknown(ValueError):
    """A code that is neither an action of the game nor one of its compound codes."""


@dataclasses.dataclass(frozen=True)
class Code:
    """A compound button: `tag` and the dataclass's fields, in order, joined by dots. A
    field is an int, a str (no dot), a str enum, or `int | None` (empty for None)."""

    tag: ClassVar[str]
    versioned: ClassVar[bool] = True  # the press must carry the table's current `seq`

    def code(self) -> str:
        values = [_text(getattr(self, f.name)) for f in dataclasses.fields(self)]
        return SEP.join([self.tag, *values])


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def _value(kind: Any, text: str) -> Any:
    """`text` as a field of type `kind`; ValueError when it is not one."""
    args = typing.get_args(kind)
    if typing.get_origin(kind) in (Union, types.UnionType) and type(None) in args:
        if text == "":
            return None
        (kind,) = [a for a in args if a is not type(None)]
    if kind is int:
        if not text.lstrip("-").isdigit():
            raise ValueError(text)
        return int(text)
    if kind is str:
        if not text:
            raise ValueError("empty")
        return text
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(text)
    raise TypeError(f"a code's field of type {kind!r}")


class Buttons(Generic[A]):
    """A game's button language: its engine's actions and its presenter's `codes`."""

    def __init__(self, game: Game[Any, A], codes: Iterable[type[Code]] = ()) -> None:
        self.game = game
        self.codes: dict[str, type[Code]] = {}
        self.hints: dict[str, dict[str, Any]] = {}  # each code's field types, read once
        for cls in codes:
            if not cls.tag or not cls.tag[0].islower() or SEP in cls.tag:
                raise ValueError(f"a compound code's tag is lower-case first: {cls.tag!r}")
            if cls.tag in self.codes:
                raise ValueError(f"two compound codes tagged {cls.tag!r}")
            self.codes[cls.tag] = cls
            self.hints[cls.tag] = typing.get_type_hints(cls)

    def action(self, action: A) -> str:
        """The code of a button that applies `action`."""
        return self.game.encode_action(action)

    def parse(self, text: str) -> A | Code:
        """The action or compound code `text` stands for; `Unknown` otherwise."""
        if text[:1].isupper():
            try:
                return self.game.decode_action(text)
            except (IllegalAction, ValueError):
                raise Unknown(text) from None
        tag, *values = text.split(SEP)
        cls = self.codes.get(tag)
        if cls is None:
            raise Unknown(text)
        fields = dataclasses.fields(cls)
        if len(values) != len(fields):
            raise Unknown(text)
        hints = self.hints[tag]
        try:
            args = [_value(hints[f.name], v) for f, v in zip(fields, values, strict=True)]
        except ValueError:
            raise Unknown(text) from None
        return cls(*args)
