import type { RequestHandler } from 'express';
import { HttpError } from './errors.js';

/**
 * JSON.parse has no depth limit; deep bodies cost recursion in every later walker (zod, the
 * query engine, logging). Refuse them at the edge with an iterative walk.
 */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

export function depthLimit(maxDepth: number): RequestHandler {
  return (req, _res, next) => {
    if (req.body !== undefined && exceedsDepth(req.body, maxDepth)) {
      return next(new HttpError(400, 'invalid_request', `The request body nests deeper than ${maxDepth} levels`));
    }
    next();
  };
}
