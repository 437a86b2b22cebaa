"""Plain-text tables of the benchmark numbers, each beside its baseline and target verdict."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.e2e import Scenario
    from bench.render import RenderResult

KB = 1024
MAX_PICTURE = 150 * KB
MAX_REDIS = 16 * KB
MAX_P99 = 0.050


def mark(ok: bool | None) -> str:
    return "–" if ok is None else ("✓" if ok else "✗")


def ms(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x * 1e3:.1f}"


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    line = "  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))
    out = [line, "-" * len(line)]
    for r in rows:
        out.append("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
    return "\n".join(out)


def render_table(results: Sequence[RenderResult]) -> str:
    rows = []
    for r in results:
        rows.append(
            [
                r.game_id,
                f"{r.width}×{r.height}",
                f"{ms(r.render_p50)} ({ms(r.zlib_render_p50)})",
                f"{ms(r.render_p95)} ({ms(r.zlib_render_p95)})",
                ms(r.draw_p50),
                f"{ms(r.encode_p50)} ({ms(r.zlib_encode_p50)})",
                ms(r.plain_png_p50),
                f"{r.ratio:.2f} {mark(r.ratio <= 2.0)}",
                f"{r.size_p50 / KB:.0f} / {r.size_max / KB:.0f} "
                f"({r.zlib_size_p50 / KB:.0f} / {r.zlib_size_max / KB:.0f}) "
                f"{mark(r.size_max < MAX_PICTURE)}",
                ms(r.first_render),
            ]
        )
    head = [
        "game",
        "size px",
        "render p50 ms",
        "p95 ms",
        "draw p50",
        "encode-only p50",
        "Pillow PNG p50",
        "render/encode ≤2",
        "KB p50/max <150",
        "cold 1st ms",
    ]
    compressors = sorted({r.compressor for r in results})
    return (
        "Board pictures (mid-game states; baseline: encoding the finished image)\n"
        f"PNG compressed by {', '.join(compressors) or '–'}; in brackets: the standard zlib, "
        "same run\n" + table(head, rows)
    )


def e2e_table(results: Sequence[Scenario]) -> str:
    echo = {(s.games, s.think): s for s in results if s.kind == "echo"}
    rows = []
    for s in results:
        if s.kind == "echo":
            continue
        base = echo.get((s.games, s.think))
        think = "none" if s.think == (0.0, 0.0) else f"{s.think[0]:g}–{s.think[1]:g} s"
        b_p50 = base.answer_p50 if base else float("nan")
        b_p99 = base.answer_p99 if base else float("nan")
        ok = None
        if base and not math.isnan(s.answer_p99):
            ok = s.answer_p99 <= 3 * b_p99 and s.answer_p99 < MAX_P99
        rows.append(
            [
                s.kind,
                str(s.games),
                think,
                f"{ms(s.answer_p50)} ({ms(b_p50)})",
                f"{ms(s.answer_p99)} ({ms(b_p99)}) {mark(ok)}",
                f"{ms(s.edit_p50)} ({ms(base.edit_p50 if base else math.nan)})",
                f"{ms(s.edit_p99)} ({ms(base.edit_p99 if base else math.nan)})",
                f"{ms(s.picture_p50)} / {ms(s.picture_p99)}",
                f"{s.media_per_s:.1f} / {s.caption_per_s:.1f}",
                f"{s.updates_per_s:.0f} ({base.updates_per_s:.0f})" if base else "",
                f"{s.bot_cpu:.2f} ({base.bot_cpu:.2f})" if base else "",
                f"{s.harness_cpu:.2f}/{s.load:.1f}",
                f"{s.rss / 2**20:.0f} ({base.rss / 2**20:.0f})" if base else "",
                "n/a" if math.isnan(s.answered_first) else f"{s.answered_first * 100:.0f}%",
                f"{s.samples}/{s.refused}/{s.unanswered + s.no_edit}",
            ]
        )
    head = [
        "bot",
        "games",
        "think",
        "answer p50 ms",
        "answer p99 ms",
        "edit p50 ms",
        "edit p99 ms",
        "picture p50/p99 ms",
        "media/caption edits/s",
        "updates/s",
        "CPU s/s",
        "harness/load",
        "RSS MiB",
        "answer 1st",
        "n/refused/lost",
    ]
    return (
        "The bot end to end (bot process; baseline in brackets: the echo bot, same harness)\n"
        "target: answer p99 ≤ 3 × echo p99 and < 50 ms; edit (the buttons) p99 ≤ 2 s;\n"
        "picture: press → the editMessageMedia carrying its version (or a later one)\n"
        + table(head, rows)
    )


def memory_table(results: Sequence[Scenario]) -> str:
    echo = {(s.games, s.think): s for s in results if s.kind == "echo"}
    paced = [s for s in results if s.think != (0.0, 0.0)]
    fewest = min((s.games for s in paced), default=0)
    one = {s.kind: s for s in paced if s.games == fewest}
    rows = []
    for s in results:
        if s.kind == "echo" or s.think == (0.0, 0.0):
            continue
        base = echo.get((s.games, s.think))
        first = one.get(s.kind)
        per_game = (
            (s.rss - first.rss) / max(1, s.games - first.games)
            if first is not None and s.games > first.games
            else math.nan
        )
        rows.append(
            [
                s.kind,
                str(s.games),
                f"{s.redis_per_game / KB:.1f} {mark(s.redis_per_game < MAX_REDIS)}"
                if not math.isnan(s.redis_per_game)
                else "n/a",
                f"{s.redis_value_len / KB:.1f}",
                f"{s.rss / 2**20:.0f}",
                f"{base.rss / 2**20:.0f}" if base else "n/a",
                "n/a" if math.isnan(per_game) else f"{per_game / KB:.0f}",
            ]
        )
    head = [
        "bot",
        "games",
        "Redis KB/game <16",
        "JSON KB/game",
        "RSS MiB",
        "echo RSS MiB",
        "RSS KB per extra game",
    ]
    return (
        "Memory (Redis MEMORY USAGE of the game keys, beside the JSON value's own length;\n"
        "the bot process's RSS beside the echo bot's)\n" + table(head, rows)
    )


def engine_table(results: Sequence[dict[str, float]], players: Sequence[int] = (2, 4, 6)) -> str:
    rows = []
    for n, m in zip(players, results, strict=True):
        rows.append(
            [
                str(n),
                f"{m['games_per_s']:.2f}",
                f"{m['actions_per_game']:.0f}",
                f"{m['step_median_us']:.0f}",
                f"{m['legal_median_us']:.0f}",
                f"{m['copy_median_us']:.0f}",
                f"{m['ours_median_us']:.0f}",
                f"{m['json_median_b'] / KB:.1f}",
            ]
        )
    head = [
        "players",
        "games/s",
        "actions/game",
        "step p50 µs",
        "legal_actions p50 µs",
        "deep copy p50 µs",
        "deep_copy p50 µs",
        "state JSON KB",
    ]
    return (
        "Engine: random full games of «Семидорожник» to 144 (baselines: legal_actions alone,\n"
        "a bare pydantic deep copy of the state beside games.copying.deep_copy)\n"
        + table(head, rows)
    )
