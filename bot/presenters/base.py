"""What the bot layer needs from a game: text, buttons, pictures, narration.

The bot layer is game-agnostic: adding a game = its engine in `games/` (one registry
line), `render/<id>.py`, a presenter `bot/presenters/<id>` and its strings. A presenter
builds the group keyboard from the PUBLIC view only; whatever depends on a player's
hand is resolved when he presses. Its methods take the state and one `TableCtx` (the
language, the table's typed state between presses, the names, the narration, the time).
"""

from __future__ import annotations

import hashlib
import html
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from bot.presenters.buttons import Buttons, Code
from bot.warm_up import PictureJob, picture_job
from bot.warm_up import picture as draw_picture
from games import Event
from games.automation import Automated, settle
from locales import DEFAULT_LANGUAGE, Translator

if TYPE_CHECKING:
    from bot.hands import HandKeeper


def language_key(key: str, language: str) -> str:
    """A picture's key in `language`: the Russian key as it always was (the tables shown
    before pictures had a language keep theirs), another language's marked.

        >>> language_key("0123abcd", "ru"), language_key("0123abcd", "en")
        ('0123abcd', '0123abcd.en')
    """
    return key if language == DEFAULT_LANGUAGE else f"{key}.{language}"


@dataclass(frozen=True)
class Btn:
    """One inline button: the label and its code in the game's button language
    (bot/presenters/buttons.py: an engine action, or a compound code)."""

    text: str
    code: str


@dataclass(frozen=True)
class Hand(Code):
    """«🀄 Мои фишки»: the presser's own hand, as a popup — every table understands it."""

    tag = "hand"
    versioned = False


HAND = Hand().code()

S = TypeVar("S", bound=BaseModel)  # a game's state model
U = TypeVar("U", bound=BaseModel)  # a game's table state between presses (`Presenter.ui_type`)


class NoUi(BaseModel):
    """The table state of a game whose table keeps nothing between presses."""


@dataclass(frozen=True)
class TableCtx(Generic[U]):
    """What a presenter is given beside the game's state: the chat's language (`t`), the
    table's state between presses (`ui`), the players' names as shown, the caption's
    narration lines (`log`) and the time (`now`, the service's clock)."""

    t: Translator
    ui: U
    names: Mapping[int, str] = field(default_factory=dict)
    log: Sequence[str] = ()
    now: float = 0.0

    def but(self, **changes: Any) -> TableCtx[U]:
        """The same context with `changes` (e.g. shortened names, fewer log lines)."""
        return replace(self, **changes)

    def name(self, user: int | None) -> str:
        """A player's name as shown, HTML-escaped (captions are HTML); «?» for nobody."""
        if user is None:
            return "?"
        return html.escape(self.names.get(user) or str(user))


@dataclass
class Outcome(Generic[S, U]):
    """The result of a press or of automatic steps. `ui` None: the table state is kept."""

    state: S
    events: list[Event] = field(default_factory=list)
    ui: U | None = None
    toast: str | None = None
    alert: bool = False
    changed: bool = True
    visible: bool = True
    hand: bool = False  # show the presser his private hand now (bot/service/hands.py)


class Refusal(Exception):
    """A press the bot refuses; `text` is already translated and shown privately."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class LengthChoice:
    """A lobby option: its code, the translation key of its label and the engine options;
    a choice that is no length (Гипнозия's pairs over bridges) is a variant, and says in
    the lobby what it means (`about_key`)."""

    code: str
    label_key: str
    options: dict[str, Any]
    about_key: str = ""  # a variant's meaning, shown in the lobby's text

    def line(self, t: Translator) -> str:
        """The lobby's line for this choice: «Длина: До 144», «Вариант: …— what it does»."""
        if not self.about_key:
            return t("lobby.length", length=t(self.label_key))
        return t("lobby.variant", variant=t(self.label_key), about=t(self.about_key))


@dataclass(frozen=True)
class Rule:
    """A house rule (bot/house_rules.py): the engine option's key and the values offered,
    its default first."""

    key: str
    values: tuple[Any, ...]


def flag(key: str, default: bool = False) -> Rule:
    """A yes/no house rule."""
    return Rule(key, (default, not default))


class Page(BaseModel):
    """The page of a paged keyboard chosen with its ◀ ▶, for the table version `v` it was
    drawn for."""

    n: int
    v: int


@dataclass(frozen=True)
class ToPage(Code):
    """◀ ▶ of a paged keyboard: its page `n` (kept in the game's Ui as a `Page`)."""

    tag = "pg"
    n: int


def page_row(page: int, pages: int) -> list[Btn]:
    """The row under a paged keyboard: ◀ «2/3» ▶."""
    return [
        Btn("◀", ToPage((page - 1) % pages).code()),
        Btn(f"{page + 1}/{pages}", ToPage(page).code()),
        Btn("▶", ToPage((page + 1) % pages).code()),
    ]


def shown_page(page: Page | None, version: int, pages: int) -> int:
    """The page of a paged keyboard to show now: the chosen one while the table is at
    the version it was chosen for, else 0.

        >>> shown_page(Page(n=3, v=7), 7, 2), shown_page(Page(n=1, v=6), 7, 2)
        (1, 0)
    """
    if page is not None and page.v == version:
        return page.n % pages
    return 0


class Presenter(ABC, Generic[S, U]):
    """A game at the table: its lobby choices, caption, public keyboard, presses,
    narration and summaries. `S` is the engine's state, `U` the table's state between
    presses (`ui_type`, stored with the game as JSON)."""

    game_id: str
    strings: str  # the prefix of the game's keys in locales/ ("st", "cc", "sc", "hy", "dom")
    title_key: str
    title_short_key: str
    aliases: tuple[str, ...] = ()
    house_rules: tuple[Rule, ...] = ()  # the options `/settings` offers (bot/house_rules.py)
    game: Automated[S, Any]
    ui_type: type[U]
    buttons: Buttons[Any]  # the button language: the engine's actions and `codes()`

    def __init__(self, game: Automated[S, Any]) -> None:
        self.game = game
        self.buttons = Buttons(game, (Hand, *self.codes()))

    def codes(self) -> tuple[type[Code], ...]:
        """The game's compound button codes (bot/presenters/buttons.py)."""
        return ()

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    def fewest_players(self, options: dict[str, Any]) -> int:
        """The fewest players this game may start with under `options`."""
        return self.min_players

    def choices(self) -> list[LengthChoice]:
        """Lobby options (the first is the default)."""
        return []

    def new_state(self, players: list[int], seed: int, options: dict[str, Any]) -> S:
        state: S = self.game.new(players=players, seed=seed, options=options or None)
        return state

    def load(self, raw: str) -> S:
        state: S = self.game.state_type.model_validate_json(raw)
        return state

    # ---------------------------------------------------------------- the table's state

    def load_ui(self, raw: Mapping[str, Any]) -> U:
        """The stored table state; one that no longer fits the model starts afresh (it
        only holds what a keyboard shows, never a move)."""
        try:
            return self.ui_type.model_validate(raw)
        except ValidationError:
            return self.ui_type()

    @staticmethod
    def dump_ui(ui: BaseModel) -> dict[str, Any]:
        dumped: dict[str, Any] = ui.model_dump(mode="json", exclude_defaults=True)
        return dumped

    def context(
        self,
        t: Translator,
        ui: Mapping[str, Any],
        names: Mapping[int, str] | None = None,
        log: Sequence[str] = (),
        now: float = 0.0,
    ) -> TableCtx[U]:
        return TableCtx(t=t, ui=self.load_ui(ui), names=names or {}, log=log, now=now)

    # ---------------------------------------------------------------- who, and when

    def actor(self, state: S) -> int | None:
        """Who may press game buttons now; None = any player (a simultaneous decision)."""
        if self.game.is_simultaneous(state):
            return None
        return self.game.to_act(state)

    def seq_changes(self, old: S, new: S) -> bool:
        """Whether a state change makes the shown buttons out of date (callback data carries
        the record's `seq`). Inside one simultaneous decision nothing visible changes: the
        table must not tell whom the decision still waits for."""
        g = self.game
        one_window = g.is_simultaneous(old) and g.is_simultaneous(new)
        if one_window and g.turn_key(old) == g.turn_key(new):
            return False
        return old.model_dump_json() != new.model_dump_json()

    def versioned(self, pressed: object) -> bool:
        """Whether a press must carry the current `seq` (not an idempotent answer)."""
        return not isinstance(pressed, Code) or pressed.versioned

    # ---------------------------------------------------------------- the table

    @abstractmethod
    def caption(self, state: S, c: TableCtx[U]) -> str: ...

    @abstractmethod
    def keyboard(self, state: S, c: TableCtx[U]) -> list[list[Btn]]:
        """Built from the public view only (never from legal_actions)."""

    def public_view(self, state: S) -> BaseModel:
        """What the table shows: the engine's view for nobody in particular."""
        view: BaseModel = self.game.view(state, None)
        return view

    def picture_key(self, state: S, language: str = DEFAULT_LANGUAGE) -> str:
        """Changes exactly when the picture would change (the language is drawn too)."""
        return self.view_key(self.public_view(state), language)

    def view_key(
        self, view: BaseModel, language: str = DEFAULT_LANGUAGE, raw: str | None = None
    ) -> str:
        """`picture_key` of a public view already taken (`raw`: its JSON, if dumped)."""
        raw = view.model_dump_json() if raw is None else raw
        return language_key(hashlib.sha1(raw.encode()).hexdigest()[:16], language)

    def table_picture(
        self, state: S, names: Mapping[int, str], language: str = DEFAULT_LANGUAGE
    ) -> tuple[str, PictureJob]:
        """The table's picture as its key (`picture_key`) and the job that draws it, sent
        to the render process (bot/pictures.py): plain data, the game's id and the public
        view as JSON with the names and language. One public view, dumped once, for both."""
        view = self.public_view(state)
        job = picture_job(self.game_id, view, dict(names), language)
        return self.view_key(view, language, job[1]), job

    def picture(
        self, state: S, names: Mapping[int, str], language: str = DEFAULT_LANGUAGE
    ) -> bytes:
        """The board from the public view, drawn by `render/<game id>.py` with its words in
        `language` (cold, on a palette of its own, until the renderer is warmed up:
        bot/warm_up.py)."""
        return draw_picture(self.game_id, self.public_view(state), dict(names), language)

    # ---------------------------------------------------------------- a player's hand

    @abstractmethod
    def hand_popup(self, state: S, user: int, t: Translator) -> str:
        """A player's private hand, ≤ 200 characters (a show_alert popup)."""

    def hand_keeper(self) -> HandKeeper | None:
        """What shows a player his hand in the group (bot/hands/); None: no hidden hands."""
        return None

    # ---------------------------------------------------------------- moves

    def parse(self, code: str) -> Any:
        """The action or compound code a button's code stands for (`Unknown`: none)."""
        return self.buttons.parse(code)

    @abstractmethod
    def press(self, state: S, user: int, pressed: Any, c: TableCtx[U]) -> Outcome[S, U]:
        """Apply a pressed button (`parse`d: an engine action or one of `codes()`); raise
        Refusal or games.IllegalAction to refuse."""

    def advance(self, state: S, c: TableCtx[U]) -> Outcome[S, U]:
        """What the bot plays without asking after every move: the engine's formalities
        (`games.automation.settle`). `changed` False when nothing happened."""
        s, events = settle(self.game, state)
        return Outcome(state=s, events=events, changed=bool(events))

    def timeout_move(self, state: S, user: int) -> Outcome[S, U]:
        """What the bot plays for a player whose turn timer ran out: the engine's timed-out
        turn (`timeout_turn`: its weakest policy's moves, from his view)."""
        s, events = self.game.timeout_turn(state)
        return Outcome(state=s, events=events)

    # ---------------------------------------------------------------- narration

    @abstractmethod
    def narrate(self, events: list[Event], state: S, c: TableCtx[U]) -> list[str]:
        """Public one-line narration of events for the caption's log."""

    def private_notes(self, events: list[Event], state: S, user: int, t: Translator) -> list[str]:
        """Notes only `user` may read (e.g. the tile he drew)."""
        return []

    @abstractmethod
    def summaries(self, events: list[Event], state: S, c: TableCtx[U]) -> list[str]:
        """Messages that stay in the chat's history: round summary, final standings."""

    def error_text(self, code: str, t: Translator) -> str:
        """The refusal for the engine's error `code`: the game's own text
        (`<strings>.error.<code>`), else the common one (`error.<code>`)."""
        for key in (f"{self.strings}.error.{code}", f"error.{code}"):
            if t.has(key):
                return t(key)
        return t("error.unknown", code=code)
