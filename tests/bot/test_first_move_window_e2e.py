"""«Семидорожник»'s first-move window at the table (R58, revised 2026-12): the engine's
simultaneous decision. Every press is applied at once with the presser's seat, in any
order: a later seat may answer first, the FM closes the window at once, the first
universal declared takes it, and an answer is final."""

from __future__ import annotations

from bot.app import App
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import Phase, State
from tests.bot.e2e import (
    data_of,
    engine_state,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
)
from tests.games.seven_tracks.builder import build, kinds


async def rig_window(app: App, chat: Chat, hands: dict[int, list[str]]) -> None:
    """Put the running game back into a first-move window with `hands` (seat -> kinds),
    nobody having answered yet."""
    rec = await record(app, chat)
    now = State.model_validate_json(rec.state or "")
    s = build(n=len(now.players), seat=0, hands=hands, phase=Phase.FIRST_MOVE)
    s.dice_off = []
    s = s.model_copy(update={"players": list(now.players), "seed": now.seed})
    rec.state = s.model_dump_json()
    rec.ui = {}
    await app.store.put(rec, rec.version)


def code_data(table: StoredMessage, code: str) -> str:
    """The callback data of the table's button with presenter code `code` (the window's
    buttons carry no version, so any table button gives the prefix)."""
    data = next(d for d in data_of(table) if d)
    return data.rsplit(":", 1)[0] + ":" + code


async def press_code(chat: Chat, user: User, table: StoredMessage, code: str) -> tuple[str, bool]:
    answer = await chat.press(user, table, by_data=code_data(table, code), check=False)
    return answer.text or "", answer.show_alert


async def start(tg: FakeTelegram, users: list[User]) -> tuple[Chat, StoredMessage]:
    chat = tg.group(members=users)
    lobby = await open_lobby(chat, users[0], *users[1:])
    table = await start_game(chat, users[0], lobby)
    await tg.settle()
    return chat, table


async def test_r58_the_last_seat_claims_first_and_the_fm_closes_the_window(
    backend: str | None,
) -> None:
    async with FakeTelegram() as tg:
        users = [tg.user(1871, "Аня"), tg.user(1872, "Борис"), tg.user(1873, "Вера")]
        settings = settings_for(tg, backend, turn_seconds=0, first_move_seconds=60)
        async with running(settings) as app:
            chat, table = await start(tg, users)
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
    async with FakeTelegram() as tg:
        users = [tg.user(1881, "Аня"), tg.user(1882, "Борис"), tg.user(1883, "Вера")]
        settings = settings_for(tg, backend, turn_seconds=0, first_move_seconds=60)
        async with running(settings) as app:
            chat, table = await start(tg, users)
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
