# Redis from Debian's packages, for infra/smoke.sh where no registry serves redis:7-alpine. The
# compose file's command runs as given; protected mode is off, as in the official image, since the
# compose network is the boundary.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/*
USER redis
EXPOSE 6379
ENTRYPOINT ["/bin/sh", "-c", "exec \"$@\" --protected-mode no", "redis"]
CMD ["redis-server"]
