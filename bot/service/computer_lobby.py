"""Computer players in the lobby: the creator adds them («🤖 Добавить компьютер», then a
level) and removes them, one seat per press, within the game's seats; a lobby with no
human in it cannot start.

A computer seat's player id is `games.players.computer_id(n)` (negative), its level is
kept in the record's `computers`, its name says what it is («🤖 Робот-опытный»; two alike
are numbered by `display_names`, «¹ ²»).

    >>> from bot.storage import GameRecord
    >>> from locales import get_translator
    >>> rec = GameRecord(chat_id=-1, uid="x", game_id="hypnosia", creator=5, players=[5])
    >>> add(rec, "experienced", get_translator("ru"))
    -1
    >>> rec.players, rec.names[-1], humans(rec)
    ([5, -1], '🤖 Робот-опытный', [5])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram.types import InlineKeyboardButton

from bot import house_rules, phone
from bot.presenters.base import Presenter
from bot.service.context import Answer
from bot.storage import GameRecord
from games.players import LEVELS, computer_id
from locales import Translator

MENU = "lobby_computers"  # in the lobby's `ui`: its keyboard is the computers' menu
OPEN, ADD, REMOVE = "cpu", "cpu+", "cpu-"
ACTIONS = (OPEN, ADD, REMOVE)

Button = Callable[..., InlineKeyboardButton]  # btn(text, action, x="")


def humans(rec: GameRecord) -> list[int]:
    """The lobby's (or game's) human players, in seat order."""
    return [u for u in rec.players if u not in rec.computers]


def add(rec: GameRecord, level: str, t: Translator) -> int:
    """Seat a computer player of `level`; its player id."""
    taken = set(rec.players) | set(rec.names)
    n = 0
    while computer_id(n) in taken:
        n += 1
    pid = computer_id(n)
    rec.players.append(pid)
    rec.names[pid] = t(f"computers.name.{level}")
    rec.computers[pid] = level
    return pid


def remove(rec: GameRecord, pid: int) -> None:
    rec.players.remove(pid)
    rec.computers.pop(pid, None)
    rec.names.pop(pid, None)


def press(
    rec: GameRecord, user: int, action: str, x: str, p: Presenter[Any, Any], t: Translator
) -> tuple[Answer, bool]:
    """A press of the computers' buttons: the answer, and whether the record changed."""
    if user != rec.creator:
        return Answer(t("lobby.only_creator"), alert=True), False
    if action == OPEN:
        rec.ui = {MENU: True}
        return Answer(t("computers.choose_level")), True
    if action == ADD:
        if x not in LEVELS:
            return Answer(t("press.old_button")), False
        if len(rec.players) >= p.max_players:
            return Answer(t("lobby.full", max=p.max_players), alert=True), False
        pid = add(rec, x, t)
        return Answer(t("computers.added", name=rec.name(pid))), True
    try:
        pid = int(x)
    except ValueError:
        return Answer(t("press.old_button")), False
    if pid not in rec.computers or pid not in rec.players:
        return Answer(t("computers.already_removed")), False
    name = rec.name(pid)
    remove(rec, pid)
    return Answer(t("computers.removed", name=name)), True


def start_refusal(rec: GameRecord, t: Translator) -> str | None:
    """Why the lobby cannot start for want of a human (None: it can)."""
    return None if humans(rec) else t("computers.only_computers")


def next_creator(rec: GameRecord, leaving: int) -> int:
    """Who runs the lobby when its creator `leaving` goes: the next human (else still him:
    a lobby of computers alone waits for a human and then refuses to start)."""
    rest = [u for u in humans(rec) if u != leaving]
    return rest[0] if rest else rec.creator


def status_line(rec: GameRecord, p: Presenter[Any, Any], t: Translator) -> str | None:
    """The lobby's last line when computers change it (None: the usual one)."""
    if rec.players and not humans(rec):
        return t("computers.only_computers")
    missing = house_rules.min_players(p, rec.options) - len(rec.players)
    if missing > 0 and rec.chat_id > 0:  # solo, in the private chat: add computers
        return t("computers.need_more_solo", n=missing)
    return None


def main_rows(
    rec: GameRecord, p: Presenter[Any, Any], t: Translator, btn: Button
) -> list[list[InlineKeyboardButton]]:
    """The lobby's own row for computers: «🤖 Добавить компьютер» (its menu also removes)."""
    if len(rec.players) >= p.max_players and not rec.computers:
        return []
    return [[btn(t("computers.add"), OPEN)]]


def menu_rows(
    rec: GameRecord, p: Presenter[Any, Any], t: Translator, btn: Button
) -> list[list[InlineKeyboardButton]]:
    """The computers' menu: a button per level (while there is a free seat), one per
    computer seat to remove it, and back."""
    rows: list[list[InlineKeyboardButton]] = []
    if len(rec.players) < p.max_players:
        levels = [btn(t(f"computers.level.{lv}"), ADD, lv) for lv in LEVELS]
        rows.extend(phone.rows(levels))
    names = rec.display_names()
    drop = [
        btn(t("computers.remove", name=names[pid]), REMOVE, str(pid))
        for pid in rec.players
        if pid in rec.computers
    ]
    rows.extend(phone.rows(drop))
    rows.append([btn(t("lobby.back"), "back")])
    return rows
