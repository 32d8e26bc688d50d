# PostgreSQL from Debian's packages, for infra/smoke.sh where no registry serves postgres:17-alpine:
# the interface docker-compose.yml relies on (POSTGRES_USER, POSTGRES_PASSWORD_FILE, POSTGRES_DB, data
# in /var/lib/postgresql/data, pg_isready). BASE is the local Debian base infra/smoke/base-image.sh makes.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15 /etc/postgresql/15/main
COPY infra/smoke/postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
