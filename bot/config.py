"""Configuration from the environment (pydantic-settings)."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    webhook_host: str = "0.0.0.0"
    webhook_port: int = 8080
    webhook_secret: SecretStr | None = None

    game_ttl_days: int = Field(default=30, ge=1)
    first_move_seconds: float = Field(default=20.0, ge=0)
    turn_seconds: float = Field(default=180.0, ge=0)  # 0 = no turn timer
    timeouts_before_removal: int = Field(default=3, ge=1)
    timer_poll_seconds: float = Field(default=1.0, gt=0)  # how often the deadlines are polled
    timer_lease_seconds: float = Field(default=30.0, gt=0)  # a claimed deadline's retry
    chat_messages_per_minute: int = Field(default=20, ge=1)  # new messages per group
    chat_window_seconds: float = Field(default=60.0, gt=0)  # ... in this sliding window
    redis_prefix: str = "nastolka"
    redis_sentinels: str | None = None  # "host:26379,host2:26379": ask them for the primary
    redis_sentinel_master: str = "mymaster"
    # Table pictures: drawn in `render_processes` separate processes (`python -m bot`
    # turns it on unless RENDER_PROCESS is set), else on `render_threads` threads of the
    # bot's own process. Either way below the event loop's CPU priority.
    render_process: bool = False
    render_processes: int = Field(default=1, ge=1)
    render_threads: int = Field(default=2, ge=1)

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
