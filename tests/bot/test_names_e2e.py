"""Players' names end to end: the real bot against the fake Telegram (which parses the
HTML like Telegram and refuses a broken or too long caption).

Blank names (spaces, Hangul fillers, zero-width characters) show as «Игрок N», equal
names as «Аня ¹»/«Аня ²», names with `<>&` literally; six 64-character names full of
emoji sequences still give every game a valid caption that shows every player and the
one to move, and no emoji sequence is cut.
"""

from __future__ import annotations

import pytest
import regex

from bot.app import App
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.formatting import utf16_len
from fake_telegram.server import StoredMessage
from tests.bot.e2e import record, running, settings_for

GRAPHEME = regex.compile(r"\X")
FAMILY = "👨\u200d👩\u200d👧\u200d👦"
COUPLE = "👩🏽\u200d❤\ufe0f\u200d👨🏿"  # skin tones, a variation selector, joiners
FIRE = "❤\ufe0f\u200d🔥"
PIECES = [
    FAMILY,
    "🇷🇺",
    "<b>&amp;</b>",
    COUPLE,
    "👍🏽",
    "1\ufe0f\u20e3",
    " <&> ",
    FIRE,
    "🏳\ufe0f\u200d🌈",
]
SEQUENCES = {FAMILY, COUPLE, FIRE, "🏳\ufe0f\u200d🌈"}  # every ZWJ sequence the names hold


def long_name(tag: str) -> str:
    """`tag`, then emoji sequences and HTML-ish text: 64 code points, whole clusters."""
    name = tag + " "
    k = 0
    while True:
        piece = PIECES[k % len(PIECES)]
        if len(name) + len(piece) > 64:
            break
        name += piece
        k += 1
    return name + "x" * (64 - len(name))


async def lobby_of(chat: Chat, creator: User, game: str, *others: User) -> StoredMessage:
    await chat.send(creator, f"/new {game}")
    lobby = await chat.wait_message(lambda m: "Новая игра" in m.content, timeout=10)
    for user in others:
        answer = await chat.press(user, lobby, contains="Играть", timeout=10)
        assert answer.text == "Вы в игре!", answer
    return lobby


async def start(chat: Chat, creator: User, lobby: StoredMessage) -> StoredMessage:
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
    answer = await chat.press(creator, lobby, "▶ Начать", timeout=10)
    assert answer.text == "Поехали!", answer
    return await chat.wait_message(lambda m: m.photo is not None, timeout=15)


def shown(message: StoredMessage) -> str:
    """The text Telegram shows; the fake server already refused invalid HTML, and the
    message as the bot sent it parses again to the same text."""
    assert message.content is not None
    return message.content


def mover_line(text: str) -> str:
    lines = [x for x in text.split("\n") if x.startswith("▶ ")]
    assert len(lines) == 1, text
    return lines[0]


async def actor(app: App, chat: Chat) -> int | None:
    rec = await record(app, chat)
    p = app.service.presenter(rec.game_id)
    assert rec.state is not None
    return p.actor(p.load(rec.state))


async def test_blank_equal_and_html_names_in_the_lobby_and_on_the_table(
    backend: str | None,
) -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(5101, "Аня")
        blank = tg.user(5102, "\u3164")  # a Hangul filler: a "blank" Telegram name
        anna2 = tg.user(5103, " Аня ")
        html_ish = tg.user(5104, "<b>Гоша</b>", last_name="& Co")
        invisible = tg.user(5105, "  \u200b\u2800 ")
        emoji = tg.user(5106, FAMILY + " Вика 🇷🇺")
        users = [anna, blank, anna2, html_ish, invisible, emoji]
        chat = tg.group(members=users)
        async with running(settings_for(tg, redis_url=backend)) as app:
            lobby = await lobby_of(chat, anna, "семидорожник", *users[1:])
            want = [
                "1. Аня ¹ — создатель",
                "2. Игрок 2",
                "3. Аня ²",
                "4. <b>Гоша</b> & Co",
                "5. Игрок 5",
                f"6. {FAMILY} Вика 🇷🇺",
            ]
            await chat.wait_for(lambda: all(x in shown(lobby) for x in want), timeout=10)
            assert "5102" not in shown(lobby) and "\u3164" not in shown(lobby)
            # a refusal names the creator the same way
            answer = await chat.press(blank, lobby, "▶ Начать", timeout=10)
            assert answer.text == "Начать игру может только создатель лобби — Аня ¹."

            table = await start(chat, anna, lobby)
            names = {
                anna.id: "Аня ¹",
                blank.id: "Игрок 2",
                anna2.id: "Аня ²",
                html_ish.id: "<b>Гоша</b> & Co",
                invisible.id: "Игрок 5",
                emoji.id: f"{FAMILY} Вика 🇷🇺",
            }
            # after the first-move window someone is to move: «Ходит <b>…</b>» and ▶
            await chat.wait_for(lambda: "▶ " in shown(table), timeout=15)
            text = shown(table)
            for name in names.values():
                assert name in text, (name, text)
            who = await actor(app, chat)
            assert who is not None
            assert mover_line(text).startswith(f"▶ {names[who]} — ")
            assert f"Ходит {names[who]}:" in text
            assert not any(str(u.id) in text for u in users)
            # not your turn: the refusal names the mover as the table does
            other = next(u for u in users if u.id != who)
            answer = await chat.press(other, table, "🎲🎲 Два кубика", timeout=10)
            assert answer.text == f"Сейчас ходит {names[who]}, не вы."


GAMES = [
    ("семидорожник", 6),
    ("захват", 6),
    ("гипнозия", 6),
    ("доминас", 6),
    ("доминас", 8),
    ("крест", 4),  # «Морской крест» is for 2–4 players
]
TAGS = ["Аня", "Борис", "Вика", "Аня", "Даша", "Егор", "Жора", "Зоя"]  # two Ани: told apart


def check_players_and_mover(text: str, users: list[User], who: int | None) -> None:
    """Every player's name (at least its first word) and the mover's on the ▶ line."""
    for tag in TAGS[: len(users)]:
        assert tag in text, (tag, text)
    assert text.count("Аня") >= 2 and "¹" in text and "²" in text, text
    assert who is not None
    seat = next(i for i, u in enumerate(users) if u.id == who)
    line = mover_line(text)
    assert regex.match(rf"▶ (\S+ )?{TAGS[seat]} ", line), (TAGS[seat], text)  # a swatch first
    if TAGS[seat] == "Аня":
        assert ("¹" if seat == 0 else "²") in line, line
    for user in users:
        assert str(user.id) not in text


def check_sequences(text: str) -> None:
    for cluster in GRAPHEME.findall(text):
        if "\u200d" in cluster:  # an emoji sequence is whole or absent
            assert cluster in SEQUENCES, (cluster, text)


@pytest.mark.parametrize(("game", "n"), GAMES)
async def test_long_emoji_names_give_a_valid_caption_with_every_player(game: str, n: int) -> None:
    async with FakeTelegram() as tg:
        users = [tg.user(5200 + i, long_name(TAGS[i])) for i in range(n)]
        assert all(len(u.first_name) == 64 for u in users)
        chat = tg.group(members=users)
        async with running(settings_for(tg)) as app:
            lobby = await lobby_of(chat, users[0], game, *users[1:])
            table = await start(chat, users[0], lobby)
            await chat.wait_for(lambda: "▶ " in shown(table), timeout=15)
            await tg.settle(quiet=0.1, timeout=10)
            # the fake server refuses broken HTML and a caption over 1024 UTF-16 units
            calls = [
                c
                for c in chat.calls()
                if c.method in ("sendPhoto", "editMessageCaption", "editMessageMedia")
            ]
            assert calls and all(c.ok for c in calls), [c.description for c in calls]
            assert utf16_len(shown(table)) <= 1024
            for message in (lobby, table):
                check_sequences(shown(message))
            lobby_text = shown(lobby)
            assert "Аня" in lobby_text and "¹" in lobby_text and "²" in lobby_text
            check_players_and_mover(shown(table), users, await actor(app, chat))


async def test_a_caption_over_the_limit_shortens_names_and_keeps_every_player(
    monkeypatch: pytest.MonkeyPatch, backend: str | None
) -> None:
    """With a limit the long names can't meet (500 instead of 1024: the same path as a
    longer table), the names are shortened between clusters: every player, the two Ани
    told apart and the mover stay, in valid HTML with the mover in bold."""
    import bot.service.table_worker

    monkeypatch.setattr(bot.service.table_worker, "CAPTION_LIMIT", 500)
    async with FakeTelegram() as tg:
        users = [tg.user(5300 + i, long_name(TAGS[i])) for i in range(6)]
        chat = tg.group(members=users)
        async with running(settings_for(tg, redis_url=backend)) as app:
            lobby = await lobby_of(chat, users[0], "семидорожник", *users[1:])
            table = await start(chat, users[0], lobby)
            await chat.wait_for(lambda: "▶ " in shown(table), timeout=15)
            await tg.settle(quiet=0.1, timeout=10)
            text = shown(table)
            assert utf16_len(text) <= 500, text
            check_sequences(text)
            who = await actor(app, chat)
            check_players_and_mover(text, users, who)
            assert (await record(app, chat)).names[users[1].id] not in text  # shortened
            units = text.encode("utf-16-le")
            bold = [
                units[2 * e["offset"] : 2 * (e["offset"] + e["length"])].decode("utf-16-le")
                for e in table.caption_entities
                if e["type"] == "bold"
            ]
            seat = next(i for i, u in enumerate(users) if u.id == who)
            assert any(b.startswith(TAGS[seat]) and f"Ходит {b}:" in text for b in bold), text


async def test_an_admin_outside_the_game_who_ends_it_is_named_not_numbered() -> None:
    async with FakeTelegram() as tg:
        anna, admin = tg.user(5401, "Аня"), tg.user(5402, "Админ", last_name="<Главный>")
        chat = tg.group(members=[anna], admins=[admin])
        async with running(settings_for(tg)):
            await lobby_of(chat, anna, "семидорожник")
            await chat.send(admin, "/cancel")
            confirm = await chat.wait_message(lambda m: "Закрыть лобби?" in m.content, timeout=10)
            answer = await chat.press(admin, confirm, "✖ Да, завершить", timeout=10)
            assert answer.text == "Игра завершена."
            await chat.wait_for(lambda: "Админ <Главный>" in shown(confirm), timeout=10)
            assert "5402" not in shown(confirm)
