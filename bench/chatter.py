"""`python -m bench.chatter [--window 10] [--rounds 3]`: what chatter costs the game.

The real bot (in-process, the in-memory store) against the fake Bot API server with
Telegram's 429 enforcement on (20 calls per window in a chat, sends and edits alike),
the window shortened to `--window` seconds. Two players play; per round: a press whose
table edit is timed (press → edit), then one of them `/leave`s, which ends the
game (the notice and the standings are timed from the command). The same scenario is run
twice in one run:

- `game alone` — the baseline;
- `with chatter` — meanwhile a watcher sends `/rules доминас` ×12 (3 messages each) and
  `/help`, a member who started the bot `/rules` ×3, another one an ephemeral `/rules` ×3.

Printed per scenario: the delays (median and max over the rounds), the 429s Telegram
answered, the most calls Telegram received in any window, and where the chatter's replies
went (group / private / ephemeral). Measurements, not pass/fail tests.

Measured (2 cores, `--window 8 --rounds 3`): game alone 19 ms edit / 30 ms notice / 128 ms
standings; with chatter 105 / 32 / 146 ms, no 429, at most 14 calls in a window, the
chatter's replies 4 in the group, 1 private, 3 ephemeral per round. The bot before the
sender (commit acd842c, the same script) with chatter: the edit 8182 ms (a whole window),
47 answers 429, 37 calls in a window, 44 errors logged (a Traceback per refused reply).
The standings now follow the final table edit (the table first), hence ~100 ms later
than the notice.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
from dataclasses import dataclass, field

from bench.stats import sliding_max
from fake_telegram import Chat, FakeTelegram
from fake_telegram.server import ApiCall, FloodLimit
from tests.bot.e2e import mover, open_lobby, running, settings_for, start_game, wait_phase

LIMIT = 20
COUNTED = {
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
}


@dataclass
class Result:
    edit: list[float] = field(default_factory=list)
    notice: list[float] = field(default_factory=list)
    standings: list[float] = field(default_factory=list)
    refused: int = 0  # 429s
    busiest: int = 0  # most calls in one window
    group: int = 0
    private: int = 0
    ephemeral: int = 0
    errors: int = 0


def busiest(calls: list[ApiCall], window: float) -> int:
    return sliding_max(sorted(c.time for c in calls), window)


def counted(chat: Chat) -> list[ApiCall]:
    return [
        c
        for c in chat.calls()
        if c.method in COUNTED and "ephemeral_message_parameters" not in c.params
    ]


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def one_round(window: float, chatter: bool, result: Result, seed: int) -> None:
    async with FakeTelegram(flood_limit=FloodLimit(count=LIMIT, window=window)) as tg:
        base = 5000 + seed * 10
        anna, boris = tg.user(base + 1, "Аня"), tg.user(base + 2, "Борис")
        vika, gosha, dima = (
            tg.user(base + 3, "Вика"),
            tg.user(base + 4, "Гоша"),
            tg.user(base + 5, "Дима"),
        )
        chat = tg.group(members=[anna, boris, vika, gosha, dima])
        settings = settings_for(
            tg, turn_seconds=0, chat_calls_per_minute=LIMIT, chat_window_seconds=window
        )
        async with running(settings):
            private = await tg.start_private(gosha)
            await private.wait_message(timeout=30)
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик", timeout=30)
            await tg.settle()
            player = mover(table, [anna, boris])
            assert player is not None
            other = boris if player is anna else anna
            if chatter:
                for _ in range(12):
                    await chat.send(vika, "/rules доминас")
                await chat.send(vika, "/help")
                for _ in range(3):
                    await chat.send(gosha, "/rules")
                    await chat.send_ephemeral(dima, "/rules")
            answer = await chat.press(player, table, "⭐ Приоритет…", timeout=30)
            pressed = answer.record.created_at  # the press reached Telegram
            await wait_phase(chat, table, "« Назад", timeout=120)
            result.edit.append((table.edited_at or pressed) - pressed)
            command = await chat.send(other, "/leave")
            left = time.monotonic()
            notice = await chat.wait_message(
                lambda m: "выходит из игры" in m.content, after=command, timeout=120
            )
            final = await chat.wait_message(
                lambda m: "Игра окончена" in m.content, after=command, timeout=120
            )
            result.notice.append(notice.created_at - left)
            result.standings.append(final.created_at - left)
            await tg.settle(quiet=0.5, timeout=120)
            result.refused += sum(1 for c in chat.calls() if c.error_code == 429)
            result.busiest = max(result.busiest, busiest(counted(chat), window))
            result.group += sum(
                1
                for m in chat.bot_messages
                if m.reply_to is not None
                and (m.reply_to.from_user or {}).get("id") in (vika.id, gosha.id, dima.id)
            )
            result.private += sum(1 for m in private.bot_messages if "📖" in m.content)
            result.ephemeral += sum(1 for m in chat.ephemeral(dima) if m.from_bot)


def fmt(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.0f} / {max(values) * 1000:7.0f}"


async def run(window: float, rounds: int) -> None:
    errors = Errors()
    logging.getLogger().addHandler(errors)
    results: dict[str, Result] = {}
    for name, chatter in (("game alone", False), ("with chatter", True)):
        result = results[name] = Result()
        before = errors.count
        for i in range(rounds):
            await one_round(window, chatter, result, i + (100 if chatter else 0))
        result.errors = errors.count - before
    print(f"flood window {window:g} s, {LIMIT} calls per window, {rounds} rounds each")
    print(
        f"{'scenario':<14} {'edit ms med/max':>17} {'notice ms':>17} {'standings ms':>17} "
        f"{'429s':>5} {'max/window':>10} {'errors':>6}  chatter replies: group/private/eph."
    )
    for name, r in results.items():
        print(
            f"{name:<14} {fmt(r.edit):>17} {fmt(r.notice):>17} {fmt(r.standings):>17} "
            f"{r.refused:>5} {r.busiest:>10} {r.errors:>6}  "
            f"{r.group / rounds:g}/{r.private / rounds:g}/{r.ephemeral / rounds:g} per round"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.window, args.rounds))


if __name__ == "__main__":
    main()
