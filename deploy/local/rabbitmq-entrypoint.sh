#!/bin/sh
# Writes the default user from RABBITMQ_DEFAULT_USER / RABBITMQ_DEFAULT_PASS (created on the node's first start),
# then runs the broker in the foreground as the rabbitmq user. Any other command is run as it is.
set -eu
[ "${1:-rabbitmq-server}" = rabbitmq-server ] || exec "$@"
mkdir -p /etc/rabbitmq/conf.d /var/lib/rabbitmq /var/log/rabbitmq
{
  echo "loopback_users = none"
  echo "listeners.tcp.default = 5672"
  echo "log.console = true"
  echo "log.file = false"
  [ -n "${RABBITMQ_DEFAULT_USER:-}" ] && echo "default_user = $RABBITMQ_DEFAULT_USER"
  [ -n "${RABBITMQ_DEFAULT_PASS:-}" ] && echo "default_pass = $RABBITMQ_DEFAULT_PASS"
  true
} > /etc/rabbitmq/conf.d/10-container.conf
chmod 640 /etc/rabbitmq/conf.d/10-container.conf
# Not the whole conf.d: compose mounts its own file there, read-only.
chown rabbitmq:rabbitmq /etc/rabbitmq/conf.d/10-container.conf
chown -R rabbitmq:rabbitmq /var/lib/rabbitmq /var/log/rabbitmq
exec setpriv --reuid=rabbitmq --regid=rabbitmq --init-groups /usr/lib/rabbitmq/bin/rabbitmq-server
