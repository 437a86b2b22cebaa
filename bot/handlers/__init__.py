"""One router per concern; `routers()` builds fresh ones for each dispatcher."""

from aiogram import Router

from bot.handlers import admin, help, lobby, play


def routers() -> list[Router]:
    return [help.make_router(), lobby.make_router(), admin.make_router(), play.make_router()]
