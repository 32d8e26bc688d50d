/**
 * What a Redis URL names: one server (`redis://`, `rediss://`), or a Redis Cluster reached through
 * any of its nodes (`redis+cluster://[user:password@]host:port[,host:port…]`, `rediss+cluster://`
 * for TLS). ioredis's cluster client learns the rest of the cluster from the nodes given.
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean };

const CLUSTER = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/;
const NODE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export function redisTarget(url: string): RedisTarget {
  const cluster = CLUSTER.exec(url);
  if (!cluster) return { kind: 'single', url };
  const [, scheme, auth, hosts] = cluster as unknown as [string, string, string | undefined, string];
  const nodes = hosts.split(',').map((node) => {
    const parsed = NODE.exec(node.trim());
    const port = Number(parsed?.[2]);
    if (!parsed || port < 1 || port > 65_535) throw new Error(`${node} is not a host:port of a cluster node`);
    return { host: parsed[1]!.replace(/^\[|\]$/g, ''), port };
  });
  const [username, password] = auth === undefined ? [] : auth.includes(':') ? auth.split(/:(.*)/s) : [undefined, auth];
  return {
    kind: 'cluster',
    nodes,
    ...(username ? { username: decodeURIComponent(username) } : {}),
    ...(password ? { password: decodeURIComponent(password) } : {}),
    tls: scheme === 'rediss',
  };
}

/** REDIS_CLUSTER_NODES (`host:port,host:port`) as the URL that names the same cluster. */
export const clusterUrl = (nodes: string): string =>
  `redis+cluster://${nodes
    .split(',')
    .map((n) => n.trim())
    .join(',')}`;
