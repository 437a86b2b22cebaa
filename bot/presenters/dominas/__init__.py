"""«ДОМИНА*С» at the table: private hands behind a public two-step keyboard (spec §6).

The group keyboard depends only on the public view: one button per open nest with its
required symbol (`▲ 2`; a far nest also gets `▲ 2 ⟲`, the second way to attach), the
numbers of the tiles in the hand of the player to move (only while his private hand
falls back: bot/hands/dominas.py), «🀄 Мои фишки» and, during a bonus series,
«⏹ Хватит». The caption tells him to press a nest or «🀄 Мои фишки» — both lead to a
move from what he sees. A tile keeps its number while it is in the hand (the engine's
`slot_numbers`: the dealt tiles are numbered at random, each drawn one gets the next
number), so a button never changes meaning when another tile leaves; which numbers are
left reveals nothing. A tile is named by its colour and number, `🟢12 0-3-6` (no colour
letter that reads as a digit: З12 looks like 312).

«⏹ Хватит» is the engine's action (`S`); every other button depends on the hand and is a
compound code (`common`): a number `Number` («h.7»), a nest `AtNest` («n.T.1»), the
numbers' page `ToPage` («pg.1»), and on the private hand (bot/hands/dominas.py) a tile at
a nest `Put` («q.7.T.0»). Everything that depends on his hand is resolved when he presses:

- a number whose tile has one legal placement is placed at once (one tap);
- a number with several placements is remembered in the table's state (`Ui.sel`, valid
  for this state version only): the toast lists its nests, and the table shows the
  number chosen («[7]», and a line in the caption) until a nest completes PLACE;
- a nest pressed with no number chosen places the one tile that fits there; where several
  fit, the nest is remembered like a number (`Ui.at`, «[▲ 2]» and a caption line) and his
  private hand opens for him with those tiles at that nest, one tap each (the handler
  asks for it: `Outcome.hand`); a number pressed then (the fallback's table) goes there;
- anything illegal is refused privately with the reason, naming the symbol (or colour,
  or pip sum) the open nests need — public facts only.

The turn timer plays the engine's timeout (`timeout_turn`, R27: a penalty tile, or the
end of a bonus series) and waits for one turn of one game (`turn_key`); nothing is
played for a player without asking. The house rule is the fill direction.

The presenter is assembled from the modules of this package: `common` (the tiles' names,
the table's state, the codes, the base class), `caption`, `keyboard`, `press`, `hands`,
`narration` and `summaries`.
"""

from __future__ import annotations

from bot.config import Settings
from bot.presenters.dominas.caption import Caption
from bot.presenters.dominas.common import (
    DominasBase,
    named_title,
    team_mark,
    tile_name,
    tile_text,
    utf16_len,
)
from bot.presenters.dominas.hands import Hands
from bot.presenters.dominas.keyboard import Keyboard
from bot.presenters.dominas.narration import Narration
from bot.presenters.dominas.press import Press
from bot.presenters.dominas.summaries import Summaries

__all__ = [
    "DominasBase",
    "DominasPresenter",
    "make_presenter",
    "named_title",
    "team_mark",
    "tile_name",
    "tile_text",
    "utf16_len",
]


class DominasPresenter(Caption, Keyboard, Hands, Press, Narration, Summaries):
    """The presenter, assembled from its parts (the modules of this package)."""


def make_presenter(settings: Settings | None) -> DominasPresenter:
    return DominasPresenter()
