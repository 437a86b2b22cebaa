"""Telegram-true pacing: the bot under Telegram's per-group flood control, beside a baseline.

    python -m bench.pacing [--quick] [--minutes 3] [--games семидорожник крест]
        [--paces brisk normal slow] [--sizes 2 4 6] [--flood 5 20 100]
        [--baseline 10299a4 | --baseline none] [--only pacing|flood|first] [--json FILE]

Telegram's flood control in a group is ONE budget of about 20 calls a minute shared by new
messages and edits (deletes counted too, the conservative reading). The fake Bot API server
(`fake_telegram`, in this process) is built with those limits, given explicitly:
`flood_limit=FloodLimit(count=20, window=60.0)` per group (deletes counted, a 429 puts the
chat on hold for its `retry_after`), `private_limit=FloodLimit(3, 3.0)` per private chat,
`global_limit=FloodLimit(30, 1.0)` for the bot's new messages, no limit on ephemeral
messages (Telegram documents none), and Telegram's 15 s validity of a callback query (a
later `answerCallbackQuery` fails). With an older fake that does not know these options,
only the per-group limit is set (sends and edits).

Two bots are measured in the same run, one after the other, each against a fresh fake
server built the same way, its own `python -m bot` process and a fresh key prefix in one
throw-away `redis-server`: NEW, the bot of this work tree, and BASELINE, the bot of commit
`--baseline` (its `bot/ games/ render/ locales/` extracted by `bench.e2e.checkout`). Both
get `TURN_SECONDS=0` (no turn timer) and the pacing settings of the new bot at their
defaults (`CHAT_CALLS_PER_MINUTE=20`, `CHAT_WINDOW_SECONDS=60`,
`TELEGRAM_MESSAGES_PER_SECOND=30`; the baseline ignores them).

**A. Pacing** (`--only pacing`). For every game, size and pace one group, all of them at
once against one bot process per variant: «Семидорожник» (2–6 players), «Захват клеток»
(3–6 without the house rule for two), «Морской крест» (2–4), «Гипнозия» (2–6), «ДОМИНА*С»
(2–8, solo). The sizes are 2, 4 and 6 where the game allows them (a size under the game's
fewest becomes the fewest: «Захват клеток» is played by 3, 4 and 6). The paces are the
think times of the simulated players: `brisk` (one player's taps 1–2 s apart, the next
player's first tap 1–3 s after the table shows his turn), `normal` (2–4 s, 2–5 s) and
`slow` (5–10 s, 5–15 s). The player to move (the name in the caption's «Ходит …» line;
after a «Сейчас ходит X, не вы.» the named X; else whoever's press was last accepted)
presses, after his think time, a random button of what he SEES: the group's table message
(or the ephemeral copy Telegram shows him in its place, if the bot sent one) and his
ephemeral hand; «🀄 Мои фишки» once per game when the table offers it; never the labels,
holes, pages or «Назад» unless he was refused four times in a row. He waits for the
answer (at most 20 s) before his next think. Every group's game is opened first (`/new`,
the others join, «Начать»; 10 groups at a time), then all groups play at once; a finished
game is followed by `/new` in the same group. After a 5 s warm-up a `--minutes` window
(default 3) is measured; the players go on 15 s after it, then stop, and the bot is given
up to 60 s to show what was pressed in the window. Per group:

- `calls/min max` and `mean`: the calls that spend the group's budget (every new message,
  edit and delete in the group; ephemeral ones, answers, chat actions and pins not; a call
  refused with 429 not), counted from the server's call log: the most in any 60 s inside
  the window and the window's average per minute. Telegram's budget is 20.
- `429`: the calls in the group the fake refused with 429 in the window.
- `upd`: presses answered «Стол обновляется — дождитесь новых кнопок.»
  (`press.table_updating`): pressed on buttons the table still showed while the bot had
  moved on (refused because the table is behind). `old`: presses told «Кнопка устарела —
  стол уже обновился.» (`press.outdated`: buttons already replaced, or a stale copy).
- `table stale p50`/`p99` (seconds): for every press in the window that changed the game,
  from the press (its update queued) to the group's table showing it. Every table button carries
  the game's uid and version (`P1:<uid>:<seq>:<code>`); the bot applies a press only if it
  carries the stored `seq`, and the press that moves the game on from version s is the last
  press carrying s that was not refused (the ones after it are told «устарела» or
  «обновляется»; «🀄 Мои фишки» and the first-move window's buttons are left out). The
  table shows it at the first successful non-ephemeral call in the group after the press
  whose keyboard carries the same uid with a `seq` > s (a new table message counts; the
  caption and keyboard may come before the picture), or, for the last move of a game, the
  first edit of the table message that leaves its buttons out. A press whose version was
  provably passed (a later press of s was told «обновляется»/«устарела») but not shown
  when the measuring ends counts with the time until then (a lower bound; `never` in the
  JSON and under the table). A press that changed nothing visible (the version stayed) is
  not a change. The JSON also has `picture_p50`/`picture_p99`: the same, until a picture
  (`sendPhoto`, `editMessageMedia`) carrying a later version.
- `mover sees p50`/`p99`: the same changes, until the player who made the change sees it
  where he looks at the table: the group's table as above, or, sooner, his own ephemeral
  copy of the table (the new bot sends the mover a copy shown to him alone in place of the
  group's table, `replace_callback_query_message`, outside the group's budget; the calls
  that send or edit such a copy, recognised by the fake's note on the message it replaces,
  with a later version in their keyboard). Without copies it equals the table's.
- `taps/turn`: every press of the group in the window (refused ones, «🀄 Мои фишки» and
  the hand's buttons included) per turn, a turn being a run of changes made by one player
  (the number of times the player who changes the game changes, plus one).
- `pings/turn`: the turn pings («🔔 …, ваш ход», a new message in the group) sent in the
  window per turn. The bot pings a player only after `PING_AFTER_SECONDS` (8) without a
  press of his on his turn, so lively play should need close to none, and slow play
  (the next player's first tap 5–15 s after his turn shows) some.

`BENCH_TIMELINE=1` also writes each group's calls and presses in time order to
`timeline-<variant>/` in the logs' folder (for finding what held a table back).

**B. A flood of groups** (`--only flood`, `--flood 5 20 100`). N groups of two players of
«Семидорожник», their games opened first (20 at a time), then all tapping at once, each
group once every 0.5–1.5 s without waiting for answers: half of the taps are the mover's
(a random button he sees), half the other player's («🀄 Мои фишки», or now and then a
visible button). After a 5 s warm-up a window of 30 s (15 s with
`--quick`) is measured: `answer p50/p99` is from the callback query's update (queued for
the bot) to its `answerCallbackQuery`, from the server's records, with a lost answer as
infinitely late (`∞`); `lost` = presses of the window never answered: Telegram's 15 s
validity makes the fake refuse a later answer (`late` counts those refusals);
`p99 hand / other`: the p99 of the «🀄 Мои фишки» presses and of the others apart; `429`:
the calls in the groups the fake refused in the window.
`bench/echo_bot.py` (answers at once, edits a caption) runs the same way with the most
groups, as the floor (it does not pace: a `/new` whose photo a 429 lost is sent again,
and its caption edits past the budget fail after the answer): the target is the bot's
answer p99 at 100 groups within 2× the echo bot's (`p99 / echo`).

**C. The first table after a start** (`--only first`): the bot process is started, and
as soon as it polls, a group sends `/new` for the first game of `--games`, the second
player joins, the creator presses «Начать»: the seconds from that press to the table's
photo message appearing. 3 times per variant, each a fresh process (`start → polling` is
beside it in the JSON).

`--quick`: 1 minute, sizes 2 and 4, 15 s flood windows (about 10 minutes with the
baseline, 5 without). The default run takes about 20 minutes on 2 cores. Only
127.0.0.1 is contacted; every loop and wait is bounded; the bot processes and Redis are
stopped at the end. The bots' logs are kept in a temporary folder (printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import inspect
import json
import math
import os
import random
import re
import secrets
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.e2e import ROOT, BotProcess, checkout, polling, redis_server, stop_players
from bench.e2e import markup_data as e2e_markup_data
from bench.report import table as text_table
from bench.stats import median, pct, sliding_max
from fake_telegram import ApiCall, CallbackRecord, Chat, FakeTelegram, FloodLimit, User
from fake_telegram.ephemeral import requested as ephemeral_requested
from fake_telegram.server import StoredMessage

DEFAULT_BASELINE = "10299a4"
HAND = "hand"  # the code of «🀄 Мои фишки»
#: codes a press of which never moves the game's version: the hand, the first-move window
UNVERSIONED = frozenset({"hand", "fmd", "fmp"})
#: codes that are no move: labels, holes that only say why, pages, «Назад»
NAVIGATION = frozenset({"noop", "z", "pg", "back"})
FIRST_NAMES = ("Аня", "Борис", "Вика", "Глеб", "Дина", "Егор", "Жора", "Зоя")
USER_BASE = 7_000_000
STUCK = 4  # refusals in a row after which a player presses anything he sees
ANSWER_WAIT = 20.0  # seconds a player waits for the spinner of his press to end
SETUP_TIMEOUT = 120.0  # seconds for each step of opening a game (a held chat waits ≤ 60 s)
SETUP_LIMIT = 300.0  # seconds for opening every group's first game
VALIDITY = 15.0  # Telegram's: a callback query cannot be answered later
WARMUP = 5.0
PLAY_ON = 15.0  # seconds the players go on after the window
SHOW_WAIT = 60.0  # then at most this long for the bot to show the window's presses
MAX_GAMES = 12  # games one group opens at most in a run
MAX_STEPS = 20_000  # taps of one group at most


# ---------------------------------------------------------------- the games and paces


@dataclass(frozen=True)
class Game:
    key: str
    title: str
    command: str
    fewest: int  # players the lobby starts with at least (no house rules)
    most: int


# the player counts are the engines' (`games/*/engine.py` min_players / max_players) and
# the lobby's (`bot/presenters/cell_capture.py`: 3 unless the house rule for two is on)
GAMES = (
    Game("seven_tracks", "Семидорожник", "/new семидорожник", 2, 6),
    Game("cell_capture", "Захват клеток", "/new захват", 3, 6),
    Game("sea_cross", "Морской крест", "/new крест", 2, 4),
    Game("hypnosia", "Гипнозия", "/new гипнозия", 2, 6),
    Game("dominas", "ДОМИНА*С", "/new доминас", 2, 8),
)


def find_game(name: str) -> Game:
    """A game by its key, title or the word of its `/new`.

    >>> find_game("крест").key, find_game("Dominas").title, find_game("захват").fewest
    ('sea_cross', 'ДОМИНА*С', 3)
    """
    wanted = name.strip().lower()
    for game in GAMES:
        words = {game.key, game.title.lower(), game.command.split()[-1], game.key.split("_")[0]}
        if wanted in words:
            return game
    raise ValueError(f"unknown game {name!r}; one of {', '.join(g.key for g in GAMES)}")


def sizes_for(game: Game, wanted: Iterable[int]) -> list[int]:
    """The sizes a game is played with: each wanted size it allows, one under its fewest
    becoming the fewest.

    >>> sizes_for(GAMES[1], (2, 4, 6)), sizes_for(GAMES[2], (2, 4, 6)), sizes_for(GAMES[0], [2])
    ([3, 4, 6], [2, 4], [2])
    """
    return sorted({max(game.fewest, n) for n in wanted if n <= game.most})


@dataclass(frozen=True)
class Pace:
    name: str
    tap: tuple[float, float]  # seconds between one player's taps
    turn: float  # the next player's first tap within this many seconds (from tap[0])


PACES = {
    "brisk": Pace("brisk", (1.0, 2.0), 3.0),
    "normal": Pace("normal", (2.0, 4.0), 5.0),
    "slow": Pace("slow", (5.0, 10.0), 15.0),
}


# ---------------------------------------------------------------- reading buttons and calls


def parse(data: str | None) -> tuple[str, int, str] | None:
    """A table button's `P1:<game uid>:<seq>:<code>` as (uid, seq, code).

    >>> parse("P1:62ee65:5:CD,,,,,,,1"), parse("L1:62ee65:join:") is None, parse(None)
    (('62ee65', 5, 'CD,,,,,,,1'), True, None)
    """
    parts = (data or "").split(":", 3)
    if len(parts) == 4 and parts[0] == "P1" and parts[2].isdigit():
        return parts[1], int(parts[2]), parts[3]
    return None


def code_of(data: str | None) -> str:
    """The code of a table button's data ("" for another button).

    >>> code_of("P1:a:4:hand"), code_of("e:1:2")
    ('hand', '')
    """
    parsed = parse(data)
    return "" if parsed is None else parsed[2]


def tag_of(code: str) -> str:
    """The kind of a code (`m.pri` → `m`, `K,1` → `K`).

    >>> tag_of("m.pri"), tag_of("K,1"), tag_of("hand"), tag_of("z.c")
    ('m', 'K', 'hand', 'z')
    """
    return re.split(r"[.,]", code, maxsplit=1)[0]


def markup_data(markup: object) -> list[str]:
    """The callback data of a call's `reply_markup` (a dict or its JSON).

    >>> markup_data('{"inline_keyboard": [[{"text": "a", "callback_data": "x"}]]}')
    ['x']
    >>> markup_data(None)
    []
    """
    return [d for d in e2e_markup_data(markup) if isinstance(d, str)]


def versions_in(data: Iterable[str | None]) -> dict[str, int]:
    """The highest version (`seq`) each game uid has among these buttons.

    >>> versions_in(["P1:a:3:x", "P1:a:4:y", "L1:b:join:", "P1:b:1:z", None])
    {'a': 4, 'b': 1}
    """
    out: dict[str, int] = {}
    for d in data:
        parsed = parse(d)
        if parsed is not None:
            uid, seq, _ = parsed
            out[uid] = max(seq, out.get(uid, seq))
    return out


_NOT_SENDS = frozenset({"sendchataction", "sendmessagedraft"})
_OTHER_SENDS = frozenset({"copymessage", "copymessages", "forwardmessage", "forwardmessages"})
_OTHER_EDITS = frozenset({"stoppoll", "stopmessagelivelocation"})


def counted(method: str, params: Mapping[str, Any]) -> str | None:
    """What a call spends of a group's budget: "send", "edit", "delete" or None (answers,
    chat actions, pins, ephemeral messages: nothing).

    >>> [counted(m, {}) for m in ("sendPhoto", "editMessageMedia", "deleteMessage")]
    ['send', 'edit', 'delete']
    >>> [counted(m, {}) for m in ("sendChatAction", "answerCallbackQuery", "pinChatMessage")]
    [None, None, None]
    >>> counted("editEphemeralMessageText", {}), counted("deleteEphemeralMessage", {})
    (None, None)
    >>> counted("sendMessage", {"ephemeral_message_parameters": {"receiver_user_id": 7}})
    """
    name = method.lower()
    if "ephemeral" in name or ephemeral_requested(dict(params)):
        return None
    if (name.startswith("send") and name not in _NOT_SENDS) or name in _OTHER_SENDS:
        return "send"
    if name.startswith("editmessage") or name in _OTHER_EDITS:
        return "edit"
    if name in ("deletemessage", "deletemessages"):
        return "delete"
    return None


def chat_key(value: object) -> int | None:
    """A call's `chat_id` as a number (multipart bodies send it as text).

    >>> chat_key("-1001000000001"), chat_key(5), chat_key("@chan"), chat_key(None)
    (-1001000000001, 5, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return int(value)
    return None


def template(text: str) -> re.Pattern[str]:
    """A locale string with `{fields}` as a pattern.

    >>> bool(template("Сейчас ходит {name}, не вы.").fullmatch("Сейчас ходит Аня Г001, не вы."))
    True
    >>> template("Сейчас ходит {name}, не вы.").fullmatch("Сейчас ходит Аня, не вы.")[1]
    'Аня'
    """
    parts = re.split(r"\{[^{}]*\}", text)
    return re.compile("(.+?)".join(re.escape(p) for p in parts), re.S)


def mover_in(content: str, names: Sequence[str]) -> str | None:
    """The name in the caption's «Ходит …» line (the first of `names` in it).

    >>> names = ["Аня Г001", "Борис Г001"]
    >>> mover_in("🌀 Гипнозия\\nХодит 🟡 Борис Г001: 🎲 4 и 6\\nАня Г001 — 0", names)
    'Борис Г001'
    >>> mover_in("Игра окончена", ["Аня Г001"]) is None
    True
    """
    for line in content.splitlines():
        if "Ходит" not in line:
            continue
        found = [(line.find(n), n) for n in names if n in line]
        if found:
            return min(found)[1]
    return None


@dataclass(frozen=True)
class Texts:
    """The refusals of a press, in the measured bot's Russian locale."""

    updating: str
    outdated: str
    game_over: str
    not_your_turn: re.Pattern[str]
    others: tuple[re.Pattern[str], ...]

    @classmethod
    def of(cls, root: Path) -> Texts:
        strings = json.loads((root / "locales" / "ru.json").read_text(encoding="utf-8"))
        press = {k: v for k, v in strings.items() if k.startswith("press.") and isinstance(v, str)}
        main = ("press.table_updating", "press.outdated", "press.game_over", "press.not_your_turn")
        return cls(
            updating=press.get(
                "press.table_updating", "Стол обновляется — дождитесь новых кнопок."
            ),
            outdated=press.get("press.outdated", "Кнопка устарела — стол уже обновился."),
            game_over=press.get("press.game_over", "Эта игра уже закончилась."),
            not_your_turn=template(press.get("press.not_your_turn", "Сейчас ходит {name}, не вы.")),
            others=tuple(template(v) for k, v in press.items() if k not in main),
        )

    def category(self, rec: CallbackRecord, code: str) -> str:
        """How a press was answered: hand, unanswered, updating, outdated, not_your_turn,
        game_over, refused (another refusal, or an alert) or accepted."""
        if code == HAND:
            return "hand"
        if not rec.answered:
            return "unanswered"
        text = rec.text or ""
        if text == self.updating:
            return "updating"
        if text == self.outdated:
            return "outdated"
        if self.not_your_turn.fullmatch(text):
            return "not_your_turn"
        if text == self.game_over:
            return "game_over"
        if rec.show_alert or any(p.fullmatch(text) for p in self.others):
            return "refused"
        return "accepted"

    def mover_named(self, text: str | None) -> str | None:
        match = self.not_your_turn.fullmatch(text or "")
        return match[1] if match else None


# ---------------------------------------------------------------- the fake and the bots


def make_fake(callback_answer_timeout: float = VALIDITY) -> FakeTelegram:
    """The fake Bot API with Telegram's limits, set explicitly (what the constructor knows)."""
    limit_fields = {f.name for f in dataclasses.fields(FloodLimit)}
    group: dict[str, Any] = {"count": 20, "window": 60.0}
    if "deletes" in limit_fields:
        group["deletes"] = True
    options: dict[str, Any] = {
        "flood_limit": FloodLimit(**group),
        # kept: the bot re-sends its pictures by file_id (the mover's copy of the table)
        "keep_files": True,
        "log_results": False,
        "callback_answer_timeout": callback_answer_timeout,
    }
    accepted = inspect.signature(FakeTelegram.__init__).parameters
    if "global_limit" in accepted:  # the fake that counts new messages only bot-wide
        options["private_limit"] = FloodLimit(count=3, window=3.0)
        options["global_limit"] = FloodLimit(count=30, window=1.0)
    if "ephemeral_limit" in accepted:
        options["ephemeral_limit"] = None  # Telegram documents none
    return FakeTelegram(**options)


@dataclass(frozen=True)
class Variant:
    name: str  # "baseline", "new" or "echo"
    root: Path
    module: str = "bot"
    label: str = ""


def variants_for(baseline: str | None) -> list[Variant]:
    out: list[Variant] = []
    if baseline is not None:
        out.append(Variant("baseline", checkout(baseline), label=baseline))
    out.append(Variant("new", ROOT, label="work tree"))
    return out


ECHO = Variant("echo", ROOT, module="bench.echo_bot", label="bench/echo_bot.py")


@contextlib.asynccontextmanager
async def running_bot(
    tg: FakeTelegram, variant: Variant, redis_url: str, logdir: Path, name: str
) -> AsyncIterator[BotProcess]:
    """The variant's bot process against `tg`, from its start until it polls."""
    env = {
        "BOT_TOKEN": tg.token,
        "TELEGRAM_API_URL": tg.api_url,
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": f"pace{secrets.token_hex(3)}",
        "TURN_SECONDS": "0",
        "CHAT_CALLS_PER_MINUTE": "20",
        "CHAT_WINDOW_SECONDS": "60",
        "TELEGRAM_MESSAGES_PER_SECOND": "30",
    }
    proc = BotProcess(variant.module, env, logdir / f"{name}.log", variant.root)
    async with polling(tg, proc, variant.name) as polled:
        yield polled


# ---------------------------------------------------------------- the simulated groups


@dataclass
class Tap:
    rec: CallbackRecord
    user: int
    uid: str
    seq: int
    code: str
    where: str  # "table", "copy" (his copy of the table) or "hand"


def table_of(chat: Chat) -> StoredMessage | None:
    """The group's table: the newest message of the bot with a game's buttons."""
    for message in reversed(chat.state.messages.values()):
        if message.deleted or not message.from_bot:
            continue
        if any(parse(b.callback_data) for row in message.buttons for b in row):
            return message
    return None


def game_buttons(message: StoredMessage | None) -> list[tuple[str, str]]:
    """(text, data) of a message's game buttons."""
    if message is None:
        return []
    return [
        (b.text, b.callback_data)
        for row in message.buttons
        for b in row
        if b.callback_data is not None and parse(b.callback_data) is not None
    ]


def is_move(text: str, data: str) -> bool:
    """A button that may move the game (not the hand, a label, a hole, a page, «Назад»).

    >>> is_move("2", "P1:a:4:K,2"), is_move("·", "P1:a:4:z.u"), is_move("« Назад", "P1:a:4:back")
    (True, False, False)
    """
    parsed = parse(data)
    if parsed is None:
        return False
    tag = tag_of(parsed[2])
    return tag != HAND and tag not in NAVIGATION and "Назад" not in text


async def pause(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), max(0.0, seconds))


class Group:
    """One group of simulated players and its game."""

    def __init__(
        self, tg: FakeTelegram, index: int, game: Game, size: int, pace: Pace, texts: Texts
    ) -> None:
        self.tg, self.index, self.game, self.size, self.pace, self.texts = (
            tg,
            index,
            game,
            size,
            pace,
            texts,
        )
        self.users = [
            tg.user(USER_BASE + index * 10 + k, FIRST_NAMES[k], last_name=f"Г{index:03d}")
            for k in range(size)
        ]
        self.by_name = {u.full_name: u for u in self.users}
        self.chat = tg.group(
            title=f"{game.title} · {size} · {pace.name} #{index}", members=self.users
        )
        self.rng = random.Random(index * 7919 + size)
        self.taps: list[Tap] = []
        self.games = 0
        self.failures: list[str] = []
        self.last_actor: User | None = None
        self.hint: tuple[tuple[str, int], User] | None = None
        self.guess: tuple[tuple[str, int], User] | None = None
        self.opened: set[tuple[int, str]] = set()  # (user, game uid) whose hand was opened
        self.refusals = 0  # in a row
        self.over = False

    @property
    def label(self) -> tuple[str, int, str]:
        return self.game.title, self.size, self.pace.name

    async def open_game(self) -> None:
        """/new, the others join, «Начать»: until the table is shown."""
        chat, creator, tg = self.chat, self.users[0], self.tg
        waiter = chat.wait_message(lambda m: "Новая игра" in m.content, timeout=SETUP_TIMEOUT)
        await chat.send(creator, self.game.command)
        lobby = await waiter
        for user in self.users[1:]:
            rec = await chat.tap(user, lobby, contains="Играть")
            with contextlib.suppress(AssertionError):  # a lost answer; the lobby tells
                await tg.answer_of(rec, timeout=VALIDITY)

        def ready() -> bool:
            listed = all(u.full_name in lobby.content for u in self.users)
            return listed and any("Начать" in t for t in lobby.button_texts)

        await chat.wait_for(ready, SETUP_TIMEOUT, poll=0.25)
        waiter = chat.wait_message(
            lambda m: bool(game_buttons(m)), timeout=SETUP_TIMEOUT, poll=0.25
        )
        rec = await chat.tap(creator, lobby, contains="Начать")
        with contextlib.suppress(AssertionError):
            await tg.answer_of(rec, timeout=VALIDITY)
        await waiter
        self.games += 1
        self.over = False

    async def setup(self) -> bool:
        try:
            await self.open_game()
        except (TimeoutError, AssertionError, LookupError, ValueError) as e:
            self.failures.append(f"setup: {str(e).splitlines()[0][:120]}")
            return False
        return True

    def actor(self, table: StoredMessage) -> User:
        version = self.version(table)
        if self.hint is not None and self.hint[0] == version:
            return self.hint[1]
        name = mover_in(table.content, list(self.by_name))
        if name is not None:
            return self.by_name[name]
        if self.last_actor is not None:
            return self.last_actor
        if self.guess is None or self.guess[0] != version:  # one guess per version
            self.guess = (version, self.rng.choice(self.users))
        return self.guess[1]

    @staticmethod
    def version(table: StoredMessage) -> tuple[str, int]:
        found = versions_in(d for _, d in game_buttons(table))
        uid = next(iter(found), "")
        return uid, found.get(uid, -1)

    def sees(self, user: User, table: StoredMessage) -> StoredMessage:
        """What `user` sees where the table is (an ephemeral copy, if the fake knows them)."""
        seen_by = getattr(self.chat, "seen_by", None)
        if seen_by is None:
            return table
        seen = seen_by(user, table)
        return seen if isinstance(seen, StoredMessage) else table

    def hand_of(self, user: User) -> StoredMessage | None:
        """His newest ephemeral message from the bot with game buttons."""
        for message in reversed(self.chat.ephemeral(user)):
            copy = message.extra.get("replaces_message_id") is not None  # the table's copy
            if message.from_bot and not copy and game_buttons(message):
                return message
        return None

    def choose(self, user: User, table: StoredMessage) -> tuple[StoredMessage, str, str] | None:
        """What `user` presses: (message, data, "table"/"hand")."""
        view = self.sees(user, table)
        where = "table" if view is table else "copy"
        shown = game_buttons(view)
        hand_data = next((d for _, d in shown if code_of(d) == HAND), None)
        uid = self.version(table)[0]
        if hand_data is not None and (user.id, uid) not in self.opened:
            self.opened.add((user.id, uid))
            return view, hand_data, where
        hand = self.hand_of(user)
        anything = self.refusals >= STUCK
        options = [(view, d, where) for t, d in shown if is_move(t, d) or anything]
        options += [
            (hand, d, "hand")
            for t, d in game_buttons(hand)
            if hand is not None and (is_move(t, d) or anything)
        ]
        options = [o for o in options if code_of(o[1]) != HAND]
        if not options and hand_data is not None:
            return view, hand_data, where
        if not options:
            return None
        message, data, where = self.rng.choice(options)
        assert message is not None
        return message, data, where

    async def tap(self, user: User, message: StoredMessage, data: str, where: str) -> Tap:
        rec = await self.chat.tap(user, message, by_data=data, check=False)
        uid, seq, code = parse(data) or ("", -1, "")
        tap = Tap(rec, user.id, uid, seq, code, where)
        self.taps.append(tap)
        return tap

    def learn(self, tap: Tap, table: StoredMessage) -> None:
        """What the answer tells the players."""
        category = self.texts.category(tap.rec, tap.code)
        name = self.texts.mover_named(tap.rec.text)
        if name in self.by_name:
            self.hint = (self.version(table), self.by_name[name])
        if category == "accepted":
            self.last_actor = next(u for u in self.users if u.id == tap.user)
            self.refusals = 0
        elif category != "hand":
            self.refusals += 1
        if category == "game_over":
            self.over = True

    def answered(self, tap: Tap, table: StoredMessage, _: object) -> None:
        """`learn`, as the callback of the press's answer."""
        self.learn(tap, table)

    async def new_game(self, stop: asyncio.Event) -> None:
        if self.games >= MAX_GAMES:
            await pause(stop, 3600)
            return
        await pause(stop, self.rng.uniform(*self.pace.tap))
        if not stop.is_set() and not await self.setup():
            await pause(stop, 5)

    async def play(self, stop: asyncio.Event) -> None:
        """Taps at the pace until `stop`."""
        previous: int | None = None
        for _ in range(MAX_STEPS):
            if stop.is_set():
                return
            table = table_of(self.chat)
            if table is None or self.over:
                await self.new_game(stop)
                continue
            user = self.actor(table)
            lo, hi = self.pace.tap
            delay = self.rng.uniform(lo, hi if user.id == previous else self.pace.turn)
            await pause(stop, delay)
            table = table_of(self.chat)
            if stop.is_set() or table is None:
                continue
            if self.actor(table) is not user:
                previous = None  # the turn changed while he thought: the other one thinks
                continue
            choice = self.choose(user, table)
            if choice is None:
                await pause(stop, 1.0)
                continue
            tap = await self.tap(user, *choice)
            previous = user.id
            with contextlib.suppress(AssertionError):
                await self.tg.answer_of(tap.rec, timeout=ANSWER_WAIT)
            self.learn(tap, table)


class FloodGroup(Group):
    """Two players of «Семидорожник» tapping about once a second, not waiting for answers."""

    async def play(self, stop: asyncio.Event) -> None:
        for _ in range(MAX_STEPS):
            await pause(stop, self.rng.uniform(0.5, 1.5))
            if stop.is_set():
                return
            table = table_of(self.chat)
            if table is None or self.over:
                await self.new_game(stop)
                continue
            mover = self.actor(table)
            if self.rng.random() < 0.5:
                choice = self.choose(mover, table)
                user = mover
            else:
                user = self.rng.choice([u for u in self.users if u is not mover] or self.users)
                view = self.sees(user, table)
                shown = game_buttons(view)
                hands = [d for _, d in shown if code_of(d) == HAND]
                pick = hands if hands and self.rng.random() < 0.7 else [d for _, d in shown]
                choice = (view, self.rng.choice(pick), "table") if pick else None
            if choice is None:
                continue
            tap = await self.tap(user, *choice)
            assert tap.rec.future is not None
            tap.rec.future.add_done_callback(functools.partial(self.answered, tap, table))


class EchoGroup(Group):
    """The echo bot's group: `/new` gives a photo with three buttons; a tap a second."""

    async def open_game(self) -> None:
        """`/new` until the photo comes: the echo bot does not pace its sends, and a 429
        (the bot-wide 30 new messages a second) loses one."""
        for _ in range(6):
            waiter = self.chat.wait_message(lambda m: m.photo is not None, timeout=10, poll=0.25)
            await self.chat.send(self.users[0], "/new")
            with contextlib.suppress(TimeoutError):
                await waiter
                self.games += 1
                return
        raise TimeoutError("the echo bot sent no photo for six /new")

    async def play(self, stop: asyncio.Event) -> None:
        for _ in range(MAX_STEPS):
            await pause(stop, self.rng.uniform(0.5, 1.5))
            if stop.is_set():
                return
            photo = next((m for m in reversed(self.chat.bot_messages) if m.photo), None)
            data = [b.callback_data for row in photo.buttons for b in row] if photo else []
            choices = [d for d in data if d]
            if photo is None or not choices:
                continue
            rec = await self.chat.tap(
                self.rng.choice(self.users), photo, by_data=self.rng.choice(choices), check=False
            )
            self.taps.append(Tap(rec, 0, "", -1, "echo", "table"))


async def start_groups(
    groups: Sequence[Group], stop: asyncio.Event, concurrency: int
) -> list[asyncio.Future[None]]:
    """Open every group's game (`concurrency` at a time, `SETUP_LIMIT` s in all), then
    let the groups that have one play, all at once: their tasks."""
    gate = asyncio.Semaphore(concurrency)

    async def setup(g: Group) -> None:
        async with gate:
            await g.setup()

    pending = [asyncio.ensure_future(setup(g)) for g in groups]
    _, late = await asyncio.wait(pending, timeout=SETUP_LIMIT)
    for task in late:
        task.cancel()
    for task in pending:
        with contextlib.suppress(BaseException):
            await task
    return [asyncio.ensure_future(g.play(stop)) for g in groups if g.games]


# ---------------------------------------------------------------- measuring


@dataclass
class Shows:
    """When the group's table showed which version of which game (from the call log)."""

    versions: dict[str, list[tuple[float, int]]] = field(default_factory=dict)
    pictures: dict[str, list[tuple[float, int]]] = field(default_factory=dict)
    finals: dict[str, list[float]] = field(default_factory=dict)
    #: (game uid, player) → the versions his own copies of the table showed him
    copies: dict[tuple[str, int], list[tuple[float, int]]] = field(default_factory=dict)

    @classmethod
    def of(cls, calls: Sequence[ApiCall], copies: Collection[tuple[int, int]] = ()) -> Shows:
        """From a group's calls; `copies`: (chat, ephemeral message id) of the copies."""
        out = cls()
        tables: dict[str, set[int]] = {}
        for call in sorted(calls, key=lambda c: c.time + c.duration):
            if not call.ok:
                continue
            done = call.time + call.duration
            receiver = copy_receiver(call, copies)
            if receiver is not None:
                found = versions_in(markup_data(call.params.get("reply_markup")))
                for uid, seq in found.items():
                    out.copies.setdefault((uid, receiver), []).append((done, seq))
                continue
            if counted(call.method, call.params) not in ("send", "edit"):
                continue
            found = versions_in(markup_data(call.params.get("reply_markup")))
            picture = call.method.lower() in ("editmessagemedia", "sendphoto")
            for uid, seq in found.items():
                out.versions.setdefault(uid, []).append((done, seq))
                if picture:
                    out.pictures.setdefault(uid, []).append((done, seq))
                if call.message_id is not None:
                    tables.setdefault(uid, set()).add(call.message_id)
            if call.method.lower().startswith("edit") and call.message_id is not None:
                for uid, ids in tables.items():
                    if call.message_id in ids and uid not in found:
                        out.finals.setdefault(uid, []).append(done)
        return out

    def shown_at(self, uid: str, seq: int, after: float) -> float | None:
        """When a version after `seq` of game `uid` (or its final table) was first shown.

        >>> shows = Shows(versions={"g": [(1.0, 3), (5.0, 4)]}, finals={"g": [9.0]})
        >>> shows.shown_at("g", 3, 2.0), shows.shown_at("g", 4, 0.0), shows.shown_at("h", 1, 0.0)
        (5.0, 9.0, None)
        """
        for t, s in self.versions.get(uid, []):
            if s > seq and t >= after:
                return t
        if not any(s > seq for _, s in self.versions.get(uid, [])):
            for t in self.finals.get(uid, []):
                if t >= after:
                    return t
        return None

    def seen_at(self, uid: str, seq: int, after: float, user: int) -> float | None:
        """When `user` saw a version after `seq` where the table is: on the group's table
        or on his own copy of it.

        >>> shows = Shows(versions={"g": [(5.0, 4)]}, copies={("g", 7): [(1.5, 4)]})
        >>> shows.seen_at("g", 3, 1.0, 7), shows.seen_at("g", 3, 1.0, 8)
        (1.5, 5.0)
        """
        group = self.shown_at(uid, seq, after)
        mine = next(
            (t for t, s in self.copies.get((uid, user), []) if s > seq and t >= after), None
        )
        return min((t for t in (group, mine) if t is not None), default=None)

    def picture_at(self, uid: str, seq: int, after: float) -> float | None:
        """When a picture of a version after `seq` of game `uid` was first shown."""
        return next((t for t, s in self.pictures.get(uid, []) if s > seq and t >= after), None)


@dataclass
class Change:
    tap: Tap
    shown: float | None  # when the group's table showed it (None: not by the end)
    picture: float | None  # when its picture (or a later one) was shown in the group
    seen: float | None  # when its player saw it where the table is (the group's, his copy)


def changes(taps: Sequence[Tap], texts: Texts, shows: Shows) -> list[Change]:
    """The presses that moved their game on, shown or provably passed (the module's
    docstring says how they are told).

    >>> texts = Texts.of(ROOT)
    >>> def tap(at: float, text: str | None) -> Tap:
    ...     rec = CallbackRecord("1", -1, 1, {}, "P1:g:3:K,1", at, answered=True, text=text)
    ...     return Tap(rec, 1, "g", 3, "K,1", "table")
    >>> taps = [tap(1.0, "Сейчас ходит Аня, не вы."), tap(2.0, None), tap(3.0, texts.updating)]
    >>> shows = Shows(versions={"g": [(2.5, 3), (6.0, 4)]})
    >>> [(c.tap.rec.created_at, c.shown) for c in changes(taps, texts, shows)]
    [(2.0, 6.0)]
    >>> [(c.tap.rec.created_at, c.shown) for c in changes(taps, texts, Shows())]
    [(2.0, None)]
    >>> changes(taps[:2], texts, Shows())  # neither shown nor provably passed
    []
    """
    by_version: dict[tuple[str, int], list[Tap]] = {}
    for tap in sorted(taps, key=lambda t: t.rec.created_at):
        if tap.uid and tag_of(tap.code) not in UNVERSIONED:
            by_version.setdefault((tap.uid, tap.seq), []).append(tap)
    out: list[Change] = []
    for (uid, seq), group in by_version.items():
        kinds = [texts.category(t.rec, t.code) for t in group]
        last = max(
            (i for i, k in enumerate(kinds) if k in ("accepted", "unanswered")), default=None
        )
        if last is None or kinds[last] != "accepted":
            continue  # nothing applied here, or its answer is unknown
        tap = group[last]
        shown = shows.shown_at(uid, seq, tap.rec.created_at)
        passed = shown is not None or any(k in ("updating", "outdated") for k in kinds[last:])
        if passed:
            picture = shows.picture_at(uid, seq, tap.rec.created_at)
            seen = shows.seen_at(uid, seq, tap.rec.created_at, tap.user)
            out.append(Change(tap, shown, picture, seen))
    return out


@dataclass
class Side:
    """One variant's numbers for one group."""

    calls_max: int = 0
    calls_mean: float = math.nan
    refused_429: int = 0
    updating: int = 0
    stale_p50: float = math.nan
    stale_p99: float = math.nan
    taps_per_turn: float = math.nan
    taps: int = 0
    turns: int = 0
    pings: int = 0  # turn pings sent to the group in the window («🔔 …»)
    changes: int = 0
    never: int = 0  # changes not shown by the end (counted as lower bounds)
    picture_p50: float = math.nan  # the same, until a picture of the version (or later)
    picture_p99: float = math.nan
    seen_p50: float = math.nan  # the press → its player sees it (the table or his copy)
    seen_p99: float = math.nan
    answers: dict[str, int] = field(default_factory=dict)
    games: int = 0
    failures: list[str] = field(default_factory=list)
    fake_flood_refused: int | None = None  # the fake's own count for the chat (whole run)
    fake_counted: int | None = None  # the fake's own count of the window's calls


def measure_group(
    group: Group,
    calls: Sequence[ApiCall],
    lo: float,
    hi: float,
    end: float,
    copies: Collection[tuple[int, int]] = (),
) -> Side:
    side = Side(games=group.games, failures=list(group.failures))
    spent = sorted(
        c.time
        for c in calls
        if lo <= c.time < hi and counted(c.method, c.params) and c.error_code != 429
    )
    side.calls_max = sliding_max(spent)
    side.calls_mean = len(spent) / ((hi - lo) / 60.0)
    side.pings = sum(
        1
        for c in calls
        if lo <= c.time < hi
        and c.ok
        and c.method == "sendMessage"
        and str(c.params.get("text", "")).startswith("🔔")
        and not ephemeral_requested(c.params)
    )
    side.refused_429 = sum(
        1
        for c in calls
        if lo <= c.time < hi and c.error_code == 429 and "ephemeral" not in c.method.lower()
    )
    state = group.chat.state
    refused = getattr(state, "flood_refused", None)
    side.fake_flood_refused = refused if isinstance(refused, int) else None
    times = getattr(state, "counted_times", None)
    if isinstance(times, list):
        side.fake_counted = sum(1 for t in times if lo <= t < hi)
    taps = [t for t in group.taps if lo <= t.rec.created_at < hi]
    kinds = Counter(group.texts.category(t.rec, t.code) for t in taps)
    side.answers = dict(kinds)
    side.updating = kinds["updating"]
    side.taps = len(taps)
    found = changes(group.taps, group.texts, Shows.of(calls, copies))
    found = [c for c in found if lo <= c.tap.rec.created_at < hi]
    stale = [(c.shown if c.shown is not None else end) - c.tap.rec.created_at for c in found]
    side.changes = len(found)
    side.never = sum(1 for c in found if c.shown is None)
    side.stale_p50 = median(stale)
    side.stale_p99 = pct(stale, 0.99)
    seen = [(c.seen if c.seen is not None else end) - c.tap.rec.created_at for c in found]
    side.seen_p50 = median(seen)
    side.seen_p99 = pct(seen, 0.99)
    pictures = [(c.picture if c.picture is not None else end) - c.tap.rec.created_at for c in found]
    side.picture_p50 = median(pictures)
    side.picture_p99 = pct(pictures, 0.99)
    movers = [c.tap.user for c in sorted(found, key=lambda c: c.tap.rec.created_at)]
    side.turns = sum(1 for i, u in enumerate(movers) if i == 0 or u != movers[i - 1])
    side.taps_per_turn = side.taps / side.turns if side.turns else math.nan
    return side


def write_timelines(
    groups: Sequence[Group],
    by_chat: Mapping[int, Sequence[ApiCall]],
    copies: Collection[tuple[int, int]],
    lo: float,
    folder: Path,
) -> None:
    """(Debugging, `BENCH_TIMELINE=1`) each group's calls and taps in time order."""
    folder.mkdir(parents=True, exist_ok=True)
    for g in groups:
        lines: list[tuple[float, str]] = []
        for c in by_chat.get(g.chat.id, []):
            found = versions_in(markup_data(c.params.get("reply_markup")))
            who = copy_receiver(c, copies)
            what = f"copy→{who}" if who is not None else counted(c.method, c.params) or "-"
            status = f"ok={c.ok} {found} {c.error_code or ''}"
            lines.append((c.time + c.duration, f"CALL {c.method} {what} {status}"))
        for t in g.taps:
            r = t.rec
            lines.append((r.created_at, f"TAP u{t.user} s{t.seq} {t.code} {t.where}"))
            if r.answered_at is not None:
                lines.append((r.answered_at, f"  ANS u{t.user} s{t.seq}: {r.text}"))
        path = folder / f"{g.index}-{g.size}-{g.pace.name}.txt"
        path.write_text("\n".join(f"{at - lo:8.2f} {line}" for at, line in sorted(lines)))


def calls_by_chat(tg: FakeTelegram) -> dict[int, list[ApiCall]]:
    out: dict[int, list[ApiCall]] = {}
    for call in tg.server.calls:
        key = chat_key(call.chat_id)
        if key is not None:
            out.setdefault(key, []).append(call)
    return out


def copies_of(tg: FakeTelegram) -> set[tuple[int, int]]:
    """(chat id, ephemeral message id) of every copy of a table the bot sent a player (an
    ephemeral message shown in place of the one he pressed, `replace_callback_query_message`)."""
    messages = getattr(getattr(tg.server, "ephemeral", None), "messages", None)
    if not isinstance(messages, dict):
        return set()
    return {k for k, m in messages.items() if m.extra.get("replaces_message_id") is not None}


def copy_receiver(call: ApiCall, copies: Collection[tuple[int, int]]) -> int | None:
    """The player a call shows his copy of the table to (None: not such a call).

    >>> call = ApiCall(1, "sendPhoto", {"ephemeral_message_parameters": json.dumps(
    ...     {"receiver_user_id": 7, "replace_callback_query_message": True})}, 0.0, 0.0)
    >>> copy_receiver(call, ())
    7
    >>> edit = ApiCall(2, "editEphemeralMessageMedia", {"chat_id": "-5", "receiver_user_id": "7",
    ...     "ephemeral_message_id": "3"}, 0.0, 0.0, chat_id="-5")
    >>> copy_receiver(edit, {(-5, 3)}), copy_receiver(edit, set())
    (7, None)
    """
    params = call.params
    name = call.method.lower()
    if name.startswith("editephemeralmessage"):
        key = (chat_key(params.get("chat_id")), chat_key(params.get("ephemeral_message_id")))
        return chat_key(params.get("receiver_user_id")) if key in copies else None
    if not name.startswith("send"):
        return None
    options = params.get("ephemeral_message_parameters")
    if isinstance(options, str):
        with contextlib.suppress(ValueError):
            options = json.loads(options)
    if not isinstance(options, dict):
        return None
    if options.get("replace_callback_query_message") not in (True, "true", "True"):
        return None
    return chat_key(options.get("receiver_user_id", params.get("receiver_user_id")))


def unshown(groups: Sequence[Group], tg: FakeTelegram, lo: float, hi: float) -> int:
    """Changes of the window the tables do not show yet."""
    by_chat = calls_by_chat(tg)
    left = 0
    for g in groups:
        shows = Shows.of(by_chat.get(g.chat.id, []))
        left += sum(
            1
            for c in changes(g.taps, g.texts, shows)
            if c.shown is None and lo <= c.tap.rec.created_at < hi
        )
    return left


# ---------------------------------------------------------------- A: pacing


@dataclass
class PacingRow:
    game: str
    players: int
    pace: str
    sides: dict[str, Side] = field(default_factory=dict)


@dataclass
class VariantTotals:
    """A variant's whole run of one part: its bot and the fake's totals."""

    variant: str
    errors: int = 0
    setup_failed: int = 0
    flood_refused: int | None = None
    global_refused: int | None = None
    answer_p99: float = math.nan
    seconds: float = 0.0


def plan(
    games: Sequence[Game], sizes: Sequence[int], paces: Sequence[Pace]
) -> list[tuple[Game, int, Pace]]:
    """Every (game, size, pace) to play.

    >>> len(plan(GAMES, (2, 4, 6), list(PACES.values()))), len(plan(GAMES, (2, 4), [PACES["slow"]]))
    (42, 10)
    """
    return [(g, n, p) for g in games for n in sizes_for(g, sizes) for p in paces]


async def run_pacing(
    variant: Variant,
    configs: Sequence[tuple[Game, int, Pace]],
    minutes: float,
    redis_url: str,
    logdir: Path,
    progress: Any,
) -> tuple[list[tuple[tuple[str, int, str], Side]], VariantTotals]:
    started = time.monotonic()
    texts = Texts.of(variant.root)
    totals = VariantTotals(variant.name)
    stop = asyncio.Event()
    async with (
        make_fake() as tg,
        running_bot(tg, variant, redis_url, logdir, f"pacing-{variant.name}") as proc,
    ):
        groups = [Group(tg, i + 1, g, n, p, texts) for i, (g, n, p) in enumerate(configs)]
        tasks = await start_groups(groups, stop, 10)
        totals.setup_failed = sum(1 for g in groups if not g.games)
        progress(
            f"  pacing/{variant.name}: {len(groups) - totals.setup_failed} of {len(groups)} "
            f"groups playing after {time.monotonic() - started:.0f} s; "
            f"measuring {minutes:g} min …"
        )
        await asyncio.sleep(WARMUP)
        lo = time.monotonic()
        hi = lo + minutes * 60.0
        await asyncio.sleep(hi - time.monotonic() + PLAY_ON)
        await stop_players(stop, tasks)
        deadline = time.monotonic() + SHOW_WAIT
        while time.monotonic() < deadline and unshown(groups, tg, lo, hi):
            await asyncio.sleep(1.0)
        end = time.monotonic()
        by_chat = calls_by_chat(tg)
        copies = copies_of(tg)
        rows = [
            (g.label, measure_group(g, by_chat.get(g.chat.id, []), lo, hi, end, copies))
            for g in groups
        ]
        if os.environ.get("BENCH_TIMELINE"):
            write_timelines(groups, by_chat, copies, lo, logdir / f"timeline-{variant.name}")
        answers = [
            (t.rec.answered_at - t.rec.created_at) if t.rec.answered_at is not None else math.inf
            for g in groups
            for t in g.taps
            if lo <= t.rec.created_at < hi
        ]
        totals.answer_p99 = pct(answers, 0.99)
        totals.flood_refused = _int_or_none(getattr(tg.server, "flood_refused", None))
        totals.global_refused = _int_or_none(getattr(tg.server, "global_refused", None))
        totals.errors = len(proc.errors())
    totals.seconds = time.monotonic() - started
    return rows, totals


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# ---------------------------------------------------------------- B: a flood of groups


@dataclass
class FloodRow:
    variant: str
    groups: int
    presses: int = 0
    answer_p50: float = math.nan
    answer_p99: float = math.nan
    lost: int = 0
    late: int = 0  # answers refused as too old (after Telegram's 15 s)
    refused_429: int = 0
    setup_failed: int = 0
    errors: int = 0
    window: float = 0.0
    seconds: float = 0.0  # the scenario took, setup included
    hand_p99: float = math.nan  # the answer p99 of «🀄 Мои фишки» presses
    other_p99: float = math.nan  # of the other presses


def answer_latency(rec: CallbackRecord) -> float:
    """Update → answer, seconds; infinite for a lost one (none, or after Telegram's 15 s)."""
    if rec.answered_at is None or rec.answered_at - rec.created_at > VALIDITY:
        return math.inf
    return rec.answered_at - rec.created_at


async def run_flood(
    variant: Variant, groups_n: int, measure: float, redis_url: str, logdir: Path
) -> FloodRow:
    row = FloodRow(variant.name, groups_n, window=measure)
    started = time.monotonic()
    game = GAMES[0]
    stop = asyncio.Event()
    async with (
        make_fake() as tg,
        running_bot(tg, variant, redis_url, logdir, f"flood-{variant.name}-{groups_n}") as proc,
    ):
        texts = Texts.of(ROOT if variant is ECHO else variant.root)
        cls: type[Group] = EchoGroup if variant is ECHO else FloodGroup
        groups = [cls(tg, i + 1, game, 2, PACES["brisk"], texts) for i in range(groups_n)]
        tasks = await start_groups(groups, stop, 20)
        row.setup_failed = sum(1 for g in groups if not g.games)
        await asyncio.sleep(WARMUP)
        lo = time.monotonic()
        hi = lo + measure
        await asyncio.sleep(measure)
        stop.set()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await asyncio.sleep(VALIDITY + 1.0)  # the window's last answers
        taps = [t for g in groups for t in g.taps if lo <= t.rec.created_at < hi]
        lat = [answer_latency(t.rec) for t in taps]
        row.presses = len(taps)
        row.lost = sum(1 for x in lat if math.isinf(x))
        row.answer_p50 = median(lat)
        row.answer_p99 = pct(lat, 0.99)
        row.hand_p99 = pct([answer_latency(t.rec) for t in taps if t.code == HAND], 0.99)
        row.other_p99 = pct([answer_latency(t.rec) for t in taps if t.code != HAND], 0.99)
        chats = {g.chat.id for g in groups}
        for call in tg.server.calls:
            if not lo <= call.time < hi + VALIDITY:
                continue
            if call.method.lower() == "answercallbackquery" and "too old" in (
                call.description or ""
            ):
                row.late += 1
            if call.error_code == 429 and chat_key(call.chat_id) in chats and call.time < hi:
                row.refused_429 += 1
        row.errors = len(proc.errors())
    row.seconds = time.monotonic() - started
    return row


# ---------------------------------------------------------------- C: the first table


@dataclass
class FirstRun:
    variant: str
    to_polling: float = math.nan  # process start → its first getUpdates
    first_table: float = math.nan  # «Начать» → the table's photo message
    error: str = ""


async def run_first(variant: Variant, game: Game, redis_url: str, logdir: Path, n: int) -> FirstRun:
    out = FirstRun(variant.name)
    texts = Texts.of(variant.root)
    async with make_fake() as tg:
        started = time.monotonic()
        try:
            async with running_bot(tg, variant, redis_url, logdir, f"first-{variant.name}-{n}"):
                out.to_polling = time.monotonic() - started
                group = Group(tg, 1, game, 2, PACES["brisk"], texts)
                chat, creator = group.chat, group.users[0]
                waiter = chat.wait_message(lambda m: "Новая игра" in m.content, timeout=60)
                await chat.send(creator, game.command)
                lobby = await waiter
                rec = await chat.tap(group.users[1], lobby, contains="Играть")
                await tg.answer_of(rec, timeout=60)
                await chat.wait_for(lambda: any("Начать" in t for t in lobby.button_texts), 60)
                waiter = chat.wait_message(
                    lambda m: m.photo is not None and bool(game_buttons(m)), timeout=120
                )
                rec = await chat.tap(creator, lobby, contains="Начать")
                table = await waiter
                out.first_table = table.created_at - rec.created_at
        except (TimeoutError, AssertionError, LookupError, RuntimeError) as e:
            out.error = str(e).splitlines()[0][:200]
    return out


# ---------------------------------------------------------------- the report


def secs(x: float) -> str:
    """Seconds, to 10 ms under 10 s.

    >>> secs(0.034), secs(17.06), secs(math.inf)
    ('0.03', '17.1', '∞')
    """
    return num(x, 2 if x < 10 else 1)


def num(x: float, digits: int = 1) -> str:
    """
    >>> num(1.234), num(math.nan), num(math.inf), num(12.0, 0)
    ('1.2', '–', '∞', '12')
    """
    if math.isnan(x):
        return "–"
    if math.isinf(x):
        return "∞"
    return f"{x:.{digits}f}"


def pair(sides: Mapping[str, Side], fmt: Callable[[Side], str]) -> str:
    """A cell: the number of each variant measured, baseline / new."""
    return " / ".join(fmt(sides[v]) for v in ("baseline", "new") if v in sides)


def pacing_table(rows: Sequence[PacingRow], names: Sequence[str]) -> str:
    head = [
        "game",
        "pl",
        "pace",
        "calls/min max",
        "mean",
        "429",
        "upd",
        "old",
        "table stale p50 s",
        "p99",
        "mover sees p50 s",
        "p99",
        "taps/turn",
        "pings/turn",
    ]
    body: list[list[str]] = []
    notes: list[str] = []
    for r in rows:
        s = r.sides
        failed = [v for v in names if v in s and not s[v].games]
        if failed:
            notes.append(f"  {r.game} {r.players} {r.pace}: no game opened ({', '.join(failed)})")
        if any(x.never for x in s.values()):
            never = pair(s, lambda x: str(x.never))
            notes.append(
                f"  {r.game} {r.players} {r.pace}: changes not shown by the end {never} "
                "(in stale as lower bounds)"
            )
        body.append(
            [
                r.game,
                str(r.players),
                r.pace,
                pair(s, lambda x: str(x.calls_max)),
                pair(s, lambda x: num(x.calls_mean)),
                pair(s, lambda x: str(x.refused_429)),
                pair(s, lambda x: str(x.updating)),
                pair(s, lambda x: str(x.answers.get("outdated", 0))),
                pair(s, lambda x: secs(x.stale_p50)),
                pair(s, lambda x: secs(x.stale_p99)),
                pair(s, lambda x: secs(x.seen_p50)),
                pair(s, lambda x: secs(x.seen_p99)),
                pair(s, lambda x: num(x.taps_per_turn)),
                pair(s, lambda x: num(x.pings / x.turns if x.turns else math.nan, 2)),
            ]
        )
    return "\n".join([text_table(head, body), *notes])


def flood_table(rows: Sequence[FloodRow]) -> str:
    echo = {r.groups: r.answer_p99 for r in rows if r.variant == "echo"}
    head = [
        "bot",
        "groups",
        "presses",
        "answer p50 ms",
        "p99 ms",
        "p99 hand / other ms",
        "lost",
        "late",
        "429",
        "p99 / echo",
    ]
    body = []
    for r in rows:
        base = echo.get(r.groups, math.nan)
        ratio = (
            r.answer_p99 / base
            if r.variant != "echo" and base and not math.isnan(base)
            else math.nan
        )
        body.append(
            [
                r.variant,
                str(r.groups),
                str(r.presses),
                num(r.answer_p50 * 1e3),
                num(r.answer_p99 * 1e3),
                ""
                if r.variant == "echo"
                else f"{num(r.hand_p99 * 1e3)} / {num(r.other_p99 * 1e3)}",
                f"{r.lost}" + (f" ({100 * r.lost / r.presses:.1f}%)" if r.presses else ""),
                str(r.late),
                str(r.refused_429),
                "" if math.isnan(ratio) else f"{num(ratio, 2)}× {'✓' if ratio <= 2 else '✗'}",
            ]
        )
    return text_table(head, body)


def first_table(runs: Sequence[FirstRun]) -> str:
    head = ["bot", "«Начать» → table s (each run)", "median s", "start → polling s"]
    body = []
    for name in dict.fromkeys(r.variant for r in runs):
        mine = [r for r in runs if r.variant == name]
        values = [r.first_table for r in mine if not math.isnan(r.first_table)]
        body.append(
            [
                name,
                ", ".join(num(r.first_table, 2) if not r.error else "failed" for r in mine),
                num(median(values), 2),
                num(median([r.to_polling for r in mine]), 1),
            ]
        )
    return text_table(head, body)


def plain(value: Any) -> Any:
    """JSON-safe: NaN and infinities as None, dataclasses as dicts.

    >>> plain({"a": math.nan, "b": [1.5, math.inf]})
    {'a': None, 'b': [1.5, None]}
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


LEGEND = """\
  calls/min: sends+edits+deletes the group spent of its budget (most in any 60 s; mean);
  429: refused by the fake; upd: presses told «Стол обновляется», old: «Кнопка устарела»
  (what he pressed was behind: a copy, or buttons already replaced); table stale: a change →
  the group's table carrying a later version (s); mover sees: the same, or his own copy of
  the table; taps/turn: presses per run of one player's changes; pings/turn: turn pings
  sent to the group per turn"""


# ---------------------------------------------------------------- main


@dataclass
class Options:
    minutes: float
    games: list[Game]
    paces: list[Pace]
    sizes: list[int]
    flood: list[int]
    flood_window: float
    baseline: str | None
    only: str | None
    repeats: int = 3


async def run(opts: Options, redis_url: str, logdir: Path) -> dict[str, Any]:
    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    variants = variants_for(opts.baseline)
    names = [v.name for v in variants]
    out: dict[str, Any] = {"variants": {v.name: v.label for v in variants}}
    if opts.only in (None, "pacing"):
        configs = plan(opts.games, opts.sizes, opts.paces)
        rows = {(g.title, n, p.name): PacingRow(g.title, n, p.name) for g, n, p in configs}
        totals: list[VariantTotals] = []
        for variant in variants:
            progress(f"A. pacing: {variant.name} bot ({variant.label}), {len(configs)} groups")
            measured, total = await run_pacing(
                variant, configs, opts.minutes, redis_url, logdir, progress
            )
            for label, side in measured:
                rows[label].sides[variant.name] = side
            totals.append(total)
            progress(
                f"  done in {total.seconds:.0f} s: answer p99 {num(total.answer_p99, 2)} s, "
                f"429s {total.flood_refused}, bot errors {total.errors}"
            )
        out["pacing"] = list(rows.values())
        out["pacing_totals"] = totals
        out["pacing_text"] = pacing_table(list(rows.values()), names)
    if opts.only in (None, "flood"):
        flood: list[FloodRow] = []
        scenarios = [(v, n) for n in opts.flood for v in variants]
        scenarios += [(ECHO, max(opts.flood))] if opts.flood else []
        for variant, n in scenarios:
            progress(f"B. flood: {variant.name} bot, {n} groups")
            row = await run_flood(variant, n, opts.flood_window, redis_url, logdir)
            flood.append(row)
            progress(
                f"  done in {row.seconds:.0f} s: answer p99 {num(row.answer_p99 * 1e3)} ms, "
                f"lost {row.lost}, groups without a game {row.setup_failed}"
            )
        out["flood"] = flood
        out["flood_text"] = flood_table(flood)
    if opts.only in (None, "first"):
        runs: list[FirstRun] = []
        for i in range(opts.repeats):
            for variant in variants:
                progress(f"C. first table: {variant.name} bot, run {i + 1}")
                runs.append(await run_first(variant, opts.games[0], redis_url, logdir, i))
        out["first"] = runs
        out["first_text"] = first_table(runs)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Telegram-true pacing (see the docstring).")
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--games", nargs="+", default=None, help="keys, titles or /new words")
    parser.add_argument("--paces", nargs="+", default=list(PACES), choices=list(PACES))
    parser.add_argument("--sizes", nargs="+", type=int, default=None)
    parser.add_argument("--flood", nargs="*", type=int, default=[5, 20, 100])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="a commit, or `none`")
    parser.add_argument("--only", choices=["pacing", "flood", "first"], default=None)
    parser.add_argument("--quick", action="store_true", help="1 minute, sizes 2 and 4")
    parser.add_argument("--json", default=None, help="write the numbers to this file")
    parser.add_argument("--redis-url", default=None, help="a Redis to use (else one is started)")
    args = parser.parse_args(argv)
    opts = Options(
        minutes=args.minutes if args.minutes is not None else (1.0 if args.quick else 3.0),
        games=[find_game(x) for x in args.games] if args.games else list(GAMES),
        paces=[PACES[p] for p in args.paces],
        sizes=args.sizes or ([2, 4] if args.quick else [2, 4, 6]),
        flood=args.flood,
        flood_window=15.0 if args.quick else 30.0,
        baseline=None if args.baseline.lower() == "none" else args.baseline,
        only=args.only,
    )
    logdir = Path(tempfile.mkdtemp(prefix="bench-pacing-"))
    if args.redis_url:
        result = asyncio.run(run(opts, args.redis_url, logdir))
    else:
        with redis_server() as url:
            result = asyncio.run(run(opts, url, logdir))
    labels = ", ".join(f"{k}: {v}" for k, v in result["variants"].items())
    print(f"Telegram-true pacing ({labels}); each cell is baseline / new")
    if "pacing_text" in result:
        print(f"\nA. per group, a {opts.minutes:g}-minute window (budget: 20 calls/min)")
        print(result["pacing_text"])
        print(LEGEND)
        for t in result["pacing_totals"]:
            print(
                f"  {t.variant}: groups without a game {t.setup_failed}, answer p99 "
                f"{num(t.answer_p99, 2)} s, fake's 429s (all chats, whole run) "
                f"{t.flood_refused}, bot-wide 429s {t.global_refused}, errors in the log {t.errors}"
            )
    if "flood_text" in result:
        print(f"\nB. a flood of groups, about one press a second each ({opts.flood_window:g} s)")
        print(result["flood_text"])
    if "first_text" in result:
        print("\nC. the first table after a start")
        print(result["first_text"])
    print(f"\nlogs: {logdir}")
    if args.json:
        data = {k: v for k, v in result.items() if not k.endswith("_text")}
        Path(args.json).write_text(json.dumps(plain(data), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
