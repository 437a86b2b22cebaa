#!/bin/sh
# As the official image does: with no configuration file, Redis listens on every
# interface of the container's own network, so protected mode is turned off.
if [ "${1:-}" = "redis-server" ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
