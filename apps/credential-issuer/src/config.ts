import { baseServiceEnv, parseEnv } from '@svc/http';
import { z } from 'zod';

const ZConfig = z.object({
  ...baseServiceEnv(4002),
});

export type Config = z.output<typeof ZConfig>;

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(ZConfig, environment);
}
