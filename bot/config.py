"""Configuration from the environment (pydantic-settings)."""

from __future__ import annotations

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot import config_checks as checks
from bot.cpus import default_render_processes


class Settings(BaseSettings):
    """Everything the bot reads from its environment.

    `BOT_TOKEN` is required. Without `REDIS_URL` games live in memory only.
    Webhook mode is on when `WEBHOOK_URL` is set; long polling otherwise.
    """

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", case_sensitive=False)

    bot_token: SecretStr
    redis_url: str | None = None
    telegram_api_url: str | None = None
    bot_language: str = "ru"

    webhook_url: str | None = None
    webhook_path: str = "/webhook"
    webhook_host: str = "127.0.0.1"  # 0.0.0.0 to listen on every interface (a container)
    webhook_port: int = Field(default=8080, ge=1, le=65535)
    webhook_secret: SecretStr | None = None
    webhook_insecure: bool = False  # WEBHOOK_INSECURE=1: webhook mode without a secret
    # long polling: another poller on this token for this long (and 3 conflicts) = exit 3
    polling_conflict_seconds: float = Field(default=10.0, gt=0)

    game_ttl_days: int = Field(default=30, ge=1)
    first_move_seconds: float = Field(default=20.0, ge=0)
    turn_seconds: float = Field(default=180.0, ge=0)  # 0 = no turn timer
    timeouts_before_removal: int = Field(default=3, ge=1)
    computer_move_seconds: float = Field(default=1.0, ge=0)  # a computer player's pace
    # a leaver's seat waits this long for «🤖 Заменить компьютером» (0 = removed at once)
    replace_seconds: float = Field(default=60.0, ge=0)
    # a turn ping is sent once the turn has waited this long for its player (0: at once);
    # a slow game's turn, or a player who timed out before, is pinged at once
    ping_after_seconds: float = Field(default=8.0, ge=0)
    # the group's memory (bot/memory/): kept this long after a chat's last finished game
    # (and at most this long after the bot was removed from the chat)
    memory_retention_days: float = Field(default=180.0, gt=0)
    # an open lobby nobody presses for this long closes by itself (0 = never)
    lobby_expire_minutes: float = Field(default=30.0, ge=0)
    # a game whose players are all silent this many turn timers (or, without a timer,
    # this many hours) is abandoned: any member of the chat may end it with /cancel
    abandoned_turn_timers: float = Field(default=3.0, gt=0)
    abandoned_hours: float = Field(default=24.0, gt=0)
    timer_poll_seconds: float = Field(default=1.0, gt=0)  # how often the deadlines are polled
    timer_lease_seconds: float = Field(default=30.0, gt=0)  # a claimed deadline's retry
    # calls shown in one group (new messages, edits, deletes) per sliding window
    chat_calls_per_minute: int = Field(default=20, ge=1)
    chat_window_seconds: float = Field(default=60.0, gt=0)  # ... of this many seconds
    chat_deletes_counted: bool = True  # deletes spend the group's budget too
    # the mover's own ephemeral copy of the table (bot/service/table_copy.py)
    table_copy: bool = True
    # ephemeral calls for one member of a chat: at most one per this many seconds (0: off;
    # Telegram documents no limit: our assumption). Never by waiting: an edit that comes
    # sooner is left to a later round (bot/sender.py)
    ephemeral_gap_seconds: float = Field(default=1.0, ge=0)
    # new messages a second for all instances together (0: no bot-wide budget); answers,
    # edits and deletes are not limited bot-wide by Telegram, nor by us
    telegram_messages_per_second: float = Field(default=30.0, ge=0)
    redis_prefix: str = "nastolka"
    redis_sentinels: str | None = None  # "host:26379,host2:26379": ask them for the primary
    redis_sentinel_master: str = "mymaster"
    redis_cluster: bool = False  # REDIS_URL is one node of a Redis (or Valkey) Cluster
    # Table pictures: drawn in `render_processes` separate processes (`python -m bot`
    # turns it on unless RENDER_PROCESS is set), else on `render_threads` threads of the
    # bot's own process. Either way below the event loop's CPU priority.
    render_process: bool = False
    # default: every CPU but one, 1 to 4 (bot/cpus.py)
    render_processes: int = Field(default_factory=default_render_processes, ge=1)
    render_threads: int = Field(default=2, ge=1)
    # operations (bot/health.py, bot/logs.py): /healthz and /metrics on METRICS_PORT (0 = off)
    metrics_port: int = Field(default=0, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    log_level: str = Field(default="INFO", pattern=r"(?i)^(debug|info|warning|error|critical)$")
    log_format: str = Field(default="text", pattern=r"(?i)^(text|json)$")

    def sentinel_list(self) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for item in (self.redis_sentinels or "").split(","):
            host, _, port = item.strip().rpartition(":")
            if host and port.isdigit():
                out.append((host, int(port)))
        return out

    @field_validator("bot_language")
    @classmethod
    def _lang(cls, value: str) -> str:
        from locales import LANGUAGES

        value = value.strip().lower()
        if value not in LANGUAGES:
            raise ValueError(f"unsupported language {value!r}; one of {', '.join(LANGUAGES)}")
        return value

    @field_validator(
        "redis_url", "telegram_api_url", "webhook_url", "redis_sentinels", mode="before"
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    # Each value checked for its shape, so a mistake is one line at startup (bot/config_checks.py)
    @field_validator("bot_token", mode="before")
    @classmethod
    def _token(cls, value: object) -> object:
        return checks.check_token(value) if isinstance(value, str) else value

    @field_validator("webhook_secret", mode="before")
    @classmethod
    def _secret(cls, value: object) -> object:
        return checks.check_webhook_secret(value) if isinstance(value, str) else value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        return checks.check_redis_url(value)

    @field_validator("telegram_api_url")
    @classmethod
    def _api_url(cls, value: str | None) -> str | None:
        return checks.check_api_url(value)

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        return checks.check_webhook_url(value, info.data.get("telegram_api_url"))

    @field_validator("webhook_path")
    @classmethod
    def _webhook_path(cls, value: str) -> str:
        return checks.check_webhook_path(value)

    @field_validator("redis_sentinels")
    @classmethod
    def _sentinels(cls, value: str | None) -> str | None:
        return checks.check_sentinels(value)
