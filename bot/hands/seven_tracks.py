"""«Семидорожник»: the private hand carries the choices that depend on the hand.

His tiles are drawn as the board's discs with their counts (render/hands.py). On his
decision the buttons are exactly what his hand allows now, read from the engine's legal
actions: which tile on which track (a colour, a white, a universal; blocks, unblocks,
reclaims, the centre), which priority tile — original or universal — instead of or
after his move (a shift of a track, an exchange), the fifth-tile swap, and in an
exchange the tiles to give back. Their codes are the presenter's button language: the
engine action each applies (`PL,W,3`, `XA,R`, …), or its compound code where the table's
button is one (`am.U.SK.`: after the move, END_PLACING first), so they are pressed and
checked like the table's buttons.

The table keeps the public choices: the dice, «▶ Выставить всё», «▶ Дорожка k», drawing,
the end of the turn, the bonus store, the first-move window. Its exact menus (`⋯ k`,
«⭐ Приоритет…», the fifth swap and the exchange's tile buttons) leave it while the player
to move has his ephemeral hand (`Shown.EPHEMERAL`); without it they stay, built from
public facts only as before.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.hands import HandView, Shown, digest, without
from bot.names import shorten
from bot.presenters.base import Btn, TableCtx
from bot.presenters.seven_tracks.codes import After, Exchange, Label, Open, TrackMenu
from bot.presenters.seven_tracks.common import EMOJI, tiles_text
from games import IllegalAction
from games.seven_tracks import GAME, Action, ActionType, Phase, State
from games.seven_tracks.model import KINDS, SHIFTS, TileKind, kind_of
from locales import Translator
from render.hands import seven_tracks_hand

if TYPE_CHECKING:
    from bot.presenters.seven_tracks.hands import Hands

T = ActionType
_PRIORITY = (T.INSTEAD_OF_MOVE, T.AFTER_MOVE, T.WAIVE, T.EXCHANGE_BEGIN, T.SHIFT)
# the table's buttons for the hand's choices, which it leaves while he holds his hand
_PUBLIC_MENUS = (Open, TrackMenu)
# the actions his buttons apply as they are (the rest is the table's: «после хода»)
_OWN = (
    T.PLACE,
    T.PLACE_T7,
    T.BLOCK,
    T.UNBLOCK,
    T.RECLAIM,
    T.DISCARD_BLACK,
    T.CANCEL_RESTRICTION,
    T.INSTEAD_OF_MOVE,
    T.SHIFT,
    T.FIFTH_SWAP,
    T.EXCHANGE_ADD,
)


class SevenTracksHand:
    def __init__(self, presenter: Hands) -> None:
        self.p = presenter  # its button language and its hint of what fits where

    def view(self, state: Any, user: int, c: TableCtx[Any]) -> HandView | None:
        assert isinstance(state, State)
        s, t = state, c.t
        if user not in s.players:
            return None
        v = GAME.view(s, user)
        kinds = sorted((kind_of(x) for x in v.hand or []), key=KINDS.index)
        mine = GAME.to_act(s) == user and s.phase not in (Phase.FIRST_MOVE, Phase.GAME_OVER)
        buttons = self._buttons(s, c) if mine else []
        tiles = tiles_text(kinds, compact=False) or "—"
        lines = [t("hand.st.title", n=len(kinds), tiles=tiles)]
        # the private chat's words (the fallback): no picture, the tiles listed once
        words = [t("hand.private_head", game=t(self.p.title_key), n=len(kinds)), tiles]
        if mine:
            hint = self.p._hint(s, user, t, on_hand=bool(buttons))  # what fits where, or
            # the priority tile (its buttons are on the hand)
            lines += [hint] if hint else []
            words += [hint] if hint else []
            lines.append(t("hand.st.your_turn" if buttons else "hand.st.table_only"))
            words += ["", t("hand.st.private_turn" if buttons else "hand.st.private_table")]
        else:
            lines.append(t("hand.only_you"))
        return HandView(
            caption="\n".join(html.escape(x, quote=False) for x in lines),
            buttons=buttons,
            picture_key=f"{digest(kinds)}.{t.lang}",
            picture=lambda: seven_tracks_hand(kinds, t.lang),
            text="\n".join(html.escape(x, quote=False) for x in words),
        )

    def _buttons(self, s: State, c: TableCtx[Any]) -> list[list[Btn]]:
        t = c.t
        legal = GAME.legal_actions(s)
        if s.phase == Phase.PLACING and any(a.type == T.END_PLACING for a in legal):
            # after-move uses are chosen during the placing too (END_PLACING first)
            try:
                s2, _ = GAME.apply(s, Action(type=T.END_PLACING))
            except IllegalAction:
                s2 = None
            if s2 is not None and s2.phase == Phase.POST_MOVE and s2.current == s.current:
                legal += [a for a in GAME.legal_actions(s2) if a.type in _PRIORITY]
        hand = Counter(kind_of(x) for x in s.hands[s.current])
        groups: dict[str, list[Btn]] = {}
        seen: set[str] = set()
        for a in legal:
            made = self._made(s, a, hand, c.names, t)
            if made is None:
                continue
            code = self._code(a)
            if code in seen:
                continue
            seen.add(code)
            groups.setdefault(made[0], []).append(Btn(made[1], code))
        rows: list[list[Btn]] = []
        for group, per in (
            ("place", 3),
            ("board", 2),
            ("im", 2),
            ("shift", 3),
            ("am", 2),
            ("swap", 3),
            ("give", 4),
        ):
            found = groups.get(group, [])
            if not found:
                continue
            label = {"im": "st.menu.instead_label", "shift": "st.menu.shift_label"}.get(group)
            if group == "am":
                label = "st.menu.after_label"
            if label:
                rows.append([Btn(t(label), Label().code())])
            rows += [found[i : i + per] for i in range(0, len(found), per)]
        return rows

    def _code(self, a: Action) -> str:
        """The code of `a`'s button: the action, or the table's compound code of a use
        after the move (END_PLACING first, or a WAIVE) and of an exchange."""
        if a.type in _OWN:
            return self.p.buttons.action(a)
        assert a.kind is not None, a  # AFTER_MOVE, WAIVE, EXCHANGE_BEGIN: a tile spent
        if a.role == TileKind.EXCHANGE or a.type == T.EXCHANGE_BEGIN:
            return Exchange(a.kind).code()
        assert a.role is not None, a
        return After(a.kind, a.role, a.target).code()

    def _made(
        self,
        s: State,
        a: Action,
        hand: Counter[TileKind],
        names: Mapping[int, str],
        t: Translator,
    ) -> tuple[str, str] | None:
        """The group and the label of `a`'s button (None: the table's, not the hand's)."""
        kind = a.kind
        mark = "" if kind is None else EMOJI[kind]
        universal = kind == TileKind.UNIVERSAL
        match a.type:
            case T.PLACE if a.track is not None:
                return "place", f"{mark}→{a.track}"
            case T.PLACE_T7:
                return "place", f"{mark}→7"
            case T.BLOCK if a.track is not None:
                return "board", t("hand.st.block", emoji=mark, k=a.track)
            case T.UNBLOCK if a.track is not None:
                return "board", t("hand.st.unblock", emoji=mark, k=a.track)
            case T.RECLAIM if a.track is not None and a.slot is not None:
                return "board", t("hand.st.reclaim", k=a.track, slot=a.slot)
            case T.DISCARD_BLACK:
                return "board", t("st.btn.discard_black")
            case T.CANCEL_RESTRICTION:
                return "im", t("st.btn.cancel_restriction")
            case T.INSTEAD_OF_MOVE | T.AFTER_MOVE | T.WAIVE if a.role:
                group = "im" if a.type == T.INSTEAD_OF_MOVE else "am"
                if a.role == TileKind.EXCHANGE:
                    return "am", self._exchange(universal, t)
                role = t(f"st.role.{a.role}")
                if a.role == TileKind.OPPOSITE and a.target is not None:
                    user = s.players[a.target]
                    role = t("st.role.OP_to", name=shorten(names.get(user) or "?", 14))
                return group, t("st.role_u", role=role) if universal else role
            case T.EXCHANGE_BEGIN:
                group = "am" if s.phase != Phase.PRE_MOVE else "im"
                return group, self._exchange(universal, t)
            case T.SHIFT if a.die is not None and a.role in SHIFTS:
                track = s.turn.die_tracks[a.die]
                new = (track - 1 + SHIFTS[a.role]) % 6 + 1
                emoji = (EMOJI[TileKind.UNIVERSAL] if universal else "") + EMOJI[a.role]
                return "shift", t("st.btn.shift", src=track, dst=new, emoji=emoji)
            case T.FIFTH_SWAP:
                return "swap", t("hand.st.swap", emoji=mark)
            case T.EXCHANGE_ADD:
                return "give", f"{mark} ×{hand[kind] if kind else 0}"
        return None  # public: the dice, drawing, the end, the bonus store, the first move

    @staticmethod
    def _exchange(universal: bool, t: Translator) -> str:
        text = t("st.btn.exchange")
        return t("st.role_u", role=text) if universal else text

    def public(self, state: Any, buttons: list[list[Btn]], shown: Shown) -> list[list[Btn]]:
        if shown is not Shown.EPHEMERAL:
            return buttons
        return without(buttons, self._public_menu)

    def _public_menu(self, code: str) -> bool:
        """A button of the table's menus that his private hand replaces: a menu's, or an
        exchange's tile."""
        pressed = self.p.parse(code)
        if isinstance(pressed, Action):
            return pressed.type == T.EXCHANGE_ADD
        return isinstance(pressed, _PUBLIC_MENUS)
