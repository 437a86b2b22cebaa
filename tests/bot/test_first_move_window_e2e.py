"""«Семидорожник»'s first-move window at the table (R58, revised 2026-12): the engine's
simultaneous decision. Every press is applied at once with the presser's seat, in any
order: a later seat may answer first, the FM closes the window at once, the first
universal declared takes it, and an answer is final."""

from __future__ import annotations

from bot.app import App
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import Phase, State
from tests.bot.computers import add_computers
from tests.bot.e2e import (
    data_of,
    engine_state,
    in_group,
    new_lobby,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
    until,
)
from tests.games.seven_tracks.builder import build, kinds


async def rig_window(app: App, chat: Chat, hands: dict[int, list[str]], tick: bool = False) -> None:
    """Put the running game back into a first-move window with `hands` (seat -> kinds),
    nobody having answered yet; `tick`: the bot's timer runs at once (it opens the window,
    and a computer that decides in it is due)."""
    rec = await record(app, chat)
    now = State.model_validate_json(rec.state or "")
    s = build(
        n=len(now.players),
        seat=0,
        hands=hands,
        phase=Phase.FIRST_MOVE,
        options=now.options.model_dump(),  # the lobby's length
    )
    s.dice_off = []
    s = s.model_copy(update={"players": list(now.players), "seed": now.seed})
    rec.state = s.model_dump_json()
    rec.ui = {}
    if tick:
        rec.deadline, rec.computer_due = 0.0, None
    rec = await app.store.put(rec, rec.version)
    if tick:
        await app.service.deadlines.schedule(rec)


def code_data(table: StoredMessage, code: str) -> str:
    """The callback data of the table's button with presenter code `code` (the window's
    buttons carry no version, so any table button gives the prefix)."""
    data = next(d for d in data_of(table) if d)
    return data.rsplit(":", 1)[0] + ":" + code


async def press_code(chat: Chat, user: User, table: StoredMessage, code: str) -> tuple[str, bool]:
    answer = await chat.press(user, table, by_data=code_data(table, code), check=False)
    return answer.text or "", answer.show_alert


async def start(tg: FakeTelegram, chat: Chat, users: list[User]) -> StoredMessage:
    lobby = await open_lobby(chat, users[0], *users[1:])
    table = await start_game(chat, users[0], lobby)
    await tg.settle()
    return table


async def test_r58_the_last_seat_claims_first_and_the_fm_closes_the_window(
    backend: str | None,
) -> None:
    async with in_group(
        1871, ["Аня", "Борис", "Вера"], backend, turn_seconds=0, first_move_seconds=60
    ) as (tg, app, chat, users):
        table = await start(tg, chat, users)
        await rig_window(app, chat, {0: ["U", "R"], 1: ["R"], 2: ["FM", "R"]})
        # Вера (the last seat) answers while Аня (a holder, seat 0) has not
        text, alert = await press_code(chat, users[2], table, "fmd")
        assert text.startswith("Заявка принята.\nВы взяли") and not alert  # the replacement
        await chat.wait_for(lambda: "Ходит Вера" in table.content, timeout=10)
        s = await engine_state(app, chat)
        assert s.phase == Phase.PRE_MOVE and s.current == 2 and s.dice_off == []
        assert "FM" in kinds(s.out) and "U" in kinds(s.hands[0])
        assert "🎲🎲 Два кубика" in table.button_texts
        text, alert = await press_code(chat, users[2], table, "fmd")  # a stale button
        assert alert and "закрыто" in text
        assert (await engine_state(app, chat)).version == s.version


async def test_r58_the_first_universal_declared_takes_it_and_an_answer_is_final(
    backend: str | None,
) -> None:
    async with in_group(
        1881, ["Аня", "Борис", "Вера"], backend, turn_seconds=0, first_move_seconds=60
    ) as (tg, app, chat, users):
        table = await start(tg, chat, users)
        await rig_window(app, chat, {0: ["U", "R"], 1: ["FM", "R"], 2: ["U", "R"]})
        text, alert = await press_code(chat, users[2], table, "fmd")
        assert text.startswith("Заявка принята: ✨") and not alert
        s = await engine_state(app, chat)
        assert s.phase == Phase.FIRST_MOVE and s.fm_u_declarer == 2
        assert sorted(s.fm_decided) == [0, 2]  # Аня's universal has no use left: passed
        text, alert = await press_code(chat, users[2], table, "fmp")
        assert alert and "уже ответили" in text
        text, alert = await press_code(chat, users[0], table, "fmd")
        assert alert and "уже заявил другой игрок" in text
        text, alert = await press_code(chat, users[1], table, "fmp")
        assert text == "Принято: не используете." and not alert
        await chat.wait_for(lambda: "Ходит Вера" in table.content, timeout=10)
        s = await engine_state(app, chat)
        assert s.phase == Phase.PRE_MOVE and s.current == 2
        assert "U" in kinds(s.out) and "U" in kinds(s.hands[0]) and "FM" in kinds(s.hands[1])


async def test_r58_a_computer_answers_the_window_as_a_decider_without_waiting(
    backend: str | None,
) -> None:
    """A computer is one of the window's deciders: holding the FM, it claims at once
    though the human before it (seat 0, holding a universal) has not answered yet."""
    async with FakeTelegram() as tg:
        anna = tg.user(1891, "Аня")
        settings = settings_for(
            tg, backend, turn_seconds=0, first_move_seconds=60, computer_move_seconds=0.0
        )
        async with running(settings) as app:
            chat = tg.group(members=[anna])
            lobby = await new_lobby(chat, anna, "/new семидорожник")
            await add_computers(chat, anna, lobby, "Опытный")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
            table = await start_game(chat, anna, lobby)
            await tg.settle()
            rec = await record(app, chat)
            assert list(rec.computers) == [rec.players[1]]
            hands = {0: ["U", "R", "K"], 1: ["FM", "R", "K", "K"]}
            await rig_window(app, chat, hands, tick=True)

            async def claimed() -> bool:  # in the rigged window (Аня's hand is the rigged one)
                s = await engine_state(app, chat)
                return s.fm_declarer == 1 and kinds(s.hands[0]) == ["K", "R", "U"]

            await until(claimed, 20, "the computer did not claim the first move")
            s = await engine_state(app, chat)  # its turn may already be played on
            assert s.phase != Phase.FIRST_MOVE and s.round_no == 1 and s.fm_decided == [1]
            assert s.fm_u_declarer is None  # Аня never answered: her universal stays hers
            assert "FM" in kinds(s.out)
            await chat.wait_for(lambda: "Не использовать" not in table.button_texts, timeout=10)
