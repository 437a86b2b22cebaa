"""Issue 18 «ДОМИНА*С» polish, by buttons against the fake Telegram server: a tile keeps
its number (a button never changes meaning), the hand reads one tile per line with its
colour emoji, the table shows the number picked until its nest is tapped, a refusal
names the symbol needed, and no button lets a player pass (R12)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.app import App
from bot.callbacks import PlayCB
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.dominas import GAME, ActionType, State
from games.dominas.engine import placements, slot_numbers
from games.dominas.figure import required
from tests.bot.dominas_play import NEST, SLOT, dominas_state, nest_button, open_table
from tests.bot.e2e import data_of, in_group, mover, record

LINE = re.compile(r"^(\d+) ([🔴🟡🟢🔵](?:\d+|⚙)★?)(?: [0-6]-[0-6]-[0-6])?(?: ✓)?$")


def hand_lines(popup: str) -> dict[int, str]:
    """number → tile name, from a popup that lists one tile per line."""
    out: dict[int, str] = {}
    for line in popup.splitlines()[1:]:
        m = LINE.match(line)
        assert m, (line, popup)
        out[int(m.group(1))] = m.group(2)
    return out


async def peek(chat: Chat, table: StoredMessage, user: User) -> str:
    popup = await chat.press(user, table, "🀄 Мои фишки")
    assert popup.show_alert and popup.text and len(popup.text) <= 200, popup
    return popup.text


async def play_one(chat: Chat, table: StoredMessage, user: User) -> None:
    """`user` places a tile that fits (one tap, or a number and the first nest named)."""
    slots = SLOT.findall(await peek(chat, table, user))
    assert slots
    before = data_of(table)
    answer = await chat.press(user, table, slots[0])
    assert not answer.show_alert, answer
    if answer.text and "нажмите гнездо" in answer.text:
        nests = NEST.findall(answer.text.split(":", 1)[1])
        answer = await chat.press(user, table, nest_button(table, nests[0]))
    assert answer.text and answer.text.startswith("✅"), answer
    await chat.wait_for(lambda: data_of(table) != before, 30)
    await chat.tg.settle(quiet=0.02)


async def test_a_tile_keeps_its_number_and_the_hand_reads_one_tile_a_line() -> None:
    async with in_group(1741, ["Аня", "Борис"]) as (tg, app, chat, users):
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "1 партия")
        first = mover(table, users)
        assert first is not None
        text = await peek(chat, table, first)
        # one tile per line, its colour as an emoji; no colour letter that reads as a
        # digit (З12 looks like 312)
        before = hand_lines(text)
        assert len(before) == 10 and not re.search(r"[ОМЗВ]\d", text), text
        digits = sorted(x for x in table.button_texts if x.isdigit())
        assert sorted(map(int, digits)) == sorted(before)
        # he places tile 1; the other tiles keep their numbers, and so do the buttons
        data = data_of(table)
        answer = await chat.press(first, table, "1")
        assert answer.text and answer.text.startswith("✅"), answer
        await chat.wait_for(lambda: data_of(table) != data, 30)
        for _ in range(20):  # the others play until it is his turn again
            await tg.settle(quiet=0.02)
            who = mover(table, users)
            assert who is not None, table.content
            if who is first:
                break
            await play_one(chat, table, who)
        else:
            raise AssertionError("his turn did not come back")
        after = hand_lines(await peek(chat, table, first))
        assert 1 not in after
        for k, name in after.items():
            if k in before:
                assert before[k] == name, (k, before, after)  # the same tile
            else:
                assert k > max(before), (k, before, after)  # a drawn tile: a new number
        s = await dominas_state(app, chat)
        seat = s.players.index(first.id)
        assert sorted(after) == sorted(slot_numbers(s, seat))
        buttons = sorted(int(x) for x in table.button_texts if x.isdigit())
        assert buttons == sorted(after)


async def _to_a_state(
    app: App,
    tg: FakeTelegram,
    chat: Chat,
    table: StoredMessage,
    users: list[User],
    want: Callable[[State, int], bool],
) -> tuple[State, User]:
    """Play until `want(state, seat)` holds for the player to move."""
    for _ in range(60):
        await tg.settle(quiet=0.02)
        rec = await record(app, chat)
        assert rec.status == RecordStatus.PLAYING
        s = await dominas_state(app, chat)
        who = mover(table, users)
        assert who is not None and who.id == s.players[s.current], table.content
        if want(s, s.current):
            return s, who
        await play_one(chat, table, who)
    raise AssertionError("no such state came")


def _several(s: State, seat: int) -> int | None:
    """A number of `seat` whose tile has two or more placements now."""
    for k, tile in zip(slot_numbers(s, seat), s.hands[seat], strict=True):
        if len(placements(s, tile, s.bonus)) >= 2:
            return k
    return None


def _unfitting(s: State, seat: int) -> int | None:
    for k, tile in zip(slot_numbers(s, seat), s.hands[seat], strict=True):
        if not placements(s, tile, s.bonus) and not tile.endswith("⚙"):
            return k
    return None


async def test_the_table_shows_the_number_picked_until_its_nest_is_tapped() -> None:
    async with in_group(1751, ["Аня", "Борис"]) as (tg, app, chat, users):
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "1 партия")
        s, who = await _to_a_state(
            app, tg, chat, table, users, lambda s, seat: _several(s, seat) is not None
        )
        k = _several(s, s.current)
        answer = await chat.press(who, table, str(k))
        assert answer.text and "нажмите гнездо" in answer.text, answer
        await chat.wait_for(lambda: f"Выбрана фишка {k}" in table.content, 30)
        assert f"[{k}]" in table.button_texts and str(k) not in table.button_texts
        # the buttons stay valid: the nest completes the move (no "table updating")
        nests = NEST.findall(answer.text.split(":", 1)[1])
        before = data_of(table)
        done = await chat.press(who, table, nest_button(table, nests[0]))
        assert done.text and done.text.startswith("✅"), done
        await chat.wait_for(lambda: data_of(table) != before, 30)
        await chat.wait_for(lambda: "Выбрана фишка" not in table.content, 30)


async def test_a_refusal_names_the_symbol_the_nests_need() -> None:
    async with in_group(1761, ["Аня", "Борис"]) as (tg, app, chat, users):
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "1 партия")
        s, who = await _to_a_state(
            app,
            tg,
            chat,
            table,
            users,
            lambda s, seat: s.bonus is None and _unfitting(s, seat) is not None,
        )
        k = _unfitting(s, s.current)
        need = sorted({x for n in s.nests if (x := required(s.figure, n)) is not None})
        rec = await record(app, chat)
        answer = await chat.press(who, table, str(k))
        assert answer.show_alert and answer.text, answer
        assert "нужен символ" in answer.text, answer.text
        assert all(str(x) in answer.text.split("нужен символ", 1)[1] for x in need)
        assert (await record(app, chat)).state == rec.state


async def test_no_button_lets_a_player_pass() -> None:
    """R12: a timeout is what the bot does to an absent player, not a choice — a forged
    press of the engine's TIMEOUT code (or any pass) is refused and changes nothing."""
    async with in_group(1771, ["Аня", "Борис"]) as (tg, app, chat, users):
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "1 партия")
        who = mover(table, users)
        assert who is not None
        s = await dominas_state(app, chat)
        assert all(a.type is not ActionType.TIMEOUT for a in GAME.legal_actions(s))
        real = PlayCB.unpack(next(x for x in data_of(table) if x and x.startswith("P1")))
        rec = await record(app, chat)
        for code in ("T", "t", "timeout", "pass", "s"):
            forged = PlayCB(g=real.g, s=real.s, c=code).pack()
            answer = await chat.press(who, table, by_data=forged, check=False)
            assert answer.text, answer
            assert (await record(app, chat)).state == rec.state
