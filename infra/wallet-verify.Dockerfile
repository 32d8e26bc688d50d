# syntax=docker/dockerfile:1
# The wallet-verify image: the service bundled into a few files (scripts/bundle.mjs) on a Node.js base, no
# node_modules and no build tools; run as the unprivileged node user. From the repository root:
#   docker build -f infra/wallet-verify.Dockerfile -t svc/wallet-verify .
# Where no registry is reachable, infra/smoke.sh makes a local base and passes it as NODE_IMAGE.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS prune
WORKDIR /src
RUN npm install -g turbo@2.11.9 --no-audit --no-fund
COPY . .
RUN turbo prune @svc/wallet-verify --docker --out-dir /pruned

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Dependencies first, so a change to the code alone reuses this layer.
COPY --from=prune /pruned/json/ ./
RUN npm ci --no-audit --no-fund
COPY --from=prune /pruned/full/ ./
COPY tsconfig.base.json ./
COPY scripts/bundle.mjs scripts/
RUN npx turbo run build --filter=@svc/wallet-verify... && node scripts/bundle.mjs wallet-verify /out

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=4001
WORKDIR /app
# Owned by root and read-only to the service: the process cannot change its own code.
COPY --from=build /out/ ./
USER node
EXPOSE 4001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/wallet-verify/dist/server.js"]
