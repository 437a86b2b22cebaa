"""What a press carrying another version than the stored game is told.

Every table button carries the `seq` it was drawn for; a press whose `seq` is not the
stored one never applies (a double tap, an old message, a second instance). But it is
not always "out of date": after a move is stored the table message still shows the
previous buttons until its edit lands (a picture being drawn, a flood wait, the first
picture after a restart). A press of the buttons the table *still shows* is told that
the table is being updated; only a press of buttons that were really replaced hears
that the button is out of date.

One old press is taken: a player who changed the game only from his private hand (or
his copy of the table), then pressed the group's table as it still shows, did not see
the table move under his finger — he moved it himself, elsewhere — and a double tap of
the table can't be it (`hand_run`, `after_own_hand`). «ДОМИНА*С»: a tile chosen in the
hand, then its nest on the table a second later, while the table's edit waits for the
group's flood budget.
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


def hand_run(
    rec: GameRecord, user: int, before: int, on_table: bool
) -> tuple[int, int, int] | None:
    """The record's `hand_run` after `user`'s press moved the game from `before` to
    `rec.seq`: extended (or begun) by a press away from the table, ended by one on it."""
    if on_table:
        return None
    run = rec.hand_run
    start = run[1] if run is not None and run[0] == user and run[2] == before else before
    return (user, start, rec.seq)


def after_own_hand(rec: GameRecord, user: int, seq: int, on_table: bool) -> bool:
    """Whether a press of the table drawn for `seq` (≠ `rec.seq`) is taken on the game as
    it is: every change since `seq` was `user`'s own, from his hand, and the table still
    shows `seq`."""
    run = rec.hand_run
    return (
        on_table
        and run is not None
        and run[0] == user
        and run[2] == rec.seq
        and run[1] <= seq < rec.seq
        and seq == rec.shown_seq
    )
