import type { WalletVerification } from './contract-types.js';
import { call, type TransportOptions } from './http.js';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the hourly window resets. */
  reset: number;
}

/** Wallet verify: is this address a unique, palm-verified human? */
export class WalletVerifyClient {
  constructor(private readonly options: TransportOptions & { baseUrl: string; apiKey: string }) {}

  /**
   * The verdict and the key's rate-limit state. An unknown wallet throws SvcApiError 404
   * ("Wallet not found"); an address that is not EIP-55 checksummed throws ValidationApiError.
   */
  async verify(walletAddress: string): Promise<WalletVerification & { rateLimit: RateLimitState }> {
    const answer = await call<WalletVerification>(
      this.options.baseUrl,
      `/v1/human/verify?${new URLSearchParams({ wallet_address: walletAddress })}`,
      { headers: { 'x-svc-api-key': this.options.apiKey } },
      this.options,
    );
    const header = (name: string) => Number(answer.headers.get(name));
    return {
      ...answer.body,
      rateLimit: { limit: header('x-ratelimit-limit'), remaining: header('x-ratelimit-remaining'), reset: header('x-ratelimit-reset') },
    };
  }
}
