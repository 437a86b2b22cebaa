"""A finished game's replay as an animated GIF (`/replay`, bot/memory/replay.py): the
board after each sampled turn, downscaled for a phone, then the final standings.

    >>> sample(5, 3), sample(3, 5)
    ([0, 2, 4], [0, 1, 2])

Every frame is mapped onto one palette fitted to a few of them (so a frame that differs
from the one before only where the board changed is stored as that small rectangle),
without dithering (flat areas stay flat and compress well).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from locales import DEFAULT_LANGUAGE, get_translator
from render.colours import HIGHLIGHT_SOFT, INK, INK_SOFT, LINE, PAPER, PAPER_DARK
from render.palette import fit_palette
from render.text import clean_text, draw_text

WIDTH = 480  # px: a phone shows an animation about this wide
POSITIONS = 40  # boards at most (the standings come after them)
PACE_MS = 1500  # a board's time on screen in a short game
TOTAL_MS = 50_000  # the boards' time together at most (then the standings)
LAST_MS = 4000  # the standings' time on screen
PALETTE_SAMPLES = 4  # frames the shared palette is fitted to


def sample(count: int, limit: int = POSITIONS) -> list[int]:
    """Indices of at most `limit` of `count` positions, evenly spread, the first and the
    last always among them."""
    if count <= limit:
        return list(range(count))
    if limit <= 1:
        return [count - 1]
    return [round(i * (count - 1) / (limit - 1)) for i in range(limit)]


def board_ms(boards: int) -> int:
    """How long each of `boards` boards is shown: `PACE_MS`, less in a long game so that
    all of them take `TOTAL_MS` at most."""
    return min(PACE_MS, TOTAL_MS // max(1, boards))


def downscaled(img: Image.Image, width: int = WIDTH) -> Image.Image:
    """`img` in RGB, `width` pixels wide (never enlarged)."""
    rgb = img.convert("RGB")
    if rgb.width <= width:
        return rgb
    height = max(1, round(rgb.height * width / rgb.width))
    return rgb.resize((width, height), Image.Resampling.LANCZOS)


def standings_frame(
    size: tuple[int, int],
    rows: Sequence[tuple[int, int, int]],
    names: Mapping[int, str],
    language: str = DEFAULT_LANGUAGE,
    subtitle: str = "",
) -> Image.Image:
    """The last frame: «Итоги», `subtitle` (the game's title) and one line per player,
    (player, place, score) best first, in the middle of a frame of `size`."""
    t = get_translator(language)
    width, height = size
    img = Image.new("RGB", size, PAPER)
    d = ImageDraw.Draw(img)
    pad = max(12, width // 24)
    title = max(20, width // 13)
    small = max(16, width // 26)
    line = max(16, min(width // 17, (height - 4 * pad - title - small) // max(1, len(rows)) - 22))
    row = line + 22
    block = title + pad + (small + pad if subtitle else 0) + row * len(rows)
    y = max(pad, (height - block) // 2)
    draw_text(d, (width / 2, y), t("render.replay.final"), size=title, bold=True, anchor="ma")
    y += title + pad
    if subtitle:
        room = width - 2 * pad
        draw_text(
            d, (width / 2, y), subtitle, size=small, fill=INK_SOFT, anchor="ma", max_width=room
        )
        y += small + pad
    for player, place, score in rows:
        if y + row > height:
            break
        box = (pad, y, width - pad, y + row - 8)
        fill = HIGHLIGHT_SOFT if place == 1 else PAPER_DARK
        d.rounded_rectangle(box, radius=10, fill=fill, outline=LINE)
        mid = y + (row - 8) / 2
        points = t.plural(score, "render.points")
        right = draw_text(d, (width - 2 * pad, mid), points, size=line, fill=INK_SOFT, anchor="rm")
        name = clean_text(names.get(player, "")) or t("render.player", n=place)
        label = t("render.replay.place", place=place, name=name)
        room = width - 4 * pad - right - 8
        draw_text(
            d,
            (2 * pad, mid),
            label,
            size=line,
            bold=place == 1,
            fill=INK,
            anchor="lm",
            max_width=room,
            min_size=max(14, line * 3 // 4),
        )
        y += row
    return img


def shared_palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, fitted to a few of `images` (first, middle, last)."""
    return fit_palette([images[i] for i in sample(len(images), PALETTE_SAMPLES)], 255)


def indexed(img: Image.Image, palette: Image.Image) -> Image.Image:
    """`img` (RGB) mapped onto `palette`, undithered."""
    return img.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def gif(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """An animated GIF of `frames` (mapped onto one palette: `indexed`), each shown its
    duration in ms, looped; a frame smaller than the largest is placed top left on the
    paper. A frame equal to the one before it is merged into it (Pillow): the caller
    passes distinct frames."""
    if not frames:
        raise ValueError("no frames")
    size = (max(f.width for f in frames), max(f.height for f in frames))
    same: list[Image.Image] = []
    for f in frames:
        if f.size != size:
            canvas = Image.new("RGB", size, PAPER)
            canvas.paste(f.convert("RGB"), (0, 0))
            f = indexed(canvas, f) if f.mode == "P" else canvas
        same.append(f)
    out = io.BytesIO()
    options: dict[str, Any] = {"save_all": True, "loop": 0, "optimize": False, "disposal": 1}
    same[0].save(out, format="GIF", append_images=same[1:], duration=list(durations), **options)
    return out.getvalue()


def frame_count(data: bytes) -> int:
    """Frames of a GIF (the tests and the benchmark look)."""
    with Image.open(io.BytesIO(data)) as im:
        return int(getattr(im, "n_frames", 1))
