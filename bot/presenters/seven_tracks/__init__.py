"""«Семидорожник» at the table: caption, public keyboard, compound buttons, narration.

The group keyboard depends only on the public phase and board, never on a hand: every
button is resolved against the acting player's legal actions when he presses it, and
refused privately with the engine's reason when nothing matches. Compound buttons
expand into several atomic actions:

- «▶ Дорожка k»: the longest run of his tiles on track k (colours, a white when the
  colour is missing; removes a block with a white first);
- «▶ Выставить всё»: that on every available track and the centre; if nothing fits,
  it draws from the bank until a tile fits (R44) and places it. A player who could
  play a priority tile instead of drawing (R48) is told so first, privately, once a
  turn; pressed again, it draws on;
- «📥 Взять из кассы»: draws until a tile fits, or one tile at a time while a priority
  tile could be played instead (R48);
- «✅ Закончить ход»: END_PLACING + END_TURN;
- the priority menu's «после хода» uses: WAIVE when it applies, else END_PLACING + AFTER_MOVE.
  Its plain buttons spend only the original tile; «✨ Универсальной…» opens the same
  menu for the universal, which is never spent in place of a missing original.

Every hint and refusal that says nothing fits names the priority tiles the player could
play; a refusal for a missing tile names it («нужна 🟧 оранжевая или ⬜ белая»).

A typical turn is three taps: «Два кубика», «▶ Выставить всё», «✅ Закончить ход». A turn
in which, after the roll, nothing can be placed, drawn or played is ended by the bot,
and the table says so in one line (R66).

The presenter is assembled from the modules of this package: `common` (the tiles' emoji
and texts, the base class), `caption`, `keyboard`, `compound` (the compound buttons' runs),
`press`, `turns` (the turn timer, the first-move window, the turns the bot ends), `hands`,
`narration` and `summaries`.
"""

from __future__ import annotations

from bot.config import Settings
from bot.presenters.seven_tracks.caption import Caption
from bot.presenters.seven_tracks.common import EMOJI, SevenTracksBase, tiles_text
from bot.presenters.seven_tracks.hands import Hands
from bot.presenters.seven_tracks.keyboard import Keyboard
from bot.presenters.seven_tracks.narration import Narration
from bot.presenters.seven_tracks.press import Press
from bot.presenters.seven_tracks.summaries import Summaries

__all__ = ["EMOJI", "SevenTracksBase", "SevenTracksPresenter", "make_presenter", "tiles_text"]


class SevenTracksPresenter(Caption, Keyboard, Hands, Press, Narration, Summaries):
    """The presenter, assembled from its parts (the modules of this package)."""


def make_presenter(settings: Settings | None) -> SevenTracksPresenter:
    seconds = settings.first_move_seconds if settings else 20.0
    return SevenTracksPresenter(first_move_seconds=seconds)
