import { Router } from 'express';

export type CheckDetails = Record<string, string | number | boolean | null>;

export interface ReadinessCheck {
  name: string;
  /** Resolves with details when healthy; throws (or resolves `ok: false`) when not. */
  run(): Promise<{ ok: boolean; details?: CheckDetails } | undefined>;
}

export interface HealthOptions {
  version: string;
  commit: string | null;
  checks: ReadinessCheck[];
  clock?: () => Date;
  /** A check that has not answered by then counts as failed. */
  checkTimeoutMs?: number;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  details?: CheckDetails;
}

export async function runChecks(checks: ReadinessCheck[], timeoutMs: number): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async (check): Promise<CheckResult> => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const outcome = await Promise.race([
          check.run(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        const ok = outcome ? outcome.ok : true;
        return { name: check.name, ok, details: { latency_ms: Date.now() - started, ...outcome?.details } };
      } catch (err) {
        return { name: check.name, ok: false, details: { error: err instanceof Error ? err.message : String(err) } };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

/** `GET /health` (liveness: the process answers) and `GET /ready` (its dependencies answer). */
export function healthRouter(options: HealthOptions): Router {
  const clock = options.clock ?? (() => new Date());
  const startedAt = Date.now();
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({
      status: 'ok',
      uptime: (Date.now() - startedAt) / 1000,
      version: options.version,
      commit: options.commit,
      timestamp: clock().toISOString(),
    });
  });
  router.get('/ready', async (_req, res) => {
    const checks = await runChecks(options.checks, options.checkTimeoutMs ?? 2_000);
    const ready = checks.every((c) => c.ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  return router;
}
