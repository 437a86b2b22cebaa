"""Every picture stays pixel for pixel what it was (issue 12 point 5: the render layer's
reorganisation changes no picture): the boards of every game in Russian and English, both
as sent (for «Семидорожник»: assembled on its palette) and drawn whole in RGB, the hands
and a replay's standings frame (tests/render/pixel_pins.py stores them).
"""

from __future__ import annotations

import pytest

from tests.render.pixel_pins import (
    board_pictures,
    load,
    other_pictures,
    png_hash,
    seven_tracks_samples,
)

BOARDS, OTHER = load()


@pytest.mark.parametrize(
    "i", range(len(BOARDS)), ids=[f"{game}-{i}" for i, (game, _, _) in enumerate(BOARDS)]
)
def test_board_pictures_keep_their_pixels(i: int) -> None:
    game_id, view, pinned = BOARDS[i]
    assert board_pictures(game_id, view) == pinned


@pytest.mark.parametrize("name", sorted(seven_tracks_samples()))
def test_seven_tracks_samples_keep_their_pixels(name: str) -> None:
    view = seven_tracks_samples()[name]
    assert board_pictures("seven_tracks", view, "samples") == OTHER[f"seven_tracks-{name}"]


@pytest.mark.parametrize("name", sorted(other_pictures()))
def test_hands_and_replay_frames_keep_their_pixels(name: str) -> None:
    assert png_hash(other_pictures()[name]()) == OTHER[name]["png"]


def test_every_game_is_pinned_in_both_languages_and_both_paths() -> None:
    games = {game for game, _, _ in BOARDS}
    assert games == {"cell_capture", "dominas", "hypnosia", "sea_cross", "seven_tracks"}
    for _, _, pinned in BOARDS:
        assert set(pinned) == {"ru", "en", "ru_rgb", "en_rgb"}
        assert pinned["ru"] != pinned["en"]  # the words differ
    assert len(BOARDS) >= 5 * 6
