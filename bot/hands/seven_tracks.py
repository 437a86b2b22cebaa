"""«Семидорожник»: the private hand carries the choices that depend on the hand.

His tiles are drawn as the board's discs with their counts (render/hands.py). On his
decision the buttons are exactly what his hand allows now, read from the engine's legal
actions: which tile on which track (a colour, a white, a universal; blocks, unblocks,
reclaims, the centre), which priority tile — original or universal — instead of or
after his move (a shift of a track, an exchange), the fifth-tile swap, and in an
exchange the tiles to give back. Their codes are the presenter's own (`pl.3.W`, `amu.SK`,
`xa.R`, …), so they are pressed and checked like the table's buttons.

The table keeps the public choices: the dice, «▶ Выставить всё», «▶ Дорожка k», drawing,
the end of the turn, the bonus store, the first-move window. Its exact menus (`⋯ k`,
«⭐ Приоритет…», the fifth swap and the exchange's tile buttons) leave it while the player
to move has his ephemeral hand (`Shown.EPHEMERAL`); without it they stay, built from
public facts only as before.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any

from pydantic import BaseModel

from bot.hands import HandView, Shown, digest, without
from bot.names import shorten
from bot.presenters.base import Btn
from bot.presenters.seven_tracks import EMOJI, SevenTracksPresenter, tiles_text
from games import IllegalAction
from games.seven_tracks import GAME, Action, ActionType, Phase, State
from games.seven_tracks.model import KINDS, SHIFTS, UNIVERSAL, kind_of
from locales import Translator
from render.hands import seven_tracks_hand

T = ActionType
_PUBLIC_MENUS = ("m.t", "m.pri", "m.fs", "xa.")
_PRIORITY = (T.INSTEAD_OF_MOVE, T.AFTER_MOVE, T.WAIVE, T.EXCHANGE_BEGIN, T.SHIFT)
_CANCEL = T.CANCEL_RESTRICTION
_PRESENTER = SevenTracksPresenter()  # its hint of what fits where (no state of its own)


class SevenTracksHand:
    def view(
        self,
        state: BaseModel,
        user: int,
        ui: dict[str, Any],
        names: dict[int, str],
        t: Translator,
    ) -> HandView | None:
        assert isinstance(state, State)
        s = state
        if user not in s.players:
            return None
        v = GAME.view(s, user)
        kinds = sorted((kind_of(x) for x in v.hand or []), key=KINDS.index)
        mine = GAME.to_act(s) == user and s.phase not in (Phase.FIRST_MOVE, Phase.GAME_OVER)
        buttons = self._buttons(s, names, t) if mine else []
        tiles = tiles_text(kinds, compact=False) or "—"
        lines = [t("hand.st.title", n=len(kinds), tiles=tiles)]
        if mine:
            hint = _PRESENTER._hint(s, user, t)  # what fits where, or the priority tile
            lines += [hint] if hint else []
            lines.append(t("hand.st.your_turn" if buttons else "hand.st.table_only"))
        else:
            lines.append(t("hand.only_you"))
        return HandView(
            caption="\n".join(html.escape(x, quote=False) for x in lines),
            buttons=buttons,
            picture_key=f"{digest(kinds)}.{t.lang}",
            picture=lambda: seven_tracks_hand(kinds, t.lang),
        )

    def _buttons(self, s: State, names: dict[int, str], t: Translator) -> list[list[Btn]]:
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
            made = self._button(s, a, hand, names, t)
            if made is None or made[1].code in seen:
                continue
            seen.add(made[1].code)
            groups.setdefault(made[0], []).append(made[1])
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
                rows.append([Btn(t(label), "noop")])
            rows += [found[i : i + per] for i in range(0, len(found), per)]
        return rows

    def _button(
        self,
        s: State,
        a: Action,
        hand: Counter[str],
        names: dict[int, str],
        t: Translator,
    ) -> tuple[str, Btn] | None:
        kind = a.kind or ""
        mark = EMOJI.get(kind, "")
        if a.type == T.PLACE and a.track is not None:
            return "place", Btn(f"{mark}→{a.track}", f"pl.{a.track}.{kind}")
        if a.type == T.PLACE_T7:
            return "place", Btn(f"{mark}→7", f"t7.{kind}")
        if a.type == T.BLOCK and a.track is not None:
            return "board", Btn(t("hand.st.block", emoji=mark, k=a.track), f"bl.{a.track}.{kind}")
        if a.type == T.UNBLOCK and a.track is not None:
            text = t("hand.st.unblock", emoji=mark, k=a.track)
            return "board", Btn(text, f"ub.{a.track}.{kind}")
        if a.type == T.RECLAIM and a.track is not None and a.slot is not None:
            text = t("hand.st.reclaim", k=a.track, slot=a.slot)
            return "board", Btn(text, f"rc.{a.track}.{a.slot}")
        if a.type == T.DISCARD_BLACK:
            return "board", Btn(t("st.btn.discard_black"), "db")
        if a.type == _CANCEL:
            return "im", Btn(t("st.btn.cancel_restriction"), "cr")
        universal = kind == UNIVERSAL
        u = "u" if universal else ""
        if a.type in (T.INSTEAD_OF_MOVE, T.AFTER_MOVE, T.WAIVE) and a.role:
            if a.role == "EX":
                return "am", self._exchange(universal, t)
            role = t(f"st.role.{a.role}")
            if a.role == "OP" and a.target is not None:
                user = s.players[a.target]
                role = t("st.role.OP_to", name=shorten(names.get(user) or "?", 14))
            text = t("st.role_u", role=role) if universal else role
            target = "" if a.target is None else f".{a.target}"
            group = "im" if a.type == T.INSTEAD_OF_MOVE else "am"
            return group, Btn(text, f"{group}{u}.{a.role}{target}")
        if a.type == T.EXCHANGE_BEGIN:
            return "am" if s.phase != Phase.PRE_MOVE else "im", self._exchange(universal, t)
        if a.type == T.SHIFT and a.die is not None and a.role in SHIFTS:
            track = s.turn.die_tracks[a.die]
            new = (track - 1 + SHIFTS[a.role]) % 6 + 1
            emoji = (EMOJI[UNIVERSAL] if universal else "") + EMOJI[a.role]
            text = t("st.btn.shift", src=track, dst=new, emoji=emoji)
            return "shift", Btn(text, f"sh{u}.{a.die}.{a.role}")
        if a.type == T.FIFTH_SWAP:
            return "swap", Btn(t("hand.st.swap", emoji=mark), f"fs.{kind}")
        if a.type == T.EXCHANGE_ADD:
            return "give", Btn(f"{mark} ×{hand.get(kind, 0)}", f"xa.{kind}")
        return None  # public: the dice, drawing, the end, the bonus store, the first move

    @staticmethod
    def _exchange(universal: bool, t: Translator) -> Btn:
        text = t("st.btn.exchange")
        if universal:
            return Btn(t("st.role_u", role=text), "xbu")
        return Btn(text, "xb")

    def public(self, state: BaseModel, buttons: list[list[Btn]], shown: Shown) -> list[list[Btn]]:
        if shown is not Shown.EPHEMERAL:
            return buttons
        return without(buttons, lambda code: code.startswith(_PUBLIC_MENUS))
