"""The lobby's message: its text (`lobby_text`) and its buttons (`lobby_markup`), from the
stored record; bot/service/lobby.py sends and edits it."""

from __future__ import annotations

import html

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import house_rules, idle, phone, turn_timers
from bot.callbacks import LobbyCB
from bot.service import computer_lobby as cpu
from bot.service.context import Context
from bot.storage import GameRecord, RecordStatus
from locales import Translator

GAME_MENU = "lobby_games"  # in the lobby's `ui`: its keyboard is the menu of games
RULES_MENU = "lobby_rules"  # … or this game's own rules (bot/house_rules.py)


def solo(rec: GameRecord) -> bool:
    """A game in the bot's private chat: one human against computers (no one to join, no
    one to wait for: no turn timer, bot/service/context.py)."""
    return rec.chat_id > 0


def setting_answer(action: str, t: Translator) -> str | None:
    """What a creator's press of a lobby setting answers: a menu that opens or closes
    («📜 Правила партии», «« Назад») shows itself and says nothing; a choice says it is
    made."""
    if action in ("back", "rules"):
        return None
    return t("lobby.choose_game" if action == "menu" else "lobby.option_set")


def timer_choices(ctx: Context) -> list[float]:
    """The lobby's turn timers (bot/turn_timers.py): the fast ones (2, 3 — the usual
    default —, 10 minutes), the slow ones (1, 12, 24 hours) and off."""
    return turn_timers.choices(ctx.settings.turn_seconds)


def lobby_text(ctx: Context, rec: GameRecord) -> str:
    """The lobby message: the game, its length and rules, the timer, the players, what
    is needed to start (or how the lobby ended)."""
    t = ctx.t(rec.language)
    p = ctx.presenter(rec.game_id)
    lines = [t("lobby.title", game=html.escape(t(p.title_key)))]
    choice = next((c for c in p.choices() if c.code == rec.option_choice), None)
    if choice is not None:
        lines.append(choice.line(t))
    if own := house_rules.summary(p, rec.options, t):
        lines.append(t("house.lobby_line", rules=own))
    if rec.ui.get(RULES_MENU):
        lines.extend(house_rules.explained(p, rec.options, t))
    least = house_rules.min_players(p, rec.options)
    if not solo(rec):
        lines.append(t("lobby.timer", timer=turn_timers.label(ctx.turn_seconds(rec), t)))
    lines.append(
        t(
            "lobby.players",
            count=len(rec.players),
            min=least,
            max=p.max_players,
        )
    )
    for i, uid in enumerate(rec.players, 1):
        mark = t("lobby.creator_mark") if uid == rec.creator else ""
        lines.append(f"{i}. {html.escape(rec.name(uid))}{mark}")
    if rec.status == RecordStatus.LOBBY:
        if (line := cpu.status_line(rec, p, t)) is not None:
            lines.append(line)
        elif len(rec.players) < least:
            lines.append(t("lobby.need_more", n=least - len(rec.players)))
        else:
            lines.append(t("lobby.can_start", name=html.escape(rec.name(rec.creator))))
    elif rec.status == RecordStatus.PLAYING:
        lines.append(t("lobby.started"))
    elif rec.status == RecordStatus.CANCELLED and rec.end_reason == idle.EXPIRED:
        lifetime = idle.lobby_lifetime(rec, ctx.settings)
        lines.append(t("lobby.expired", span=idle.span(lifetime, t)))
    elif rec.status == RecordStatus.CANCELLED and rec.end_reason == idle.REPLACED:
        idle_for = idle.span(ctx.settings.lobby_expire_minutes * 60, t)
        lines.append(t("lobby.replaced", span=idle_for))
    elif rec.status == RecordStatus.CANCELLED:
        lines.append(t("lobby.cancelled"))
    return "\n".join(lines)


def lobby_markup(ctx: Context, rec: GameRecord) -> InlineKeyboardMarkup | None:
    """Its buttons (none once it closed): the game's menu, its rules' menu or the
    computers' menu when one is open, else the length, rules, timers, computers, join
    and start rows, each fitting a phone (bot/phone.py). «▶ Начать» is under every menu
    too whenever the lobby can start (its text says to press it); a solo lobby has no
    timers and no join row (its one human is in it)."""
    if rec.status != RecordStatus.LOBBY:
        return None
    t = ctx.t(rec.language)
    p = ctx.presenter(rec.game_id)
    rows: list[list[InlineKeyboardButton]] = []

    def btn(text: str, a: str, x: str = "") -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=LobbyCB(g=rec.uid, a=a, x=x).pack())

    join = [] if solo(rec) else [[btn(t("lobby.join"), "join"), btn(t("lobby.leave"), "leave")]]
    start = (
        [[btn(t("lobby.start"), "start")]]
        if house_rules.min_players(p, rec.options) <= len(rec.players) <= p.max_players
        else []
    )
    # rows that fit a phone (bot/phone.py); the game is picked from its own menu
    if rec.ui.get(GAME_MENU):
        games = [
            btn(("✅ " if gid == rec.game_id else "") + t(q.title_short_key), "game", gid)
            for gid, q in ctx.presenters.items()
        ]
        back = [btn(t("lobby.back"), "back")]
        rows = [*phone.rows(games, spare=phone.MARK), back, *join, *start]
        return InlineKeyboardMarkup(inline_keyboard=rows)
    if rec.ui.get(RULES_MENU):  # this game's rules, each value cycled by its button
        rules = [
            [btn(house_rules.button_label(p, r, rec.options, t), "rule", r.key)]
            for r in house_rules.rules_of(p)
        ]
        back = [btn(t("lobby.back"), "back")]
        return InlineKeyboardMarkup(inline_keyboard=[*rules, back, *join, *start])
    if rec.ui.get(cpu.MENU):  # the computers' menu: add one of a level, remove one
        rows = [*cpu.menu_rows(rec, p, t, btn), *join, *start]
        return InlineKeyboardMarkup(inline_keyboard=rows)
    if len(ctx.presenters) > 1:
        rows.append([btn(t("lobby.pick_game", game=t(p.title_short_key)), "menu")])
    choices = p.choices()
    if len(choices) > 1:
        options = [
            btn(("✅ " if c.code == rec.option_choice else "") + t(c.label_key), "opt", c.code)
            for c in choices
        ]
        rows.extend(phone.rows(options, spare=phone.MARK))
    if house_rules.rules_of(p):
        rows.append([btn(t("house.lobby_button"), "rules")])
    current = ctx.turn_seconds(rec)
    # a row of fast timers, a row of slow ones (a game over days), then «off»
    groups: list[list[InlineKeyboardButton]] = [[], [], []]
    for x in [] if solo(rec) else timer_choices(ctx):
        mark = "✅ " if x == current else "⏱ " if x < turn_timers.HOUR else "⏳ "
        kind = 2 if x <= 0 else 1 if turn_timers.is_slow(x) else 0
        groups[kind].append(btn(mark + turn_timers.label(x, t), "tmr", f"{x:g}"))
    for group in groups:
        rows.extend(phone.rows(group))
    rows.extend(cpu.main_rows(rec, p, t, btn))
    rows.extend([*join, *start])
    return InlineKeyboardMarkup(inline_keyboard=rows)
