# syntax=docker/dockerfile:1
# The credential-issuer image: only its own workspace packages, built inside the image (the Prisma client
# generated here too), run as the unprivileged node user. From the repository root:
#   docker build -f infra/credential-issuer.Dockerfile -t svc/credential-issuer .
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS prune
WORKDIR /src
RUN npm install -g turbo@2.11.11 --no-audit --no-fund
COPY . .
RUN turbo prune @svc/credential-issuer --docker --out-dir /pruned

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=prune /pruned/json/ ./
# npm ci when the lockfile lists every platform's optional binaries; one written where the registry
# serves only some of them needs npm install, which keeps every version the lockfile does list.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY --from=prune /pruned/full/ ./
COPY tsconfig.base.json ./
RUN npx turbo run build --filter=@svc/credential-issuer... \
 && mkdir /out \
 && for d in apps/* packages/*; do mkdir -p "/out/$d" && cp "$d/package.json" "/out/$d/" && if [ -d "$d/dist" ]; then cp -r "$d/dist" "/out/$d/"; fi; done \
 && cp -r packages/db/prisma /out/packages/db/ \
 && cp package.json /out/

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=prune /pruned/json/ ./
RUN npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=4002
WORKDIR /app
# Owned by root and read-only to the service: the process cannot change its own code.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /out/ ./
USER node
EXPOSE 4002
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/credential-issuer/dist/server.js"]
