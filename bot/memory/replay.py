"""A recorded game drawn as an animation (`/replay`, bot/handlers/replay.py).

The record's steps are replayed through the engine (games/replay.py); each position's
public view (what the table showed) is kept once, a run of steps that changed nothing
on the board being one position; at most `POSITIONS` of them are drawn, evenly spread,
the first and the last always (render/animation.py), then the final standings.

The drawing is done where the tables' pictures are (bot/pictures.py: the render process,
or the render threads), in small jobs — the views and the palette, then one job per
frame, then the GIF — so a table's picture waits for one frame at most, never for a
whole replay, and the event loop draws nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image
from pydantic import BaseModel

from bot.memory.steps import start_of
from bot.warm_up import renderer
from games.replay import states
from render import animation

if TYPE_CHECKING:
    from bot.pictures import Pictures
    from bot.presenters import Presenter


class Animation(BaseModel):
    """A replay as sent: the GIF, its frames (boards + the standings), its boards'
    positions out of the game's."""

    data: bytes
    frames: int
    positions: int
    shown: int
    width: int
    height: int

    @property
    def seconds(self) -> float:
        """How long it plays once."""
        return (animation.board_ms(self.shown) * self.shown + animation.LAST_MS) / 1000


def views(p: Presenter, steps: list[str]) -> list[BaseModel]:
    """The table's view of each distinct position of the game, in order."""
    start = start_of(steps)
    out: list[BaseModel] = []
    last = ""
    for state in states(p.game_id, start["players"], start["seed"], start["options"], steps[1:]):
        view = p.public_view(state)
        raw = view.model_dump_json()
        if raw != last:
            out.append(view)
            last = raw
    return out


def board(p: Presenter, view: BaseModel, names: Mapping[int, str], language: str) -> Image.Image:
    """One position drawn as the table draws it, downscaled (RGB)."""
    module: Any = renderer(p.game_id)
    if module is None:
        raise LookupError(f"no renderer for {p.game_id!r}")
    draw = getattr(module, "draw_rgb", None) or module.draw
    img: Image.Image = draw(view, dict(names), language=language)
    return animation.downscaled(img)


def plan(
    p: Presenter, steps: list[str], names: Mapping[int, str], language: str, limit: int
) -> tuple[list[BaseModel], int, Image.Image]:
    """A job: the views to draw (sampled), the game's positions, the shared palette
    (fitted to the first, middle and last boards)."""
    every = views(p, steps)
    picked = [every[i] for i in animation.sample(len(every), limit)]
    probes = [picked[i] for i in animation.sample(len(picked), animation.PALETTE_SAMPLES)]
    palette = animation.shared_palette([board(p, v, names, language) for v in probes])
    return picked, len(every), palette


def frame(
    p: Presenter, view: BaseModel, names: Mapping[int, str], language: str, palette: Image.Image
) -> Image.Image:
    """A job: one board, on the shared palette."""
    return animation.indexed(board(p, view, names, language), palette)


def distinct(boards: list[Image.Image]) -> list[Image.Image]:
    """`boards` without a board drawn the same as the one before it (two positions that
    differ in what the picture does not show)."""
    out: list[Image.Image] = []
    for b in boards:
        if not out or out[-1].tobytes() != b.tobytes():
            out.append(b)
    return out


def assemble(
    boards: list[Image.Image],
    standings: list[tuple[int, int, int]],
    names: Mapping[int, str],
    language: str,
    title: str,
) -> tuple[bytes, int]:
    """A job: the distinct boards, the standings frame, one GIF; and its frames."""
    boards = distinct(boards)
    size = (max(b.width for b in boards), max(b.height for b in boards))
    last = animation.standings_frame(size, standings, names, language, title)
    # the standings on a palette of their own (a GIF frame may have its own colours)
    frames = [*boards, animation.indexed(last, animation.shared_palette([last]))]
    durations = [animation.board_ms(len(boards))] * len(boards) + [animation.LAST_MS]
    return animation.gif(frames, durations), len(frames)


async def animate(
    pictures: Pictures,
    p: Presenter,
    steps: list[str],
    standings: list[tuple[int, int, int]],
    names: Mapping[int, str],
    language: str,
    title: str,
    limit: int = animation.POSITIONS,
) -> Animation:
    """The replay of a recorded game (`steps`: its `new` call, then every step), the
    game's `title` on its last frame."""
    picked, positions, palette = await pictures.draw(plan, p, steps, names, language, limit)
    boards = [await pictures.draw(frame, p, v, names, language, palette) for v in picked]
    data, frames = await pictures.draw(assemble, boards, standings, names, language, title)
    return Animation(
        data=data,
        frames=frames,
        positions=positions,
        shown=frames - 1,
        width=max(b.width for b in boards),
        height=max(b.height for b in boards),
    )
