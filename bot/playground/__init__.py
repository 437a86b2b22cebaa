"""`python -m bot playground`: try every game in a browser, no Telegram account or token.

The real bot (`bot.app.App`, the same handlers, service and presenters as in Telegram)
long-polls the fake Bot API server of the tests (`tests/fake_telegram`), embedded in this
process on a free local port. A small aiohttp app serves a page at
`http://127.0.0.1:8080` that shows the fake server's group chat «Настольщики» and each
member's private chat with the bot, live (server-sent events), and turns the page's
clicks into the updates Telegram would send: a member writes a message, a member presses
an inline button. Only Telegram's servers are replaced, never the bot's logic.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]


def _fake_telegram_importable() -> bool:
    """The playground reuses `tests/fake_telegram` from the source checkout: make it
    importable when the bot is run from another directory."""
    try:
        import tests.fake_telegram
    except ImportError:
        if not (_ROOT / "tests" / "fake_telegram" / "server.py").is_file():
            return False
        sys.path.insert(0, str(_ROOT))
        sys.modules.pop("tests", None)
        try:
            import tests.fake_telegram  # noqa: F401
        except ImportError:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bot playground [--port N]`."""
    if not _fake_telegram_importable():
        print(
            "The playground needs the project's source checkout (it runs the fake Telegram "
            "server from tests/fake_telegram): run it from the repository.",
            file=sys.stderr,
        )
        return 2
    from bot.playground.server import main as serve

    return serve(argv)


__all__ = ["main"]
