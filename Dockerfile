# The «Настолка» bot: `docker build -t nastolka .` then `docker run -e BOT_TOKEN=... nastolka`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MALLOC_ARENA_MAX=2

WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY locales ./locales
COPY fake_telegram ./fake_telegram
RUN pip install -c constraints.txt . \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin nastolka

USER nastolka
# Long polling by default; set WEBHOOK_URL and WEBHOOK_SECRET (and publish WEBHOOK_PORT) for
# webhook mode. In a container the webhook server listens on all of its interfaces.
ENV WEBHOOK_HOST=0.0.0.0
EXPOSE 8080
ENTRYPOINT ["python", "-m", "bot"]
