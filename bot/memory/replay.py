"""A recorded game drawn as an animation (`/replay`, bot/handlers/replay.py).

The record's steps are replayed through the engine (games/replay.py); each position's
public view (what the table showed) is kept once, a run of steps that changed nothing
on the board being one position; at most `POSITIONS` of them are drawn, evenly spread,
the first and the last always (render/animation.py), then the final standings.

The drawing is done where the tables' pictures are (bot/pictures.py: the render process,
or the render threads), in small jobs — the game walked `CHUNK` steps at a time, the
palette, one job per frame, then the GIF — so a table's picture waits for one such job at
most, never for a whole replay, and the event loop draws nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image
from pydantic import BaseModel

import games
from bot.memory.steps import start_of
from bot.warm_up import renderer
from games.replay import advance, states
from render import animation

if TYPE_CHECKING:
    from bot.presenters.base import Presenter

CHUNK = 400  # steps walked per job (about 0.15 s of a long game's engine)


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


def views(p: Presenter[Any, Any], steps: list[str]) -> list[BaseModel]:
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


def board(
    p: Presenter[Any, Any], view: BaseModel, names: Mapping[int, str], language: str
) -> Image.Image:
    """One position drawn as the table draws it, downscaled (RGB)."""
    module: Any = renderer(p.game_id)
    if module is None:
        raise LookupError(f"no renderer for {p.game_id!r}")
    draw = getattr(module, "draw_rgb", None) or module.draw
    img: Image.Image = draw(view, dict(names), language=language)
    return animation.downscaled(img)


def _walk(
    p: Presenter[Any, Any], steps: list[str], lo: int, hi: int, state: BaseModel | None
) -> Iterator[tuple[int, BaseModel]]:
    """Positions `lo`..`hi - 1` of the game (0: its start; i: after `steps[i]`) and their
    states, from `state`, the position before `lo` (None when `lo` is 0)."""
    for i in range(lo, hi):
        if state is None:
            start = start_of(steps)
            state = games.get(p.game_id).new(
                players=start["players"], seed=start["seed"], options=start["options"] or None
            )
        else:
            state = advance(p.game_id, state, steps[i])
        yield i, state


def changes(
    p: Presenter[Any, Any], steps: list[str], lo: int, hi: int, state: BaseModel | None, last: str
) -> tuple[list[int], BaseModel | None, str]:
    """A job: the positions of `lo`..`hi - 1` whose view differs from the one before
    (`last`: the view of the position before `lo`, as JSON), the state at `hi - 1`, the
    view there."""
    marks: list[int] = []
    at = state
    for i, at in _walk(p, steps, lo, hi, state):
        raw = p.public_view(at).model_dump_json()
        if raw != last:
            marks.append(i)
            last = raw
    return marks, at, last


def chosen(
    p: Presenter[Any, Any],
    steps: list[str],
    lo: int,
    hi: int,
    state: BaseModel | None,
    wanted: set[int],
) -> tuple[list[BaseModel], BaseModel | None]:
    """A job: the views of the `wanted` positions of `lo`..`hi - 1`, the state at `hi - 1`."""
    out: list[BaseModel] = []
    at = state
    for i, at in _walk(p, steps, lo, hi, state):
        if i in wanted:
            out.append(p.public_view(at))
    return out, at


def palette_of(
    p: Presenter[Any, Any], picked: list[BaseModel], names: Mapping[int, str], language: str
) -> Image.Image:
    """A job: the shared palette, fitted to the first, middle and last boards."""
    probes = [picked[i] for i in animation.sample(len(picked), animation.PALETTE_SAMPLES)]
    return animation.shared_palette([board(p, v, names, language) for v in probes])


def frame(
    p: Presenter[Any, Any],
    view: BaseModel,
    names: Mapping[int, str],
    language: str,
    palette: Image.Image,
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


Run = Callable[..., Awaitable[Any]]  # runs a job: `Pictures.draw`, or `inline`


async def inline(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a job here and now (the benchmark)."""
    return fn(*args)


async def animate(
    run: Run,
    p: Presenter[Any, Any],
    steps: list[str],
    standings: list[tuple[int, int, int]],
    names: Mapping[int, str],
    language: str,
    title: str,
    limit: int = animation.POSITIONS,
) -> Animation:
    """The replay of a recorded game (`steps`: its `new` call, then every step), the
    game's `title` on its last frame, drawn in jobs given to `run` (`Pictures.draw`):
    the game walked through in `CHUNK` steps a job, twice — to find its distinct
    positions, then to take the views of those sampled — then a job for the palette,
    one per board, and the GIF."""
    n = len(steps)
    marks: list[int] = []
    state: BaseModel | None = None
    last = ""
    for lo in range(0, n, CHUNK):
        found, state, last = await run(changes, p, steps, lo, min(n, lo + CHUNK), state, last)
        marks += found
    wanted = {marks[j] for j in animation.sample(len(marks), limit)}
    picked: list[BaseModel] = []
    state = None
    for lo in range(0, min(n, max(wanted) + 1), CHUNK):
        got, state = await run(chosen, p, steps, lo, min(n, lo + CHUNK), state, wanted)
        picked += got
    palette = await run(palette_of, p, picked, names, language)
    boards = [await run(frame, p, v, names, language, palette) for v in picked]
    data, frames = await run(assemble, boards, standings, names, language, title)
    return Animation(
        data=data,
        frames=frames,
        positions=len(marks),
        shown=frames - 1,
        width=max(b.width for b in boards),
        height=max(b.height for b in boards),
    )
