# The «Настолка» bot. Build: `docker build -t nastolka .` (or scripts/build_image.sh with
# podman, from a locally made base); run: see docker-compose.yml and the README.
#
# Layers, so that a code change rebuilds in seconds: the dependencies (pinned by
# constraints.txt) are installed before any code is copied; the code is built into a
# wheel in a stage of its own and installed into the virtualenv (the bot runs from
# site-packages, never from a source copy).
ARG BASE=python:3.11-slim

# ---- the wheel of the package (this stage is thrown away) -----------------------------
FROM ${BASE} AS wheel
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN python3 -m venv /opt/build && /opt/build/bin/pip install setuptools==80.9.0
COPY pyproject.toml LICENSE /src/
COPY bot /src/bot
COPY games /src/games
COPY render /src/render
COPY locales /src/locales
COPY fake_telegram /src/fake_telegram
RUN /opt/build/bin/pip wheel --no-deps --no-build-isolation --wheel-dir /wheel /src

# ---- the image -------------------------------------------------------------------------
FROM ${BASE}
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MALLOC_ARENA_MAX=2 \
    PATH=/opt/nastolka/bin:$PATH

RUN python3 -m venv /opt/nastolka \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin nastolka

# the dependencies: rebuilt only when pyproject.toml or constraints.txt changes
COPY pyproject.toml constraints.txt /opt/nastolka/pinned/
RUN python3 -c "import tomllib; d = tomllib.load(open('/opt/nastolka/pinned/pyproject.toml', 'rb')); print('\n'.join(d['project']['dependencies']))" \
        > /opt/nastolka/pinned/requirements.txt \
    && pip install -c /opt/nastolka/pinned/constraints.txt -r /opt/nastolka/pinned/requirements.txt

# the package itself (its dependencies are all there already)
COPY --from=wheel /wheel /opt/nastolka/wheel
RUN pip install --no-deps --no-index /opt/nastolka/wheel/*.whl \
    && python -c "import bot, games, render, locales, fake_telegram"

USER nastolka
WORKDIR /home/nastolka
# Long polling by default; set WEBHOOK_URL and WEBHOOK_SECRET (and publish WEBHOOK_PORT)
# for webhook mode. In a container the servers listen on all of its interfaces; /healthz
# and /metrics are on METRICS_PORT (the HEALTHCHECK below asks it).
ENV WEBHOOK_HOST=0.0.0.0 \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9108
EXPOSE 8080 9108
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['METRICS_PORT'], timeout=4)"]
ENTRYPOINT ["nastolka"]
