// Node refuses a header value with a character outside Latin-1 (and HTTP allows only visible
// ASCII in practice): a response setting one fails outright, and the client gets Express's HTML
// 500 page instead of our JSON. Error descriptions are prose, so they go through here first.

const LOOKALIKES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00a0': ' ',
};

/**
 * `text` as visible ASCII: typographic quotes and dashes become their ASCII twins, accents are
 * dropped (é → e), line breaks and tabs become spaces, and anything else becomes `?`.
 */
export function asciiHeaderText(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2026\u00a0]/g, (c) => LOOKALIKES[c]!)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\t\r\n]/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?');
}

/**
 * A `WWW-Authenticate` challenge (RFC 9110 §11.6.1): `Scheme name="value", ...`, each value a
 * quoted-string of visible ASCII with `"` and `\` escaped (§5.6.4), so no description can end a
 * value early or make Node refuse the header. Parameters left undefined are omitted.
 */
export function authChallenge(scheme: string, params: Record<string, string | undefined> = {}): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${asciiHeaderText(value).replace(/["\\]/g, '\\$&')}"`);
  return pairs.length ? `${scheme} ${pairs.join(', ')}` : scheme;
}
