"""The `/settings` menu (bot/handlers/settings.py): one message whose inline buttons are
edited in place.

Pages: the main one (the default game, the turn timer, turn pings — a group's, as
`/pings on|off` keeps them —, the language, «Свои правила»), the list of games, and a
page per game with its house rules (bot/house_rules.py), each value cycled by its button
and explained in one line of the message. A chat's settings are stored per chat, a
user's own defaults (in his private chat) per user (bot/chat_settings.py).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, TypeVar

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import chat_settings, house_rules, phone, turn_timers
from bot.chat_locks import ChatLocks
from bot.chat_settings import ChatSettings
from bot.presenters.base import Presenter
from bot.service.context import Context
from bot.service.pings import Pings
from locales import LANGUAGES, Translator

T = TypeVar("T")

MAIN, GAMES, GAME = "main", "games", "game"  # the pages
LANGUAGE_CHOICES: tuple[str | None, ...] = (None, *LANGUAGES)  # None: the asker's


class SettingsCB(CallbackData, prefix="S1"):
    """A /settings button: a = main | games | game | dg (the default game) | tmr | ping |
    lang | rule | reset; g = the game of game, rule and reset; o = the rule's option (or
    LENGTH)."""

    a: str
    g: str = ""
    o: str = ""


@dataclass
class Pressed:
    """What a press did: the answer to show, and whether it was refused (an alert)."""

    text: str
    refused: bool = False


class SettingsMenu:
    def __init__(self, ctx: Context, pings: Pings) -> None:
        self.ctx = ctx
        self.pings = pings
        self.locks = ChatLocks()  # one press of a chat's menu at a time

    @staticmethod
    def key(chat_id: int, group: bool) -> str:
        """Where the menu of this chat keeps its settings: the chat's, or in a private
        chat the user's own."""
        return chat_settings.chat_key(chat_id) if group else chat_settings.user_key(chat_id)

    # ------------------------------------------------------------------ its message

    async def page(
        self, chat_id: int, group: bool, page: str, x: str, t: Translator
    ) -> tuple[str, InlineKeyboardMarkup]:
        s = await chat_settings.load(self.ctx.store, self.key(chat_id, group))
        if s.language:  # the menu speaks the language chosen in it
            t = self.ctx.t(s.language)
        if page == GAME and x in self.ctx.presenters:
            return self.game_page(s, self.ctx.presenter(x), t)
        if page == GAMES:
            return self.games_page(t)
        pings_on = await self.pings.chat_on(chat_id) if group else None
        return self.main_page(s, pings_on, t)

    def main_page(
        self, s: ChatSettings, pings_on: bool | None, t: Translator
    ) -> tuple[str, InlineKeyboardMarkup]:
        ctx = self.ctx
        game = ctx.presenter(self.default_game(s))
        timer = turn_timers.label(self.timer(s), t)
        auto = "auto" if pings_on is not None else "auto_private"  # a group's, or his own
        language = t(f"settings.lang.{s.language or auto}")
        lines = [t("settings.title.chat" if pings_on is not None else "settings.title.private")]
        lines.append(t("settings.game", game=html.escape(t(game.title_key))))
        lines.append(t("settings.timer", timer=timer))
        if pings_on is not None:
            lines.append(t("settings.pings", state=t(f"settings.state.{int(pings_on)}")))
        lines.append(t("settings.language", language=language))
        own = [
            t("settings.own_rules", game=html.escape(t(p.title_key)), rules=line)
            for gid, p in ctx.presenters.items()
            if (line := self.rules_line(p, s.house_rules.get(gid, {}), t))
        ]
        lines.extend(own or [t("settings.no_own_rules")])
        if pings_on is None:
            lines.append(t("settings.private_note"))
        rows = [
            [button(t("settings.button.game", game=t(game.title_short_key)), "dg")],
            [button(t("settings.button.timer", timer=timer), "tmr")],
        ]
        if pings_on is not None:
            state = t(f"settings.button.state.{int(pings_on)}")
            rows.append([button(t("settings.button.pings", state=state), "ping")])
        rows.append([button(t("settings.button.language", language=language), "lang")])
        rows.append([button(t("settings.button.rules"), GAMES)])
        return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=rows)

    def games_page(self, t: Translator) -> tuple[str, InlineKeyboardMarkup]:
        games = [button(t(p.title_short_key), GAME, gid) for gid, p in self.ctx.presenters.items()]
        rows = [*phone.rows(games), [button(t("lobby.back"), MAIN)]]
        return t("settings.games"), InlineKeyboardMarkup(inline_keyboard=rows)

    def game_page(
        self, s: ChatSettings, p: Presenter[Any, Any], t: Translator
    ) -> tuple[str, InlineKeyboardMarkup]:
        gid = p.game_id
        options = s.house_rules.get(gid, {})
        lines = [t("settings.game_title", game=html.escape(t(p.title_key)))]
        rows: list[list[InlineKeyboardButton]] = []
        choice = house_rules.length_of(p, options)
        if choice is not None:
            length = t(choice.label_key)
            lines.append(t("house.length_line", value=length))
            label = t("house.button", label=t("house.length"), value=length)
            rows.append([button(label, "rule", gid, house_rules.LENGTH)])
        lines.extend(house_rules.explained(p, options, t))
        for rule in house_rules.rules_of(p):
            label = house_rules.button_label(p, rule, options, t)
            rows.append([button(label, "rule", gid, rule.key)])
        if choice is None and not house_rules.rules_of(p):
            lines.append(t("settings.no_rules"))
        if options:
            rows.append([button(t("settings.button.reset"), "reset", gid)])
        rows.append([button(t("lobby.back"), GAMES)])
        return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=rows)

    def rules_line(self, p: Presenter[Any, Any], options: dict[str, Any], t: Translator) -> str:
        """A game's house rules in a line: the default length when not the usual one,
        then what differs from the defaults."""
        parts = []
        choice = house_rules.length_of(p, dict(options))
        if choice is not None and choice.code != p.choices()[0].code:
            parts.append(t(choice.label_key).lower())
        if own := house_rules.summary(p, dict(options), t):
            parts.append(own)
        return ", ".join(parts)

    def default_game(self, s: ChatSettings) -> str:
        games = self.ctx.presenters
        return s.default_game if s.default_game in games else next(iter(games))

    def timer(self, s: ChatSettings) -> float:
        return self.ctx.settings.turn_seconds if s.turn_seconds is None else s.turn_seconds

    # ------------------------------------------------------------------ its buttons

    async def press(
        self, chat_id: int, group: bool, data: SettingsCB, t: Translator
    ) -> tuple[Pressed, str, str]:
        """Apply a press: (its answer, the page to show, the page's argument)."""
        key = self.key(chat_id, group)
        async with self.locks[chat_id]:
            s = await chat_settings.load(self.ctx.store, key)
            if s.language:  # answered in the menu's language
                t = self.ctx.t(s.language)
            if data.a in (MAIN, GAMES):
                return Pressed(""), data.a, ""
            if data.a == GAME:
                if data.g not in self.ctx.presenters:
                    return Pressed(t("press.old_button")), MAIN, ""
                return Pressed(""), GAME, data.g
            if data.a == "ping":
                if not group:
                    return Pressed(t("press.old_button")), MAIN, ""
                on = not await self.pings.chat_on(chat_id)
                await self.pings.set_chat(chat_id, on)
                return Pressed(t("settings.saved")), MAIN, ""
            if data.a in ("dg", "tmr", "lang"):
                await chat_settings.save(self.ctx.store, key, self.cycle_main(s, data.a))
                return Pressed(t("settings.saved")), MAIN, ""
            if data.a in ("rule", "reset"):
                gid, code = data.g, data.o
                if gid not in self.ctx.presenters:
                    return Pressed(t("press.old_button")), MAIN, ""
                p = self.ctx.presenter(gid)
                rules = dict(s.house_rules.get(gid, {}))
                if data.a == "reset":
                    rules = {}
                else:
                    changed = cycle_rule(p, rules, code)
                    if changed is None:
                        return Pressed(t("press.old_button")), GAME, gid
                    if not house_rules.valid(p, changed):
                        return Pressed(t("house.refused"), refused=True), GAME, gid
                    rules = changed
                s.house_rules = {k: v for k, v in s.house_rules.items() if k != gid}
                if rules:
                    s.house_rules[gid] = rules
                await chat_settings.save(self.ctx.store, key, s)
                return Pressed(t("settings.saved")), GAME, gid
        return Pressed(t("press.old_button")), MAIN, ""

    def cycle_main(self, s: ChatSettings, what: str) -> ChatSettings:
        if what == "dg":
            games = list(self.ctx.presenters)
            s.default_game = after(games, self.default_game(s))
        elif what == "tmr":
            s.turn_seconds = after(
                turn_timers.choices(self.ctx.settings.turn_seconds), self.timer(s)
            )
        else:
            s.language = after(list(LANGUAGE_CHOICES), s.language)
        return s


def after(values: list[T], current: T) -> T:
    """The value after `current` in `values`, round (the first if `current` is not one)."""
    i = values.index(current) if current in values else -1
    return values[(i + 1) % len(values)]


def cycle_rule(p: Presenter[Any, Any], options: dict[str, Any], code: str) -> dict[str, Any] | None:
    """`options` with the rule `code` (an option, or LENGTH) at its next value; None when
    the game has no such rule (an old or forged button)."""
    opts = dict(options)
    if code == house_rules.LENGTH:
        choices = p.choices()
        if not choices:
            return None
        now = house_rules.length_of(p, opts) or choices[0]
        nxt = after(choices, now)
        out = house_rules.with_length(p, opts, nxt)
        if nxt is choices[0]:  # the usual length is not stored
            keys = house_rules.length_keys(p)
            out = {k: v for k, v in out.items() if k not in keys}
        return out
    rule = next((r for r in house_rules.rules_of(p) if r.key == code), None)
    if rule is None:
        return None
    return house_rules.cycled(p, opts, rule)


def button(text: str, a: str, g: str = "", o: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=SettingsCB(a=a, g=g, o=o).pack())
