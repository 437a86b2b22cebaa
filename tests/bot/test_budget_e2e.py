"""The bot-wide send budget (issue 19, point 2, bot/budget.py): all instances together
post at most TELEGRAM_MESSAGES_PER_SECOND new messages (answers, edits and deletes are
not limited), game messages first, fair between chats; against a
fake Telegram that answers 429 past a bot-wide rate, 2,000 chats on two instances get no
429 and every table ends on its game's latest state."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import Counter
from pathlib import Path

import games
from bench.scale import Fleet, fleet
from bot import house_rules, warm_up
from bot.app import App
from bot.budget import BURST, JOIN, WINDOW, GlobalBudget, Priority, urgency
from bot.service.pings import OFF, chat_key
from bot.storage import GameRecord, MemoryStore
from bot.table import clip, markup
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.formatting import apply_formatting
from fake_telegram.server import FloodLimit, StoredMessage
from tests.bot.e2e import data_of, settings_for, until
from tests.bot.sea_cross_play import choose, mover

# The fake's bot-wide limit and the bot's TELEGRAM_MESSAGES_PER_SECOND: the same rate, above
# Telegram's 30 so that 2,000 chats fit in CI (their ~7,000 calls take 70 s at 100 a second)
RATE = int(os.environ.get("BUDGET_RATE", "100"))
CHATS = int(os.environ.get("BUDGET_CHATS", "2000"))
ROUNDS = int(os.environ.get("BUDGET_ROUNDS", "1"))  # moves in every chat
LONG = 300.0  # seconds: a wait for the bot that only a hung bot exceeds
# what a failed `latest` prints of the record: what the table worker says it showed
SHOWN = {"seq", "version", "table_message_id", "shown_text", "shown_picture", "shown_seq"}


async def test_answers_edits_and_deletes_never_wait_and_messages_leave_by_priority() -> None:
    """Telegram limits a bot as a whole only in new messages (issue 36, point 5): with
    the window full, an answer to a press, an edit and a delete leave at once; the new
    messages wait, game messages before pings, a quiet chat not behind a busy one."""
    budget = GlobalBudget(MemoryStore(), rate=20)
    await budget.start()
    order: list[str] = []

    async def call(name: str, method: str, chat: int, level: Priority | None = None) -> None:
        if level is None:
            await budget.wait_turn(method, chat)
        else:
            with urgency(level):
                await budget.wait_turn(method, chat)
        order.append(name)

    try:
        for _ in range(budget.share):  # the window full
            await budget.wait_turn("sendMessage", 0)
        busy = [call(f"busy{n}", "sendMessage", -1) for n in range(6)]
        rest = [
            call("quiet", "sendMessage", -2),
            call("ping", "sendMessage", -3, Priority.LOW),
            call("edit", "editMessageMedia", -4),
            call("answer", "answerCallbackQuery", -5),
            call("delete", "deleteMessage", -6),
        ]
        started = time.monotonic()
        await asyncio.gather(*busy, *rest)
        elapsed = time.monotonic() - started
    finally:
        await budget.stop()
    assert set(order[:3]) == {"answer", "edit", "delete"}, order  # uncounted: at once
    assert order.index("quiet") <= 5, order  # a quiet chat is not behind all of a busy one
    assert order[-1] == "ping", order  # pings last
    assert elapsed >= 6 * budget.pace() * 0.9  # the messages were paced


async def test_a_burst_under_the_share_leaves_at_once_and_no_window_holds_more() -> None:
    budget = GlobalBudget(MemoryStore(), rate=6)  # paced calls: one each 1.01 / 6 s
    await budget.start()
    left: list[tuple[float, str]] = []

    async def call(method: str, chat: int) -> None:
        await budget.wait_turn(method, chat)
        left.append((time.monotonic(), method))

    try:
        step = budget.pace()
        started = time.monotonic()
        await asyncio.gather(*(call("sendPhoto", -c) for c in range(BURST + 1)))
        assert time.monotonic() - started < step  # a press's few calls: nobody waited
        tables = [asyncio.ensure_future(call("sendPhoto", -c)) for c in range(8)]
        await asyncio.sleep(0)
        for n in range(3):  # messages queue; the presses' answers leave at once
            asked = time.monotonic()
            await call("answerCallbackQuery", -100 - n)
            assert time.monotonic() - asked < step, n
        await asyncio.gather(*tables)
    finally:
        await budget.stop()
    times = [t for t, m in left if m == "sendPhoto"]
    for i, t in enumerate(times):  # every moving WINDOW holds at most the share
        assert sum(1 for u in times[i:] if u - t < WINDOW) <= budget.share, i


async def test_an_instance_takes_its_share_of_the_rate(redis_url: str) -> None:
    from bot.storage import RedisStore

    store = RedisStore(redis_url, prefix="budget-share")
    one, two = GlobalBudget(store, rate=30), GlobalBudget(store, rate=30)
    try:
        await one.start()
        await two.start()
        await one._beat()
        assert one.instances == two.instances == 2
        assert one.share == two.share == 15
    finally:
        await one.stop()
        await two.stop()
        await store.close()


async def test_a_joining_instance_sends_once_the_running_ones_count_it(redis_url: str) -> None:
    """A running instance sends at its share (all of the rate, alone) until its next
    heartbeat; an instance that joins sends nothing until then, or the two would together
    exceed the rate meanwhile."""
    from bot.storage import RedisStore

    store = RedisStore(redis_url, prefix=f"budget-join-{secrets.token_hex(3)}")
    one, two = GlobalBudget(store, rate=30), GlobalBudget(store, rate=30)
    try:
        await one.start()
        assert one.share == 30
        await one.wait_turn("sendMessage", -1)  # the first instance is not held: alone
        joined = time.monotonic()
        await two.start()
        await two.wait_turn("sendMessage", -2)
        assert time.monotonic() - joined >= JOIN * 0.95
        assert one.instances == two.instances == 2  # the running one has counted it
    finally:
        await one.stop()
        await two.stop()
        await store.close()


class InFlight:
    """New messages let go by `budget` and still on their way (their answers come when
    `release` is set): `await InFlight(budget, 2).all_in()` fills a window of 2."""

    def __init__(self, budget: GlobalBudget, n: int) -> None:
        self.budget = budget
        self.release = asyncio.Event()
        self.answered: list[float] = []  # when each answer came
        self._inside = 0
        self._all_in = asyncio.Event()
        self.tasks = [asyncio.ensure_future(self._call(-c, n)) for c in range(1, n + 1)]

    async def _call(self, chat: int, n: int) -> None:
        async with self.budget.turn("sendMessage", chat):
            self._inside += 1
            if self._inside == n:
                self._all_in.set()
            await self.release.wait()  # the call's trip
        self.answered.append(time.monotonic())

    async def all_in(self) -> None:
        await asyncio.wait_for(self._all_in.wait(), 10)

    async def land(self) -> None:
        self.release.set()
        await asyncio.gather(*self.tasks)


async def test_a_call_holds_its_place_until_a_window_after_its_answer() -> None:
    """Telegram counts a call when it gets it, somewhere between its leaving and its
    answer: a call whose answer is slow holds its place in the window until WINDOW after
    the answer, not after its leaving (a burst let go together reaches Telegram spread
    out, and the next one a window later would find its tail still there)."""
    budget = GlobalBudget(MemoryStore(), rate=2)  # two calls a window
    await budget.start()
    try:
        flying = InFlight(budget, 2)
        await flying.all_in()
        third = asyncio.ensure_future(budget.wait_turn("sendMessage", -3))
        done, _ = await asyncio.wait({third}, timeout=2 * WINDOW)
        assert not done, "the window held two calls in flight, a third left"
        await flying.land()
        await third
        assert time.monotonic() - min(flying.answered) >= WINDOW * 0.95
    finally:
        await budget.stop()


SEEDS = 100  # distinct games: chat i plays seed i % SEEDS (their setup and checks are shared)


class Games:
    """The chats' games: «Морской крест» of the same two players, each as its lobby's
    «Начать» leaves it (the engine's first state, the bot's first rolls), one of SEEDS
    deals; and what a table must show, drawn once per distinct look."""

    def __init__(self, app: App, players: list[User]) -> None:
        self.app = app
        self.players = players
        self._started: dict[int, GameRecord] = {}
        self._pictures: dict[tuple[str, str, str, str], tuple[bytes, bytes | None]] = {}

    def started(self, chat: Chat, seed: int) -> GameRecord:
        """The chat's game (not stored yet; its table not sent)."""
        if seed not in self._started:
            p = self.app.service.presenter("sea_cross")
            code, options = house_rules.lobby_options(p, {})
            rec = GameRecord(
                chat_id=0,
                uid="",
                game_id="sea_cross",
                creator=self.players[0].id,
                players=[u.id for u in self.players],
                names={u.id: u.full_name for u in self.players},
                option_choice=code,
                options=options,
                seq=3,  # the lobby's: opened, a join, «Начать»
                active_at=time.time(),
            )
            self.app.service.lobby.begin(rec, p, self.app.service.t(rec.language), seed)
            self._started[seed] = rec
        update = {"chat_id": chat.id, "uid": secrets.token_hex(3)}
        return self._started[seed].model_copy(update=update, deep=True)

    def right_picture(self, job: warm_up.PictureJob, data: bytes) -> bool:
        """Whether `data` is the picture of `job`, drawn warm or cold (both exactly: the
        two differ in their anti-aliasing, bot/warm_up.py)."""
        game_id, view_json, names, language = job
        key = (game_id, view_json, repr(sorted(names.items())), language)
        board = games.view_type(game_id).model_validate_json(view_json)
        module = warm_up.renderer(game_id)
        assert module is not None
        if key not in self._pictures:
            self._pictures[key] = (module.render(board, names, language=language), None)
        warm, cold = self._pictures[key]
        if data == warm:
            return True
        if cold is None:
            cold = warm_up.draw_cold(module, board, names, language)
            self._pictures[key] = (warm, cold)
        return data == cold

    async def latest(self, chat: Chat, table: StoredMessage) -> None:
        """Until `table` shows what the chat's stored game says: the caption and keyboard
        the table worker would send for it, and its picture."""
        app = self.app
        rec = await app.store.get(chat.id)
        assert rec is not None and rec.state is not None
        p = app.service.presenter(rec.game_id)
        view = app.service.table_view(rec, p, p.load(rec.state))
        caption, _ = apply_formatting(clip(view.caption), "HTML", None)
        kb = markup(view.buttons, rec.uid, rec.seq)
        keyboard = (
            [[(b.text, b.callback_data) for b in row] for row in kb.inline_keyboard] if kb else []
        )
        seen: dict[str, bool] = {}  # file_id -> the right picture

        def shows() -> bool:
            photo = table.photo
            if photo is None or table.caption != caption or table.buttons != keyboard:
                return False
            if photo.file_id not in seen:
                seen[photo.file_id] = self.right_picture(view.picture, photo.data)
            return seen[photo.file_id]

        try:
            await chat.wait_for(shows, LONG, poll=5.0)
        except TimeoutError as e:
            now = await app.store.get(chat.id)
            raise AssertionError(
                f"chat {chat.id}: caption {'ok' if table.caption == caption else 'differs'}, "
                f"keyboard {'ok' if table.buttons == keyboard else 'differs'}, picture "
                f"{'ok' if table.photo and seen.get(table.photo.file_id) else 'differs'}; "
                f"want seq {rec.seq} {caption!r} {keyboard}; the record now: "
                f"{None if now is None else now.model_dump(include=SHOWN)}"
            ) from e


def most_in_a_second(times: list[float]) -> int:
    """The most of `times` (sorted) within any second."""
    most, first = 0, 0
    for i, t in enumerate(times):
        while times[first] <= t - 1.0:
            first += 1
        most = max(most, i - first + 1)
    return most


async def test_2000_chats_on_two_instances_get_no_429_and_every_table_ends_latest(
    redis_url: str, tmp_path: Path
) -> None:
    """Two `python -m bot` webhook instances on one Redis, behind a round robin (bench/
    scale.py), against a fake Telegram that answers 429 past RATE calls in any second for
    the whole bot; the bot's TELEGRAM_MESSAGES_PER_SECOND is the same RATE (100: Telegram's
    30 would make this test last four minutes, and the budget is the same at any rate).

    2,000 chats each have a «Морской крест» game, stored as a lobby's start leaves it (the
    lobby is not what is measured here; one of SEEDS deals each, so the test draws each
    expected picture once; pings off through the chat's setting, which halves the
    calls). Then, as real users through the fake server: «/table» in every
    chat (the table is sent), and a move by the player to act as soon as he sees the
    buttons — at most RATE presses waiting for their answer at once, as players who see
    an answer within a second or two would. No call is refused, the budget was binding
    (some second held at least half of RATE), and every table ends showing its game's
    latest state: the caption, keyboard and picture the stored record says.
    BUDGET_CHATS, BUDGET_RATE, BUDGET_ROUNDS change the run; BUDGET_LOGS=DIR keeps the
    instances' logs."""
    async with FakeTelegram(keep_files=False, log_results=False) as tg:
        tg.server.global_limit = FloodLimit(count=RATE, window=1.0)
        anna, boris = tg.user(1901, "Аня"), tg.user(1902, "Борис")
        users = {u.full_name: u for u in (anna, boris)}
        chats = [tg.group(members=[anna, boris]) for _ in range(CHATS)]
        settings = settings_for(
            tg, redis_url, telegram_messages_per_second=RATE, turn_seconds=0, table_copy=False
        )
        app = App(settings)  # the test's view of the store and of what a table must show
        deals = Games(app, [anna, boris])
        # (the movers' table copies are not what is measured here: off)
        env = {"TELEGRAM_MESSAGES_PER_SECOND": str(RATE), "TURN_SECONDS": "0", "TABLE_COPY": "0"}
        try:
            logs = Path(os.environ.get("BUDGET_LOGS", tmp_path))
            async with fleet(tg, "bot", redis_url, settings.redis_prefix, logs, 2, env) as bots:
                assert isinstance(bots, Fleet)

                async def counted() -> bool:  # each instance sends at its half from now on
                    logs = [p.log_path.read_text() for p in bots.procs]
                    return all("send budget: 2 instances" in text for text in logs)

                await until(counted, 120, "the two instances did not count each other")

                pool = asyncio.Semaphore(20)  # the store's connections

                async def store(i: int, chat: Chat) -> None:
                    async with pool:
                        await app.store.put(deals.started(chat, i % SEEDS + 1), 0)
                        await app.store.set_pref(chat_key(chat.id), OFF)

                await asyncio.gather(*(store(i, c) for i, c in enumerate(chats)))
                waiting = asyncio.Semaphore(RATE)

                async def play(chat: Chat) -> StoredMessage:
                    sent = chat.wait_message(lambda m: m.photo is not None, timeout=LONG, poll=5.0)
                    await chat.send(anna, "/table")
                    table = await sent
                    for _ in range(ROUNDS):
                        before = data_of(table)
                        who = mover(table, users)
                        async with waiting:
                            answer = await chat.press(
                                who, table, choose(table.button_texts), timeout=60
                            )
                        assert not answer.show_alert, (chat.id, answer)
                        await chat.wait_for(lambda: data_of(table) != before, LONG, poll=5.0)  # noqa: B023
                    return table

                tables = await asyncio.gather(*(play(c) for c in chats))
                for chat, table in zip(chats, tables, strict=True):
                    await deals.latest(chat, table)
                assert bots.errors() == []
        finally:
            await app.service.close()
            await app.bot.session.close()
            await app.store.close()
        assert tg.server.global_refused == 0
        calls = Counter(c.method for c in tg.server.calls)
        assert calls["sendPhoto"] == CHATS and calls["answerCallbackQuery"] == CHATS * ROUNDS
        times = sorted(c.time for c in tg.server.calls if Priority.of(c.method) is not None)
        most = most_in_a_second(times)
        assert most >= RATE // 2, "the budget was never binding"
        took = times[-1] - times[0]
        print(  # for docs/performance.md (pytest -s)
            f"{CHATS} chats: {len(times)} calls in {took:.0f} s ({len(times) / took:.1f}/s), "
            f"at most {most} in a second, {tg.server.global_refused} refused; {dict(calls)}"
        )
