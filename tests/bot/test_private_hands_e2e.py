"""Issue 13: the private hand in the group. Three players play a whole ДОМИНА*С game and a
whole «Семидорожник» round through their ephemeral hands (Bot API 10.2), and everything
each member received is searched for another player's tiles; with ephemeral messages
failing, the same games finish through the fallback (the popup, the private chat, the
table's own buttons). Taps per turn are printed (`-s`).
"""

from __future__ import annotations

import random
import re
import time

from bot.app import App
from bot.presenters.dominas import tile_name
from bot.storage import RecordStatus
from fake_telegram import CallbackAnswer, Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.dominas import State as DState
from games.dominas.tiles import ALL_TILES
from tests.bot.e2e import (
    changed,
    data_of,
    in_group,
    mover,
    new_lobby,
    record,
    running,
    settings_for,
)
from tests.bot.hands import hand_buttons, hand_of, received, wait_hand

TILE = re.compile(r"[🔴🟡🟢🔵](?:\d+|⚙)★?")
BY_NAME = {tile_name(x): x for x in ALL_TILES}
ASCII = re.compile(r"^[ -~]*$")


def tiles_named(text: str) -> set[str]:
    return {BY_NAME[m] for m in TILE.findall(text) if m in BY_NAME}


async def open_dominas(chat: Chat, users: list[User]) -> StoredMessage:
    creator, *others = users
    lobby = await new_lobby(chat, creator, "/new доминас")
    for user in others:
        assert (await chat.press(user, lobby, contains="Играть")).text == "Вы в игре!"
    await chat.press(creator, lobby, contains="1 партия")
    await chat.wait_for(lambda: "✅ 1 партия" in lobby.button_texts)
    assert (await chat.press(creator, lobby, contains="Начать")).text == "Поехали!"
    return await chat.wait_message(lambda m: m.photo is not None, timeout=10)


class Privacy:
    """After every step: nothing new that a member received names a tile in another
    player's hand at that moment (ДОМИНА*С tiles are unique, so a name is a tile)."""

    def __init__(self, tg: FakeTelegram, chat: Chat, users: list[User]) -> None:
        self.tg, self.chat, self.users = tg, chat, users
        self.answers: list[CallbackAnswer] = []
        self.seen: dict[int, set[str]] = {u.id: set() for u in users}
        self.done: dict[int, dict[tuple[int, int, int], int]] = {u.id: {} for u in users}
        self.checked = 0

    def check(self, s: DState) -> None:
        hands = {p: set(s.hands[i]) for i, p in enumerate(s.players)}
        for user in self.users:
            got = received(self.tg, self.chat, user, self.answers, self.done[user.id])
            assert got.foreign_ephemeral == 0
            assert all(ASCII.match(d) for d in got.data), got.data  # no tile id in any data
            others = set().union(*(h for p, h in hands.items() if p != user.id))
            for text in set(got.texts) - self.seen[user.id]:
                leaked = tiles_named(text) & others
                assert not leaked, (user.full_name, text, leaked)
                self.checked += 1
            self.seen[user.id] |= set(got.texts)


async def play_dominas(
    tg: FakeTelegram, chat: Chat, app: App, users: list[User], *, fail: bool
) -> str:
    tg.server.ephemeral.fail = fail
    rng = random.Random(3)
    privacy = Privacy(tg, chat, users)
    table = await open_dominas(chat, users)
    started = time.monotonic()
    turns = taps = opened = 0
    for _ in range(400):
        await tg.settle(quiet=0.02)
        rec = await record(app, chat)
        assert rec.state is not None
        s = DState.model_validate_json(rec.state)
        privacy.check(s)
        if rec.status != RecordStatus.PLAYING:
            break
        user = mover(table, users)
        assert user is not None, table.content
        turns += 1
        if "⏹ Хватит" in table.button_texts and rng.random() < 0.3:
            before = data_of(table)
            answer = await chat.press(user, table, "⏹ Хватит")
            privacy.answers.append(answer)
            taps += 1
            await chat.wait_for(changed(table, before), 30)
            continue
        before = data_of(table)
        if fail:
            if user.id not in rec.hands:  # the fallback: the popup, then the table's numbers
                answer = await chat.press(user, table, "🀄 Мои фишки")
                privacy.answers.append(answer)
                assert answer.show_alert and answer.text, answer
                opened += 1
                await chat.wait_for(lambda: any(t.isdigit() for t in table.button_texts), 30)
                before = data_of(table)
            number = str(plain_number(s))
            answer = await chat.press(user, table, number)
            privacy.answers.append(answer)
            taps += 1
            if answer.text and "нажмите гнездо" in answer.text:
                nest = re.findall(r"([▲◣◢▼]⟲?)", answer.text.split(":", 1)[1])[0]
                label = next(
                    x
                    for x in table.button_texts
                    if x.startswith(nest[0] + " ") and x.endswith("⟲") == nest.endswith("⟲")
                )
                answer = await chat.press(user, table, label)
                privacy.answers.append(answer)
                taps += 1
        else:
            if hand_of(chat, user) is None:
                answer = await chat.press(user, table, "🀄 Мои фишки")
                privacy.answers.append(answer)
                assert not answer.show_alert, answer
                opened += 1
            hand = await wait_hand(chat, user, table)
            answer = await chat.press(user, hand, rng.choice(hand_buttons(hand)))
            privacy.answers.append(answer)
            taps += 1
        assert answer.text and answer.text.startswith("✅"), answer
        await chat.wait_for(changed(table, before), 30)
    else:
        raise AssertionError("the game did not end")
    await chat.wait_message(lambda m: "Матч окончен" in m.content, after=table)
    await tg.settle(quiet=0.05)
    assert privacy.checked > 100
    for user in users:
        assert hand_of(chat, user) is None  # the hands are gone with the game
    elapsed = time.monotonic() - started
    return (
        f"dominas{' (fallback)' if fail else ''}: {turns} turns, {taps} taps "
        f"({taps / turns:.2f}/turn) + {opened} openings of the hand, {elapsed:.1f}s"
    )


def plain_number(s: DState) -> int:
    """A hand number of the player to move whose tile fits (the fallback plays from the
    table's numbers, as a player reading his popup would)."""
    from games.dominas.engine import placements, slot_numbers

    seat = s.current
    for k, tile in zip(slot_numbers(s, seat), s.hands[seat], strict=True):
        if placements(s, tile, s.bonus):
            return k
    raise AssertionError("the bot waits only for a player who can place")


async def test_three_players_play_dominas_by_their_ephemeral_hands_and_nothing_leaks() -> None:
    async with in_group(1901, ["Аня", "Борис", "Вика"]) as (tg, app, chat, users):
        line = await play_dominas(tg, chat, app, users, fail=False)
        print("\n" + line)
        # the table never showed the tile numbers: the hands carried them
        table = next(m for m in chat.bot_messages if m.photo is not None)
        assert not any(
            (kb or {}).get("inline_keyboard")
            and any(
                re.fullmatch(r"\[?\d+\]?", b["text"]) for row in kb["inline_keyboard"] for b in row
            )
            for _, _, _, kb in table.history
            if isinstance(kb, dict)
        )


async def test_dominas_finishes_through_the_fallback_when_ephemeral_messages_fail() -> None:
    async with FakeTelegram() as tg:
        users = [tg.user(1911, "Аня"), tg.user(1912, "Борис"), tg.user(1913, "Вика")]
        chat = tg.group(members=users)
        await tg.start_private(users[0])
        async with running(settings_for(tg)) as app:
            line = await play_dominas(tg, chat, app, users, fail=True)
            print("\n" + line)
            private = tg.private(users[0]).messages
            assert any("ваши фишки" in m.content for m in private), [m.content for m in private]
