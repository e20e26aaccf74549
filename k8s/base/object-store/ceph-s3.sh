#!/bin/bash
# FrameText's object store in compose and the dev-grade Kubernetes StatefulSet: a one-node Ceph cluster (one
# monitor, one BlueStore OSD on a file, the RADOS Gateway) serving S3 on CEPH_S3_PORT. Everything lives under
# CEPH_S3_DATA (the volume); the first start creates the cluster, later starts reuse it. Only the gateway's port
# is reachable from outside the container: the monitor and the OSD listen on loopback, hence `auth none`.
#
# Settings (environment):
#   S3_ACCESS_KEY, S3_SECRET_KEY   the S3 user the services sign with (required; made or updated at every start)
#   CEPH_S3_DATA                    data folder (default /var/lib/ceph-s3)
#   CEPH_S3_PORT                    S3 port (default 7480)
#   CEPH_S3_SIZE_GB                 size of the OSD's block file, allocated as it fills (default 20)
#   CEPH_S3_MEMORY_MB               the OSD's memory target (default 1024; Ceph's minimum is 896)
#
# `ceph-s3.sh health` is the health check: ready once the S3 user exists and the port answers. The container
# stops when any of the three daemons stops, so the restart policy starts the whole node again.
set -euo pipefail

DATA="${CEPH_S3_DATA:-/var/lib/ceph-s3}"
PORT="${CEPH_S3_PORT:-7480}"
SIZE_GB="${CEPH_S3_SIZE_GB:-20}"
MEMORY_MB="${CEPH_S3_MEMORY_MB:-1024}"
MON_ADDR="127.0.0.1:3300"
CONF="$DATA/ceph.conf"
READY=/tmp/ceph-s3.ready
USER_ID=frametext

if [ "${1:-}" = health ]; then
  [ -f "$READY" ] && exec 3<>"/dev/tcp/127.0.0.1/$PORT" && exit 0
  exit 1
fi

: "${S3_ACCESS_KEY:?S3_ACCESS_KEY is required}"
: "${S3_SECRET_KEY:?S3_SECRET_KEY is required}"
log() { echo "ceph-s3: $*"; }
rm -f "$READY"
mkdir -p "$DATA"/{mon,osd,rgw,run,log}

[ -s "$DATA/fsid" ] || cat /proc/sys/kernel/random/uuid > "$DATA/fsid"
FSID="$(cat "$DATA/fsid")"

# Written at every start, so a changed setting applies on restart.
cat > "$CONF" <<EOF
[global]
fsid = $FSID
mon host = [v2:$MON_ADDR]
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms client mode = crc
keyring = $DATA/keyring
run dir = $DATA/run
admin socket = $DATA/run/\$name.asok
log to stderr = false
log file = $DATA/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd pool default pg autoscale mode = off
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0

[mon.a]
mon data = $DATA/mon

[osd.0]
osd data = $DATA/osd
osd objectstore = bluestore
bluestore block create = true
bluestore block size = $((SIZE_GB * 1024 * 1024 * 1024))
osd memory target = $((MEMORY_MB * 1024 * 1024))

[client.rgw]
rgw frontends = beast port=$PORT
rgw data = $DATA/rgw
EOF

pids=()
stop() {
  log "stopping"
  rm -f "$READY"
  # The gateway first, the monitor last.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; wait "${pids[i]}" 2>/dev/null || true; done
  exit 0
}
trap stop TERM INT

if [ ! -e "$DATA/mon/done" ]; then
  log "creating the monitor"
  ceph-authtool --create-keyring "$DATA/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  monmaptool --create --fsid "$FSID" --addv a "[v2:$MON_ADDR]" "$DATA/monmap" >/dev/null
  ceph-mon -c "$CONF" --mkfs -i a --monmap "$DATA/monmap"
  touch "$DATA/mon/done"
fi
ceph-mon -c "$CONF" -i a -f &
pids+=($!)

if [ ! -e "$DATA/osd-made" ]; then
  log "creating the OSD (BlueStore, ${SIZE_GB} GiB block file)"
  [ -s "$DATA/osd-uuid" ] || cat /proc/sys/kernel/random/uuid > "$DATA/osd-uuid"
  id="$(timeout 60 ceph -c "$CONF" osd new "$(cat "$DATA/osd-uuid")")"
  [ "$id" = 0 ] || { log "expected OSD id 0, got $id"; exit 1; }
  ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$(cat "$DATA/osd-uuid")"
  touch "$DATA/osd-made"
fi
ceph-osd -c "$CONF" -i 0 -f &
pids+=($!)

deadline=$((SECONDS + 120))
until timeout 10 ceph -c "$CONF" osd stat 2>/dev/null | grep -q '1 up'; do
  [ "$SECONDS" -lt "$deadline" ] || { log "the OSD did not come up; see $DATA/log"; exit 1; }
  sleep 1
done

radosgw -c "$CONF" -n client.rgw -f &
pids+=($!)
until timeout 3 bash -c "</dev/tcp/127.0.0.1/$PORT" 2>/dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || { log "the RADOS Gateway did not answer on port $PORT; see $DATA/log"; exit 1; }
  sleep 1
done

if radosgw-admin -c "$CONF" user info --uid="$USER_ID" >/dev/null 2>&1; then
  radosgw-admin -c "$CONF" key create --uid="$USER_ID" --key-type=s3 --access-key="$S3_ACCESS_KEY" --secret-key="$S3_SECRET_KEY" >/dev/null
else
  radosgw-admin -c "$CONF" user create --uid="$USER_ID" --display-name="FrameText services" --access-key="$S3_ACCESS_KEY" --secret-key="$S3_SECRET_KEY" >/dev/null
fi
touch "$READY"
log "serving S3 on port $PORT"

# Any daemon that ends ends the container.
wait -n "${pids[@]}" || true
log "a daemon stopped; see $DATA/log"
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
wait || true
exit 1
