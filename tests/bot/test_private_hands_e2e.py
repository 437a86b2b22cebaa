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
from games.dominas import GAME, ActionType, Pos
from games.dominas import State as DState
from games.dominas.engine import slot_numbers
from games.dominas.model import POS_MARK
from games.dominas.tiles import ALL_TILES
from tests.bot.dominas_play import dominas_state
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
from tests.bot.hands import (
    hand_buttons,
    hand_of,
    private_hands,
    private_words,
    received,
    seq_of,
    wait_hand,
)

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
            # issue 31, point 7: one private message, edited in place; its words name no
            # rim (it has no picture), list each tile once, in the order of the numbers
            # the table shows, and at the end say the game is over, not «your turn»
            assert len(private_hands(tg, users[0])) == 1
            await tg.wait_for(lambda: "окончена" in private_words(tg, users[0])[-1], 10)
            words = private_words(tg, users[0])
            assert len(words) > 5 and "Ваш ход" not in words[-1], words[-1]
            for text in words:
                assert "рамк" not in text, text
                names = TILE.findall(text)
                assert len(names) == len(set(names)), text
                numbers = [int(x) for x in re.findall(r"^(\d+) · ", text, re.M)]
                assert numbers == sorted(numbers) and len(numbers) == len(names), text


async def current(tg: FakeTelegram, app: App, chat: Chat, table: StoredMessage) -> DState:
    """The game's state once the table shows it (its buttons carry the record's seq)."""
    await tg.settle(quiet=0.02)
    rec = await record(app, chat)
    await chat.wait_for(lambda: seq_of(table) == rec.seq, 30)
    return await dominas_state(app, chat)


def nest_choices(s: DState) -> dict[tuple[Pos, int], list[str]]:
    """The legal placements of the player to move, by nest (its position and variant)."""
    out: dict[tuple[Pos, int], list[str]] = {}
    for a in GAME.legal_actions(s):
        if a.type is ActionType.PLACE and a.nest is not None and a.tile is not None:
            out.setdefault((a.nest, a.variant), []).append(a.tile)
    return out


def nest_label(table: StoredMessage, nest: tuple[Pos, int]) -> str:
    """The table's button of `nest` (a chosen one is bracketed: «[▲ 2]»)."""
    mark, far = POS_MARK[nest[0]], nest[1] == 1
    return next(
        x
        for x in table.button_texts
        if x.strip("[]").startswith(mark + " ") and x.strip("[]").endswith("⟲") == far
    )


async def test_dominas_table_leads_to_a_move_from_what_a_player_sees() -> None:
    """Issue 31, point 1: nobody presses «🀄 Мои фишки». The caption says to press a nest
    or «Мои фишки»; a nest where several of his tiles fit opens his hand with just those
    tiles there (one tap each), so every turn is played from the table; no hint asks for a
    tile number the table does not show, and nothing reaches the private chat. Where the
    ephemeral hand fails, the nest waits and the tile numbers come onto the table: a
    number then goes into that nest."""
    async with in_group(1941, ["Аня", "Борис"]) as (tg, app, chat, users):
        anna = users[0]
        private = await tg.start_private(anna)
        await private.wait_message()
        greeted = len(private.bot_messages)
        table = await open_dominas(chat, users)
        rng = random.Random(5)
        opened = 0
        for _ in range(6):
            s = await current(tg, app, chat, table)
            user = mover(table, users)
            assert user is not None and user.id == s.players[s.current], table.content
            assert "номер" not in table.content.lower(), table.content
            assert not any(x.isdigit() for x in table.button_texts), table.button_texts
            choices = nest_choices(s)
            several = [n for n, tiles in choices.items() if len(tiles) > 1]
            nest = rng.choice(several or list(choices))
            before = data_of(table)
            answer = await chat.press(user, table, nest_label(table, nest))
            if len(choices[nest]) > 1:  # his hand opens with the tiles that go there
                assert not answer.show_alert and answer.text, answer
                assert "номер" not in answer.text and "внизу чата" in answer.text, answer
                where = POS_MARK[nest[0]] + ("⟲" if nest[1] else "")

                def focused(u: User = user, w: str = where, n: int = len(choices[nest])) -> bool:
                    hand = hand_of(chat, u)
                    texts = hand_buttons(hand) if hand is not None else []
                    return len(texts) == n and all(x.endswith(" " + w) for x in texts)

                await chat.wait_for(focused, 30)
                hand = hand_of(chat, user)
                assert hand is not None and "номер" not in hand.content
                opened += 1
                answer = await chat.press(user, hand, rng.choice(hand_buttons(hand)))
            assert answer.text and answer.text.startswith("✅"), answer
            await chat.wait_for(changed(table, before), 30)
            placed = (await dominas_state(app, chat)).figure[-1]
            assert (placed.pos, placed.tile in choices[nest]) == (nest[0], True)
        assert opened >= 2
        assert len(private.bot_messages) == greeted  # no private message while it works
        # the fallback: Аня's ephemeral hand fails; her nest press chooses the nest, the
        # popup lists her numbers, and the table shows them: a number goes there
        tg.server.ephemeral.fail = True
        for _ in range(12):
            s = await current(tg, app, chat, table)
            user = mover(table, users)
            assert user is not None
            choices = nest_choices(s)
            several = [n for n, tiles in choices.items() if len(tiles) > 1]
            if user is anna and several:
                break
            nest = next(iter(choices))
            before = data_of(table)
            if len(choices[nest]) > 1:  # Борис: by the numbers his fallback shows
                answer = await chat.press(user, table, nest_label(table, nest))
                await chat.wait_for(lambda: any(x.isdigit() for x in table.button_texts), 30)
                k = slot_numbers(s, s.current)[s.hands[s.current].index(choices[nest][0])]
                answer = await chat.press(user, table, str(k))
            else:
                answer = await chat.press(user, table, nest_label(table, nest))
            assert answer.text and answer.text.startswith("✅"), answer
            await chat.wait_for(changed(table, before), 30)
        else:
            raise AssertionError("Аня had no nest with several tiles")
        nest = several[0]
        answer = await chat.press(anna, table, nest_label(table, nest))
        assert answer.show_alert and answer.text and "номер" not in answer.text, answer
        await chat.wait_for(lambda: any(x.isdigit() for x in table.button_texts), 30)
        await chat.wait_for(lambda: "Выбрано гнездо" in table.content, 30)
        tile = choices[nest][-1]
        k = slot_numbers(s, s.current)[s.hands[s.current].index(tile)]
        before = data_of(table)
        answer = await chat.press(anna, table, str(k))
        assert answer.text and answer.text.startswith("✅"), answer
        await chat.wait_for(changed(table, before), 30)
        placed = (await dominas_state(app, chat)).figure[-1]
        assert (placed.tile, placed.pos) == (tile, nest[0])
