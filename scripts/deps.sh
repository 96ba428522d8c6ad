#!/bin/sh
# `make deps`: the system packages the tests need — PostgreSQL's server (the server tests start a throw-away
# cluster with its initdb), Debian's Chromium (the browser tests drive /usr/bin/chromium) and dieharder (the RNG
# stream's test pipes `tapete rng stream` into it, tests/lab/test_rng_battery.py) and nginx (a round is played
# through it, tests/server/test_server_proxy.py) and haproxy (two nodes behind it, tests/server/test_server_haproxy.py)
# — and only those
# that are missing. Each is checked on its own; apt-get installs just the missing ones, without recommended
# packages, and never names a package that is already installed (so nothing else is upgraded, beyond what a
# new package strictly requires). It says what it is about to install before it does.
# TAPETE_CHROMIUM, TAPETE_INITDB_GLOB, TAPETE_DIEHARDER, TAPETE_NGINX and TAPETE_HAPROXY change the paths checked (tests/test_make.py uses them).
set -eu
chromium=${TAPETE_CHROMIUM:-/usr/bin/chromium}
initdb_glob=${TAPETE_INITDB_GLOB:-/usr/lib/postgresql/*/bin/initdb}
dieharder=${TAPETE_DIEHARDER:-/usr/bin/dieharder}
nginx=${TAPETE_NGINX:-/usr/sbin/nginx}
haproxy=${TAPETE_HAPROXY:-/usr/sbin/haproxy}

missing=""
# shellcheck disable=SC2086  # the glob is meant to expand
if ! ls $initdb_glob >/dev/null 2>&1; then missing="postgresql"; fi
if [ ! -x "$chromium" ]; then missing="${missing:+$missing }chromium"; fi
if [ ! -x "$dieharder" ]; then missing="${missing:+$missing }dieharder"; fi
if [ ! -x "$nginx" ]; then missing="${missing:+$missing }nginx"; fi
if [ ! -x "$haproxy" ]; then missing="${missing:+$missing }haproxy"; fi

if [ -z "$missing" ]; then
  echo "make deps: PostgreSQL (initdb), Chromium ($chromium), dieharder ($dieharder), nginx ($nginx) and haproxy ($haproxy) are installed; nothing to install."
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "make deps: missing: $missing. This is not a Debian system: install them with your package manager;" \
       "the tests that need them say so when they are absent."
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "make deps: about to install: $missing"
echo "make deps: running: ${sudo:+$sudo }apt-get update -q, then apt-get install -y -q --no-install-recommends $missing"
# shellcheck disable=SC2086
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
