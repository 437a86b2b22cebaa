"""Sample pictures of «Семидорожник»: `python -m tests.render.seven_tracks_samples OUTDIR`.

Writes one PNG per sample state (built directly as `View` objects, no engine needed),
plus a 360-px-wide copy of each, to look at the board the way a phone shows it.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from games.seven_tracks.model import (
    Block,
    Phase,
    PlayerView,
    Status,
    Track,
    View,
    expected_colour,
)
from render.seven_tracks import draw, encode, render

NAMES: dict[int, str] = {
    101: "Аня",
    102: "Борис",
    103: "Вероника",
    104: "Григорий Константинопольский",
    105: "Дима",
    106: "Ева",
}


def _colour_run(track: int, n: int, serial: int = 1) -> list[str]:
    """The first `n` slots of `track` filled with the expected colour tiles."""
    return [f"{expected_colour(track, i)}#{serial + i:02d}" for i in range(1, n + 1)]


def make_view(
    *,
    players: list[tuple[Status, int, int]],
    tracks: list[Track] | None = None,
    t7: list[str] | None = None,
    store: list[str] | None = None,
    phase: Phase = Phase.PLACING,
    current: int | None = 0,
    turn: dict[str, Any] | None = None,
    bank_size: int = 40,
    out_count: int = 0,
    restricted_left: int = 0,
    final_left: int = 0,
    round_no: int = 1,
    cycle_no: int = 1,
    winners: list[int] | None = None,
    ids: list[int] | None = None,
) -> View:
    """A public view; `players` lists (status, score, hand_count) by seat."""
    ids = ids or [101 + i for i in range(len(players))]
    return View(
        me=None,
        hand=None,
        players=[
            PlayerView(seat=i, player=ids[i], status=s, score=score, hand_count=hand)
            for i, (s, score, hand) in enumerate(players)
        ],
        tracks=tracks or [Track() for _ in range(6)],
        t7=t7 or [],
        store=store or [],
        out_count=out_count,
        bank_size=bank_size,
        phase=phase,
        current=current,
        turn=turn or {},
        exchange_size=None,
        restricted_left=restricted_left,
        final_left=final_left,
        round_no=round_no,
        cycle_no=cycle_no,
        target_score=144,
        single_round=False,
        last_round=None,
        winners=winners or [],
    )


A = Status.ACTIVE


def samples() -> dict[str, View]:
    """Named sample states covering what the picture has to show."""
    mid_tracks = [
        Track(slots=_colour_run(1, 3)),
        Track(
            slots=["O#01", "W#01", "G#02", "C#03", "B#04"], block=Block(tile="K#01", by=1, turn=7)
        ),
        Track(slots=_colour_run(3, 6)),
        Track(slots=["G#05", "C#06"]),
        Track(slots=["C#07", "U#01", "V#03"], block=Block(tile="U#02", by=2, turn=9)),
        Track(),
    ]
    whites = [
        Track(slots=["R#01", "W#01", "Y#02", "U#01", "C#02"]),
        Track(slots=["W#02"]),
        Track(slots=["Y#03", "G#03", "W#03", "B#03", "V#03", "W#04"]),
        Track(slots=["U#02", "C#04"], block=Block(tile="K#02", by=0, turn=3)),
        Track(slots=["C#05", "B#05", "V#05", "R#05", "O#05", "Y#05"]),
        Track(slots=["B#06", "W#05", "R#06"]),
    ]
    return {
        "01_empty": make_view(
            players=[(A, 0, 12)] * 4,
            phase=Phase.PRE_MOVE,
            bank_size=63,
        ),
        "02_midgame_blocks": make_view(
            players=[(A, 12, 7), (A, 30, 9), (A, 0, 4)],
            tracks=mid_tracks,
            t7=["R#09", "Y#09", "B#09"],
            store=["W#06"],
            current=1,
            turn={
                "n_dice": 2,
                "dice": [2, 4],
                "modes": {2: "single", 4: "single"},
                "is_double": False,
            },
            bank_size=31,
            out_count=14,
            round_no=2,
        ),
        "03_whites_one_die": make_view(
            players=[(A, 40, 5), (Status.OUT, 21, 0), (A, 7, 8), (A, 99, 10), (A, 3, 2)],
            tracks=whites,
            t7=["O#10", "G#10"],
            store=["W#07", "W#06", "U#01"],
            current=2,
            turn={"n_dice": 1, "dice": [5], "modes": {"5": "sequence"}, "is_double": False},
            bank_size=18,
            out_count=22,
            round_no=3,
            cycle_no=2,
        ),
        "04_full_centre_double": make_view(
            players=[(A, 0, 6), (A, 5, 6)],
            tracks=[Track(slots=_colour_run(k, k - 1)) for k in range(1, 7)],
            t7=["R#11", "O#11", "Y#11", "G#11", "C#11", "B#11"],
            current=0,
            turn={
                "n_dice": 2,
                "dice": [6, 6],
                "modes": {6: "single", 7: "single"},
                "is_double": True,
            },
            store=["W#01", "U#02"],
            bank_size=40,
        ),
        "05_restricted": make_view(
            players=[
                (A, 14, 3),
                (A, 55, 1),
                (Status.OUT, 0, 0),
                (A, 80, 6),
                (Status.ELIMINATED, 150, 0),
                (A, 20, 9),
            ],
            tracks=mid_tracks,
            t7=["V#12"],
            current=3,
            turn={
                "n_dice": 2,
                "dice": [1, 3],
                "modes": {1: "single", 3: "single"},
                "restricted": True,
            },
            restricted_left=2,
            bank_size=9,
            out_count=40,
            round_no=5,
            cycle_no=3,
        ),
        "06_game_over": make_view(
            players=[(Status.ELIMINATED, 151, 0), (A, 96, 0), (Status.ELIMINATED, 144, 0)],
            phase=Phase.GAME_OVER,
            current=None,
            winners=[1],
            round_no=9,
            cycle_no=4,
            bank_size=0,
        ),
    }


def bench(view: View, runs: int = 50) -> dict[str, float]:
    """Medians over `runs` (ms, wall clock and CPU) of a whole render, of `draw` alone and
    of the encoding alone, and the byte size."""
    render(view, NAMES)  # warm the caches (fonts, board, sprites, palette)

    def medians(fn: Callable[[], object]) -> tuple[float, float]:
        wall, cpu = [], []
        for _ in range(runs):
            t, c = time.perf_counter(), time.process_time()
            fn()
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        return statistics.median(wall), statistics.median(cpu)

    img = draw(view, NAMES)
    out: dict[str, float] = {"bytes": float(len(encode(img)))}
    for key, fn in (
        ("render", lambda: render(view, NAMES)),
        ("draw", lambda: draw(view, NAMES)),
        ("encode", lambda: encode(img)),
    ):
        out[f"{key}_ms"], out[f"{key}_cpu_ms"] = medians(fn)
    return out


def main(argv: list[str]) -> int:
    args = [a for a in argv if a != "--bench"]
    if len(args) != 1:
        usage = "usage: python -m tests.render.seven_tracks_samples OUTDIR [--bench]"
        print(usage, file=sys.stderr)
        return 2
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, view in samples().items():
        data = render(view, NAMES)
        path = out / f"{name}.png"
        path.write_bytes(data)
        with Image.open(path) as im:
            small = im.convert("RGB").resize(
                (360, round(im.height * 360 / im.width)), Image.Resampling.LANCZOS
            )
            small.save(out / f"{name}_360.png")
        print(f"{path}: {len(data) / 1024:.1f} KB")
    if "--bench" in argv:
        for name in ("02_midgame_blocks", "05_restricted"):
            r = bench(samples()[name])
            print(
                f"{name}: median of 50 — render {r['render_ms']:.1f} ms "
                f"(cpu {r['render_cpu_ms']:.1f}), draw {r['draw_ms']:.1f} ms, "
                f"encode {r['encode_ms']:.1f} ms (cpu {r['encode_cpu_ms']:.1f}), "
                f"{r['bytes'] / 1024:.1f} KB"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
