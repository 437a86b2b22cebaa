"""What a press carrying another version than the stored game is told.

Every table button carries the `seq` it was drawn for; a press whose `seq` is not the
stored one never applies (a double tap, an old message, a second instance). But it is
not always "out of date": after a move is stored the table message still shows the
previous buttons until its edit lands (a picture being drawn, a flood wait, the first
picture after a restart). A press of the buttons the table *still shows* is told that
the table is being updated; only a press of buttons that were really replaced hears
that the button is out of date.
"""

from __future__ import annotations

from bot.storage import GameRecord

OUTDATED = "press.outdated"
UPDATING = "press.table_updating"


def old_press_key(rec: GameRecord, seq: int) -> str:
    """The locale key of the refusal of a press drawn for `seq` (≠ `rec.seq`): «стол
    обновляется» when the table message still shows `seq` and its edit is on the way,
    «кнопка устарела» otherwise (or when the record does not know what is shown)."""
    if rec.shown_seq is not None and seq == rec.shown_seq and seq < rec.seq:
        return UPDATING
    return OUTDATED
