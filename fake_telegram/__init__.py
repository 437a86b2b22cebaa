"""A fake Telegram Bot API server and simulated users for end-to-end tests.

The real aiogram bot talks HTTP to :class:`FakeBotApi` (``TELEGRAM_API_URL=tg.api_url``);
tests, benchmarks and the playground drive simulated users through :class:`FakeTelegram`.
See ``README.md`` in this folder for the API.
"""

from .chat import CallbackAnswer, CallbackNotAnswered, Chat
from .formatting import FormattingError, apply_formatting
from .harness import FakeTelegram
from .records import (
    ANONYMOUS_ADMIN,
    CHANNEL_BOT,
    ApiCall,
    Button,
    CallbackRecord,
    ChatState,
    FileRecord,
    FloodCounter,
    FloodLimit,
    StoredMessage,
    TelegramError,
    UpdateRecord,
)
from .server import FakeBotApi
from .users import User

__all__ = [
    "ANONYMOUS_ADMIN",
    "CHANNEL_BOT",
    "ApiCall",
    "Button",
    "CallbackAnswer",
    "CallbackNotAnswered",
    "CallbackRecord",
    "Chat",
    "ChatState",
    "FakeBotApi",
    "FakeTelegram",
    "FileRecord",
    "FloodCounter",
    "FloodLimit",
    "FormattingError",
    "StoredMessage",
    "TelegramError",
    "UpdateRecord",
    "User",
    "apply_formatting",
]
