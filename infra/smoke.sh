#!/usr/bin/env bash
# Builds the three images and runs them for real: the compose stack (PostgreSQL, Redis, the
# migration job, the three services), a real flow against the containers (infra/smoke/flow.mjs),
# and the hardening each service container must have (unprivileged user, read-only root
# filesystem, no capabilities). Where no image registry is reachable it makes its base images
# locally (infra/smoke/base-image.sh; PostgreSQL and Redis from Debian's packages). Stops and
# removes every container, network and volume it made; the images stay, as a build cache.
#   infra/smoke.sh            from the repository root, after npm install
# Exits 0 with "SKIPPED: <why>" when there is no Docker engine to use.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "smoke: $*"; }
skip() {
  say "SKIPPED: $*"
  exit 0
}
elapsed() { echo "$(($(date +%s) - $1)) s"; }
started=$(date +%s)

dockerd_pid=
if ! docker info >/dev/null 2>&1 && command -v dockerd >/dev/null && [ "$(id -u)" = 0 ]; then
  say "starting dockerd (vfs storage driver, as this machine needs); stopped again at the end"
  dockerd --storage-driver=vfs >/tmp/svc-smoke-dockerd.log 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break || sleep 1; done
fi
stop_dockerd() { [ -z "$dockerd_pid" ] || { kill "$dockerd_pid" 2>/dev/null && wait "$dockerd_pid" 2>/dev/null; } || true; }
trap stop_dockerd EXIT
docker info >/dev/null 2>&1 || skip "no Docker engine (docker info fails): apt-get install -y docker.io, then dockerd --storage-driver=vfs &"
if docker compose version >/dev/null 2>&1; then compose=(docker compose); elif command -v docker-compose >/dev/null; then compose=(docker-compose); else
  skip "no Docker Compose (apt-get install -y docker-compose)"
fi
for port in 4000 4001 4002; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then say "port $port is taken: the compose stack publishes 4000-4002" >&2 && exit 1; fi
done
say "engine $(docker version -f '{{.Server.Version}}'), $("${compose[@]}" version --short 2>/dev/null || "${compose[@]}" version | head -n1)"

# --- base images: pulled when a registry answers, else made here ---------------------------------
pullable() { docker image inspect "$1" >/dev/null 2>&1 || timeout 60 docker pull -q "$1" >/dev/null 2>&1; }
local_base=svc-local/node:24-bookworm
ensure_local_base() {
  if ! docker image inspect "$local_base" >/dev/null 2>&1; then
    local t=$(date +%s)
    infra/smoke/base-image.sh "$local_base"
    say "made $local_base in $(elapsed "$t")"
  fi
}
export NODE_IMAGE=${NODE_IMAGE:-node:24-bookworm-slim}
if ! pullable "$NODE_IMAGE"; then
  say "$NODE_IMAGE cannot be pulled (no registry): using $local_base"
  ensure_local_base
  NODE_IMAGE=$local_base
fi
local_service_image() { # name, default image, Dockerfile
  if pullable "$2"; then echo "$2"; return; fi
  ensure_local_base >&2
  docker image inspect "svc-local/$1" >/dev/null 2>&1 ||
    DOCKER_BUILDKIT=0 docker build -q --network host --build-arg "BASE=$local_base" -f "$3" -t "svc-local/$1" . >"/tmp/svc-smoke-build-${1%%:*}.log" 2>&1
  echo "svc-local/$1"
}
export POSTGRES_IMAGE REDIS_IMAGE
POSTGRES_IMAGE=$(local_service_image postgres:15 "${POSTGRES_IMAGE:-postgres:17-alpine}" infra/smoke/postgres.Dockerfile)
REDIS_IMAGE=$(local_service_image redis:7 "${REDIS_IMAGE:-redis:7-alpine}" infra/smoke/redis.Dockerfile)
say "base images: $NODE_IMAGE, $POSTGRES_IMAGE, $REDIS_IMAGE"

# --- the three service images --------------------------------------------------------------------
services=(identity-provider wallet-verify credential-issuer)
for s in "${services[@]}"; do
  t=$(date +%s)
  # The classic builder: BuildKit cannot reach the registry through this machine's network here.
  if ! DOCKER_BUILDKIT=0 docker build --network host --build-arg "NODE_IMAGE=$NODE_IMAGE" -f "infra/$s.Dockerfile" -t "svc/$s:local" . >"/tmp/svc-smoke-build-$s.log" 2>&1; then
    tail -30 "/tmp/svc-smoke-build-$s.log" >&2
    say "FAIL: building svc/$s:local" >&2
    exit 1
  fi
  say "built svc/$s:local in $(elapsed "$t"): $(($(docker image inspect -f '{{.Size}}' "svc/$s:local") / 1000000)) MB (base $(($(docker image inspect -f '{{.Size}}' "$NODE_IMAGE") / 1000000)) MB)"
done

# --- the stack -------------------------------------------------------------------------------------
secret() { node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64url'))"; }
export COMPOSE_PROJECT_NAME=svcsmoke POSTGRES_PASSWORD IDP_SECRET SIGNING_KEY_KEK
POSTGRES_PASSWORD=$(secret) IDP_SECRET=$(secret) SIGNING_KEY_KEK=$(secret)
stack=("${compose[@]}" -f docker-compose.yml)
cleanup() {
  "${stack[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "${scratch:-}"
  stop_dockerd
}
trap cleanup EXIT
scratch=$(mktemp -d)
t=$(date +%s)
"${stack[@]}" up -d --no-build >"$scratch/up.log" 2>&1 || { cat "$scratch/up.log" >&2; "${stack[@]}" logs --tail 30 >&2; exit 1; }
for s in "${services[@]}"; do
  cid=$("${stack[@]}" ps -q "$s")
  for _ in $(seq 1 90); do
    [ "$(docker inspect -f '{{.State.Health.Status}}' "$cid")" = healthy ] && break
    sleep 2
  done
  status=$(docker inspect -f '{{.State.Health.Status}}' "$cid")
  [ "$status" = healthy ] || { "${stack[@]}" logs --tail 30 "$s" >&2; say "FAIL: $s is $status" >&2; exit 1; }
done
migrated=$(docker logs "$("${stack[@]}" ps -q migrate)" 2>&1 | tail -n1)
say "stack up and healthy in $(elapsed "$t"): postgres, redis, migrate ($migrated), ${services[*]}"

# --- hardening of each running service -------------------------------------------------------------
for s in "${services[@]}"; do
  cid=$("${stack[@]}" ps -q "$s")
  uid=$(docker exec "$cid" id -u)
  readonly_root=$(docker inspect -f '{{.HostConfig.ReadonlyRootfs}}' "$cid")
  caps=$(docker inspect -f '{{.HostConfig.CapDrop}}' "$cid")
  if docker exec "$cid" node -e "require('node:fs').writeFileSync('/app/probe', 'x')" >/dev/null 2>&1; then write=allowed; else write=refused; fi
  [ "$uid" = 1000 ] && [ "$readonly_root" = true ] && [ "$write" = refused ] && [ "$caps" = "[ALL]" ] ||
    { say "FAIL: $s runs as uid $uid, read-only root $readonly_root, writing /app $write, dropped $caps" >&2; exit 1; }
  say "$s: uid $uid (node), read-only root filesystem, writing /app refused, capabilities dropped: ALL"
done

# --- a real flow against the containers ------------------------------------------------------------
# The admin CLI the identity-provider image carries, run as a one-off container of the stack.
"${stack[@]}" run --rm --no-deps -T -e "SIGNING_KEY_KEK=$SIGNING_KEY_KEK" migrate node packages/admin/dist/cli.js seed:demo >"$scratch/demo.json" 2>"$scratch/seed.err" ||
  { cat "$scratch/seed.err" >&2; say "FAIL: seed:demo" >&2; exit 1; }
say "seeded the demo data (the image's admin CLI in a one-off container)"
npx turbo run build --filter=@svc/testkit... --output-logs=errors-only >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log" >&2; exit 1; }
node infra/smoke/flow.mjs http://127.0.0.1:4000 http://127.0.0.1:4001 http://127.0.0.1:4002 <"$scratch/demo.json" | sed 's/^/smoke: flow: /'

say "PASSED in $(elapsed "$started"); removing the stack's containers, network and volume"
