"""One router per concern; `routers()` builds fresh ones for each dispatcher."""

from aiogram import Router

from bot.handlers import admin, help, lobby, play, table


def routers() -> list[Router]:
    return [
        table.make_router(),  # first: it counts every message below the table (bot/bottom.py)
        help.make_router(),
        lobby.make_router(),
        admin.make_router(),
        play.make_router(),
    ]
