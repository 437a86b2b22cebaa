"""Reading the typed events of an engine in tests: the facts of one kind, typed.

>>> from games.automation import Forced
>>> from games.protocol import Event
>>> facts([Event.of(Forced(action="R"), seat=0)], Forced)
[Forced(action='R')]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from games.protocol import Event, Fact

F = TypeVar("F", bound=Fact)


def facts(events: Iterable[Event], kind: type[F]) -> list[F]:
    """The facts of class `kind` among `events`, in order."""
    return [e.data for e in events if isinstance(e.data, kind)]


def fact(event: Event, kind: type[F]) -> F:
    """The fact of one event, which must be of class `kind`."""
    assert isinstance(event.data, kind), event
    return event.data
