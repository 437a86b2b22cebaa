"""Presses the bot must refuse: each one answered, and nothing changes in the stored game."""

from __future__ import annotations

from bot.storage import MemoryStore
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import GAME, Action, ActionType
from tests.bot.e2e import (
    data_of,
    in_group,
    mover,
    new_lobby,
    record,
    running,
    settings_for,
    started_table,
    wait_phase,
)

ONE_DIE = GAME.encode_action(Action(type=ActionType.CHOOSE_DICE, n=1))  # «🎲 Один кубик»


async def _to_first_turn(
    tg: FakeTelegram, chat: Chat, users: list[User]
) -> tuple[StoredMessage, User, User]:
    table = await started_table(tg, chat, users, "🎲 Один кубик")
    player = mover(table, users)
    assert player is not None
    other = next(u for u in users if u is not player)
    return table, player, other


async def test_stranger_out_of_turn_double_and_old_buttons_are_refused(backend: str | None) -> None:
    async with FakeTelegram() as tg:
        anna, boris, stranger = tg.user(201, "Аня"), tg.user(202, "Борис"), tg.user(299, "Гость")
        chat = tg.group(members=[anna, boris, stranger])
        async with running(settings_for(tg, backend)) as app:
            table, player, other = await _to_first_turn(tg, chat, [anna, boris])
            before = await record(app, chat)

            # a stranger
            answer = await chat.press(stranger, table, "🎲🎲 Два кубика")
            assert "не участвуете" in (answer.text or "")
            answer = await chat.press(stranger, table, "🀄 Мои фишки")
            assert "не участвуете" in (answer.text or "")
            # a player out of turn
            answer = await chat.press(other, table, "🎲🎲 Два кубика")
            assert answer.text == f"Сейчас ходит {player.full_name}, не вы."
            await tg.settle()
            after = await record(app, chat)
            assert (after.version, after.seq) == (before.version, before.seq)
            assert after.state == before.state

            # a double tap: both queued before the bot sees either; exactly one applies, and
            # the other is told the truth: the table it pressed is still being updated
            old_data = data_of(table)
            first = await chat.tap(player, table, "🎲🎲 Два кубика")
            second = await chat.tap(player, table, "🎲🎲 Два кубика")
            answers = [await tg.answer_of(first), await tg.answer_of(second)]
            assert sum(a.text == "Стол обновляется — дождитесь новых кнопок." for a in answers) == 1
            await tg.settle()
            rolled = await record(app, chat)
            assert rolled.seq == before.seq + 1
            await wait_phase(chat, table, "▶ Выставить всё")

            # an old message's button (a stale client): refused, nothing changes
            stale = f"P1:{before.uid}:{before.seq}:{ONE_DIE}"
            answer = await chat.press(player, table, by_data=stale, check=False)
            assert answer.text == "Кнопка устарела — стол уже обновился."
            answer = await chat.press(player, table, by_data=f"P1:zzzzzz:1:{ONE_DIE}", check=False)
            assert answer.text == "Эта кнопка устарела."
            answer = await chat.press(player, table, by_data="garbage-data", check=False)
            assert answer.text == "Эта кнопка устарела."
            await tg.settle()
            same = await record(app, chat)
            assert (same.seq, same.state) == (rolled.seq, rolled.state)
            assert old_data != data_of(table)

            # the lobby's buttons after the start
            lobby = chat.messages[1]
            join = f"L1:{before.uid}:join:"
            answer = await chat.press(stranger, lobby, by_data=join, check=False)
            assert answer.text == "Лобби уже закрыто."
            # every query got an answer
            assert all(cb.answered_at is not None for cb in tg.callbacks)


async def test_illegal_choice_is_refused_privately_with_the_reason() -> None:
    async with in_group(301, ["Аня", "Борис"]) as (tg, app, chat, (anna, boris)):
        table, player, _ = await _to_first_turn(tg, chat, [anna, boris])
        await chat.press(player, table, "🎲 Один кубик")
        await wait_phase(chat, table, "▶ Выставить всё")
        await tg.settle()
        before = await record(app, chat)
        # the centre track is open only on a double (one die is never a double)
        centre = GAME.encode_action(Action(type=ActionType.PLACE_T7, kind="R"))
        stale = f"P1:{before.uid}:{before.seq}:{centre}"
        answer = await chat.press(player, table, by_data=stale, check=False)
        assert answer.show_alert
        assert answer.text in (
            "Центральная дорожка открыта только при дубле.",
            "Этот цвет уже есть в центре.",
            "У вас нет подходящей фишки.",
        )
        # a white on a track whose last tile is white, or without a white in hand
        track = next(t for t in table.button_texts if t.startswith("⋯ "))
        await chat.press(player, table, track)
        await wait_phase(chat, table, "« Назад")
        await tg.settle()
        menu = await record(app, chat)
        k = track.split()[-1]
        block = GAME.encode_action(Action(type=ActionType.BLOCK, kind="K", track=int(k)))
        answer = await chat.press(
            player, table, by_data=f"P1:{menu.uid}:{menu.seq}:{block}", check=False
        )
        assert answer.show_alert
        assert answer.text in (
            "Блок ставят только на дорожку, на которую вы в этот ход выставили фишку.",
            "У вас нет подходящей фишки.",
            "На пустую дорожку блок не ставят.",
            "На дорожке уже стоит блок.",
            "Ход ограничен: так сейчас нельзя.",
        )
        answer = await chat.press(player, table, "« Назад")
        assert not answer.show_alert
        await tg.settle()
        after = await record(app, chat)
        assert after.state == before.state


async def test_old_game_buttons_after_cancel_and_a_new_game() -> None:
    store = MemoryStore()
    async with FakeTelegram() as tg:
        anna, boris = tg.user(401, "Аня"), tg.user(402, "Борис")
        chat = tg.group(members=[anna, boris])
        async with running(settings_for(tg), store=store) as app:
            table, player, other = await _to_first_turn(tg, chat, [anna, boris])
            # /cancel by a non-creator, non-admin is refused
            await chat.send(boris if anna is not boris else other, "/cancel")
            msg = await chat.wait_message()
            assert "создатель или админ чата" in msg.content
            await chat.send(anna, "/cancel")
            confirm = await chat.wait_message(lambda m: "Завершить текущую игру?" in m.content)
            answer = await chat.press(boris, confirm, "✖ Да, завершить")
            assert answer.show_alert
            answer = await chat.press(anna, confirm, "✖ Да, завершить")
            assert answer.text == "Игра завершена."
            await chat.wait_for(lambda: not table.buttons, 30)
            old = await record(app, chat)
            # a new game in the same chat; the old table's button is refused
            await chat.send(anna, "/new")
            await chat.wait_message(lambda m: "Новая игра" in m.content)
            await tg.settle()
            new = await record(app, chat)
            assert new.uid != old.uid
            answer = await chat.press(
                player, table, by_data=f"P1:{old.uid}:{old.seq}:{ONE_DIE}", check=False
            )
            assert answer.text == "Эта кнопка устарела."
            assert (await record(app, chat)).version == new.version


async def test_a_chat_admin_closes_a_lobby() -> None:
    async with in_group(1201, ["Аня", "Админ"], admins=["Админ"]) as (_, app, chat, (anna, admin)):
        lobby = await new_lobby(chat, anna)
        await chat.send(admin, "/cancel")
        confirm = await chat.wait_message(lambda m: "Закрыть лобби?" in m.content)
        answer = await chat.press(admin, confirm, "Нет, продолжаем")
        assert answer.text == "Игра продолжается."
        await chat.send(admin, "/cancel")
        confirm = await chat.wait_message(lambda m: "Закрыть лобби?" in m.content)
        answer = await chat.press(admin, confirm, "✖ Да, завершить")
        assert answer.text == "Игра завершена."
        await chat.wait_for(lambda: "Лобби закрыто" in lobby.content and not lobby.buttons)
        answer = await chat.press(anna, lobby, by_data=lobby_data(lobby), check=False)
        assert answer.text in ("Лобби уже закрыто.", "Эта кнопка устарела.")
        assert (await record(app, chat)).status == "cancelled"
        await chat.send(anna, "/cancel")
        msg = await chat.wait_message()
        assert "нет ни лобби, ни игры" in msg.content


def lobby_data(lobby: StoredMessage) -> str:
    """A join button's data from the lobby's last keyboard (now removed)."""
    for _text, _caption, _photo, markup in reversed(lobby.history):
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                if "join" in str(button.get("callback_data")):
                    return str(button["callback_data"])
    raise AssertionError("no join button in the lobby's history")
