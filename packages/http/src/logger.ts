import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Paths pino must never print. Headers carry credentials; bodies may carry passwords, secrets,
 * codes, tokens and proofs. Keep this list in one place so all three services redact alike.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-svc-api-key"]',
  'req.headers["x-api-token"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.secret',
  '*.token',
  '*.tokens',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.session_token',
  '*.code',
  '*.code_verifier',
  '*.key',
  '*.apiKey',
  '*.api_key',
  '*.privateKey',
  '*.proofValue',
  '*.csrf',
];

export interface LoggerConfig {
  name: string;
  level?: string;
}

export function createLogger(config: LoggerConfig, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    name: config.name,
    level: config.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: config.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
