"""What the bot layer needs from a game: text, buttons, pictures, narration.

The bot layer is game-agnostic: adding a game = a presenter + a registry line
(`bot/presenters/__init__.py`). A presenter builds the group keyboard from the
PUBLIC view only; whatever depends on a player's hand is resolved when he presses.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from bot.warm_up import PictureJob, picture_job
from bot.warm_up import picture as draw_picture
from games import Event, Game
from locales import DEFAULT_LANGUAGE, Translator


def language_key(key: str, language: str) -> str:
    """A picture's key in `language`: the Russian key as it always was (the tables shown
    before pictures had a language keep theirs), another language's marked.

        >>> language_key("0123abcd", "ru"), language_key("0123abcd", "en")
        ('0123abcd', '0123abcd.en')
    """
    return key if language == DEFAULT_LANGUAGE else f"{key}.{language}"


@dataclass(frozen=True)
class Btn:
    """One inline button: the label and the presenter's short code (≤ 24 ASCII chars)."""

    text: str
    code: str


S = TypeVar("S", bound=BaseModel)  # a game's state model


@dataclass
class Outcome(Generic[S]):
    """The result of a press or of automatic steps."""

    state: S
    events: list[Event] = field(default_factory=list)
    ui: dict[str, Any] = field(default_factory=dict)
    toast: str | None = None
    alert: bool = False
    deadline: float | None = None
    changed: bool = True
    visible: bool = True


class Refusal(Exception):
    """A press the bot refuses; `text` is already translated and shown privately."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class LengthChoice:
    """A lobby option: its code, the translation key of its label and the engine options."""

    code: str
    label_key: str
    options: dict[str, Any]


def shown_page(ui: dict[str, Any], version: int, pages: int) -> int:
    """The page of a paged keyboard (`ui["page"]`, set by its ◀ ▶ for the table version
    it was drawn for) to show now: 0 once the table has moved on."""
    pg = ui.get("page") or {}
    if isinstance(pg, dict) and pg.get("v") == version:
        return int(pg.get("n") or 0) % pages
    return 0


class Presenter(ABC, Generic[S]):
    game_id: str
    strings: str  # the prefix of the game's keys in locales/ ("st", "cc", "sc", "hy", "dom")
    title_key: str
    title_short_key: str
    aliases: tuple[str, ...] = ()
    game: Game[S, Any]

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    def choices(self) -> list[LengthChoice]:
        """Lobby options (the first is the default)."""
        return []

    def new_state(self, players: list[int], seed: int, options: dict[str, Any]) -> S:
        state: S = self.game.new(players=players, seed=seed, options=options or None)
        return state

    def load(self, raw: str) -> S:
        state: S = self.game.state_type.model_validate_json(raw)
        return state

    def actor(self, state: S) -> int | None:
        """Who may press game buttons now; None = any player (e.g. a window open to all)."""
        return self.game.to_act(state)

    @abstractmethod
    def caption(
        self,
        state: S,
        names: dict[int, str],
        ui: dict[str, Any],
        log: list[str],
        t: Translator,
    ) -> str: ...

    def seq_changes(self, old: S, new: S) -> bool:
        """Whether a state change makes the shown buttons out of date (callback data carries
        the record's `seq`). By default every change does."""
        return old.model_dump_json() != new.model_dump_json()

    def versioned(self, code: str) -> bool:
        """Whether a button must carry the current `seq` (False for idempotent choices)."""
        return True

    @abstractmethod
    def keyboard(
        self, state: S, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
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
        self, state: S, names: dict[int, str], language: str = DEFAULT_LANGUAGE
    ) -> tuple[str, PictureJob]:
        """The table's picture as its key (`picture_key`) and the job that draws it, sent
        to the render process (bot/pictures.py): plain data, the game's id and the public
        view as JSON with the names and language. One public view, dumped once, for both."""
        view = self.public_view(state)
        job = picture_job(self.game_id, view, names, language)
        return self.view_key(view, language, job[1]), job

    def picture(self, state: S, names: dict[int, str], language: str = DEFAULT_LANGUAGE) -> bytes:
        """The board from the public view, drawn by `render/<game id>.py` with its words in
        `language` (cold, on a palette of its own, until the renderer is warmed up:
        bot/warm_up.py)."""
        return draw_picture(self.game_id, self.public_view(state), names, language)

    @abstractmethod
    def hand_popup(self, state: S, user: int, t: Translator) -> str:
        """A player's private hand, ≤ 200 characters (a show_alert popup)."""

    def hand_message(self, state: S, user: int, t: Translator) -> str | None:
        """A longer private text for the bot's private chat (None: nothing to send)."""
        return None

    @abstractmethod
    def press(
        self,
        state: S,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome[S]:
        """Apply a button; raise Refusal or games.IllegalAction to refuse."""

    def turn_id(self, state: S) -> str | None:
        """Identifies the decision the turn timer waits for (None: no timer now)."""
        actor = self.game.to_act(state)
        return None if actor is None else str(actor)

    @abstractmethod
    def timeout_move(self, state: S, user: int) -> Outcome[S]:
        """What the bot does for a player whose turn timer ran out: the engine's weakest
        policy's move (`games/<id>/policies.py`). Every game has one: a game without it
        would see its players removed at their first timeout."""

    def advance(self, state: S, ui: dict[str, Any], now: float) -> Outcome[S]:
        """Automatic steps (timers, auto-passes). `changed` False when nothing happened."""
        return Outcome(state=state, ui=ui, changed=False)

    @abstractmethod
    def narrate(
        self, events: list[Event], state: S, names: dict[int, str], t: Translator
    ) -> list[str]:
        """Public one-line narration of events for the caption's log."""

    def private_notes(self, events: list[Event], state: S, user: int, t: Translator) -> list[str]:
        """Notes only `user` may read (e.g. the tile he drew)."""
        return []

    @abstractmethod
    def summaries(
        self, events: list[Event], state: S, names: dict[int, str], t: Translator
    ) -> list[str]:
        """Messages that stay in the chat's history: round summary, final standings."""

    def error_text(self, code: str, t: Translator) -> str:
        """The refusal for the engine's error `code`: the game's own text
        (`<strings>.error.<code>`), else the common one (`error.<code>`)."""
        for key in (f"{self.strings}.error.{code}", f"error.{code}"):
            if t.has(key):
                return t(key)
        return t("error.unknown", code=code)
