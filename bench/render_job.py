"""The render job's own cost: what the bot pickles and the render process unpickles per
table picture, before the drawing starts.

    python -m bench.render_job [--states N] [--repeat R]

For every game, `N` mid-game states (bench/render.py `mid_game_states`), each job built,
pickled and unpickled `R` times, as the bot and its render process do, in three forms:

- `method`: the job as it was, `(presenter.picture, (state, names, language))` — the
  bound method pickles the presenter, the state goes whole, and the render process
  takes the public view out of the state; the table worker took the view for the
  picture's key (`picture_key`) apart;
- `json`: `(game id, public view as JSON, names, language)` (bot/warm_up.py
  `PictureJob`): the table worker takes the view and dumps it once for the key and the
  job (`Presenter.table_picture`), the process validates it;
- `dict`: the same with the view as `model_dump()`'s dict (dumped apart from the key's
  JSON).

Per picture: the bot's side (the key + the job, pickled), the process's side (unpickle +
view or validation), the pickle's bytes, and beside them the key alone (`picture_key`,
which the table worker takes for every refresh); medians over the states. No picture is
drawn.
"""

from __future__ import annotations

import argparse
import functools
import pickle
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

import games
from bench.render import mid_game_states
from bench.stats import median
from bot.presenters import registry
from bot.presenters.base import Presenter

P = pickle.HIGHEST_PROTOCOL
LANGUAGE = "ru"


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median seconds of `fn()` over `repeat` calls, and its last result."""
    times: list[float] = []
    out: Any = None
    for _ in range(repeat):
        started = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - started)
    return median(times), out


def forms(
    p: Presenter[Any, Any], state: BaseModel, names: dict[int, str]
) -> dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]]:
    """Each form's (bot side: the key and the job, pickled; process side: the view out of
    the pickle)."""
    vtype = games.view_type(p.game_id)

    def method_in() -> bytes:
        p.picture_key(state, LANGUAGE)
        return pickle.dumps((p.picture, (state, names, LANGUAGE)), P)

    def method_out(raw: bytes) -> BaseModel:
        fn, args = pickle.loads(raw)
        view: BaseModel = fn.__self__.public_view(args[0])  # what `picture` draws from
        return view

    def json_in() -> bytes:
        _, job = p.table_picture(state, names, LANGUAGE)
        return pickle.dumps(job, P)

    def json_out(raw: bytes) -> BaseModel:
        return vtype.model_validate_json(pickle.loads(raw)[1])

    def dict_in() -> bytes:
        view = p.public_view(state)
        p.view_key(view, LANGUAGE)
        return pickle.dumps((p.game_id, view.model_dump(), dict(names), LANGUAGE), P)

    def dict_out(raw: bytes) -> BaseModel:
        return vtype.model_validate(pickle.loads(raw)[1])

    return {
        "method": (method_in, method_out),
        "json": (json_in, json_out),
        "dict": (dict_in, dict_out),
    }


def measure(states: int, repeat: int) -> list[tuple[str, str, float, float, int, float]]:
    """(game, form, bot side s, process side s, bytes, the key alone s): medians over the
    states."""
    rows = []
    for game_id, p in registry().items():
        game = games.get(game_id)
        players = min(4, game.max_players) if game.min_players <= 4 else game.min_players
        samples = mid_game_states(game_id, players, states)
        got: dict[str, list[tuple[float, float, int]]] = {}
        keys: list[float] = []
        for state, names in samples:
            want = p.public_view(state)
            keys.append(timed(functools.partial(p.picture_key, state, LANGUAGE), repeat)[0])
            for name, (into, out) in forms(p, state, names).items():
                t_in, raw = timed(into, repeat)
                t_out, view = timed(functools.partial(out, raw), repeat)
                assert view == want, (game_id, name)  # the same view reaches the renderer
                got.setdefault(name, []).append((t_in, t_out, len(raw)))
        for name, xs in got.items():
            rows.append(
                (
                    game_id,
                    name,
                    median([x[0] for x in xs]),
                    median([x[1] for x in xs]),
                    int(median([x[2] for x in xs])),
                    median(keys),
                )
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    print(
        f"{'game':<14}{'form':<8}{'bot µs':>9}{'worker µs':>11}{'total µs':>10}{'bytes':>8}"
        f"{'key alone µs':>14}"
    )
    for game_id, name, t_in, t_out, size, key in measure(args.states, args.repeat):
        total = (t_in + t_out) * 1e6
        print(
            f"{game_id:<14}{name:<8}{t_in * 1e6:>9.1f}{t_out * 1e6:>11.1f}{total:>10.1f}{size:>8}"
            f"{key * 1e6:>14.1f}"
        )


if __name__ == "__main__":
    main()
