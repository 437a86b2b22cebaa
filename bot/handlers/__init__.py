"""One router per concern."""

from aiogram import Router

from bot.handlers import admin, help, lobby, play


def routers() -> list[Router]:
    return [help.router, lobby.router, admin.router, play.router]
