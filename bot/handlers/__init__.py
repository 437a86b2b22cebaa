"""One router per concern; `routers()` builds fresh ones for each dispatcher."""

from aiogram import Router

from bot.handlers import (
    admin,
    computers,
    hand,
    help,
    lobby,
    memory,
    pings,
    play,
    replay,
    settings,
    table,
)


def routers() -> list[Router]:
    return [
        table.make_router(),  # first: it counts every message below the table (bot/bottom.py)
        help.make_router(),
        lobby.make_router(),
        admin.make_router(),
        pings.make_router(),
        settings.make_router(),  # /settings (bot/service/settings_menu.py)
        memory.make_router(),  # /top /stats /history /notify /season (bot/memory/)
        replay.make_router(),  # /replay (bot/memory/replay.py)
        computers.make_router(),
        hand.make_router(),  # before play: «🀄 Мои фишки» and the private hands' presses
        play.make_router(),
    ]
