"""Onboarding (issue 16 point 4, issue 15 point 6), against the fake Telegram server: the
bot's descriptions, its hello once per group, the deep links (`?startgroup=new`,
`?start=rules_<game>`), a whole game with privacy mode on, and the group's memory after
the bot is removed and added back."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.exceptions import TelegramBadRequest

from bot.descriptions import DESCRIPTION_LIMIT, SHORT_DESCRIPTION_LIMIT, descriptions
from bot.memory.keeper import memory_of
from bot.memory.records import RedisBackend
from bot.presenters import registry
from bot.service import pings
from bot.storage import RecordStatus, RedisStore, Store
from fake_telegram import Chat, FakeTelegram
from fake_telegram.server import StoredMessage
from locales import get_translator
from tests.bot import memory_play
from tests.bot.e2e import open_lobby, record, running, settings_for, start_game
from tests.bot.seven_tracks_play import play_by_buttons

TITLES = {
    "ru": ("Семидорожник", "Захват клеток", "Морской крест", "Гипнозия", "ДОМИНА*С"),
    "en": ("Seven Tracks", "Cell Capture", "Sea Cross", "Hypnosia", "DOMINA*S"),
}
HELLO = {"ru": "Привет! Я «Настолка»", "en": "Hi! I am Nastolka"}
QUIET = 0.5  # no call for this long after an add: a hello would have been sent by then


def links(message: StoredMessage) -> list[str]:
    """The URLs of a message: its text links, then its URL buttons."""
    found = [e["url"] for e in message.entities if e.get("type") == "text_link"]
    return found + [b["url"] for row in message.keyboard for b in row if b.get("url")]


def hellos(chat: Chat) -> list[StoredMessage]:
    return [m for m in chat.bot_messages if any(h in m.content for h in HELLO.values())]


async def until(read: Callable[[], Awaitable[object]], wanted: object, timeout: float = 10) -> None:
    """Poll `read()` until it gives `wanted` (something the bot stores, not a message)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (got := await read()) != wanted:
        assert loop.time() < end, f"still {got!r}, not {wanted!r}"
        await asyncio.sleep(0.02)


def outside(tg: FakeTelegram, **kw: Any) -> Chat:
    """A group the bot is not in yet."""
    chat = tg.group(**kw)
    chat.state.bot_status = "left"
    return chat


# ---------------------------------------------------------------- descriptions


async def test_descriptions_are_set_per_language_at_startup_and_not_again_when_unchanged() -> None:
    async with FakeTelegram() as tg:
        async with running(settings_for(tg)):
            pass
        held = tg.server.bot_settings
        for code, lang in (("", "ru"), ("en", "en")):
            long, short = descriptions(lang, [p.title_key for p in registry().values()])
            assert held[f"description:{code}"] == long
            assert held[f"short_description:{code}"] == short
            assert len(long) <= DESCRIPTION_LIMIT and len(short) <= SHORT_DESCRIPTION_LIMIT
            assert all(title in long and title in short for title in TITLES[lang]), lang
        assert len(tg.calls("setMyDescription")) == 2
        assert len(tg.calls("setMyShortDescription")) == 2
        # a restart finds the same texts: it only reads them
        async with running(settings_for(tg)):
            pass
        assert len(tg.calls("setMyDescription")) == 2
        assert len(tg.calls("getMyDescription")) == 4


async def test_the_fake_server_keeps_descriptions_per_language_as_telegram_does() -> None:
    async with FakeTelegram() as tg:
        bot = tg.make_bot()
        try:
            assert (await bot.get_my_description()).description == ""
            await bot.set_my_description("для всех")
            await bot.set_my_short_description("коротко", language_code="ru")
            assert (await bot.get_my_description(language_code="de")).description == "для всех"
            short = await bot.get_my_short_description(language_code="ru")
            assert short.short_description == "коротко"
            assert (await bot.get_my_short_description()).short_description == ""
            for call, limit in ((bot.set_my_description, 512), (bot.set_my_short_description, 120)):
                await call("я" * limit)
                try:
                    await call("я" * (limit + 1))
                except TelegramBadRequest as e:
                    assert "BOT_DESCRIPTION_INVALID" in str(e)
                else:
                    raise AssertionError(f"{limit + 1} characters were accepted")
            await bot.set_my_description("")  # removes it
            assert (await bot.get_my_description()).description == ""
        finally:
            await bot.session.close()


# ---------------------------------------------------------------- the hello


async def test_added_to_a_group_it_says_hello_once_with_links_to_rules_and_its_chat() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(8101, "Аня"), tg.user(8102, "Борис")
        chat = outside(tg, members=[anna, boris])
        async with running(settings_for(tg)):
            await chat.add_bot(anna)
            hello = await chat.wait_message(lambda m: HELLO["ru"] in m.content)
            text = hello.content
            assert "/new" in text and "правлю его на месте" in text
            assert "режима приватности" in text and "откройте меня один раз" in text
            assert all(title in text for title in TITLES["ru"])
            found = links(hello)
            assert "https://t.me/nastolka_bot?start=rules_dominas" in found
            assert found[-1] == "https://t.me/nastolka_bot?start=hello"
            assert hello.button_texts == ["💬 Открыть бота"]
            # the game's name, tapped: its rules come in private
            private = await tg.follow_link(boris, found[0])
            rules = await private.wait_message(lambda m: "правила коротко" in m.content)
            assert "«Семидорожник»" in rules.content
            # removed and added back: no second hello
            await chat.remove_bot(anna)
            await chat.add_bot(boris, admin=True)
            await tg.settle(quiet=QUIET)
            assert len(hellos(chat)) == 1


async def test_the_hello_speaks_the_adders_language() -> None:
    async with FakeTelegram() as tg:
        emma = tg.user(8201, "Emma", language_code="en-GB")
        chat = outside(tg, members=[emma])
        async with running(settings_for(tg)):
            await chat.add_bot(emma)
            hello = await chat.wait_message(lambda m: HELLO["en"] in m.content)
            assert all(title in hello.content for title in TITLES["en"])
            assert hello.button_texts == ["💬 Open the bot"]


async def test_a_basic_group_turned_supergroup_is_not_greeted_again() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(8301, "Аня")
        basic = outside(tg, members=[anna], supergroup=False)
        async with running(settings_for(tg)):
            await basic.add_bot(anna)
            await basic.wait_message(lambda m: HELLO["ru"] in m.content)
            super_ = await basic.migrate_to_supergroup(anna)
            await tg.settle()
            # should Telegram also report the bot as added to the new supergroup
            super_.state.bot_status = "left"
            await super_.add_bot(anna)
            await tg.settle(quiet=QUIET)
            assert len(hellos(basic)) == 1 and hellos(super_) == []
            # a group created with the bot in it: one hello, also for a repeated update
            fresh = outside(tg, members=[anna])
            await fresh.add_bot(anna)
            update = tg.updates[-2]
            assert update.type == "my_chat_member"
            await tg.push_update(dict(update.payload))
            await fresh.wait_message(lambda m: HELLO["ru"] in m.content)
            await tg.settle(quiet=QUIET)
            assert len(hellos(fresh)) == 1


# ---------------------------------------------------------------- deep links


async def test_the_startgroup_link_adds_the_bot_and_opens_a_lobby_as_new_does() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(8401, "Аня"), tg.user(8402, "Борис")
        chat = outside(tg, members=[anna, boris])
        async with running(settings_for(tg)) as app:
            private = await tg.start_private(anna)
            start = await private.wait_message(lambda m: "➕ Добавить в группу" in m.button_texts)
            assert links(start)[0] == "https://t.me/nastolka_bot?startgroup=new"
            await tg.follow_link(anna, links(start)[0], chat)
            command = chat.messages[-1]
            assert command.content == "/start@nastolka_bot new"
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content, after=command)
            await chat.wait_for(lambda: hellos(chat))
            assert (await record(app, chat)).status == RecordStatus.LOBBY
            answer = await chat.press(boris, lobby, contains="Играть")
            assert answer.text == "Вы в игре!"

            # a game's rules in private offer its own lobby in a group
            other = outside(tg, members=[boris])
            await private.send(anna, "/rules доминас")
            rules = await private.wait_message(lambda m: "➕ Сыграть в группе" in m.button_texts)
            assert links(rules) == ["https://t.me/nastolka_bot?startgroup=new_dominas"]
            await tg.follow_link(boris, links(rules)[0], other)
            await other.wait_message(lambda m: "Новая игра" in m.content, after=0)
            assert (await record(app, other)).game_id == "dominas"
            # the bot already in the group: the link only opens the lobby (one is open now)
            await tg.follow_link(anna, "https://t.me/nastolka_bot?startgroup=new", chat)
            await tg.settle(quiet=QUIET)
            assert len(hellos(chat)) == 1 and len(hellos(other)) == 1


def short_rules_of(title: str) -> Callable[[StoredMessage], bool]:
    """A `wait_message` condition: the short rules of the game `title`."""
    return lambda m: title in m.content and "правила коротко" in m.content


async def test_the_start_rules_link_opens_that_games_rules_in_private() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(8501, "Аня")
        async with running(settings_for(tg)):
            for payload, title in (
                ("rules_sea_cross", "«Морской крест»"),
                ("rules_domino", "«ДОМИНА*С»"),
            ):
                chat = await tg.follow_link(anna, f"https://t.me/nastolka_bot?start={payload}")
                rules = await chat.wait_message(short_rules_of(title))
                assert rules.button_texts == ["📖 Полные правила", "➕ Сыграть в группе"]
            chat = await tg.follow_link(anna, "https://t.me/nastolka_bot?start=rules_chess")
            unknown = await chat.wait_message(lambda m: "Не знаю такой игры" in m.content)
            assert all(title in unknown.content for title in TITLES["ru"])
            # any other payload (the hello's «open the bot»): the usual /start
            await tg.follow_link(anna, "https://t.me/nastolka_bot?start=hello")
            start = await chat.wait_message(lambda m: "Как играть" in m.content)
            # its game buttons: the rules with the same «play it in a group» link
            await chat.press(anna, start, "📖 Гипнозия")
            rules = await chat.wait_message(lambda m: "«Гипнозия»" in m.content, after=start)
            assert links(rules) == ["https://t.me/nastolka_bot?startgroup=new_hypnosia"]


# ---------------------------------------------------------------- privacy mode


async def test_a_whole_game_with_privacy_mode_on_needs_no_plain_messages() -> None:
    async with FakeTelegram() as tg:
        assert tg.privacy_mode  # as a new BotFather bot: commands, replies, buttons only
        anna, boris, vika = tg.user(8601, "Аня"), tg.user(8602, "Борис"), tg.user(8603, "Вика")
        users = [anna, boris, vika]
        chat = tg.group(members=users)
        async with running(settings_for(tg)) as app:
            before = len(tg.updates)
            await chat.send(boris, "ну что, сыграем?")
            await chat.send(vika, "/new@another_bot")
            assert len(tg.updates) == before  # neither reaches the bot
            lobby = await open_lobby(chat, anna, boris, vika)
            table = await start_game(chat, anna, lobby)
            await chat.send(vika, "хороший ход")  # chatter during the game: unseen
            await play_by_buttons(tg, chat, app, table, users, random.Random(11))
            await chat.wait_message(lambda m: "Игра окончена" in m.content)
            assert (await record(app, chat)).status == RecordStatus.OVER
        for update in tg.updates:
            assert update.type in {"message", "callback_query"}, update
            text = update.payload.get("message", {}).get("text")
            assert text is None or text.startswith("/"), text  # commands only


# ---------------------------------------------------------------- retention on removal


async def test_removed_the_memory_expires_within_the_retention_and_a_re_add_keeps_it(
    redis_url: str,
) -> None:
    retention_days = 0.5
    retention = retention_days * 86400
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(8701, "Аня"), tg.user(8702, "Борис"), tg.user(8703, "Вика")
        chat = tg.group(members=[vika, boris], admins=[anna])
        settings = settings_for(
            tg, redis_url, memory_retention_days=retention_days, **memory_play.FAST
        )
        async with running(settings) as app:
            players = {anna.id: "Аня", boris.id: "Борис", vika.id: "Вика"}
            await memory_play.start(app, chat.id, "cell_capture", players)
            await memory_play.play_out(app, chat.id, random.Random(3))
            keeper = memory_of(app.service.ctx)
            assert isinstance(keeper.backend, RedisBackend)
            store = app.store
            assert isinstance(store, RedisStore)  # the bot's store on the test Redis
            client = store.client
            keys = [keeper.backend.key(chat.id, kind) for kind in ("doc", "games", "lines")]
            # the players' overall ratings hold this chat's part: kept no longer (issue 30)
            keys += [keeper.backend.overall_key("cell_capture", x) for x in players]
            await chat.wait_message(lambda m: "Игра окончена" in m.content, after=0)

            async def count() -> int:  # the table worker records the game
                return (await keeper.load(chat.id)).count

            await until(count, 1)
            await chat.send(anna, "/pings off")  # a preference of the chat
            await until(lambda: app.store.get_pref(pings.chat_key(chat.id)), "off")
            pref = f"{store.prefix}:pref:{pings.chat_key(chat.id)}"
            usual = settings.game_ttl_days * 86400 * 12
            assert retention < await client.ttl(pref) <= usual

            async def within(names: list[str]) -> bool:
                ttls = [await client.ttl(key) for key in names]
                return all(0 < ttl <= retention for ttl in ttls)

            async def pref_usual() -> bool:
                return retention < await client.ttl(pref) <= usual

            # the removal makes no call to wait for: what it stores is waited for
            await chat.remove_bot(anna)
            await until(lambda: within([*keys, pref]), True)  # gone within it

            await chat.add_bot(anna)  # back before the retention: kept
            await until(pref_usual, True)
            assert (await keeper.load(chat.id)).count == 1
            asked = await chat.send(boris, "/top")  # answered where he asked
            top = await chat.wait_message(lambda m: "Вика" in m.content, after=asked)
            assert get_translator("ru")("game.cell_capture.title") in top.content
            ttls = [await client.ttl(key) for key in keys]
            assert all(0 < ttl <= retention for ttl in ttls), ttls
            assert retention < await client.ttl(pref) <= usual  # its usual lifetime again
            assert await app.service.store.get_pref(pings.chat_key(chat.id)) == "off"


async def test_expire_prefs_shortens_never_lengthens_and_none_restores(store: Store) -> None:
    await store.set_pref("pings:chat:-5", "off")
    await store.expire_prefs(["pings:chat:-5", "never:set"], 100)
    await store.expire_prefs(["pings:chat:-5"], 10**6)  # not later than it would go
    assert await store.get_pref("pings:chat:-5") == "off"
    assert await store.get_pref("never:set") is None  # expiring creates nothing
    if isinstance(store, RedisStore):
        name = f"{store.prefix}:pref:pings:chat:-5"
        assert 0 < await store.client.ttl(name) <= 100
        await store.expire_prefs(["pings:chat:-5"], None)
        assert 600 * 12 - 60 < await store.client.ttl(name) <= 600 * 12  # the usual lifetime
