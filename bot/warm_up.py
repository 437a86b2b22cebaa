"""Renderers warmed up per game on first use, in the background; drawn cold meanwhile.

A renderer's caches (`render/<id>.py` `warm_up`: its board, sprites, and above all the
fixed palette fitted to a set of sample pictures) take 1–5 s per game to fill, 12–48 s
for all five on a loaded machine. Nothing waits for them any more:

- `picture(game_id, view, names, language)` (what `Presenter.picture` draws with, and a
  table's picture job, `draw_job`, in the render process) asks for the
  game's warm-up once its first picture is drawn and, until that warm-up is done, draws
  the picture *cold*: `draw_rgb` (or `draw`) and a palette fitted to that picture alone
  (`render.png.encode_png`) instead of the game's fixed palette, which costs tens to
  hundreds of ms where fitting the fixed palette costs seconds. The same drawing, its
  own 256 colours; once the game is warm its pictures are the usual ones again.
- the warm-ups run one game at a time on one daemon thread of the process that draws (the
  render process, or the bot's own with render threads), in the order the games were
  first wanted: a chat of game A never waits for B..E. The thread keeps the process's
  CPU priority: it shares the GIL with the thread that draws the tables, and a niced
  holder of the GIL is a priority inversion — on a saturated machine the scheduler gives
  it a time slice rarely, and the pictures wait for the GIL as long. At nice 19, with
  three busy loops on this 2-core machine, `test_render_processes.py`'s two-process test
  took 61–62 s and once missed its 30 s wait for the first table; at the process's
  priority 37–40 s, both runs passed.
  Nothing is warmed ahead at a restart, not even the games with a live table: the
  presses queued meanwhile arrive at once, and a warm-up running then slowed their cold
  pictures down (about 1 → 2 s in `bench/restart.py`).

`NASTOLKA_TEST_WARM_UP_DELAY` (seconds, tests and benchmarks only) makes each game's
warm-up start that much later, so that "before the warm-up finished" is deterministic;
`NASTOLKA_TEST_RENDER_DELAY` (seconds) makes every picture that much slower to draw (the
process that draws sleeps first), so that "the pictures can't keep up" is too.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

import games
from locales import DEFAULT_LANGUAGE

log = logging.getLogger(__name__)

DELAY_ENV = "NASTOLKA_TEST_WARM_UP_DELAY"
RENDER_DELAY_ENV = "NASTOLKA_TEST_RENDER_DELAY"


def renderer(game_id: str) -> Any | None:
    """`render.<game_id>`, or None for a game without a renderer."""
    try:
        return importlib.import_module(f"render.{game_id}")
    except ImportError:
        return None


SHARED = ("games", "bot.presenters", "render.shapes", "render.palette", "PIL.PngImagePlugin")


def prepare() -> None:
    """Import what every game's pictures need (the engines, the presenters' base, Pillow,
    the drawing and PNG modules `render/` shares: ~0.3 s of CPU), e.g. when a render
    process starts; a game's own renderer and presenter (~0.1 s) are imported by its first
    picture."""
    for name in SHARED:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def warm_up_one(game_id: str) -> None:
    """Fill one renderer's caches (`render/<id>.py` `warm_up`; none: nothing to do)."""
    module = renderer(game_id)
    warm = getattr(module, "warm_up", None)
    if callable(warm):
        warm()


def draw_cold(
    module: Any, view: Any, names: Mapping[int, str] | None, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """The picture without the game's fixed palette: drawn whole in RGB (`draw_rgb` where
    the renderer has one, `draw` otherwise) and encoded on a palette of its own."""
    encoder: Any = importlib.import_module("render.png")
    draw = getattr(module, "draw_rgb", None) or module.draw
    png: bytes = encoder.encode_png(draw(view, names, language=language))
    return png


def seconds(env: str) -> float:
    """A test delay from the environment (0 when unset or unreadable)."""
    try:
        return max(0.0, float(os.environ.get(env, "0") or 0))
    except ValueError:
        return 0.0


class Warmer:
    """The games of this process that are warm, and the thread that warms the others,
    one at a time, in the order they were first wanted."""

    def __init__(
        self,
        warm: Callable[[str], None] = warm_up_one,
        delay: float | None = None,
    ) -> None:
        self._warm_one = warm
        self._delay = delay
        self._lock = threading.Lock()
        self._done = threading.Condition(self._lock)
        self._warm: set[str] = set()
        self._wanted: set[str] = set()
        self._queue: collections.deque[str] = collections.deque()
        self._thread: threading.Thread | None = None
        self.after: Callable[[], None] | None = None  # run after each game's warm-up

    def is_warm(self, game_id: str) -> bool:
        return game_id in self._warm  # a set's membership test is atomic

    def want(self, game_id: str) -> bool:
        """Warm `game_id` in the background unless it is warm or on its way (False)."""
        with self._lock:
            if game_id in self._wanted:
                return False
            self._wanted.add(game_id)
            self._queue.append(game_id)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="warm-up", daemon=True)
                self._thread.start()
        return True

    def wait(self, game_id: str, timeout: float) -> bool:
        """Until `game_id` is warm (True) or `timeout` seconds passed (False)."""
        with self._done:
            return self._done.wait_for(lambda: game_id in self._warm, timeout)

    def delay(self) -> float:
        return self._delay if self._delay is not None else seconds(DELAY_ENV)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                game_id = self._queue.popleft()
            time.sleep(self.delay())
            started = time.perf_counter()
            try:
                self._warm_one(game_id)
            except Exception:
                log.exception("warming up render.%s failed", game_id)
            took = time.perf_counter() - started
            with self._done:
                self._warm.add(game_id)
                self._done.notify_all()
            log.info("render.%s warmed up in %.1f s (pid %d)", game_id, took, os.getpid())
            if self.after is not None:
                try:
                    self.after()
                except Exception:
                    log.exception("after the warm-up of render.%s", game_id)


WARMER = Warmer()  # this process's renderers: their caches are module globals too


def picture(
    game_id: str, view: Any, names: Mapping[int, str] | None, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """PNG bytes of `view` drawn by `render/<game_id>.py`, its words in `language` (the
    chat's): the usual picture once the game is warm, else a cold one, and the game's
    warm-up is started in the background."""
    module = renderer(game_id)
    if module is None:
        raise LookupError(f"no renderer for {game_id!r}")
    slow = seconds(RENDER_DELAY_ENV)
    if slow:
        time.sleep(slow)
    if WARMER.is_warm(game_id):
        png: bytes = module.render(view, names, language=language)
        return png
    started = time.perf_counter()
    png = draw_cold(module, view, names, language)
    if WARMER.want(game_id):  # after its first picture, which must not share the CPU
        log.info(
            "render.%s: first picture drawn cold in %.0f ms; warming up in the background",
            game_id,
            (time.perf_counter() - started) * 1e3,
        )
    return png


PictureJob = tuple[str, str, dict[int, str], str]
"""A table's picture as the render process is sent it: plain data, no function — the
game's id (its renderer is `render/<game id>.py`), the table's public view as JSON (the
engine's view model, dumped), the players' names, the language of its words."""


def picture_job(
    game_id: str, view: BaseModel, names: Mapping[int, str], language: str = DEFAULT_LANGUAGE
) -> PictureJob:
    """The job that draws `view` (`draw_job`), as the bot sends it."""
    return (game_id, view.model_dump_json(), dict(names), language)


def draw_job(job: PictureJob) -> bytes:
    """The picture of a job (where it is drawn: the render process, or a render thread):
    the view validated back into the game's view model, drawn by `picture`."""
    game_id, view_json, names, language = job
    view = games.view_type(game_id).model_validate_json(view_json)
    return picture(game_id, view, names, language)
