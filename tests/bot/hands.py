"""Helpers of the private-hand tests: a player's ephemeral hand, and everything one member
of the group received (to look for another player's tiles in it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fake_telegram import CallbackAnswer, Chat, FakeTelegram, User
from fake_telegram.ephemeral import receiver_id
from fake_telegram.server import StoredMessage

SEQ = re.compile(r"^P1:[^:]+:(\d+):")


def hand_of(chat: Chat, user: User) -> StoredMessage | None:
    """The bot's live ephemeral hand (a photo) to `user`, if any — not his copy of the
    table (bot/service/table_copy.py), which is shown in place of the table message."""
    found = [
        m
        for m in chat.ephemeral(user)
        if m.from_bot and m.photo is not None and not m.extra.get("replaces_message_id")
    ]
    return found[-1] if found else None


def seq_of(message: StoredMessage) -> int | None:
    for row in message.buttons:
        for b in row:
            match = SEQ.match(b.callback_data or "")
            if match:
                return int(match.group(1))
    return None


def hand_buttons(hand: StoredMessage) -> list[str]:
    """The texts of the hand's game buttons (not the group labels)."""
    return [
        b.text for row in hand.buttons for b in row if not (b.callback_data or "").endswith(":noop")
    ]


async def wait_hand(
    chat: Chat, user: User, table: StoredMessage, timeout: float = 10
) -> StoredMessage:
    """His hand once it carries the table's current buttons (edited after the last move)."""

    def ready() -> StoredMessage | None:
        hand = hand_of(chat, user)
        if hand is None or not hand_buttons(hand):
            return None
        return hand if seq_of(hand) == seq_of(table) else None

    found: StoredMessage = await chat.wait_for(ready, timeout)
    return found


@dataclass
class Received:
    """What one member got from the bot: the group's messages (every version), his own
    ephemeral messages, his private chat, and the answers to his own presses."""

    texts: list[str] = field(default_factory=list)
    data: list[str] = field(default_factory=list)
    foreign_ephemeral: int = 0


def versions(message: StoredMessage) -> list[tuple[str | None, object]]:
    out: list[tuple[str | None, object]] = [(t or c, kb) for t, c, _, kb in message.history]
    out.append((message.content, message.reply_markup))
    return out


def received(
    tg: FakeTelegram,
    chat: Chat,
    user: User,
    answers: list[CallbackAnswer],
    done: dict[tuple[int, int, int], int] | None = None,
) -> Received:
    """Everything `user` got; with `done` (kept by the caller between calls) only the
    message versions and answers not returned before."""
    got = Received()
    done = {} if done is None else done
    shown = list(chat.all_messages) + list(tg.private(user).all_messages)
    for message in tg.server.ephemeral.messages.values():
        if message.chat is not chat.state or not message.from_bot:
            continue
        if receiver_id(message) == user.id:
            shown.append(message)
    got.foreign_ephemeral = sum(
        1 for m in chat.ephemeral(user) if m.from_bot and receiver_id(m) != user.id
    )
    for message in shown:
        key = (
            message.chat.id,
            message.message_id,
            int(message.extra.get("ephemeral_message_id") or 0),
        )
        seen = done.get(key, 0)
        all_versions = versions(message)
        done[key] = len(all_versions) - 1  # the current one may still change
        for text, kb in all_versions[seen:]:
            got.texts.append(text or "")
            rows = (kb or {}).get("inline_keyboard", []) if isinstance(kb, dict) else []
            for row in rows:
                for b in row:
                    got.texts.append(str(b.get("text", "")))
                    got.data.append(str(b.get("callback_data", "")))
    first = done.get((0, 0, -1), 0)
    done[(0, 0, -1)] = len(answers)
    for answer in answers[first:]:
        if answer.record.user.get("id") == user.id:
            got.texts.append(answer.text or "")
    return got


def private_hands(tg: FakeTelegram, user: User) -> list[StoredMessage]:
    """The bot's private hand messages to `user` (the fallback's), deleted ones too."""
    return [m for m in tg.private(user).all_messages if m.from_bot and "🀄" in m.content]


def private_words(tg: FakeTelegram, user: User) -> list[str]:
    """Every version of every private hand message to `user`, in order."""
    return [text or "" for m in private_hands(tg, user) for text, _ in versions(m)]
