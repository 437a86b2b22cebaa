#!/usr/bin/env bash
# The README's compose set-up, checked as an operator would use it, with no container
# registry and no Telegram: the image and a Redis image built here from a local Debian
# base, `docker-compose.yml` brought up with podman-compose (polling, then webhook mode
# with docker-compose.webhook.yml), a fake Telegram on this host that the bot in compose talks to, three
# simulated players playing a game to its end, `/healthz` and `/metrics` scraped during
# the game, the compose health check run, and the bot's JSON log lines read.
#
#   scripts/compose_check.sh          # needs root, podman, podman-compose, debootstrap
#   MODES=webhook scripts/compose_check.sh   # one mode only
#
# podman-compose: `pip install podman-compose` (COMPOSE=/path/to/podman-compose).
# Where the OCI runtime cannot set rlimits (some sandboxes), /etc/containers/containers.conf
# needs [containers] default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"].
set -euo pipefail
cd "$(dirname "$0")/.."

COMPOSE=${COMPOSE:-podman-compose}
PY=${PY:-.venv/bin/python}
BASE=${BASE:-localhost/nastolka-base:bookworm}
export REDIS_IMAGE=${REDIS_IMAGE:-localhost/nastolka-redis:bookworm}
work=$(mktemp -d)
driver=""
project=nastolka-check
files=(-f docker-compose.yml)
dc() { "$COMPOSE" -p "$project" "${files[@]}" -f "$work/check.yml" "$@"; }
cleanup() {
  [ -n "$driver" ] && kill "$driver" 2>/dev/null
  dc down -v >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== the bot's image (scripts/build_image.sh), tagged nastolka:latest as compose names it"
IMAGE=localhost/nastolka:latest scripts/build_image.sh | grep -E '^(==|   built|all checks)' || true
podman image exists localhost/nastolka:latest
if ! podman image exists "$REDIS_IMAGE"; then
  echo "== a Redis image from the same base: $REDIS_IMAGE"
  podman build -q --isolation chroot --build-arg "BASE=$BASE" -t "$REDIS_IMAGE" scripts/redis >/dev/null
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
redis_port=$(free_port)
# the check's own additions: Redis published on this host for the players' side, which
# reads the game's record to know when it is over (nothing else differs)
cat >"$work/check.yml" <<YML
services:
  redis:
    ports:
      - "127.0.0.1:$redis_port:6379"
YML

export BOT_TOKEN="123456:compose-check-$(date +%s)"
export LOG_FORMAT=json
failed=0
run_mode() {  # polling | webhook
  local mode=$1 api_port service=bot metrics=http://127.0.0.1:9108
  api_port=$(free_port)
  export TELEGRAM_API_URL="http://host.containers.internal:$api_port"
  if [ "$mode" = webhook ]; then
    files=(-f docker-compose.yml -f docker-compose.webhook.yml)
    # the fake Telegram on this host posts to the port compose publishes
    export WEBHOOK_URL=http://127.0.0.1:8080 WEBHOOK_SECRET=compose-check-secret
  fi
  echo "== compose: $mode ($service), the fake Telegram on port $api_port"
  rm -f "$work/ready"
  PYTHONPATH=. "$PY" scripts/compose_check.py --port "$api_port" --token "$BOT_TOKEN" --mode "$mode" \
    --redis-url "redis://127.0.0.1:$redis_port/0" --metrics "$metrics" \
    --ready-file "$work/ready" >"$work/$mode.out" 2>&1 &
  driver=$!
  for _ in $(seq 100); do [ -s "$work/ready" ] && break; sleep 0.2; done
  dc up -d --no-build >"$work/up.log" 2>&1 || {
    cat "$work/up.log"; return 1; }
  local rc=0
  wait "$driver" || rc=$?
  driver=""
  cat "$work/$mode.out"
  [ "$rc" = 0 ] || failed=1

  echo "-- the compose health check (podman healthcheck run, as a timer would)"
  local container
  container="${project}_bot_1"  # podman-compose names it <project>_<service>_<n>
  if podman healthcheck run "$container" >/dev/null 2>&1; then
    echo "ok    $service: healthy"
  else
    echo "FAIL  $service: the health check failed"; failed=1
  fi
  echo "-- the bot's log (LOG_FORMAT=json)"
  podman logs "$container" >"$work/$mode.log" 2>&1 || true
  "$PY" - "$work/$mode.log" "$BOT_TOKEN" <<'PYCHECK' || failed=1
import json, sys
path, token = sys.argv[1], sys.argv[2]
lines = [x for x in open(path, encoding="utf-8").read().splitlines() if x.strip()]
bad = [x for x in lines if not x.startswith("{")]
objs = [json.loads(x) for x in lines if x.startswith("{")]
with_ids = [o for o in objs if "chat_id" in o or "update_id" in o]
leak = [x for x in lines if token in x or token.split(":")[1] in x]
print(f"{'ok  ' if objs and not bad else 'FAIL'}  {len(objs)} JSON lines, {len(bad)} other lines"
      + (f" (first: {bad[0][:120]})" if bad else ""))
print(f"{'ok  ' if not leak else 'FAIL'}  the token in {len(leak)} lines")
for o in objs[:3]:
    print("      " + json.dumps(o, ensure_ascii=False)[:160])
sys.exit(1 if bad or leak or not objs else 0)
PYCHECK
  dc stop bot >/dev/null 2>&1 || true
  dc rm -f bot >/dev/null 2>&1 || true
}

for mode in ${MODES:-polling webhook}; do run_mode "$mode"; done
echo "== $([ "$failed" = 0 ] && echo 'all compose checks passed' || echo 'SOME CHECKS FAILED')"
exit "$failed"
