"""The calls the fake server refuses on purpose: errors injected by a test
(``inject_error``) and Telegram's flood limits, answered as Telegram answers them::

    429 {"ok": false, "error_code": 429, "description": "Too Many Requests: retry after N",
         "parameters": {"retry_after": N}}

N is the whole seconds (rounded up, at least 1) until the window has room again, or until
the hold ends (see below). aiogram raises ``TelegramRetryAfter``.

The limits (each a :class:`~fake_telegram.records.FloodLimit`, an attribute of the server
and an option of its constructor and of ``FakeTelegram``; ``None`` turns it off):

- ``flood_limit`` — per group (a chat id < 0: groups, supergroups, channels), default
  ``FloodLimit()`` = 20 calls in any 60 s (in ``$FAKE_TELEGRAM_GROUP_WINDOW`` seconds when
  that is set: ``state.default_group_limit``), **one budget shared** by new messages (every
  ``send*`` but ``sendChatAction``/``sendMessageDraft``, ``copyMessage(s)``,
  ``forwardMessage(s)``), edits (``editMessage*``, ``stopPoll``,
  ``stopMessageLiveLocation``) and ``deleteMessage(s)`` (``FloodLimit(deletes=False)``
  leaves deletes out, ``sends_only=True`` counts new messages only). Telegram documents
  "no more than 20 messages per minute" in a group; that edits and deletes spend the
  same budget is what bot authors report (the conservative reading).
- ``private_limit`` — per private chat (a chat id > 0), default ``FloodLimit(count=3,
  window=3.0)``: new messages only. Telegram: "avoid sending more than one message per
  second in a single chat; short bursts may go over" — the fake's reading is 3 in any 3 s.
- ``global_limit`` — the whole bot, default ``FloodLimit(count=30, window=1.0)``: new
  messages only (Telegram's "about 30 messages per second" is for messages to many
  users; it has no bot-wide limit on edits, deletes or answers).
- ``ephemeral_limit`` — per chat and receiver, default None (off): ephemeral sends and
  ephemeral edits (``editEphemeralMessage*``). Telegram does not document a limit for
  ephemeral messages; ``FloodLimit(count=1, window=1.0)`` tries a strict one.

Ephemeral messages are outside the group's and the bot-wide budgets (unless their
``FloodLimit(count_ephemeral=True)``). ``sendChatAction``, ``answerCallbackQuery``,
``pinChatMessage``/``unpinChatMessage`` (rare, and no documented limit) and every other
method are never counted.

**The hold** (``FloodLimit.hold``, on by default): a call refused because the window is
full puts the chat (the receiver, the bot) on hold for its ``retry_after``; every counted
call during the hold is refused with the rest of the hold as ``retry_after`` and is not
counted, even if the window has room by then — so a bot that ignores ``retry_after`` keeps
getting 429s, as from Telegram.

Counted calls are counted when the server reads them (before the method runs, so a call
that then fails, e.g. "message is not modified", has spent its place). The state: per chat
``ChatState.flood`` (``sent_times`` — the window, ``counted_times`` — every counted call's
monotonic time, never pruned, ``flood_refused``, ``flood_hold_until``); per receiver
``server.ephemeral.flood[(chat_id, user_id)]``; the bot's ``server.global_flood``. Totals:
``server.flood_refused`` (group and private limits), ``server.global_refused``,
``server.ephemeral_refused``. Time is ``server.clock()`` (``time.monotonic``; a test may
replace it to move time on without waiting).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from .ephemeral import as_dict
from .ephemeral import requested as ephemeral_requested
from .records import ChatState, FloodCounter, FloodLimit, InjectedError, TelegramError
from .state import ServerState

Kind = Literal["send", "edit", "delete"]

# `send*` methods that post no message
_NOT_SENDS = frozenset({"sendchataction", "sendmessagedraft"})
# methods that post a new message besides `send*`
_OTHER_SENDS = frozenset({"copymessage", "copymessages", "forwardmessage", "forwardmessages"})
# edits besides `editMessage*`
_OTHER_EDITS = frozenset({"stoppoll", "stopmessagelivelocation"})
_DELETES = frozenset({"deletemessage", "deletemessages"})
_EPHEMERAL_EDIT = "editephemeralmessage"
_EPHEMERAL_DELETE = "deleteephemeralmessage"


def classify(method: str, params: dict[str, Any]) -> tuple[Kind | None, bool]:
    """What a call is for the flood limits: a new message (``"send"``), an edit, a delete,
    or nothing counted (None); and whether it is about an ephemeral message."""
    name = method.lower()
    if name.startswith(_EPHEMERAL_EDIT):
        return "edit", True
    if name == _EPHEMERAL_DELETE:
        return "delete", True
    if (name.startswith("send") and name not in _NOT_SENDS) or name in _OTHER_SENDS:
        return "send", ephemeral_requested(params)
    if name.startswith("editmessage") or name in _OTHER_EDITS:
        return "edit", False
    if name in _DELETES:
        return "delete", False
    return None, False


class LimitMethods(ServerState):
    """Injected errors and flood limits, checked before every call runs."""

    def inject_error(
        self,
        method: str,
        error_code: int,
        description: str,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
        chat_id: int | str | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (optionally only for ``chat_id``) fail."""
        parameters: dict[str, Any] = {}
        if retry_after is not None:
            parameters["retry_after"] = retry_after
        if migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = migrate_to_chat_id
        error = TelegramError(error_code, description, parameters or None)
        self._injected.append(InjectedError(method.lower(), error, chat_id, times))

    def _check_injected(self, method: str, params: dict[str, Any]) -> None:
        for injected in self._injected:
            if injected.method != method.lower():
                continue
            if injected.chat_id is not None and injected.chat_id != params.get("chat_id"):
                continue
            injected.times -= 1
            if injected.times <= 0:
                self._injected.remove(injected)
            raise injected.error

    def _check_flood(self, method: str, params: dict[str, Any]) -> None:
        """Count the call in every limit it falls under, or refuse it with 429 (counted in
        none of them) if one of them is spent or on hold."""
        kind, ephemeral = classify(method, params)
        if kind is None:
            return
        budgets = self._budgets(kind, ephemeral, params)
        if not budgets:
            return
        now = self.clock()
        for limit, counter, kind_of_limit in budgets:
            retry_after = _refusal(limit, counter, now)
            if retry_after is not None:
                counter.refused += 1
                if kind_of_limit == "chat":
                    self.flood_refused += 1
                elif kind_of_limit == "global":
                    self.global_refused += 1
                else:
                    self.ephemeral_refused += 1
                raise TelegramError(
                    429,
                    f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after},
                )
        for _, counter, _ in budgets:
            counter.window_times.append(now)
            counter.counted_times.append(now)

    def _budgets(
        self, kind: Kind, ephemeral: bool, params: dict[str, Any]
    ) -> list[tuple[FloodLimit, FloodCounter, str]]:
        """The limits a call of ``kind`` falls under, with their counters."""
        out: list[tuple[FloodLimit, FloodCounter, str]] = []
        chat = self._chat_of(params)
        if chat is not None:
            if chat.type == "private":
                limit = self.private_limit
                if limit is not None and kind == "send" and not ephemeral:
                    out.append((limit, chat.flood, "chat"))
            else:
                limit = self.flood_limit
                if limit is not None and _group_counts(limit, kind, ephemeral):
                    out.append((limit, chat.flood, "chat"))
                limit = self.ephemeral_limit
                if limit is not None and ephemeral and kind in ("send", "edit"):
                    receiver = _receiver(params)
                    if receiver is not None:
                        counters = self.ephemeral.flood
                        counter = counters.setdefault((chat.id, receiver), FloodCounter())
                        out.append((limit, counter, "ephemeral"))
        limit = self.global_limit
        if limit is not None and kind == "send" and (not ephemeral or limit.count_ephemeral):
            out.append((limit, self.global_flood, "global"))
        return out

    def _chat_of(self, params: dict[str, Any]) -> ChatState | None:
        """The chat a call is for, if the server knows it (else the method's own error)."""
        try:
            return self._resolve_chat(params.get("chat_id"))
        except TelegramError:
            return None


def _group_counts(limit: FloodLimit, kind: Kind, ephemeral: bool) -> bool:
    if ephemeral and not limit.count_ephemeral:
        return False
    if kind == "send":
        return True
    if limit.sends_only:
        return False
    return kind == "edit" or limit.deletes


def _receiver(params: dict[str, Any]) -> int | None:
    options = as_dict(params.get("ephemeral_message_parameters")) or {}
    raw: Any = options.get("receiver_user_id", params.get("receiver_user_id"))
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def _refusal(limit: FloodLimit, counter: FloodCounter, now: float) -> int | None:
    """The ``retry_after`` to refuse a call with (None: the call may go). A refusal for a
    full window starts a hold (``limit.hold``) that lasts ``retry_after`` seconds."""
    if now < counter.hold_until:
        return max(1, math.ceil(counter.hold_until - now))
    times = counter.window_times
    while times and now - times[0] >= limit.window:
        times.popleft()
    if len(times) < limit.count:
        return None
    retry_after = max(1, math.ceil(limit.window - (now - times[0])))
    if limit.hold:
        counter.hold_until = now + retry_after
    return retry_after
