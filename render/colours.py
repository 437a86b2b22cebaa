"""The colours of every picture: the named inks and fills, the seven spectrum colours most
games use, and the colour maths between them (`mix`, `contrast_ink`).

Pictures are read on phones at about 360 px, so the inks are strong and the fills flat.

Example:
    >>> mix(WHITE, BLACK, 0.5)
    (138, 138, 140)
    >>> contrast_ink(SPECTRUM["B"]) == WHITE, contrast_ink(SPECTRUM["Y"]) == INK
    (True, True)
"""

from __future__ import annotations

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Colour = RGB | RGBA

INK: RGB = (28, 28, 34)  # text and outlines
INK_SOFT: RGB = (88, 84, 80)  # secondary text
PAPER: RGB = (246, 240, 228)  # picture background
PAPER_DARK: RGB = (226, 214, 192)  # panels on the paper
LINE: RGB = (150, 136, 112)  # thin separators
HIGHLIGHT: RGB = (255, 196, 0)  # "this one": the player to act, available tracks
HIGHLIGHT_SOFT: RGB = (255, 233, 150)
GOOD: RGB = (46, 125, 50)
BAD: RGB = (198, 40, 40)
MUTED: RGB = (150, 146, 140)  # players who are out of play
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (22, 22, 24)

# The seven spectrum colours most games here use, chosen to stay apart from each
# other on a phone screen (orange vs red, light blue vs blue vs violet).
SPECTRUM: dict[str, RGB] = {
    "R": (229, 57, 53),
    "O": (251, 140, 0),
    "Y": (253, 216, 53),
    "G": (67, 160, 71),
    "C": (41, 182, 246),
    "B": (30, 64, 175),
    "V": (142, 36, 170),
}


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend `a` towards `b` by `t` (0 = a, 1 = b)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luminance(c: RGB) -> float:
    """Relative luminance (WCAG), 0..1."""

    def ch(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else float(((s + 0.055) / 1.055) ** 2.4)

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast_ink(background: RGB) -> RGB:
    """INK or WHITE, whichever reads better on `background`."""
    lum = luminance(background)
    on_white = (1.05) / (lum + 0.05)
    on_ink = (lum + 0.05) / (luminance(INK) + 0.05)
    return WHITE if on_white > on_ink else INK
