import type { Acr, ActionPeriod } from '@svc/schemas';

/** Every text the developer console shows, in one language. */
export interface ConsoleTexts {
  title: string;
  sandboxBadge: string;
  productionBadge: string;
  signInHeading: string;
  signUpHeading: string;
  email: string;
  password: string;
  organizationName: string;
  signIn: string;
  signUp: string;
  signOut: string;
  noAccount: string;
  haveInvitation: string;
  haveAccount: string;
  wrongPassword: string;
  tooManyAttempts: string;
  formExpired: string;
  checkMailHeading: string;
  checkMail: (email: string, minutes: number) => string;
  checkMailElse: string;
  confirmHeading: string;
  confirmIntro: (email: string) => string;
  confirmPassword: string;
  confirm: string;
  linkInvalid: string;
  notADeveloper: string;
  organization: (name: string, role: string) => string;
  applications: string;
  apiKeys: string;
  members: string;
  tokens: string;
  testUsers: string;
  webhooks: string;
  changeList: string;
  none: string;
  name: string;
  redirectUris: string;
  redirectUrisHint: string;
  scopes: string;
  type: string;
  confidential: string;
  public: string;
  requireDpop: string;
  authMethod: string;
  jwks: string;
  requiresPalm: string;
  presetWindow: string;
  register: string;
  rotateSecret: string;
  revoke: string;
  revoked: string;
  permissions: string;
  hourlyLimit: string;
  burstLimit: string;
  lastUsed: (when: string) => string;
  neverUsed: string;
  /** The checkbox that puts an application under the FAPI 2.0 profile. */
  fapiProfile: string;
  /** This hour's requests against the hourly limit. */
  usedThisHour: (requests: number, limit: number) => string;
  limits: (hourly: number, burst: number) => string;
  createKey: string;
  disable: string;
  disabled: string;
  role: string;
  invite: string;
  invited: string;
  personalAccessToken: string;
  expiresInDays: string;
  initialAccessToken: string;
  expiresInHours: string;
  create: string;
  presetsJson: string;
  statusesJson: string;
  palmVerified: string;
  walletAddress: string;
  createTestUser: string;
  /** The page that shows a new test user's email and its one-time password. */
  testUserCreated: string;
  testUserPassword: string;
  testUserPasswordOnce: string;
  delete: string;
  secretHeading: string;
  secretOnce: string;
  back: string;
  problems: string;
  environmentNote: (other: string) => string;
  /** Said on arrival after a page opened at another name of this machine was moved here. */
  movedHere: (address: string) => string;
  /** An application's sign-in policy: defaults when a request names none, and step-up for sensitive presets. */
  defaultAcr: string;
  defaultMaxAge: string;
  sensitiveDataAcr: string;
  sensitiveDataMaxAge: string;
  anySignIn: string;
  acr: Record<Acr, string>;
  /** The button that runs the authorization code flow for an application, from the console. */
  trySignIn: string;
  /** Inside the webhook section (headed `webhooks`). */
  webhookSection: WebhookTexts;
  /** The heading of the section of actions counted per person (one person, one vote). */
  actions: string;
  actionSection: ActionTexts;
}

/** The console's section of actions counted per person, in one language. */
export interface ActionTexts {
  intro: string;
  name: string;
  nameHint: string;
  description: string;
  maxPerPerson: string;
  period: string;
  periods: Record<ActionPeriod, string>;
  requiresPalm: string;
  /** How often one person may prove it, and when that starts anew. */
  limit: (max: number, period: string) => string;
  palmRequired: string;
  /** Proofs counted so far, over every person and period. */
  counted: (n: number) => string;
  add: string;
  change: string;
  save: string;
  delete: string;
  /** Sandbox only: forget the counts, so test users can prove it again. */
  reset: string;
  none: string;
}

/** The console's webhook section, in one language. */
export interface WebhookTexts {
  url: string;
  description: string;
  events: string;
  add: string;
  sendTest: string;
  rotateSecret: string;
  enable: string;
  disable: string;
  delete: string;
  enabled: string;
  disabledByDeveloper: string;
  disabledFailing: string;
  /** Before the time until which the previous secret still signs. */
  previousSecretUntil: string;
  deliveries: string;
  noDeliveries: string;
  none: string;
  retry: string;
  status: Record<'pending' | 'succeeded' | 'failed', string>;
  attempts: (n: number) => string;
  nextAttempt: string;
  /** Under a new secret: it is kept (encrypted, to sign with), but never shown again. */
  secretOnce: string;
}
