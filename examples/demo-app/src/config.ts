import { readFileSync } from 'node:fs';
import { z } from 'zod';

const ZConfig = z.object({
  DEMO_APP_PORT: z.coerce.number().int().min(1).max(65535).default(4003),
  DEMO_APP_HOST: z.string().default('127.0.0.1'),
  /** The identity provider's issuer identifier (its PUBLIC_URL): the callback's `iss` must equal it. */
  IDP_URL: z.url().default('http://localhost:4000'),
  DEMO_CLIENT_ID: z.string().min(1),
  DEMO_CLIENT_SECRET: z.string().min(1),
  /** Must be registered for the client, exactly. */
  DEMO_REDIRECT_URI: z.url().optional(),
  /** The demo organization's developer, who registers the app's webhook receiver (from .data/demo.json when unset). */
  DEMO_DEVELOPER_EMAIL: z.string().min(1).optional(),
  DEMO_DEVELOPER_PASSWORD: z.string().min(1).optional(),
  /** The credential issuer, and the app's API token there (credentials:issue, presentations:verify): it offers an age credential for a wallet, and asks wallets to prove an age. */
  CREDENTIAL_ISSUER_URL: z.url().default('http://localhost:4002'),
  DEMO_ISSUER_API_TOKEN: z.string().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /**
   * The app's own origin, that of its redirect URI: the one origin its pages call the Digital
   * Credentials API from, named to the issuer and relayed with every answer (never taken from a page).
   */
  origin: string;
  /** Who registers the webhook receiver; without one, the app receives no webhooks. */
  developer: { email: string; password: string } | undefined;
  /** Where it offers wallet credentials; without a token, it offers none. */
  credentialIssuer: { url: string; apiToken: string } | undefined;
}

/**
 * From the environment, or else from the demo data `npm start` keeps in .data/demo.json, so
 * `node examples/demo-app/dist/server.js` works beside a running `npm start` with nothing set.
 */
export function loadConfig(env: NodeJS.ProcessEnv, demoFile = '.data/demo.json'): Config {
  const fromDemo: Record<string, string> = {};
  if (!env.DEMO_CLIENT_ID) {
    try {
      const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as {
        clients: { confidential: { client_id: string; client_secret: string } };
        users?: { developer?: { email: string; password: string } };
        api_keys?: { credential_issuer?: { key: string } };
      };
      fromDemo.DEMO_CLIENT_ID = demo.clients.confidential.client_id;
      fromDemo.DEMO_CLIENT_SECRET = demo.clients.confidential.client_secret;
      const developer = demo.users?.developer;
      if (developer) Object.assign(fromDemo, { DEMO_DEVELOPER_EMAIL: developer.email, DEMO_DEVELOPER_PASSWORD: developer.password });
      const issuerToken = demo.api_keys?.credential_issuer?.key;
      if (issuerToken) fromDemo.DEMO_ISSUER_API_TOKEN = issuerToken;
    } catch {
      // Reported below as the missing variables.
    }
  }
  const parsed = ZConfig.safeParse({ ...fromDemo, ...env });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems} (set DEMO_CLIENT_ID and DEMO_CLIENT_SECRET, or run from the project root after npm start)`);
  }
  const c = parsed.data;
  const redirectUri = c.DEMO_REDIRECT_URI ?? `http://localhost:${c.DEMO_APP_PORT}/callback`;
  return {
    port: c.DEMO_APP_PORT,
    host: c.DEMO_APP_HOST,
    issuer: c.IDP_URL.replace(/\/$/, ''),
    clientId: c.DEMO_CLIENT_ID,
    clientSecret: c.DEMO_CLIENT_SECRET,
    redirectUri,
    origin: new URL(redirectUri).origin,
    developer: c.DEMO_DEVELOPER_EMAIL && c.DEMO_DEVELOPER_PASSWORD ? { email: c.DEMO_DEVELOPER_EMAIL, password: c.DEMO_DEVELOPER_PASSWORD } : undefined,
    credentialIssuer: c.DEMO_ISSUER_API_TOKEN ? { url: c.CREDENTIAL_ISSUER_URL.replace(/\/$/, ''), apiToken: c.DEMO_ISSUER_API_TOKEN } : undefined,
  };
}
