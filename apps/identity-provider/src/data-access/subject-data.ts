import { claimsNeededFor, type StoredCredential, type SubjectData } from '@svc/presets';

const WALLET_PRESETS = ['wallet_address', 'primary_wallet_address'];

// What presets are resolved from, read from the database: the admin CLI reads it the same way to
// tell applications which presets a change of a user's data touched (user.data_changed).
export { loadSubject } from '@svc/admin';

/**
 * Only what `scopes` can read (and the parents derived presets need): what the cache holds for an
 * authorization never exceeds what the user consented to share with it.
 */
export function minimizeSubject(data: SubjectData, scopes: readonly string[]): SubjectData {
  const needed = claimsNeededFor(scopes);
  const credentials: StoredCredential[] = [];
  for (const c of data.credentials) {
    if (typeof c.claims !== 'object' || c.claims === null || Array.isArray(c.claims)) continue;
    const kept = Object.fromEntries(Object.entries(c.claims).filter(([name]) => needed.has(name)));
    if (Object.keys(kept).length > 0) credentials.push({ ...c, claims: kept });
  }
  return { user: data.user, wallets: WALLET_PRESETS.some((p) => needed.has(p)) ? data.wallets : [], credentials };
}

const date = (v: string | null) => (v === null ? null : new Date(v));

/** The inverse of JSON.stringify(subject): dates come back as Dates. */
export function reviveSubject(json: string): SubjectData {
  const raw = JSON.parse(json) as {
    user: { serviceId: string; palmVerified: boolean; palmVerifiedAt: string | null; createdAt: string };
    wallets: SubjectData['wallets'];
    credentials: (Omit<StoredCredential, 'verifiedAt' | 'expiresAt'> & { verifiedAt: string; expiresAt: string | null })[];
  };
  return {
    user: { ...raw.user, palmVerifiedAt: date(raw.user.palmVerifiedAt), createdAt: new Date(raw.user.createdAt) },
    wallets: raw.wallets,
    credentials: raw.credentials.map((c) => ({ ...c, verifiedAt: new Date(c.verifiedAt), expiresAt: date(c.expiresAt) })),
  };
}
