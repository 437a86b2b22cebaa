"""`python -m bench.names`: what the names' cleaning and the caption fitting cost per
table caption, beside the old way (the stored names as they are, `len` against the
limit) measured in the same run.

Cases: three ordinary names; six 64-character names full of emoji sequences (fit at
full length); the same six under a 500-unit limit (the names get shortened).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.caption_fit import fit_caption
from bot.presenters.seven_tracks import SevenTracksPresenter
from bot.storage import GameRecord
from bot.table import CAPTION_LIMIT
from locales import get_translator

T = get_translator("ru")
LONG = "👨\u200d👩\u200d👧\u200d👦🇷🇺<b>&amp;</b>👩🏽\u200d❤\ufe0f\u200d👨🏿👍🏽1\ufe0f\u20e3 <&> "


def per_call_us(fn: Callable[[], object], seconds: float = 0.5) -> float:
    fn()
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        n += 1
    return (time.perf_counter() - start) / n * 1e6


def case(names: list[str], limit: int) -> tuple[float, float]:
    p = SevenTracksPresenter()
    players = list(range(1, len(names) + 1))
    state = p.advance(p.new_state(players, 7, {"single_round": True}), p.context(T, {})).state
    state, _ = p.game.timeout_turn(state)  # the first-move window ran out
    rec = GameRecord(chat_id=1, uid="b", game_id="seven_tracks", creator=1, players=players)
    rec.names = dict(zip(players, names, strict=True))
    log = ["Аня бросает: [3] [5]", "Аня: 🟥🟥 на 3-ю дорожку", "Борис бросает: [6]"]

    def old() -> str:
        for keep in (3, 1, 0):
            c = p.context(T, {}, dict(rec.names), log[-keep:] if keep else [])
            caption = p.caption(state, c)
            if len(caption) <= limit:
                break
        return caption

    def new() -> str:
        names = rec.display_names()
        return fit_caption(
            lambda shown, lines: p.caption(state, p.context(T, {}, shown, lines)),
            lambda width: names if width is None else rec.display_names(width),
            log,
            limit,
        )

    return per_call_us(old), per_call_us(new)


def main() -> None:
    six = [f"{x} {LONG * 3}"[:64] for x in ("Аня", "Борис", "Вика", "Аня", "Даша", "Егор")]
    cases = [
        ("3 ordinary names", ["Аня", "Борис", "Вика"], CAPTION_LIMIT),
        ("6 long emoji names", six, CAPTION_LIMIT),
        ("6 long names, limit 500", six, 500),
    ]
    print(f"{'table caption':<26} {'old (µs)':>10} {'new (µs)':>10} {'new/old':>8}")
    for title, names, limit in cases:
        old, new = case(names, limit)
        print(f"{title:<26} {old:>10.0f} {new:>10.0f} {new / old:>8.2f}")


if __name__ == "__main__":
    main()
