#!/usr/bin/env bash
# Starts a throw-away, single-node Ceph cluster with a RADOS Gateway so the S3 storage driver can be tested
# against a real S3 server: one mon, one memstore OSD and radosgw (beast) on loopback, auth none, every file
# under $RGW_TEST_DIR. Idempotent: when the gateway already answers with the keys written earlier, it is reused.
#
#   scripts/test-s3-server.sh          start (or reuse); prints KEY=VALUE lines and writes them to $RGW_TEST_DIR/s3.env
#   scripts/test-s3-server.sh stop     stops the daemons this script started (by their pid files) and removes the folder
#
# S3_ENDPOINT takes path-style requests. S3_VIRTUAL_ENDPOINT is the same gateway by its DNS name (rgw dns name), so it
# also takes virtual-host-style ones at <bucket>.localhost; callers resolve those names to 127.0.0.1 themselves.
#
# Needs the Debian packages radosgw ceph-mon ceph-osd ceph-common. Exit code 2 means "not installed",
# 1 means "did not come up" (the reason goes to stderr); callers skip their S3 tests then.
set -euo pipefail

DIR="${RGW_TEST_DIR:-/tmp/frametext-rgw}"
RGW_PORT="${RGW_TEST_PORT:-17480}"
MON_PORT="${RGW_TEST_MON_PORT:-13300}"
ACCESS_KEY="frametext-test-access"
SECRET_KEY="frametext-test-secret-key-0123456789"
CONF="$DIR/ceph.conf"
DNS_NAME="localhost"
ENDPOINT="http://127.0.0.1:$RGW_PORT"
VIRTUAL_ENDPOINT="http://$DNS_NAME:$RGW_PORT"
DEADLINE=$((SECONDS + ${RGW_TEST_TIMEOUT:-90}))

log() { echo "test-s3-server: $*" >&2; }
fail() { log "$*"; [ -d "$DIR/log" ] && log "logs are in $DIR/log"; exit 1; }

stop_daemons() {
  for pidfile in "$DIR"/run/*.pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
  done
  sleep 1
  for pidfile in "$DIR"/run/*.pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill -9 "$pid" 2>/dev/null || true
  done
}

# One caller at a time: concurrent test runs must not start two clusters in the same folder.
exec 9>"$DIR.lock"
flock -w 150 9 || { log "another test-s3-server.sh held $DIR.lock for too long"; exit 1; }

if [ "${1:-}" = "stop" ]; then
  [ -d "$DIR" ] && stop_daemons
  rm -rf "$DIR"
  exit 0
fi

for bin in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph ceph-authtool; do
  command -v "$bin" >/dev/null || { log "$bin is not installed (apt-get install -y radosgw ceph-mon ceph-osd ceph-common)"; exit 2; }
done

print_env() {
  printf 'S3_ENDPOINT=%s\nS3_VIRTUAL_ENDPOINT=%s\nS3_ACCESS_KEY=%s\nS3_SECRET_KEY=%s\n' "$ENDPOINT" "$VIRTUAL_ENDPOINT" "$ACCESS_KEY" "$SECRET_KEY" | tee "$DIR/s3.env"
}

# Reuse: the gateway answers, our user exists and the cluster was set up with today's settings.
if [ -f "$DIR/s3.env" ] && grep -qx "rgw dns name = $DNS_NAME" "$CONF" 2>/dev/null && curl -fsS -o /dev/null --max-time 3 "$ENDPOINT/" 2>/dev/null; then
  print_env
  exit 0
fi

# Anything left over (a half-started cluster, a stale folder) is ours: stop it and start clean.
[ -d "$DIR" ] && stop_daemons
rm -rf "$DIR"
mkdir -p "$DIR"/{run,log,mon,osd0,rgw}
FSID="$(cat /proc/sys/kernel/random/uuid)"

cat >"$CONF" <<EOF
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_PORT]
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms client mode = crc
keyring = $DIR/keyring
run dir = $DIR/run
pid file = $DIR/run/\$name.pid
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg autoscale mode = off
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 1073741824

[mon.a]
mon data = $DIR/mon

[osd.0]
osd data = $DIR/osd0

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw data = $DIR/rgw
rgw dns name = $DNS_NAME
EOF

# The daemons fork into the background: they must not inherit the lock's descriptor (9), or they would hold the
# lock for as long as they run and every later caller would wait for it in vain.
run() { timeout 30 "$@" >>"$DIR/log/setup.log" 2>&1 9>&- || fail "failed: $*"; }

run ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *'
run monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap"
run ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap"
run ceph-mon -c "$CONF" -i a

OSD_UUID="$(cat /proc/sys/kernel/random/uuid)"
OSD_ID="$(timeout 30 ceph -c "$CONF" osd new "$OSD_UUID" 2>>"$DIR/log/setup.log")" || fail "the monitor did not answer 'osd new'"
run ceph-osd -c "$CONF" -i "$OSD_ID" --mkfs --osd-uuid "$OSD_UUID"
run ceph-osd -c "$CONF" -i "$OSD_ID"

until timeout 10 ceph -c "$CONF" osd stat 2>/dev/null | grep -q '1 up'; do
  [ $SECONDS -lt $DEADLINE ] || fail "the OSD did not come up"
  sleep 1
done

run radosgw -c "$CONF" -n client.rgw
until curl -fsS -o /dev/null --max-time 3 "$ENDPOINT/" 2>/dev/null; do
  [ $SECONDS -lt $DEADLINE ] || fail "radosgw did not answer on $ENDPOINT"
  sleep 1
done

run radosgw-admin -c "$CONF" user create --uid=frametext-test --display-name="FrameText tests" \
  --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY"
print_env
