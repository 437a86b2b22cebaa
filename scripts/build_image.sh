#!/usr/bin/env bash
# Build the bot's image with podman from a base made here (no container registry needed),
# check it, and time a rebuild after a one-line code change.
#
#   scripts/build_image.sh            # base (once), image, `nastolka --check` inside it
#   scripts/build_image.sh --rebuild  # … and a timed rebuild after a one-line change
#
# The base is Debian bookworm (debootstrap, minbase) with Debian's python3 (3.11),
# python3-venv and pip, imported as localhost/nastolka-base:bookworm; the image is
# built from it with `--build-arg BASE=…` (the Dockerfile's default is python:3.11-slim).
# Needs root (or rootless podman), podman and debootstrap: apt-get install podman debootstrap.
# PODMAN_FLAGS adds podman options (e.g. "--storage-driver vfs" where overlay fails).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:-localhost/nastolka-base:bookworm}
IMAGE=${IMAGE:-localhost/nastolka:dev}
ROOTFS=${ROOTFS:-/var/tmp/nastolka-base/rootfs}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
read -r -a FLAGS <<<"${PODMAN_FLAGS:-}"
# chroot isolation: the RUN steps need no OCI runtime (crun failed here on the cgroups)
BUILD_FLAGS=${BUILD_FLAGS:---isolation chroot}
pod() { podman "${FLAGS[@]}" "$@"; }
fake=""
mounted=""
cleanup() {
  [ -n "$fake" ] && kill "$fake" 2>/dev/null
  [ -n "$mounted" ] && pod image unmount "$IMAGE" >/dev/null 2>&1
  pod rm -f nastolka-fake-api >/dev/null 2>&1
  [ -f /tmp/nastolka-init.py.bak ] && mv /tmp/nastolka-init.py.bak bot/__init__.py
  return 0
}
trap cleanup EXIT

if ! pod image exists "$BASE"; then
  if [ ! -x "$ROOTFS/usr/bin/python3" ]; then
    echo "== base: debootstrap bookworm into $ROOTFS"
    mkdir -p "$(dirname "$ROOTFS")"
    debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates \
      bookworm "$ROOTFS" "$MIRROR" >/dev/null
    rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
  fi
  # the host's CA bundle: a proxy of this network that re-signs TLS is trusted inside too
  cp /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
  echo "== base: import $ROOTFS as $BASE"
  tar -C "$ROOTFS" -c . | pod import --change 'CMD ["python3"]' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' - "$BASE" >/dev/null
fi

echo "== image: $IMAGE from $BASE"
start=$(date +%s.%N)
pod build --format docker ${BUILD_FLAGS:-} --build-arg "BASE=$BASE" -t "$IMAGE" .
echo "   built in $(echo "$(date +%s.%N) - $start" | bc) s"

echo "== check: nastolka --check inside the image (a fake Bot API beside it, no Redis)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
FAKE_API="import asyncio
from fake_telegram.server import FakeBotApi
async def main():
    await FakeBotApi('123456:check-token').start('127.0.0.1', $port)
    await asyncio.Event().wait()
asyncio.run(main())"
ENVS=(BOT_TOKEN=123456:check-token "TELEGRAM_API_URL=http://127.0.0.1:$port")
if pod run --rm --network host --entrypoint true "$IMAGE" 2>/dev/null; then
  pod run -d --rm --name nastolka-fake-api --network host --entrypoint python "$IMAGE" \
    -c "$FAKE_API" >/dev/null
  run_check() { pod run --rm --network host "${ENVS[@]/#/-e}" "$IMAGE" --check; }
else
  # no OCI runtime here (e.g. crun: "cgroups in hybrid mode not supported"): the image's
  # own file system, mounted, and its entry point run in a chroot as its user
  echo "   (podman run is not possible here: the image is mounted and run in a chroot)"
  mnt=$(pod image mount "$IMAGE")
  mounted=1
  chroot --userspec=10001:10001 "$mnt" /opt/nastolka/bin/python -c "$FAKE_API" &
  fake=$!
  run_check() {  # the image as it is now (mounted again after a rebuild)
    local root
    root=$(pod image mount "$IMAGE")
    chroot --userspec=10001:10001 "$root" /usr/bin/env -i HOME=/home/nastolka \
      PATH=/opt/nastolka/bin:/usr/bin:/bin "${ENVS[@]}" nastolka --check
  }
fi
for _ in $(seq 50); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
  sleep 0.2
done
run_check

if [ "${1:-}" = "--rebuild" ]; then
  echo "== rebuild after a one-line code change (bot/__init__.py, reverted afterwards)"
  cp bot/__init__.py /tmp/nastolka-init.py.bak
  echo "# rebuilt $(date -u +%FT%TZ)" >>bot/__init__.py
  start=$(date +%s.%N)
  pod build --format docker ${BUILD_FLAGS:-} --build-arg "BASE=$BASE" -t "$IMAGE" . >/dev/null
  echo "   rebuilt in $(echo "$(date +%s.%N) - $start" | bc) s"
  mv /tmp/nastolka-init.py.bak bot/__init__.py
  pod run --rm --entrypoint true "$IMAGE" 2>/dev/null || chroot "$(pod image mount "$IMAGE")" \
    grep -q "# rebuilt" /opt/nastolka/lib/python3.11/site-packages/bot/__init__.py
  echo "   the rebuilt image holds the change"
  run_check
fi
