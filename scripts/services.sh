#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster and Redis server on loopback, in a temporary directory,
# for tests, CI and benchmarks; nothing is installed as a system service.
#   scripts/services.sh start DIR   prints `export TEST_DATABASE_URL=... TEST_REDIS_URL=...`
#   scripts/services.sh stop DIR    stops both (safe to call twice, or after a failed start)
set -euo pipefail

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
command=${1:?usage: services.sh start|stop DIR}
dir=${2:?usage: services.sh start|stop DIR}

# As root, PostgreSQL refuses to run: it runs as the postgres user, which must own its files.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"
}

case "$command" in
  start)
    [ -x "$PG_BIN/pg_ctl" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
    command -v redis-server >/dev/null || { echo "redis-server is not installed (apt-get install redis-server)" >&2; exit 1; }
    mkdir -p "$dir/pg" "$dir/redis"
    if [ "$(id -u)" = 0 ]; then
      chmod a+x "$dir"
      chown postgres "$dir/pg"
    fi
    pg_port=$(free_port)
    redis_port=$(free_port)
    as_pg "$PG_BIN/initdb" -D "$dir/pg" -U lucie --auth=trust --no-sync >"$dir/initdb.log"
    # The socket lives in the cluster's own folder; TCP only on loopback.
    as_pg "$PG_BIN/pg_ctl" -D "$dir/pg" -l "$dir/pg/server.log" -w -t 60 \
      -o "-p $pg_port -k $dir/pg -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
    redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no \
      --dir "$dir/redis" --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/redis.log" --daemonize yes
    for _ in $(seq 50); do
      redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
      sleep 0.1
    done
    redis-cli -p "$redis_port" ping >/dev/null
    echo "$redis_port" >"$dir/redis/port"
    echo "export TEST_DATABASE_URL=postgres://lucie@127.0.0.1:$pg_port/postgres TEST_REDIS_URL=redis://127.0.0.1:$redis_port"
    ;;
  stop)
    if [ -f "$dir/pg/postmaster.pid" ]; then
      as_pg "$PG_BIN/pg_ctl" -D "$dir/pg" -m fast -w -t 30 stop >/dev/null || true
    fi
    if [ -f "$dir/redis/port" ]; then
      redis-cli -p "$(cat "$dir/redis/port")" shutdown nosave >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: services.sh start|stop DIR" >&2
    exit 2
    ;;
esac
