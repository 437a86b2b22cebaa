"""«Семидорожник»'s group keyboard, from the public view only: the main rows, the
priority menu and its roles, a track's menu."""

from __future__ import annotations

from typing import Any

from bot.names import shorten
from bot.presenters.base import Btn
from bot.presenters.seven_tracks.common import EMOJI, ROLE_ORDER, SevenTracksBase
from games.seven_tracks import Phase, State
from games.seven_tracks.engine import op_targets
from games.seven_tracks.model import (
    BLACK,
    COLOURS,
    EXCHANGE,
    FIRST_MOVE,
    OPPOSITE,
    PREVIOUS,
    RESTRICT,
    SHIFTS,
    SKIP,
    T7,
    UNIVERSAL,
    WHITE,
    Mode,
    expected_colour,
    is_white_like,
    kind_of,
)
from locales import Translator


class Keyboard(SevenTracksBase):
    # ---------------------------------------------------------------- keyboard

    def keyboard(
        self, s: State, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
        v = self.game.view(s, None)  # public view only: the keyboard must not leak a hand
        hand = Btn(t("st.btn.hand"), "hand")
        menu = str(ui.get("menu") or "")
        if v.phase == Phase.FIRST_MOVE:
            return [
                [Btn(t("st.btn.fm_declare"), "fmd")],
                [Btn(t("st.btn.fm_pass"), "fmp"), hand],
            ]
        if v.phase == Phase.GAME_OVER:
            return []
        if v.phase == Phase.EXCHANGE:
            kinds = [
                *COLOURS,
                WHITE,
                BLACK,
                SKIP,
                PREVIOUS,
                OPPOSITE,
                RESTRICT,
                FIRST_MOVE,
                EXCHANGE,
                UNIVERSAL,
            ]
            rows = [[Btn(EMOJI[k], f"xa.{k}") for k in kinds[i : i + 4]] for i in range(0, 16, 4)]
            rows.append([Btn(t("st.btn.exchange_confirm", n=v.exchange_size or 0), "xc"), hand])
            return rows
        if menu in ("pri", "priu"):
            rows = self._priority_menu(s, names, t, universal=menu == "priu")
            back = "m.pri" if menu == "priu" else "back"
            return [*rows, [Btn(t("st.btn.back"), back), hand]]
        if menu == "fs" and v.phase == Phase.PRE_MOVE:
            kinds = [*COLOURS, WHITE, BLACK]
            rows = [[Btn(EMOJI[k], f"fs.{k}") for k in kinds[i : i + 5]] for i in range(0, 9, 5)]
            rows.append([Btn(t("st.btn.back"), "back"), hand])
            return rows
        if menu.startswith("t") and v.phase == Phase.PLACING:
            k = int(menu[1:]) if menu[1:].isdigit() else 0
            if k == T7 and s.turn.is_double:
                # only the colours the centre still lacks, and none after a restricted
                # turn's one tile (R37, R56)
                taken = {kind_of(x) for x in s.t7}
                done_one = s.turn.restricted and s.turn.placed_total > 0
                free = [Btn(EMOJI[c], f"t7.{c}") for c in COLOURS if c not in taken]
                rows = [free[:4], free[4:]] if free and not done_one else []
                rows = [r for r in rows if r] or [[Btn(t("st.menu.centre_nothing"), "noop")]]
                rows.append([Btn(t("st.btn.back"), "back"), hand])
                return rows
            if k in s.turn.modes and k != T7:
                return [*self._track_menu(s, k, t), [Btn(t("st.btn.back"), "back"), hand]]
        if v.phase == Phase.PRE_MOVE:
            return [
                [Btn(t("st.btn.one_die"), "cd1"), Btn(t("st.btn.two_dice"), "cd2")],
                [Btn(t("st.btn.priority"), "m.pri"), hand],
            ]
        if v.phase == Phase.PLACING:
            rows = [[Btn(t("st.btn.place_all"), "all")]]
            tracks = sorted(k for k in s.turn.modes if k != T7)
            for k in tracks:
                rows.append(
                    [
                        Btn(t("st.btn.run", k=k), f"run{k}"),
                        Btn(t("st.btn.track_menu", k=k), f"m.t{k}"),
                    ]
                )
            if s.turn.is_double:
                rows.append(
                    [Btn(t("st.btn.centre_all"), "t7all"), Btn(t("st.btn.centre_menu"), "m.t7")]
                )
            extra = []
            if s.turn.double_six:
                in_store = {kind_of(x) for x in s.store}
                if WHITE in in_store:
                    extra.append(Btn(t("st.btn.bonus_white"), "tb.W"))
                if UNIVERSAL in in_store:
                    extra.append(Btn(t("st.btn.bonus_universal"), "tb.U"))
            if self._black_discards_left(s):
                extra.append(Btn(t("st.btn.discard_black"), "db"))
            if extra:
                rows.append(extra)
            rows.append([Btn(t("st.btn.draw"), "dr"), Btn(t("st.btn.end_turn"), "end")])
            rows.append([Btn(t("st.btn.priority"), "m.pri"), hand])
            return rows
        if v.phase == Phase.POST_MOVE:
            return [
                [Btn(t("st.btn.end_turn"), "end")],
                [Btn(t("st.btn.priority"), "m.pri"), hand],
            ]
        return [[hand]]

    def _role_buttons(
        self, s: State, prefix: str, names: dict[int, str], t: Translator, universal: bool = False
    ) -> list[Btn]:
        out: list[Btn] = []
        code = prefix + ("u" if universal else "")

        def label(text: str) -> str:
            return t("st.role_u", role=text) if universal else text

        for role in ROLE_ORDER:
            if role == OPPOSITE:
                for target in op_targets(s, s.current):
                    if target is None:
                        out.append(Btn(label(t(f"st.role.{role}")), f"{code}.{role}"))
                    else:
                        user = s.players[target]
                        name = shorten(names.get(user) or "?", 14)  # between clusters
                        text = label(t("st.role.OP_to", name=name))
                        out.append(Btn(text, f"{code}.{role}.{target}"))
            else:
                out.append(Btn(label(t(f"st.role.{role}")), f"{code}.{role}"))
        return out

    def _priority_menu(
        self, s: State, names: dict[int, str], t: Translator, universal: bool = False
    ) -> list[list[Btn]]:
        """The priority tiles by public facts. The plain buttons spend only the original
        tile; «✨ Универсальной…» opens the same menu whose buttons spend the universal,
        so a 25-point universal is never spent without the player choosing it."""
        turn = s.turn
        rows: list[list[Btn]] = []
        u = "u" if universal else ""
        exchange = Btn(
            t("st.role_u", role=t("st.btn.exchange")) if universal else t("st.btn.exchange"),
            "xb" + u,
        )

        def chunk(btns: list[Btn], n: int = 2) -> list[list[Btn]]:
            return [btns[i : i + n] for i in range(0, len(btns), n)]

        if s.phase == Phase.PRE_MOVE:
            if not turn.restricted and not turn.final:
                rows.append([Btn(t("st.menu.instead_label"), "noop")])
                rows += chunk(self._role_buttons(s, "im", names, t, universal))
            elif turn.restricted and not universal:
                rows.append([Btn(t("st.btn.cancel_restriction"), "cr")])
            if universal:
                rows.append([exchange])
            else:
                rows.append([exchange, Btn(t("st.btn.fifth_swap"), "m.fs")])
        elif s.phase == Phase.PLACING:
            if not turn.board_action_done and not turn.priority_used:
                rows.append([Btn(t("st.menu.shift_label"), "noop")])
                shift_btns = []
                for die, track in enumerate(turn.die_tracks):
                    for role in (SKIP, OPPOSITE, PREVIOUS):
                        new = (track - 1 + SHIFTS[role]) % 6 + 1
                        emoji = (EMOJI[UNIVERSAL] if universal else "") + EMOJI[role]
                        shift_btns.append(
                            Btn(
                                t("st.btn.shift", src=track, dst=new, emoji=emoji),
                                f"sh{u}.{die}.{role}",
                            )
                        )
                rows += chunk(shift_btns, 3)
            if turn.restricted and not turn.board_action_done and not universal:
                rows.append([Btn(t("st.btn.cancel_restriction"), "cr")])
            if not turn.priority_used:
                rows.append([Btn(t("st.menu.after_label"), "noop")])
                rows += chunk([*self._role_buttons(s, "am", names, t, universal), exchange])
        elif s.phase == Phase.POST_MOVE and not turn.priority_used:
            rows.append([Btn(t("st.menu.after_label"), "noop")])
            rows += chunk([*self._role_buttons(s, "am", names, t, universal), exchange])
        if not rows:
            rows.append([Btn(t("st.menu.nothing"), "noop")])
        elif not universal and not turn.priority_used and s.phase != Phase.EXCHANGE:
            rows.append([Btn(t("st.btn.universal_menu"), "m.priu")])
        return rows

    def _black_discards_left(self, s: State) -> bool:
        """R39 from public facts: a black discard is still allowed this turn."""
        turn = s.turn
        extra = 1 if s.options.black_discard_on_any_double and turn.is_double else 0
        return not turn.restricted and turn.black_discards < turn.t7_completions + extra

    def _track_menu(self, s: State, k: int, t: Translator) -> list[list[Btn]]:
        """Track k's exact choices, only those the public facts allow now (the hand is
        checked when a button is pressed, and a refusal names the tile that is missing)."""
        track = s.tracks[k - 1]
        turn = s.turn
        rows: list[list[Btn]] = []
        room = not (turn.restricted and turn.placed_total > 0) and not (
            turn.modes.get(k) == Mode.SINGLE and turn.placements.get(k, 0) >= 1
        )
        if track.block is None:
            if room:
                colour = expected_colour(k, len(track.slots) + 1)
                place = [Btn(t("st.btn.place_colour", emoji=EMOJI[colour]), f"pl.{k}.c")]
                if not (track.slots and is_white_like(track.slots[-1])):
                    place += [
                        Btn(t("st.btn.place_white"), f"pl.{k}.W"),
                        Btn(t("st.btn.place_universal"), f"pl.{k}.U"),
                    ]
                rows.append(place)
            placed_here = turn.placements.get(k, 0) > 0 or (
                s.options.black_anywhere_after_move and sum(turn.placements.values()) > 0
            )
            if track.slots and placed_here and not turn.restricted:  # R33, public facts
                block = [Btn(t("st.btn.block"), f"bl.{k}.K")]
                if not turn.priority_used:
                    block.append(Btn(t("st.btn.block_universal"), f"bl.{k}.U"))
                rows.append(block)
            reclaim = [
                Btn(t("st.btn.reclaim", slot=i + 1), f"rc.{k}.{i + 1}")
                for i, x in enumerate(track.slots)
                if is_white_like(x)
            ]
            if reclaim and not turn.restricted:  # R32
                rows.append(reclaim)
        elif room and (track.block.turn != s.turn_no or s.options.allow_same_turn_unblock):  # R35
            rows.append(
                [
                    Btn(t("st.btn.unblock_white"), f"ub.{k}.W"),
                    Btn(t("st.btn.unblock_universal"), f"ub.{k}.U"),
                ]
            )
        if not rows:
            rows.append([Btn(t("st.menu.track_nothing", k=k), "noop")])
        return rows
