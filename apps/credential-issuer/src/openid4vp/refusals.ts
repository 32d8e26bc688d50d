import type { PresentationCheck } from '@svc/schemas';

/**
 * A check a presentation failed: which one (a closed list, PRESENTATION_CHECKS), for which DCQL
 * credential query, and why in words. Thrown by the format verifiers, caught by verify-answer.ts,
 * and kept in the result's `errors`.
 */
export class Refusal extends Error {
  constructor(
    readonly check: PresentationCheck,
    message: string,
    readonly credentialQueryId?: string,
  ) {
    // A wallet's strings (an iss, an element name) may be long: what is kept and echoed is bounded.
    super(message.length > 500 ? `${message.slice(0, 500)}…` : message);
  }

  /** The same refusal, said of one credential query. */
  of(credentialQueryId: string): Refusal {
    return this.credentialQueryId ? this : new Refusal(this.check, this.message, credentialQueryId);
  }

  toJSON() {
    return { check: this.check, ...(this.credentialQueryId ? { credential_query_id: this.credentialQueryId } : {}), message: this.message };
  }
}

export const refuse = (check: PresentationCheck, message: string): never => {
  throw new Refusal(check, message);
};
