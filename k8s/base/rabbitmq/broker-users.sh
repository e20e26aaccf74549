#!/bin/bash
# The broker's users: each service logs in as its own, with rights on its own queues and on the events it sends and
# takes, and nothing else. Writes them as a RabbitMQ definitions file, which the broker loads at every start
# (load_definitions in 90-frametext.conf), then runs the command it is given, if any (the broker itself).
#
# Each service's user may:
#   - declare, bind, read and write its own queues and exchanges: `<service>` and `<service>.*` (its urgent, retry
#     and dead-letter queues, and `<service>.requeue`, through which it moves messages between them);
#   - declare the shared topic exchange and its `.unrouted` twin, and bind its queue there;
#   - publish to the topic exchange only the events it sends, and bind only the events it takes (topic permissions,
#     by routing key).
# It may not use the default exchange, which would let it put messages in any queue. Counting another queue's
# consumers (a passive declaration) needs no right. The admin (RABBITMQ_DEFAULT_USER) keeps every right, for
# operators; no service is given it.
#
# Environment:
#   RABBITMQ_DEFAULT_USER, RABBITMQ_DEFAULT_PASS   the admin
#   RABBITMQ_URL_IDENTITY, RABBITMQ_URL_UPLOAD, RABBITMQ_URL_FRAME_EXTRACTION, RABBITMQ_URL_OCR_TESSERACT,
#   RABBITMQ_URL_OCR_CLOUD, RABBITMQ_URL_BILLING, RABBITMQ_URL_RESULTS
#                                                  each service's own RABBITMQ_URL: its user must be
#                                                  frametext-<service>; its password is the URL's
#   BUS_EXCHANGE                                   the topic exchange (frametext.events, as the services default)
#   BROKER_VHOST                                   the vhost (/)
#   BROKER_DEFINITIONS                             where to write (/etc/rabbitmq/definitions/frametext.json)
set -euo pipefail

# What each service sends and takes: packages/contracts/src/registry.js (test/broker-users.test.ts keeps them equal).
# service|events it publishes|events it consumes
SERVICES=(
  'identity|user.created.v1 user.email-confirmed.v1 user.deleted.v1|'
  'upload|upload.completed.v1 upload.failed.v1 upload.cancelled.v1|upload.deleted.v1 user.deleted.v1'
  'frame-extraction|frames.extracted.v1 ocr.requested.v1 upload.failed.v1|upload.completed.v1 upload.deleted.v1'
  'ocr-tesseract|ocr.completed.v1|ocr.requested.v1 upload.deleted.v1'
  'ocr-cloud|ocr.completed.v1 upload.failed.v1|ocr.requested.v1 upload.deleted.v1'
  'billing||user.created.v1 user.email-confirmed.v1 user.deleted.v1 upload.completed.v1 upload.processed.v1 upload.failed.v1 upload.cancelled.v1 upload.deleted.v1'
  'results|upload.processed.v1 upload.completed.v1 upload.failed.v1 upload.deleted.v1|upload.completed.v1 frames.extracted.v1 ocr.completed.v1 upload.failed.v1 user.deleted.v1'
)

die() {
  echo "broker-users: $*" >&2
  exit 1
}

# %XX escapes decoded, as amqplib decodes a URL's user and password.
urldecode() {
  local s=$1 out='' c
  while [[ $s =~ ^([^%]*)%([0-9A-Fa-f]{2})(.*)$ ]]; do
    printf -v c '%b' "\\x${BASH_REMATCH[2]}"
    out+="${BASH_REMATCH[1]}$c"
    s=${BASH_REMATCH[3]}
  done
  printf '%s' "$out$s"
}

# A JSON string: backslashes and quotes escaped (control characters are refused where values come in).
json() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}

# The routing keys of the event types given, each taken literally, with any suffix (OCR requests carry their engine);
# none at all for no type.
routingKeys() {
  local types=() t
  [ $# -gt 0 ] || { printf '^$'; return; }
  for t in "$@"; do types+=("${t//./\\.}"); done
  local IFS='|'
  printf '^(%s)(\\..+)?$' "${types[*]}"
}

: "${RABBITMQ_DEFAULT_USER:?set RABBITMQ_DEFAULT_USER: the admin}"
: "${RABBITMQ_DEFAULT_PASS:?set RABBITMQ_DEFAULT_PASS: the admin password}"
exchange=${BUS_EXCHANGE:-frametext.events}
vhost=$(json "${BROKER_VHOST:-/}")
target=${BROKER_DEFINITIONS:-/etc/rabbitmq/definitions/frametext.json}
[[ $exchange =~ ^[a-z0-9.-]+$ ]] || die "BUS_EXCHANGE must be lower-case letters, digits, . and -"
shared="${exchange//./\\.}(\\.unrouted)?"

users=("{\"name\":$(json "$RABBITMQ_DEFAULT_USER"),\"password\":$(json "$RABBITMQ_DEFAULT_PASS"),\"tags\":[\"administrator\"]}")
permissions=("{\"user\":$(json "$RABBITMQ_DEFAULT_USER"),\"vhost\":$vhost,\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}")
topics=()
# No here-strings or temporary files: the Kubernetes init container's root file system is read-only.
for entry in "${SERVICES[@]}"; do
  service=${entry%%|*}
  rest=${entry#*|}
  publishes=${rest%%|*}
  consumes=${rest#*|}
  var=${service^^}
  var="RABBITMQ_URL_${var//-/_}"
  url="${!var:-}"
  [ -n "$url" ] || die "set $var: the RABBITMQ_URL of $service"
  [[ $url =~ ^amqps?://([^/?#]*)@[^@/?#]+ ]] || die "$var is not an amqp://user:password@host URL"
  userinfo=${BASH_REMATCH[1]}
  [[ $userinfo == *:* ]] || die "$var has no password"
  user=$(urldecode "${userinfo%%:*}")
  password=$(urldecode "${userinfo#*:}")
  [ "$user" = "frametext-$service" ] || die "$var: the user must be frametext-$service, not \"$user\""
  [ ${#password} -ge 16 ] || die "$var: the password must have at least 16 characters"
  [[ $password != *[[:cntrl:]]* ]] || die "$var: the password has control characters"

  own="${service}(\\..+)?"
  resources="^(${shared}|${own})\$"
  # Event names hold no space or wildcard: split on spaces.
  sent=($publishes)
  taken=($consumes)
  users+=("{\"name\":$(json "$user"),\"password\":$(json "$password"),\"tags\":[]}")
  permissions+=("{\"user\":$(json "$user"),\"vhost\":$vhost,\"configure\":$(json "$resources"),\"write\":$(json "$resources"),\"read\":$(json "$resources")}")
  topics+=("{\"user\":$(json "$user"),\"vhost\":$vhost,\"exchange\":$(json "$exchange"),\"write\":$(json "$(routingKeys "${sent[@]}")"),\"read\":$(json "$(routingKeys "${taken[@]}")")}")
done

join() {
  local IFS=','
  printf '%s' "$*"
}
mkdir -p "$(dirname "$target")"
umask 077
printf '{"vhosts":[{"name":%s}],"users":[%s],"permissions":[%s],"topic_permissions":[%s]}\n' \
  "$vhost" "$(join "${users[@]}")" "$(join "${permissions[@]}")" "$(join "${topics[@]}")" >"$target.tmp"
mv "$target.tmp" "$target"
# The broker reads it as its own user (the images drop root before they start it).
if [ "$(id -u)" = 0 ] && id rabbitmq >/dev/null 2>&1; then chown rabbitmq:rabbitmq "$(dirname "$target")" "$target"; fi
echo "broker-users: ${#SERVICES[@]} service users and the admin written to $target"

[ $# -eq 0 ] || exec "$@"
