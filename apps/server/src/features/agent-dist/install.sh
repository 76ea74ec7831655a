#!/bin/sh
# Portcullis gateway installer: install | update | rollback | uninstall.
#
#   printf 'Authorization: Bearer %s\n' '<cluster key>' \
#     | curl -fsSL -H @- '<server>/api/agent/install.sh' | sudo sh -s -- install
#
# The server writes its address and the key that fetched the script into it (below), so
# neither is on a command line; the environment may still give them (a saved copy).
#
# Environment:
#   PORTCULLIS_SERVER      the Portcullis server, http(s)://host[:port][/path]  (install, update)
#   PORTCULLIS_KEY         the cluster key the console shows                     (install, update)
#   PORTCULLIS_ROOT        install folder (default /opt/portcullis-gateway)
#   PORTCULLIS_HOST        host name clients use to reach this gateway (default: this host's name)
#   PORTCULLIS_VERSION     version to install or update to (default: the published one)
#   PORTCULLIS_NO_SYSTEMD  1: write no systemd unit; start <root>/run.sh under your own supervisor
#   PORTCULLIS_INSECURE_HTTP  1: accept an http:// server on another machine (the cluster key and
#                          the targets' credentials then cross the network in clear)
#
# Layout: <root>/versions/<version>/portcullis-gateway.js, <root>/current and <root>/previous
# (links to version folders), <root>/config.json (server, key, host; mode 600), <root>/run.sh.
# Every value from the environment is checked against a narrow character set before it is
# used, and every use is quoted. The cluster key goes to curl on its standard input, never on
# a command line other local users could read.
set -eu
umask 022

PUBLISHED_VERSION='@@PUBLISHED_VERSION@@'
UNIT='portcullis-gateway'
UNIT_FILE="/etc/systemd/system/$UNIT.service"
SERVICE_USER='portcullis-gateway'
MARKER='.portcullis-gateway'
BUNDLE='portcullis-gateway.js'

say() { printf 'portcullis-gateway: %s\n' "$*"; }
die() {
  printf 'portcullis-gateway: error: %s\n' "$*" >&2
  exit 1
}

ACTION="${1:-}"
SERVER="${PORTCULLIS_SERVER:-@@SERVER@@}"
KEY="${PORTCULLIS_KEY:-@@KEY@@}"
ROOT="${PORTCULLIS_ROOT:-/opt/portcullis-gateway}"
HOST="${PORTCULLIS_HOST:-}"
VERSION="${PORTCULLIS_VERSION:-$PUBLISHED_VERSION}"
NO_SYSTEMD="${PORTCULLIS_NO_SYSTEMD:-0}"
INSECURE_HTTP="${PORTCULLIS_INSECURE_HTTP:-0}"

case "$ACTION" in
  install | update | rollback | uninstall) ;;
  *) die "usage: sh install.sh install|update|rollback|uninstall (got '${ACTION}')" ;;
esac

# --- checks of every input ---------------------------------------------------------------

check_root_path() {
  case "$ROOT" in /?*) ;; *) die "PORTCULLIS_ROOT must be an absolute folder path" ;; esac
  case "$ROOT" in *[!A-Za-z0-9._/-]*) die "PORTCULLIS_ROOT may hold only letters, digits and . _ / -" ;; esac
  while [ "${ROOT%/}" != "$ROOT" ]; do ROOT="${ROOT%/}"; done
  case "$ROOT" in
    '' | /. | /.. | */./* | */../* | */. | */.. | *//*) die "PORTCULLIS_ROOT must be a plain folder path" ;;
  esac
  case "$ROOT" in
    /bin | /boot | /dev | /etc | /home | /lib | /lib64 | /opt | /proc | /root | /run | /sbin | /srv | /sys | /tmp | /usr | /var)
      die "PORTCULLIS_ROOT must be a folder of its own, not $ROOT" ;;
  esac
}

check_server_and_key() {
  [ -n "$SERVER" ] || die "PORTCULLIS_SERVER is not set (the server address from the console)"
  case "$SERVER" in http://?* | https://?*) ;; *) die "PORTCULLIS_SERVER must be an http:// or https:// address" ;; esac
  case "$SERVER" in *[!A-Za-z0-9.:/_~-]*) die "PORTCULLIS_SERVER may hold only letters, digits and . : / _ ~ -" ;; esac
  while [ "${SERVER%/}" != "$SERVER" ]; do SERVER="${SERVER%/}"; done
  check_server_is_safe
  [ -n "$KEY" ] || die "PORTCULLIS_KEY is not set (the cluster key from the console)"
  case "$KEY" in pck_?*) ;; *) die "PORTCULLIS_KEY is not a cluster key (they start with pck_)" ;; esac
  case "$KEY" in *[!A-Za-z0-9_-]*) die "PORTCULLIS_KEY is not a cluster key (unexpected character)" ;; esac
  [ "${#KEY}" -le 200 ] || die "PORTCULLIS_KEY is too long to be a cluster key"
}

# Plain http:// only to this machine (as the gateway itself insists): the control channel
# carries the cluster key and every session's target credential.
check_server_is_safe() {
  case "$SERVER" in http://*) ;; *) return 0 ;; esac
  [ "$INSECURE_HTTP" = 1 ] && return 0
  server_host="${SERVER#http://}"
  server_host="${server_host%%[:/]*}"
  case "$server_host" in
    localhost) return 0 ;;
    127.*) case "$server_host" in *[!0-9.]*) ;; *) return 0 ;; esac ;;
  esac
  die "PORTCULLIS_SERVER is plain http:// to another machine: the cluster key and the targets' credentials would cross the network in clear. Use the server's https:// address, or set PORTCULLIS_INSECURE_HTTP=1 to accept that on a network you trust"
}

check_version() {
  case "$VERSION" in [0-9]*) ;; *) die "PORTCULLIS_VERSION must look like 3.0.0" ;; esac
  case "$VERSION" in *[!0-9A-Za-z.-]*) die "PORTCULLIS_VERSION must look like 3.0.0" ;; esac
  [ "${#VERSION}" -le 40 ] || die "PORTCULLIS_VERSION is too long"
}

check_host() {
  if [ -n "$HOST" ]; then
    case "$HOST" in *[!A-Za-z0-9.-]*) die "PORTCULLIS_HOST must be a host name or IPv4 address" ;; esac
  else
    HOST="$(hostname 2>/dev/null || uname -n)"
    case "$HOST" in '' | *[!A-Za-z0-9.-]*) HOST='' ;; esac
  fi
  [ "${#HOST}" -le 255 ] || die "PORTCULLIS_HOST is too long"
}

find_node() {
  NODE="$(command -v node 2>/dev/null || true)"
  [ -n "$NODE" ] || die "Node.js 20 or later is needed, and 'node' is not in PATH"
  case "$NODE" in /*) ;; *) die "'node' must resolve to an absolute path (got $NODE)" ;; esac
  case "$NODE" in *[!A-Za-z0-9._/-]*) die "the path of node ($NODE) has unexpected characters" ;; esac
  "$NODE" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
    die "Node.js 20 or later is needed (found $("$NODE" --version 2>/dev/null || echo unknown))"
}

find_curl() {
  command -v curl >/dev/null 2>&1 || die "curl is needed to download the gateway"
}

# systemd is used when it runs here and PORTCULLIS_NO_SYSTEMD is not 1.
pick_supervisor() {
  if [ "$NO_SYSTEMD" = 1 ]; then
    USE_SYSTEMD=0
  elif [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    USE_SYSTEMD=1
    [ "$(id -u)" = 0 ] || die "installing a systemd unit needs root: run it with sudo"
  else
    die "systemd is not running here; run again with PORTCULLIS_NO_SYSTEMD=1 and start $ROOT/run.sh with your own supervisor"
  fi
}

# --- pieces ------------------------------------------------------------------------------

# The version a link (current or previous) points at, or nothing.
link_version() {
  target="$(readlink "$ROOT/$1" 2>/dev/null || true)"
  case "$target" in versions/?*) printf '%s' "${target#versions/}" ;; esac
}

# Downloads the bundle of $VERSION into a fresh folder under $STAGE and checks that it runs
# and reports that version. Nothing under $ROOT changes here.
download() {
  STAGE="$(mktemp -d "${TMPDIR:-/tmp}/portcullis-gateway.XXXXXX")"
  trap 'rm -rf "$STAGE"' EXIT
  code="$(printf 'Authorization: Bearer %s\n' "$KEY" |
    curl -sS --proto '=http,https' --retry 2 -H @- -o "$STAGE/$BUNDLE" -w '%{http_code}' \
      "$SERVER/api/agent/bundle.js?version=$VERSION")" ||
    die "could not reach $SERVER (see curl's message above)"
  case "$code" in
    200) ;;
    401) die "the server refused the cluster key (PORTCULLIS_KEY); copy the command again from the console" ;;
    400 | 404) die "the server has no gateway version $VERSION" ;;
    *) die "the server answered HTTP $code to the download" ;;
  esac
  printf '{ "type": "commonjs" }\n' >"$STAGE/package.json"
  got="$("$NODE" "$STAGE/$BUNDLE" --version 2>/dev/null || true)"
  [ "$got" = "$VERSION" ] || die "the downloaded gateway does not run here (expected version $VERSION)"
  say "downloaded gateway $VERSION from $SERVER"
}

# Moves the staged download to versions/$VERSION.
place() {
  mkdir -p "$ROOT/versions"
  rm -rf "$ROOT/versions/$VERSION.new"
  mkdir "$ROOT/versions/$VERSION.new"
  cp "$STAGE/$BUNDLE" "$STAGE/package.json" "$ROOT/versions/$VERSION.new/"
  chmod 755 "$ROOT/versions/$VERSION.new"
  chmod 644 "$ROOT/versions/$VERSION.new/$BUNDLE" "$ROOT/versions/$VERSION.new/package.json"
  rm -rf "$ROOT/versions/$VERSION"
  mv "$ROOT/versions/$VERSION.new" "$ROOT/versions/$VERSION"
}

# Points current at $1, keeping the version it replaces as previous; other versions go.
switch_to() {
  old="$(link_version current)"
  if [ "$old" != "$1" ]; then
    [ -z "$old" ] || ln -sfn "versions/$old" "$ROOT/previous"
    ln -sfn "versions/$1" "$ROOT/current"
  fi
  keep_prev="$(link_version previous)"
  for dir in "$ROOT"/versions/*; do
    [ -d "$dir" ] || continue
    name="${dir##*/}"
    [ "$name" = "$1" ] || [ "$name" = "$keep_prev" ] || rm -rf "$dir"
  done
  say "current -> versions/$1${keep_prev:+ (previous: $keep_prev)}"
}

write_config() {
  (
    umask 077
    {
      printf '{\n  "server": "%s",\n  "key": "%s"' "$SERVER" "$KEY"
      if [ -n "$HOST" ]; then printf ',\n  "host": "%s"' "$HOST"; fi
      if [ "$INSECURE_HTTP" = 1 ]; then printf ',\n  "insecure_http": true'; fi
      printf '\n}\n'
    } >"$ROOT/config.json.new"
  )
  chmod 600 "$ROOT/config.json.new"
  mv "$ROOT/config.json.new" "$ROOT/config.json"
  say "wrote $ROOT/config.json (mode 600)"
}

write_run_script() {
  cat >"$ROOT/run.sh.new" <<EOF
#!/bin/sh
# Starts the Portcullis gateway in the foreground (written by the installer). Exit codes:
# 0 stopped, 2 bad config, 3 cluster key refused, 4 update required, 1 other failure.
echo \$\$ >'$ROOT/gateway.pid'
exec '$NODE' '$ROOT/current/$BUNDLE' --config '$ROOT/config.json'
EOF
  chmod 755 "$ROOT/run.sh.new"
  mv "$ROOT/run.sh.new" "$ROOT/run.sh"
  say "wrote $ROOT/run.sh"
}

# True when the systemd unit on this host runs the gateway of this root.
unit_is_ours() {
  [ -f "$UNIT_FILE" ] && grep -qF "'$ROOT/current/$BUNDLE'" "$UNIT_FILE"
}

write_unit() {
  if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    command -v useradd >/dev/null 2>&1 || die "useradd is needed to create the user $SERVICE_USER"
    useradd --system --no-create-home --home-dir "$ROOT" --shell /usr/sbin/nologin "$SERVICE_USER"
    say "created the system user $SERVICE_USER"
  fi
  chown "$SERVICE_USER" "$ROOT/config.json"
  # The gateway's own files (the SSH proxy's host key) live in <root>/data.
  mkdir -p "$ROOT/data"
  chmod 700 "$ROOT/data"
  chown "$SERVICE_USER" "$ROOT/data"
  cat >"$UNIT_FILE.new" <<EOF
[Unit]
Description=Portcullis gateway (cluster agent)
After=network-online.target
Wants=network-online.target

[Service]
User=$SERVICE_USER
ExecStart='$NODE' '$ROOT/current/$BUNDLE' --config '$ROOT/config.json'
Restart=always
RestartSec=5
# 2 bad config, 3 cluster key refused, 4 update required: restarting cannot help.
RestartPreventExitStatus=2 3 4
NoNewPrivileges=yes
ProtectSystem=full
ProtectHome=yes
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
EOF
  mv "$UNIT_FILE.new" "$UNIT_FILE"
  systemctl daemon-reload
  systemctl enable "$UNIT" >/dev/null 2>&1
  say "wrote and enabled $UNIT_FILE"
}

# Stops a gateway started from run.sh (its pid file names it; the command line must match).
stop_run_sh() {
  [ -f "$ROOT/gateway.pid" ] || return 0
  pid="$(cat "$ROOT/gateway.pid" 2>/dev/null || true)"
  case "$pid" in '' | *[!0-9]*) return 0 ;; esac
  [ -r "/proc/$pid/cmdline" ] || return 0
  tr '\000' ' ' <"/proc/$pid/cmdline" | grep -qF "$ROOT/current/$BUNDLE" || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  i=0
  while [ "$i" -lt 10 ] && kill -0 "$pid" 2>/dev/null; do
    sleep 1
    i=$((i + 1))
  done
  say "stopped the gateway started from run.sh (pid $pid)"
}

# After a switch: restart the unit, or say what to do without one.
restart() {
  if [ "$NO_SYSTEMD" != 1 ] && [ -d /run/systemd/system ] && unit_is_ours; then
    systemctl restart "$UNIT"
    say "restarted $UNIT"
  else
    say "restart the gateway to run version $1 (stop it, then start $ROOT/run.sh)"
  fi
}

require_installed() {
  [ -f "$ROOT/$MARKER" ] || die "no Portcullis gateway is installed in $ROOT"
}

# --- actions -----------------------------------------------------------------------------

do_install() {
  check_root_path
  check_server_and_key
  check_version
  check_host
  find_node
  find_curl
  pick_supervisor
  if [ -e "$ROOT" ] && [ ! -f "$ROOT/$MARKER" ] && [ -n "$(ls -A "$ROOT" 2>/dev/null)" ]; then
    die "$ROOT exists and is not a Portcullis gateway folder; choose another PORTCULLIS_ROOT"
  fi
  download
  mkdir -p "$ROOT"
  chmod 755 "$ROOT"
  : >"$ROOT/$MARKER"
  place
  write_config
  write_run_script
  switch_to "$VERSION"
  if [ "$USE_SYSTEMD" = 1 ]; then
    write_unit
    systemctl restart "$UNIT"
    say "started $UNIT; it dials $SERVER and appears in the console as the cluster's agent"
  else
    say "installed without systemd; start it with: $ROOT/run.sh"
  fi
}

do_update() {
  check_root_path
  require_installed
  check_server_and_key
  check_version
  find_node
  find_curl
  if [ "$(link_version current)" = "$VERSION" ]; then
    say "already at version $VERSION"
    return 0
  fi
  download
  place
  switch_to "$VERSION"
  restart "$VERSION"
}

do_rollback() {
  check_root_path
  require_installed
  prev="$(link_version previous)"
  cur="$(link_version current)"
  if [ -z "$prev" ] || [ ! -f "$ROOT/versions/$prev/$BUNDLE" ]; then
    die "there is no previous version to roll back to"
  fi
  ln -sfn "versions/$prev" "$ROOT/current"
  [ -z "$cur" ] || ln -sfn "versions/$cur" "$ROOT/previous"
  say "current -> versions/$prev (previous: $cur)"
  restart "$prev"
}

do_uninstall() {
  check_root_path
  require_installed
  if unit_is_ours; then
    if [ -d /run/systemd/system ]; then
      systemctl disable --now "$UNIT" >/dev/null 2>&1 || true
    fi
    rm -f "$UNIT_FILE"
    if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
    say "stopped and removed $UNIT_FILE"
  fi
  stop_run_sh
  rm -rf "$ROOT"
  say "removed $ROOT; the cluster shows its agent unavailable once the connection is gone"
}

case "$ACTION" in
  install) do_install ;;
  update) do_update ;;
  rollback) do_rollback ;;
  uninstall) do_uninstall ;;
esac
