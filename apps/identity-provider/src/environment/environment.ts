/**
 * Which environment this deployment is (SVC_ENVIRONMENT): production or the sandbox, one codebase
 * with its own database, issuer, keys, clients and users each. What it makes for a developer is
 * marked (`sbx_` in the sandbox, @svc/secrets environments.ts). When a credential is refused, the
 * guard says why if the reason is that it belongs to the other environment, naming that
 * environment's base URL, so a developer who pasted a sandbox secret into production (or the
 * reverse) is told where to send it instead of a bare "invalid".
 */
import { decodeJwt } from 'jose';
import { type Environment, environmentOf, marked } from '@svc/secrets';

export type BaseUrls = Partial<Record<Environment, string>>;

/** How a sentence names an environment: "the sandbox", but "production" (not "the production"). */
const called = (environment: Environment) => (environment === 'sandbox' ? 'the sandbox' : 'production');

export class EnvironmentGuard {
  constructor(
    readonly name: Environment,
    /** This environment's base URL (its issuer) and, when configured, the other's. */
    private readonly baseUrls: BaseUrls,
  ) {}

  get sandbox(): boolean {
    return this.name === 'sandbox';
  }

  /** A value this environment hands out, marked as its own. */
  mark(value: string): string {
    return marked(this.name, value);
  }

  /** The base URL of an environment, when known. */
  baseUrl(environment: Environment): string | undefined {
    return this.baseUrls[environment];
  }

  /**
   * Why `what` (say "This client_id") is refused here when the value was made by the other
   * environment; undefined when it was not (then the usual refusal stands).
   */
  elsewhere(what: string, value: string | undefined): string | undefined {
    if (!value) return undefined;
    const owner = environmentOf(value);
    return owner && owner !== this.name ? this.explain(what, owner) : undefined;
  }

  /**
   * The same for a JWT (an access token or id_token): its `iss` names the other environment's
   * issuer. Read unverified, only to word a refusal that happens anyway.
   */
  elsewhereJwt(what: string, token: string): string | undefined {
    const other: Environment = this.sandbox ? 'production' : 'sandbox';
    const url = this.baseUrls[other];
    if (!url) return undefined;
    try {
      return decodeJwt(token).iss === url ? this.explain(what, other) : undefined;
    } catch {
      return undefined;
    }
  }

  private explain(what: string, owner: Environment): string {
    const there = this.baseUrls[owner];
    const here = this.baseUrls[this.name];
    return `${what} belongs to ${called(owner)}${there ? `: send it to ${there}` : ''}, not to ${called(this.name)}${here ? ` (${here})` : ''}`;
  }
}
