"""Every callback factory of the bot has a prefix of its own (issue 31, point 9): two
factories with one prefix let a press meant for one be read by the other's handler."""

from __future__ import annotations

import importlib
import pkgutil

from aiogram.filters.callback_data import CallbackData

import bot


def factories() -> list[type[CallbackData]]:
    """Every `CallbackData` subclass defined in a module of `bot/` (all imported)."""
    for info in pkgutil.walk_packages(bot.__path__, "bot."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found: list[type[CallbackData]] = []
    todo = list(CallbackData.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("bot."):
            found.append(cls)
    return found


def test_every_callback_factory_has_its_own_prefix() -> None:
    found = factories()
    assert len(found) >= 10, found  # the lobby's, the table's, the settings'…
    by_prefix: dict[str, list[str]] = {}
    for cls in found:
        by_prefix.setdefault(cls.__prefix__, []).append(cls.__qualname__)
    shared = {p: names for p, names in by_prefix.items() if len(names) > 1}
    assert not shared, shared
