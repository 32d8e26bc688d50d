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

/** How long a fetched list is used again, and a failed fetch's answer. */
const KEPT_MS = 60_000;
const FAILED_KEPT_MS = 10_000;

/**
 * Lists fetched lately, each URI fetched at most once a minute by this replica (a failure is kept
 * ten seconds): a request, however many proofs it carries, and a stream of requests replaying one
 * attestation cost its provider one fetch. At most `most` lists are kept, the oldest dropped first.
 */
export class RecentStatusLists {
  private readonly lists = new Map<string, { list: Promise<string>; until: number }>();

  constructor(
    private readonly fetchList: (uri: string) => Promise<string>,
    private readonly now: () => number,
    private readonly most = 16,
  ) {}

  get(uri: string): Promise<string> {
    const now = this.now();
    const kept = this.lists.get(uri);
    if (kept && now < kept.until) return kept.list;
    const entry = { list: this.fetchList(uri), until: now + KEPT_MS };
    entry.list.catch(() => {
      entry.until = Math.min(entry.until, this.now() + FAILED_KEPT_MS);
    });
    this.lists.delete(uri);
    this.lists.set(uri, entry);
    for (const oldest of this.lists.keys()) {
      if (this.lists.size <= this.most) break;
      this.lists.delete(oldest);
    }
    return entry.list;
  }
}
