/** A malformed query: `path` is the JSON path of the offending node, e.g. `query.policy.allOf[1].operator`. */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}
