#!/usr/bin/env bash
# Builds the three images and runs them for real: the compose stack as a new user starts it (no
# .env, nothing edited: generated secrets, SVC_DEMO=1 for the demo data), a real flow against the
# containers (infra/smoke/flow.mjs), the hardening each service container must have (unprivileged
# user, read-only root filesystem, no capabilities), each service holding only its own secrets and
# none in its environment, and a second `up` keeping every secret. Where no image registry is
# reachable it makes its base images locally (infra/smoke/base-image.sh; PostgreSQL and Redis from
# Debian's packages). Stops and removes every container, network and volume it made; the images
# stay, as a build cache.
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
for port in 4000 4001 4002 4005; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then say "port $port is taken: the compose stack publishes 4000-4002 and 4005 (the sandbox)" >&2 && exit 1; fi
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
  # Built every time (the build cache makes it quick): the recipe may have changed since.
  DOCKER_BUILDKIT=0 docker build -q --network host --build-arg "BASE=$local_base" -f "$3" -t "svc-local/$1" . >"/tmp/svc-smoke-build-${1%%:*}.log" 2>&1
  echo "svc-local/$1"
}
export POSTGRES_IMAGE REDIS_IMAGE
POSTGRES_IMAGE=$(local_service_image postgres:15 "${POSTGRES_IMAGE:-postgres:17-alpine}" infra/smoke/postgres.Dockerfile)
REDIS_IMAGE=$(local_service_image redis:7 "${REDIS_IMAGE:-redis:7-alpine}" infra/smoke/redis.Dockerfile)
say "base images: $NODE_IMAGE, $POSTGRES_IMAGE, $REDIS_IMAGE"

# --- the three service images --------------------------------------------------------------------
images=(identity-provider wallet-verify credential-issuer)
# What runs: the three, and the sandbox (the identity provider's image again, SVC_ENVIRONMENT=sandbox).
services=("${images[@]}" identity-provider-sandbox)
for s in "${images[@]}"; do
  t=$(date +%s)
  # The classic builder: BuildKit cannot reach the registry through this machine's network here.
  if ! DOCKER_BUILDKIT=0 docker build --network host --build-arg "NODE_IMAGE=$NODE_IMAGE" -f "infra/$s.Dockerfile" -t "svc/$s:local" . >"/tmp/svc-smoke-build-$s.log" 2>&1; then
    tail -30 "/tmp/svc-smoke-build-$s.log" >&2
    say "FAIL: building svc/$s:local" >&2
    exit 1
  fi
  say "built svc/$s:local in $(elapsed "$t"): $(($(docker image inspect -f '{{.Size}}' "svc/$s:local") / 1000000)) MB (base $(($(docker image inspect -f '{{.Size}}' "$NODE_IMAGE") / 1000000)) MB)"
done

# --- the stack, as a new user starts it --------------------------------------------------------------
# No secret given (an empty env file in place of any .env; none inherited): dev-secrets generates them.
# Its own project name, so a developer's own stack is left alone.
secret_names=(POSTGRES_PASSWORD IDENTITY_PROVIDER_DB_PASSWORD WALLET_VERIFY_DB_PASSWORD CREDENTIAL_ISSUER_DB_PASSWORD
  IDP_SECRET IDP_SIGNING_KEY_KEK ISSUER_SIGNING_KEY_KEK PAIRWISE_SECRET
  SANDBOX_IDENTITY_PROVIDER_DB_PASSWORD SANDBOX_WALLET_VERIFY_DB_PASSWORD SANDBOX_CREDENTIAL_ISSUER_DB_PASSWORD
  SANDBOX_IDP_SECRET SANDBOX_IDP_SIGNING_KEY_KEK SANDBOX_PAIRWISE_SECRET
  AUTHORIZATION_SERVER_CLIENT_SECRET AUTHORIZATION_SERVER_WEBHOOK_SECRET)
unset "${secret_names[@]}" SVC_GENERATE_SECRETS
export COMPOSE_PROJECT_NAME=svcsmoke SVC_DEMO=1
scratch=$(mktemp -d)
: >"$scratch/no.env"
stack=("${compose[@]}" --env-file "$scratch/no.env" -f docker-compose.yml)
logs_of() { docker logs "$("${stack[@]}" ps -a -q "$1")" 2>&1; }
cleanup() {
  "${stack[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "${scratch:-}"
  stop_dockerd
}
trap cleanup EXIT
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
migrated=$(logs_of migrate | tail -n1)
say "stack up and healthy in $(elapsed "$t"): dev-secrets, postgres, redis, migrate ($migrated), demo, link, ${services[*]}"
logs_of link | tail -n1 | grep -q '"made":\["organization","client","approval_events_endpoint"\]' ||
  { logs_of link >&2; say "FAIL: the link step did not link the credential issuer to the identity provider" >&2; exit 1; }
say "link: the credential issuer's client, organization and approval-events endpoint made at the identity provider"
generated=$(logs_of dev-secrets | grep -c ': generated$' || true)
[ "$generated" = "${#secret_names[@]}" ] || { logs_of dev-secrets >&2; say "FAIL: dev-secrets generated $generated of ${#secret_names[@]} secrets" >&2; exit 1; }
say "dev-secrets: generated all ${#secret_names[@]} secrets (${secret_names[*]})"

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
  # Its own secrets only, as files; none in its environment (docker inspect shows the environment).
  held=$(docker exec "$cid" ls /run/secrets | tr '\n' ' ')
  case $s in
    identity-provider | identity-provider-sandbox) want="DATABASE_URL IDP_SECRET IDP_SIGNING_KEY_KEK PAIRWISE_SECRET " ;;
    wallet-verify) want="DATABASE_URL PAIRWISE_SECRET " ;;
    # Linked to the identity provider: its client's secret, and the secret its approval events are signed with.
    credential-issuer) want="AUTHORIZATION_SERVER_CLIENT_SECRET AUTHORIZATION_SERVER_WEBHOOK_SECRET DATABASE_URL ISSUER_SIGNING_KEY_KEK " ;;
  esac
  in_env=$(docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$cid" | grep -E "^($(IFS='|'; echo "${secret_names[*]}")|DATABASE_URL)=" | cut -d= -f1 | tr '\n' ' ' || true)
  [ "$held" = "$want" ] && [ -z "$in_env" ] || { say "FAIL: $s holds /run/secrets: $held(want $want); secrets in its environment: ${in_env:-none}" >&2; exit 1; }
  say "$s: holds only ${want% } in /run/secrets (read-only), no secret in its environment"
done

# --- a real flow against the containers ------------------------------------------------------------
# The demo data SVC_DEMO=1 seeded: the demo step printed its secrets once, and the whole for tools.
logs_of demo | sed -n 's/^demo: seed:demo //p' >"$scratch/demo.json"
[ -s "$scratch/demo.json" ] || { logs_of demo >&2; say "FAIL: no demo data in docker compose logs demo" >&2; exit 1; }
say "demo: seeded and printed its secrets once ($(logs_of demo | grep -c '^demo:   ') lines, in docker compose logs demo)"
npx turbo run build --filter=@svc/testkit... --output-logs=errors-only >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log" >&2; exit 1; }
node infra/smoke/flow.mjs http://127.0.0.1:4000 http://127.0.0.1:4001 http://127.0.0.1:4002 <"$scratch/demo.json" | sed 's/^/smoke: flow: /'
# The sandbox: its own issuer, saying so, and production naming it.
config_of() { curl -fsS "$1/.well-known/svc-configuration" | node -p "const c = JSON.parse(require('node:fs').readFileSync(0, 'utf8')); [c.environment, c.production_base_url ?? '', c.sandbox_base_url ?? ''].join(' ')"; }
sandbox_says=$(config_of http://127.0.0.1:4005)
production_says=$(config_of http://127.0.0.1:4000)
[ "$sandbox_says" = "sandbox http://localhost:4000 http://localhost:4005" ] && [ "$production_says" = "production http://localhost:4000 http://localhost:4005" ] ||
  { say "FAIL: the sandbox says '$sandbox_says', production '$production_says'" >&2; exit 1; }
say "sandbox: environment sandbox on 4005, on its own database and secrets; production names it"

# --- up again: every secret kept, the demo not seeded twice, the services still healthy ------------
t=$(date +%s)
"${stack[@]}" up -d --no-build >"$scratch/up2.log" 2>&1 || { cat "$scratch/up2.log" >&2; exit 1; }
kept=$(logs_of dev-secrets | grep -c ': kept$' || true)
[ "$kept" = "${#secret_names[@]}" ] || { logs_of dev-secrets >&2; say "FAIL: a second up kept $kept of ${#secret_names[@]} secrets" >&2; exit 1; }
logs_of demo | tail -n1 | grep -q 'already has users' || { logs_of demo | tail -n3 >&2; say "FAIL: the demo step did not leave the seeded database alone" >&2; exit 1; }
logs_of link | tail -n1 | grep -q '"made":\[\],"updated":\[\]' || { logs_of link | tail -n3 >&2; say "FAIL: the link step did not find the link it made" >&2; exit 1; }
"${stack[@]}" restart identity-provider >/dev/null 2>&1
cid=$("${stack[@]}" ps -q identity-provider)
for _ in $(seq 1 60); do [ "$(docker inspect -f '{{.State.Health.Status}}' "$cid")" = healthy ] && break; sleep 2; done
[ "$(docker inspect -f '{{.State.Health.Status}}' "$cid")" = healthy ] || { say "FAIL: identity-provider unhealthy after a restart" >&2; exit 1; }
say "up again in $(elapsed "$t"): all ${#secret_names[@]} secrets kept, migrations re-run as the owner, demo data left alone, the link found, identity-provider restarted healthy"

say "PASSED in $(elapsed "$started"); removing the stack's containers, network and volumes"
