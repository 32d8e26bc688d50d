import type { Scope } from '@svc/schemas';

/** Every text the hosted pages show, in one language. */
export interface PageTexts {
  signInTitle: string;
  signInHeading: (app: string) => string;
  /** Whose account the pages sign in to, above each page's heading (IDP_DISPLAY_NAME, when set). */
  providerLine: (provider: string | undefined) => string;
  email: string;
  password: string;
  signIn: string;
  consentTitle: string;
  consentHeading: (app: string) => string;
  consentIntro: (app: string, organization: string, email: string) => { before: string; organization: string; after: string };
  chooseLegend: string;
  /** Above the credentials a wallet asks for (OpenID4VCI), and the line that says who issues them from what. */
  walletLegend: string;
  walletNote: (issuerHost: string) => string;
  /** Shown under a scope granted because another requested one implies it. */
  includedWith: (names: string) => string;
  approve: string;
  deny: string;
  refusedTitle: string;
  refusedHeading: string;
  requestExpired: string;
  otherAccount: string;
  wrongPassword: string;
  /** On the sign-in page when the application asked for a newer sign-in (prompt=login, max_age). */
  signInAgain: (app: string) => string;
  /** On the sign-in page when the application asked for a passkey (acr_values phr or phrh). */
  signInWithPasskey: (app: string) => string;
  tooManyAttempts: string;
  formExpired: string;
  /** "Not you?" on the consent page, and the button that signs the account out. */
  notYou: (email: string) => string;
  signOut: string;
  /** The sign-out page an app sent the person to (RP-initiated logout), when it must ask first. */
  signOutTitle: string;
  signOutQuestion: (provider: string | undefined, email: string) => string;
  /** After signing out, when the app named no page to return to. */
  signedOutTitle: string;
  signedOut: (provider: string | undefined) => string;
  /** A sign-in link the service cannot act on (unknown app, unregistered return address, missing parts). */
  badLink: string;
  /** Too many requests from this browser's network for a moment (429). */
  slowDown: string;
  /** PostgreSQL or Redis unreachable for a moment (503). */
  unavailable: string;
  /** What the person can do about any refused request. */
  nextStep: string;
  /** The summary of the technical details kept for the app's developers. */
  detailsForDevelopers: string;
  /** Passkeys: the sign-in button and what stands between it and the password form. */
  passkeyButton: string;
  orWithPassword: string;
  passkeyFailed: string;
  /** The account page (/account): the person's passkeys. */
  accountTitle: string;
  accountHeading: (email: string) => string;
  accountSignInHeading: string;
  passkeysHeading: string;
  passkeysIntro: string;
  noPasskeys: string;
  passkeyName: string;
  addPasskey: string;
  rename: string;
  deletePasskey: (name: string) => string;
  renamePasskey: (name: string) => string;
  created: (date: string) => string;
  lastUsed: (date: string | undefined) => string;
  synced: string;
  deviceBound: string;
  lastSignInMethod: string;
  passkeysNeedScript: string;
  scopes: Record<Scope, { display_name: string; description: string }>;
  /** The mails that tell an account's owner a passkey was added or removed (`where`: the provider and host). */
  passkeyMails: {
    addedSubject: string;
    addedText: (where: string, name: string, accountPage: string) => string;
    removedSubject: string;
    removedText: (where: string, name: string, accountPage: string) => string;
  };
  /** Resetting a forgotten password: the sign-in pages' link, the request form, the page a mailed link opens, and both mails. */
  passwordReset: PasswordResetTexts;
  /** The two mails a developer sign-up sends: the link that proves the address, or word that someone tried an address that has an account. */
  signUpMails: {
    confirmSubject: string;
    confirmText: (where: string, minutes: number, link: string, joining: boolean) => string;
    alreadySubject: string;
    alreadyText: (where: string, consoleUrl: string) => string;
  };
}

/** A password reset's texts: its pages, and the two mails (`where`: the provider and host the account is at). */
export interface PasswordResetTexts {
  forgot: string;
  requestTitle: string;
  requestIntro: string;
  send: string;
  backToSignIn: string;
  sentTitle: string;
  sent: (email: string, minutes: number) => string;
  sentElse: string;
  tooMany: string;
  formTitle: string;
  formIntro: (email: string) => string;
  newPassword: string;
  newPasswordAgain: string;
  signOutEverywhere: string;
  passkeysKept: string;
  save: string;
  mismatch: string;
  tooShort: string;
  linkInvalid: string;
  askAgain: string;
  formExpired: string;
  doneTitle: string;
  done: (signedOut: boolean) => string;
  doneNext: string;
  mailSubject: string;
  mailText: (where: string, minutes: number, link: string) => string;
  changedSubject: string;
  changedText: (where: string, signedOut: boolean, resetPage: string, accountPage: string) => string;
}
