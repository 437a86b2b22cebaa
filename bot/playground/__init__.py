"""`python -m bot playground`: try every game in a browser, no Telegram account or token.

The real bot (`bot.app.App`, the same handlers, service and presenters as in Telegram)
long-polls the fake Bot API server (the `fake_telegram` package, shipped with the bot),
embedded in this process on a free local port. A small aiohttp app serves a page at
`http://127.0.0.1:8080` that shows the fake server's group chat «Настольщики» and each
member's private chat with the bot, live (server-sent events), and turns the page's
clicks into the updates Telegram would send: a member writes a message, a member presses
an inline button. Only Telegram's servers are replaced, never the bot's logic.
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bot playground [--port N]`."""
    from bot.playground.server import main as serve

    return serve(argv)


__all__ = ["main"]
