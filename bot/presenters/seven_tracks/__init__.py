"""«Семидорожник» at the table: caption, public keyboard, compound buttons, narration.

The group keyboard depends only on the public phase and board, never on a hand: every
button is resolved against the acting player's legal actions when he presses it, and
refused privately with the engine's reason when nothing matches.

Its buttons speak the one button language (bot/presenters/buttons.py). A button that
applies one engine action carries the action's encoding: the dice («🎲🎲 Два кубика»
`CD,,,,,,,2`), a track menu's exact choices (`PL,O,3`, `BL,K,3`, `RC,,3,1`, …), the
centre's colours, the bonus store, the black discard, the priority menu's uses instead
of the move and its shifts (`IM,SK,,,,SK`, `SH,U,,,0,OP`), the cancelled restriction,
the fifth swap and the exchange's tiles. The others are compound codes (`codes.py`):

- «▶ Дорожка k» (`Run`): the longest run of his tiles on track k (colours, a white when
  the colour is missing; removes a block with a white first);
- «▶ Выставить всё» (`PlaceAll`): that on every available track and the centre; if
  nothing fits, it draws from the bank until a tile fits (R44) and places it. A player
  who could play a priority tile instead of drawing (R48) is told so first, privately,
  once a turn (`Ui.offered`); pressed again, it draws on;
- «▶ Центр» (`CentreAll`): the colours the centre lacks, on a double;
- «📥 Взять из кассы» (`Draw`): draws until a tile fits, or one tile at a time while a
  priority tile could be played instead (R48);
- «✅ Закончить ход» (`EndTurn`): END_PLACING + END_TURN;
- the priority menu's «после хода» uses (`After`) and its exchange (`Exchange`): WAIVE
  when it applies, else END_PLACING + AFTER_MOVE (or EXCHANGE_BEGIN). Its plain buttons
  spend only the original tile; «✨ Универсальной…» opens the same menu for the
  universal, which is never spent in place of a missing original;
- the menus (`Open`, `TrackMenu`, `Back`, the titles `Label`), kept in the table's state
  (`Ui`);
- the first-move window's «⭐ Заявить право первого хода» and «Не использовать»
  (`Declare`, `Pass`): the same public buttons for all, carrying no version (the table
  is not redrawn while the window runs), each applied at once as the presser's own answer.

Every hint and refusal that says nothing fits names the priority tiles the player could
play; a refusal for a missing tile names it («нужна 🟧 оранжевая или ⬜ белая»).

A typical turn is three taps: «Два кубика», «▶ Выставить всё», «✅ Закончить ход». What
the bot plays by itself is the engine's (`forced`, `timeout_turn`, `turn_key`): a window
answer that is no choice, and a turn in which, after the roll, nothing can be placed,
drawn or played (R66), which the table tells in one line.

The presenter is assembled from the modules of this package: `common` (the tiles' emoji
and texts, the base class), `codes` (the compound codes, the table's state), `caption`,
`keyboard`, `compound` (the compound buttons' runs), `press`, `turns` (the first-move
window's answers, the table after the bot's moves), `hands`, `narration` and `summaries`.
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
