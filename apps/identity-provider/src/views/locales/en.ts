import { SCOPE_CATALOG, type Scope } from '@svc/schemas';
import type { PageTexts } from './page-texts.js';

export const en: PageTexts = {
  signInTitle: 'Sign in',
  signInHeading: (app) => `Sign in to continue to ${app}`,
  providerLine: (provider) => (provider ? `${provider} account` : 'Your account'),
  email: 'Email',
  password: 'Password',
  signIn: 'Sign in',
  consentTitle: 'Share your verified data',
  consentHeading: (app) => `${app} would like to access your verified data`,
  consentIntro: (app, organization, email) => ({ before: `${app} is an application of `, organization, after: `. You are signed in as ${email}.` }),
  chooseLegend: 'Choose what to share (untick to share less)',
  walletLegend: 'Credentials for this app’s wallet',
  walletNote: (issuerHost) => `Issued by ${issuerHost} from your verified data, each fact shown only when you choose to.`,
  includedWith: (names) => `Asked for together with ${names}.`,
  approve: 'Approve',
  deny: 'Deny',
  refusedTitle: 'Request refused',
  refusedHeading: 'This request cannot continue',
  requestExpired: 'This request has expired or was already answered. Return to the application and start again.',
  otherAccount: 'This request was started with another account. Sign out, then sign in with the account you started with.',
  wrongPassword: 'The email or password is wrong.',
  tooManyAttempts: 'Too many failed sign-ins. Try again in a few minutes.',
  formExpired: 'Your sign-in form expired. Please try again.',
  notYou: (email) => `Not ${email}?`,
  signOut: 'Sign out',
  signOutTitle: 'Sign out',
  signOutQuestion: (provider, email) => `Sign out${provider ? ` of ${provider}` : ''} as ${email}? Apps you signed in to with this account will be told.`,
  signedOutTitle: 'Signed out',
  signedOut: (provider) => `You are signed out${provider ? ` of ${provider}` : ''}. You can close this page.`,
  badLink: 'This sign-in link is not valid, so we cannot continue.',
  slowDown: 'Too many sign-in requests came from here just now. Wait a minute, then try again.',
  unavailable: 'The sign-in service is briefly unavailable. Wait a moment, then try again.',
  nextStep: 'Go back to the app you came from and start again. If this keeps happening, tell the app’s support team what you see here.',
  detailsForDevelopers: 'Details for the app’s developers',
  // The catalog's own texts are the English ones.
  scopes: Object.fromEntries(SCOPE_CATALOG.map((s) => [s.id, { display_name: s.display_name, description: s.description }])) as Record<
    Scope,
    { display_name: string; description: string }
  >,
};
