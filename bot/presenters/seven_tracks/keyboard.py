"""«Семидорожник»'s group keyboard, from the public view only: the main rows, the
priority menu and its roles, a track's menu."""

from __future__ import annotations

from bot.names import shorten
from bot.presenters.base import HAND, Btn, TableCtx
from bot.presenters.seven_tracks.codes import (
    After,
    Back,
    CentreAll,
    Declare,
    Draw,
    EndTurn,
    Exchange,
    Label,
    Menu,
    Open,
    Pass,
    PlaceAll,
    Run,
    TrackMenu,
    Ui,
)
from bot.presenters.seven_tracks.common import EMOJI, ROLE_ORDER, SevenTracksBase, T
from games.seven_tracks import Action, Phase, State
from games.seven_tracks.engine import op_targets
from games.seven_tracks.model import (
    COLOURS,
    KINDS,
    SHIFTS,
    T7,
    Mode,
    TileKind,
    expected_colour,
    is_white_like,
    kind_of,
)
from locales import Translator


class Keyboard(SevenTracksBase):
    # ---------------------------------------------------------------- keyboard

    def keyboard(self, s: State, c: TableCtx[Ui]) -> list[list[Btn]]:
        t, ui = c.t, c.ui
        v = self.game.view(s, None)  # public view only: the keyboard must not leak a hand
        hand = Btn(t("st.btn.hand"), HAND)
        back = Btn(t("st.btn.back"), Back().code())
        if v.phase == Phase.FIRST_MOVE:
            return [
                [Btn(t("st.btn.fm_declare"), Declare().code())],
                [Btn(t("st.btn.fm_pass"), Pass().code()), hand],
            ]
        if v.phase == Phase.GAME_OVER:
            return []
        if v.phase == Phase.EXCHANGE:
            add = [self.act(EMOJI[k], Action(type=T.EXCHANGE_ADD, kind=k)) for k in KINDS]
            rows = [add[i : i + 4] for i in range(0, 16, 4)]
            confirm = t("st.btn.exchange_confirm", n=v.exchange_size or 0)
            rows.append([self.act(confirm, Action(type=T.EXCHANGE_CONFIRM)), hand])
            return rows
        if ui.menu in (Menu.PRIORITY, Menu.PRIORITY_U):
            universal = ui.menu == Menu.PRIORITY_U
            rows = self._priority_menu(s, c, universal)
            if universal:  # back to the plain priority menu
                back = Btn(t("st.btn.back"), Open(Menu.PRIORITY).code())
            return [*rows, [back, hand]]
        if ui.menu == Menu.FIFTH_SWAP and v.phase == Phase.PRE_MOVE:
            kinds = [*COLOURS, TileKind.WHITE, TileKind.BLACK]
            swaps = [self.act(EMOJI[k], Action(type=T.FIFTH_SWAP, kind=k)) for k in kinds]
            return [swaps[:5], swaps[5:], [back, hand]]
        if ui.track is not None and v.phase == Phase.PLACING:
            k = ui.track
            if k == T7 and s.turn.is_double:
                # only the colours the centre still lacks, and none after a restricted
                # turn's one tile (R37, R56)
                taken = {kind_of(x) for x in s.t7}
                done_one = s.turn.restricted and s.turn.placed_total > 0
                free = [
                    self.act(EMOJI[x], Action(type=T.PLACE_T7, kind=x))
                    for x in COLOURS
                    if x not in taken
                ]
                rows = [free[:4], free[4:]] if free and not done_one else []
                rows = [r for r in rows if r] or [[self.label(t("st.menu.centre_nothing"))]]
                rows.append([back, hand])
                return rows
            if k in s.turn.modes and k != T7:
                return [*self._track_menu(s, k, t), [back, hand]]
        priority = Btn(t("st.btn.priority"), Open(Menu.PRIORITY).code())
        if v.phase == Phase.PRE_MOVE:
            return [
                [
                    self.act(t("st.btn.one_die"), Action(type=T.CHOOSE_DICE, n=1)),
                    self.act(t("st.btn.two_dice"), Action(type=T.CHOOSE_DICE, n=2)),
                ],
                [priority, hand],
            ]
        end = Btn(t("st.btn.end_turn"), EndTurn().code())
        if v.phase == Phase.PLACING:
            rows = [[Btn(t("st.btn.place_all"), PlaceAll().code())]]
            tracks = sorted(k for k in s.turn.modes if k != T7)
            for k in tracks:
                rows.append(
                    [
                        Btn(t("st.btn.run", k=k), Run(k).code()),
                        Btn(t("st.btn.track_menu", k=k), TrackMenu(k).code()),
                    ]
                )
            if s.turn.is_double:
                rows.append(
                    [
                        Btn(t("st.btn.centre_all"), CentreAll().code()),
                        Btn(t("st.btn.centre_menu"), TrackMenu(T7).code()),
                    ]
                )
            extra = []
            if s.turn.double_six:
                in_store = {kind_of(x) for x in s.store}
                bonus = {
                    TileKind.WHITE: "st.btn.bonus_white",
                    TileKind.UNIVERSAL: "st.btn.bonus_universal",
                }
                for kind, key in bonus.items():
                    if kind in in_store:
                        extra.append(self.act(t(key), Action(type=T.TAKE_BONUS, kind=kind)))
            if self._black_discards_left(s):
                discard = Action(type=T.DISCARD_BLACK, kind=TileKind.BLACK)
                extra.append(self.act(t("st.btn.discard_black"), discard))
            if extra:
                rows.append(extra)
            rows.append([Btn(t("st.btn.draw"), Draw().code()), end])
            rows.append([priority, hand])
            return rows
        if v.phase == Phase.POST_MOVE:
            return [[end], [priority, hand]]
        return [[hand]]

    @staticmethod
    def label(text: str) -> Btn:
        """A title row of a menu: pressed, it only says so."""
        return Btn(text, Label().code())

    def _role_buttons(
        self, s: State, c: TableCtx[Ui], after: bool, universal: bool = False
    ) -> list[Btn]:
        """The redirect roles (and «🔄» against each player it may aim at) instead of the
        move, or after it (`after`), spending the role's tile or the universal."""
        t = c.t
        out: list[Btn] = []
        for role in ROLE_ORDER:
            kind = TileKind.UNIVERSAL if universal else role
            targets = op_targets(s, s.current) if role == TileKind.OPPOSITE else [None]
            for target in targets:
                if target is None:
                    text = t(f"st.role.{role}")
                else:
                    name = shorten(c.names.get(s.players[target]) or "?", 14)  # between clusters
                    text = t("st.role.OP_to", name=name)
                text = t("st.role_u", role=text) if universal else text
                if after:
                    out.append(Btn(text, After(kind, role, target).code()))
                else:
                    use = Action(type=T.INSTEAD_OF_MOVE, kind=kind, role=role, target=target)
                    out.append(self.act(text, use))
        return out

    def _priority_menu(self, s: State, c: TableCtx[Ui], universal: bool) -> list[list[Btn]]:
        """The priority tiles by public facts. The plain buttons spend only the original
        tile; «✨ Универсальной…» opens the same menu whose buttons spend the universal,
        so a 25-point universal is never spent without the player choosing it."""
        t = c.t
        turn = s.turn
        rows: list[list[Btn]] = []
        exchange = Btn(
            t("st.role_u", role=t("st.btn.exchange")) if universal else t("st.btn.exchange"),
            Exchange(TileKind.UNIVERSAL if universal else TileKind.EXCHANGE).code(),
        )

        cancel = self.act(
            t("st.btn.cancel_restriction"),
            Action(type=T.CANCEL_RESTRICTION, kind=TileKind.UNIVERSAL),
        )

        def chunk(btns: list[Btn], n: int = 2) -> list[list[Btn]]:
            return [btns[i : i + n] for i in range(0, len(btns), n)]

        if s.phase == Phase.PRE_MOVE:
            if not turn.restricted and not turn.final:
                rows.append([self.label(t("st.menu.instead_label"))])
                rows += chunk(self._role_buttons(s, c, after=False, universal=universal))
            elif turn.restricted and not universal:
                rows.append([cancel])
            if universal:
                rows.append([exchange])
            else:
                rows.append([exchange, Btn(t("st.btn.fifth_swap"), Open(Menu.FIFTH_SWAP).code())])
        elif s.phase == Phase.PLACING:
            if not turn.board_action_done and not turn.priority_used:
                rows.append([self.label(t("st.menu.shift_label"))])
                shift_btns = []
                for die, track in enumerate(turn.die_tracks):
                    for role in (TileKind.SKIP, TileKind.OPPOSITE, TileKind.PREVIOUS):
                        new = (track - 1 + SHIFTS[role]) % 6 + 1
                        emoji = (EMOJI[TileKind.UNIVERSAL] if universal else "") + EMOJI[role]
                        kind = TileKind.UNIVERSAL if universal else role
                        shift = Action(type=T.SHIFT, kind=kind, role=role, die=die)
                        text = t("st.btn.shift", src=track, dst=new, emoji=emoji)
                        shift_btns.append(self.act(text, shift))
                rows += chunk(shift_btns, 3)
            if turn.restricted and not turn.board_action_done and not universal:
                rows.append([cancel])
            if not turn.priority_used:
                rows.append([self.label(t("st.menu.after_label"))])
                rows += chunk(
                    [*self._role_buttons(s, c, after=True, universal=universal), exchange]
                )
        elif s.phase == Phase.POST_MOVE and not turn.priority_used:
            rows.append([self.label(t("st.menu.after_label"))])
            rows += chunk([*self._role_buttons(s, c, after=True, universal=universal), exchange])
        if not rows:
            rows.append([self.label(t("st.menu.nothing"))])
        elif not universal and not turn.priority_used and s.phase != Phase.EXCHANGE:
            rows.append([Btn(t("st.btn.universal_menu"), Open(Menu.PRIORITY_U).code())])
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
                kinds = {colour: t("st.btn.place_colour", emoji=EMOJI[colour])}
                if not (track.slots and is_white_like(track.slots[-1])):
                    kinds |= {
                        TileKind.WHITE: t("st.btn.place_white"),
                        TileKind.UNIVERSAL: t("st.btn.place_universal"),
                    }
                rows.append(
                    [
                        self.act(text, Action(type=T.PLACE, kind=x, track=k))
                        for x, text in kinds.items()
                    ]
                )
            placed_here = turn.placements.get(k, 0) > 0 or (
                s.options.black_anywhere_after_move and sum(turn.placements.values()) > 0
            )
            if track.slots and placed_here and not turn.restricted:  # R33, public facts
                black = Action(type=T.BLOCK, kind=TileKind.BLACK, track=k)
                block = [self.act(t("st.btn.block"), black)]
                if not turn.priority_used:
                    universal = Action(type=T.BLOCK, kind=TileKind.UNIVERSAL, track=k)
                    block.append(self.act(t("st.btn.block_universal"), universal))
                rows.append(block)
            reclaim = [
                self.act(
                    t("st.btn.reclaim", slot=i + 1), Action(type=T.RECLAIM, track=k, slot=i + 1)
                )
                for i, x in enumerate(track.slots)
                if is_white_like(x)
            ]
            if reclaim and not turn.restricted:  # R32
                rows.append(reclaim)
        elif room and (track.block.turn != s.turn_no or s.options.allow_same_turn_unblock):  # R35
            unblock = {
                TileKind.WHITE: "st.btn.unblock_white",
                TileKind.UNIVERSAL: "st.btn.unblock_universal",
            }
            rows.append(
                [
                    self.act(t(key), Action(type=T.UNBLOCK, kind=x, track=k))
                    for x, key in unblock.items()
                ]
            )
        if not rows:
            rows.append([self.label(t("st.menu.track_nothing", k=k))])
        return rows
