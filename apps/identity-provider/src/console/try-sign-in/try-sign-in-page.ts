/** The page "Try a sign-in" ends on: what came back, what the console sent, and what it got. */
import type { Locale } from '../../views/locales/locale.js';
import { escapeHtml as e } from '../../views/pages.js';
import type { TryOutcome } from './try-sign-in.js';

interface TryTexts {
  title: string;
  intro: (app: string) => string;
  code: string;
  denied: string;
  exchange: string;
  exchangeNote: string;
  response: string;
  claims: string;
  nonce: (matches: boolean) => string;
  exchangeFailed: string;
  refused: string;
  sessionNote: string;
  back: string;
}

const TEXTS: Record<Locale, TryTexts> = {
  en: {
    title: 'Try a sign-in',
    intro: (app) => `The authorization code flow with PKCE for ${app}, as your application runs it.`,
    code: 'Authorization code',
    denied: 'The sign-in ended without a code',
    exchange: 'Token request',
    exchangeNote: 'The console exchanged the code as your application, inside this service: secrets, assertions and proofs are redacted here.',
    response: 'Token response',
    claims: 'id_token claims (decoded)',
    nonce: (matches) => (matches ? 'nonce matches the one sent' : 'nonce does not match the one sent'),
    exchangeFailed: 'The exchange was refused',
    refused: 'This sign-in cannot be finished',
    sessionNote: 'This browser is now signed in as the person who just signed in. If that was a test user, sign in to the console again.',
    back: 'Back to the console',
  },
  de: {
    title: 'Anmeldung ausprobieren',
    intro: (app) => `Der Autorisierungscode-Ablauf mit PKCE für ${app}, wie Ihre Anwendung ihn ausführt.`,
    code: 'Autorisierungscode',
    denied: 'Die Anmeldung endete ohne Code',
    exchange: 'Token-Anfrage',
    exchangeNote:
      'Die Konsole hat den Code als Ihre Anwendung innerhalb dieses Dienstes eingelöst: Geheimnisse, Assertions und Nachweise sind hier geschwärzt.',
    response: 'Token-Antwort',
    claims: 'Claims des id_token (dekodiert)',
    nonce: (matches) => (matches ? 'nonce stimmt mit der gesendeten überein' : 'nonce stimmt nicht mit der gesendeten überein'),
    exchangeFailed: 'Die Einlösung wurde abgelehnt',
    refused: 'Diese Anmeldung kann nicht abgeschlossen werden',
    sessionNote:
      'Dieser Browser ist jetzt als die Person angemeldet, die sich gerade angemeldet hat. War es ein Testnutzer, melden Sie sich erneut bei der Konsole an.',
    back: 'Zurück zur Konsole',
  },
  fr: {
    title: 'Essayer une connexion',
    intro: (app) => `Le flux du code d’autorisation avec PKCE pour ${app}, tel que votre application l’exécute.`,
    code: 'Code d’autorisation',
    denied: 'La connexion s’est terminée sans code',
    exchange: 'Requête de jeton',
    exchangeNote: 'La console a échangé le code en tant que votre application, au sein de ce service : secrets, assertions et preuves sont masqués ici.',
    response: 'Réponse de jeton',
    claims: 'Claims de l’id_token (décodés)',
    nonce: (matches) => (matches ? 'le nonce correspond à celui envoyé' : 'le nonce ne correspond pas à celui envoyé'),
    exchangeFailed: 'L’échange a été refusé',
    refused: 'Cette connexion ne peut pas être terminée',
    sessionNote:
      'Ce navigateur est maintenant connecté en tant que la personne qui vient de se connecter. S’il s’agissait d’un utilisateur de test, reconnectez-vous à la console.',
    back: 'Retour à la console',
  },
};

export const tryTexts = (lang: Locale): TryTexts => TEXTS[lang];

const block = (id: string, heading: string, body: string) => `<h2>${e(heading)}</h2><pre class="secret" id="${id}">${e(body)}</pre>`;

/** The body of the result page (the console's frame goes around it). */
export function tryResultBody(lang: Locale, outcome: TryOutcome): string {
  const t = tryTexts(lang);
  const parts = [`<h1>${e(t.title)}</h1>`, `<p>${e(t.intro(outcome.application.name))} <code>${e(outcome.application.clientId)}</code></p>`];
  if (outcome.error)
    parts.push(block('error', t.denied, JSON.stringify({ error: outcome.error.error, error_description: outcome.error.description }, null, 2)));
  if (outcome.code) parts.push(block('code', t.code, outcome.code));
  if (outcome.exchange) {
    parts.push(block('exchange', t.exchange, outcome.exchange.request), `<p class="muted">${e(t.exchangeNote)}</p>`);
    parts.push(block('token-response', t.response, JSON.stringify(outcome.exchange.response, null, 2)));
    if (outcome.exchange.idTokenClaims) {
      parts.push(block('id-token-claims', t.claims, JSON.stringify(outcome.exchange.idTokenClaims, null, 2)));
      parts.push(`<p class="muted">${e(t.nonce(outcome.exchange.nonceMatches === true))}</p>`);
    }
  }
  if (outcome.exchangeError)
    parts.push(
      `<div class="error" role="alert"><p>${e(t.exchangeFailed)}: ${e(outcome.exchangeError.error)}</p><p>${e(outcome.exchangeError.description)}</p></div>`,
    );
  parts.push(`<p class="muted">${e(t.sessionNote)}</p>`, `<p><a href="/console?lang=${lang}">${e(t.back)}</a></p>`);
  return parts.join('\n');
}

/** The body of the refusal page: why, and the way back. */
export function tryRefusedBody(lang: Locale, why: string): string {
  const t = tryTexts(lang);
  return `<h1>${e(t.refused)}</h1>\n<p class="error" role="alert">${e(why)}</p>\n<p><a href="/console?lang=${lang}">${e(t.back)}</a></p>`;
}
