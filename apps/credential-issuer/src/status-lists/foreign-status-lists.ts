import { InternalAddressError, type OutboundFetch } from '@svc/http';

/** How long another party's status list may take to answer. */
const STATUS_LIST_TIMEOUT_MS = 5000;

/** Why another party's status list could not be had, in words a refusal can carry. */
export class StatusListUnavailable extends Error {
  override name = 'StatusListUnavailable';
}

/**
 * Another party's Token Status List (a credential issuer's, a wallet provider's), as text: fetched
 * over https (http too where private targets are allowed, for development), the address checked
 * when connecting, 5 s at most; anything else is StatusListUnavailable.
 */
export async function fetchStatusList(fetch: OutboundFetch, allowPrivate: boolean, uri: string): Promise<string> {
  const url = URL.canParse(uri) ? new URL(uri) : undefined;
  if (!url || (url.protocol !== 'https:' && !allowPrivate)) throw new StatusListUnavailable(`The status list URI ${uri.slice(0, 200)} is not an https URL`);
  const res = await fetch(url.href, { headers: { accept: 'application/statuslist+jwt' }, signal: AbortSignal.timeout(STATUS_LIST_TIMEOUT_MS) }).catch(
    (err: unknown) => {
      throw new StatusListUnavailable(err instanceof InternalAddressError ? err.message : `The status list at ${url.href} could not be fetched`);
    },
  );
  if (res.status !== 200) throw new StatusListUnavailable(`The status list at ${url.href} answered ${res.status}`);
  return (await res.text()).trim();
}
