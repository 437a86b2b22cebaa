"""CPU of a «Семидорожник» press on the presenter alone: no Telegram, no Redis.

    python -m bench.press [--games 30] [--baseline 8dbde6d]   (also part of `python -m bench`)

Three players play whole games by the plan of the e2e bench's players (`bench.e2e.PLAN`:
the dice, «▶ Выставить всё», «✅ Закончить ход», …): each step draws the table's caption
and keyboard, as the table worker does, and presses the first button of the plan that
moves the game. Prints the CPU per press of the working tree and, in the same run, of the
baseline commit (its `bot/ games/ render/ locales/` extracted as `bench.e2e` does), each
in a fresh process. The same seeds, so both play the same games move for move.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.e2e import PLAN, ROOT, checkout

PLAYERS = [1, 2, 3]
NAMES = {1: "Аня", 2: "Борис", 3: "Вика"}


def play(games: int) -> int:
    """Play `games` games by the plan; the presses made."""
    from bot.presenters.base import Refusal, TableCtx
    from bot.presenters.seven_tracks import SevenTracksPresenter
    from bot.presenters.seven_tracks.codes import Ui
    from games import IllegalAction
    from locales import get_translator

    t = get_translator("ru")
    p = SevenTracksPresenter()

    def ctx(ui: Any) -> Any:
        return TableCtx(t=t, ui=ui, names=NAMES, log=[])

    def settled(s: Any, ui: Any) -> tuple[Any, Any]:
        adv = p.advance(s, ctx(ui))
        s, ui = adv.state, adv.ui or ui
        while p.game.is_simultaneous(s):  # the first-move window runs out
            s, _ = p.game.timeout_turn(s)
            adv = p.advance(s, ctx(ui))
            s, ui = adv.state, adv.ui or ui
        return s, ui

    presses = 0
    for seed in range(games):
        s, ui = settled(p.new_state(PLAYERS, seed, {"single_round": True}), Ui())
        for _ in range(600):
            if p.game.is_over(s):
                break
            keyboard = p.keyboard(s, ctx(ui))
            p.caption(s, ctx(ui))
            codes = {b.text: b.code for row in keyboard for b in row}
            actor = p.actor(s)
            assert actor is not None  # outside the window someone is to act
            moved = False
            for label in (x for x in PLAN if x in codes):
                presses += 1
                try:
                    out = p.press(s, actor, p.parse(codes[label]), ctx(ui))
                except (Refusal, IllegalAction):
                    continue
                if out.changed:
                    s, ui = settled(out.state, out.ui or ui)
                    moved = True
                    break
            if not moved:  # nothing of the plan moves: the turn timer's move
                s, _ = p.game.timeout_turn(s)
                s, ui = settled(s, ui)
    return presses


def measure(games: int) -> dict[str, float]:
    play(2)  # warm: imports, caches
    t0 = time.process_time()
    n = play(games)
    cpu = time.process_time() - t0
    return {"presses": n, "ms_per_press": 1000 * cpu / n}


def run_in(root: Path, games: int) -> dict[str, float]:
    """`measure` in a fresh process on the bot of `root`."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(1, sys.argv[2]);"
        "from bench.press import measure; print(json.dumps(measure(int(sys.argv[3]))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(root), str(ROOT), str(games)],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


BASELINE = "8dbde6d"  # the last commit before run 18's cuts (docs/performance.md)


def report(games: int, baseline: str = BASELINE) -> str:
    """The table: the baseline commit's CPU per press, then this tree's."""
    lines = [
        f"A press on the presenter: «Семидорожник», 3 players, {games} games by the e2e "
        f"players' plan (baseline: rev:{baseline})",
        f"{'bot':>16} {'presses':>8} {'CPU ms per press':>17}",
    ]
    for name, root in ((f"rev:{baseline}", checkout(baseline)), ("this tree", ROOT)):
        m = run_in(root, games)
        lines.append(f"{name:>16} {m['presses']:>8.0f} {m['ms_per_press']:>17.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    args = parser.parse_args()
    print(report(args.games, args.baseline))


if __name__ == "__main__":
    main()
