import type { Locale } from '../views/locales/index.js';

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
  /** The button that runs the authorization code flow for an application, from the console. */
  trySignIn: string;
}

const en: ConsoleTexts = {
  title: 'Developer console',
  sandboxBadge: 'Sandbox: test data only',
  productionBadge: 'Production',
  signInHeading: 'Sign in to the developer console',
  signUpHeading: 'Create a developer account',
  email: 'Email',
  password: 'Password (8 characters or more)',
  organizationName: 'Organization name',
  signIn: 'Sign in',
  signUp: 'Create account',
  signOut: 'Sign out',
  noAccount: 'No account yet? Create one',
  haveInvitation: 'Invited? Create your account with the invitation token',
  haveAccount: 'Have an account? Sign in',
  wrongPassword: 'The email or password is wrong.',
  tooManyAttempts: 'Too many attempts. Wait a moment and try again.',
  formExpired: 'This form has expired. Please try again.',
  checkMailHeading: 'Check your mail',
  checkMail: (email, minutes) => `We sent a link to ${email}. Open it within ${minutes} minutes to finish creating your account.`,
  checkMailElse: 'No mail? Look in your spam folder, or sign up again for a new link.',
  confirmHeading: 'Finish creating your account',
  confirmIntro: (email) => `Your account for ${email} is made once you enter the password you chose at sign-up.`,
  confirmPassword: 'Password chosen at sign-up',
  confirm: 'Create account',
  linkInvalid: 'This sign-up link is unknown, used or expired. Sign up again for a new one.',
  notADeveloper: 'This account is not a member of any organization. Ask an owner to invite you.',
  organization: (name, role) => `${name} · you are ${role === 'owner' ? 'an owner' : 'a developer'}`,
  applications: 'Applications',
  apiKeys: 'API keys',
  members: 'Members',
  tokens: 'Tokens',
  testUsers: 'Test users',
  webhooks: 'Webhooks',
  changeList: 'Recent authorizations',
  none: 'None yet.',
  name: 'Name',
  redirectUris: 'Redirect URIs',
  redirectUrisHint: 'One per line; exact, https (http only on localhost)',
  scopes: 'Scopes',
  type: 'Type',
  confidential: 'Confidential (a server keeps a secret)',
  public: 'Public (PKCE alone: mobile or single-page)',
  requireDpop: 'Require DPoP-bound tokens',
  authMethod: 'How a confidential application authenticates',
  jwks: 'Its public keys, for private_key_jwt (a JWK Set)',
  requiresPalm: 'Require palm verification',
  presetWindow: 'Data window (seconds)',
  register: 'Register application',
  rotateSecret: 'Rotate secret',
  revoke: 'Revoke',
  revoked: 'revoked',
  permissions: 'Permissions',
  hourlyLimit: 'Requests per hour',
  burstLimit: 'Burst',
  lastUsed: (when) => `last used ${when}`,
  neverUsed: 'never used',
  fapiProfile: 'FAPI 2.0 profile (PAR, DPoP or mTLS, PS256; needs private_key_jwt or a client certificate)',
  usedThisHour: (requests, limit) => `${requests} of ${limit} requests this hour`,
  limits: (hourly, burst) => `${hourly} per hour, bursts of ${burst}`,
  createKey: 'Create API key',
  disable: 'Disable',
  disabled: 'disabled',
  role: 'Role',
  invite: 'Add or invite',
  invited: 'invited',
  personalAccessToken: 'Personal access token (for scripts and CI)',
  expiresInDays: 'Expires in (days, at most 365)',
  initialAccessToken: 'Initial access token (RFC 7591 registration)',
  expiresInHours: 'Expires in (hours)',
  create: 'Create',
  presetsJson: 'Presets (JSON), e.g. {"date_of_birth": "1990-04-12", "kyc_passed": true}',
  statusesJson: 'Statuses (JSON), e.g. {"kyc_passed": "pending"}',
  palmVerified: 'Palm-verified',
  walletAddress: 'Wallet address (optional)',
  createTestUser: 'Create test user',
  delete: 'Delete',
  testUserCreated: 'Test user created',
  testUserPassword: 'Password',
  testUserPasswordOnce:
    'Shown once: only its hash is kept. Sign in as this test user with the email above and this password wherever your application asks for a sign-in.',
  secretHeading: 'Copy it now',
  secretOnce: 'This is shown once: only its hash is kept. Store it where your app reads its secrets.',
  back: 'Back to the console',
  problems: 'Please correct:',
  environmentNote: (other) => `Production is at ${other}: its credentials are separate.`,
  movedHere: (address) => `The console works at ${address} only, where its sign-in and forms work: you were brought here from another address of this machine.`,
  trySignIn: 'Try a sign-in',
};

const de: ConsoleTexts = {
  title: 'Entwicklerkonsole',
  sandboxBadge: 'Sandbox: nur Testdaten',
  productionBadge: 'Produktion',
  signInHeading: 'Bei der Entwicklerkonsole anmelden',
  signUpHeading: 'Entwicklerkonto anlegen',
  email: 'E-Mail',
  password: 'Passwort (mindestens 8 Zeichen)',
  organizationName: 'Name der Organisation',
  signIn: 'Anmelden',
  signUp: 'Konto anlegen',
  signOut: 'Abmelden',
  noAccount: 'Noch kein Konto? Jetzt anlegen',
  haveInvitation: 'Eingeladen? Konto mit dem Einladungstoken anlegen',
  haveAccount: 'Schon ein Konto? Anmelden',
  wrongPassword: 'E-Mail oder Passwort ist falsch.',
  tooManyAttempts: 'Zu viele Versuche. Bitte warten Sie einen Moment.',
  formExpired: 'Dieses Formular ist abgelaufen. Bitte versuchen Sie es erneut.',
  checkMailHeading: 'Bitte prüfen Sie Ihr Postfach',
  checkMail: (email, minutes) => `Wir haben einen Link an ${email} geschickt. Öffnen Sie ihn innerhalb von ${minutes} Minuten, um Ihr Konto fertig anzulegen.`,
  checkMailElse: 'Keine E-Mail? Sehen Sie im Spam-Ordner nach, oder registrieren Sie sich erneut für einen neuen Link.',
  confirmHeading: 'Konto fertig anlegen',
  confirmIntro: (email) => `Ihr Konto für ${email} wird angelegt, sobald Sie das bei der Registrierung gewählte Passwort eingeben.`,
  confirmPassword: 'Bei der Registrierung gewähltes Passwort',
  confirm: 'Konto anlegen',
  linkInvalid: 'Dieser Registrierungslink ist unbekannt, schon benutzt oder abgelaufen. Registrieren Sie sich erneut für einen neuen.',
  notADeveloper: 'Dieses Konto gehört zu keiner Organisation. Bitten Sie einen Eigentümer um eine Einladung.',
  organization: (name, role) => `${name} · Sie sind ${role === 'owner' ? 'Eigentümer' : 'Entwickler'}`,
  applications: 'Anwendungen',
  apiKeys: 'API-Schlüssel',
  members: 'Mitglieder',
  tokens: 'Tokens',
  testUsers: 'Testnutzer',
  webhooks: 'Webhooks',
  changeList: 'Letzte Autorisierungen',
  none: 'Noch keine.',
  name: 'Name',
  redirectUris: 'Weiterleitungs-URIs',
  redirectUrisHint: 'Eine pro Zeile; exakt, https (http nur auf localhost)',
  scopes: 'Scopes',
  type: 'Art',
  confidential: 'Vertraulich (ein Server hält ein Geheimnis)',
  public: 'Öffentlich (nur PKCE: mobil oder Single-Page)',
  requireDpop: 'DPoP-gebundene Tokens verlangen',
  authMethod: 'Wie sich eine vertrauliche Anwendung ausweist',
  jwks: 'Ihre öffentlichen Schlüssel, für private_key_jwt (ein JWK Set)',
  requiresPalm: 'Handflächen-Verifizierung verlangen',
  presetWindow: 'Datenfenster (Sekunden)',
  register: 'Anwendung registrieren',
  rotateSecret: 'Geheimnis erneuern',
  revoke: 'Widerrufen',
  revoked: 'widerrufen',
  permissions: 'Berechtigungen',
  hourlyLimit: 'Anfragen pro Stunde',
  burstLimit: 'Spitze',
  lastUsed: (when) => `zuletzt genutzt ${when}`,
  neverUsed: 'nie genutzt',
  fapiProfile: 'FAPI-2.0-Profil (PAR, DPoP oder mTLS, PS256; erfordert private_key_jwt oder ein Client-Zertifikat)',
  usedThisHour: (requests, limit) => `${requests} von ${limit} Anfragen in dieser Stunde`,
  limits: (hourly, burst) => `${hourly} pro Stunde, Spitzen bis ${burst}`,
  createKey: 'API-Schlüssel anlegen',
  disable: 'Deaktivieren',
  disabled: 'deaktiviert',
  role: 'Rolle',
  invite: 'Hinzufügen oder einladen',
  invited: 'eingeladen',
  personalAccessToken: 'Persönliches Zugriffstoken (für Skripte und CI)',
  expiresInDays: 'Läuft ab in (Tagen, höchstens 365)',
  initialAccessToken: 'Initiales Zugriffstoken (Registrierung nach RFC 7591)',
  expiresInHours: 'Läuft ab in (Stunden)',
  create: 'Anlegen',
  presetsJson: 'Presets (JSON), z. B. {"date_of_birth": "1990-04-12", "kyc_passed": true}',
  statusesJson: 'Status (JSON), z. B. {"kyc_passed": "pending"}',
  palmVerified: 'Handfläche verifiziert',
  walletAddress: 'Wallet-Adresse (optional)',
  createTestUser: 'Testnutzer anlegen',
  delete: 'Löschen',
  testUserCreated: 'Testnutzer angelegt',
  testUserPassword: 'Passwort',
  testUserPasswordOnce:
    'Wird nur einmal angezeigt: gespeichert wird nur der Hash. Melden Sie sich als dieser Testnutzer mit der E-Mail oben und diesem Passwort an, wo Ihre Anwendung eine Anmeldung verlangt.',
  secretHeading: 'Jetzt kopieren',
  secretOnce: 'Dies wird nur einmal angezeigt: gespeichert wird nur der Hash. Legen Sie es dort ab, wo Ihre Anwendung ihre Geheimnisse liest.',
  back: 'Zurück zur Konsole',
  problems: 'Bitte korrigieren:',
  environmentNote: (other) => `Die Produktion ist unter ${other}: ihre Zugangsdaten sind getrennt.`,
  movedHere: (address) =>
    `Die Konsole funktioniert nur unter ${address}, wo Anmeldung und Formulare funktionieren: Sie wurden von einer anderen Adresse dieses Rechners hierher geleitet.`,
  trySignIn: 'Anmeldung ausprobieren',
};

const fr: ConsoleTexts = {
  title: 'Console développeur',
  sandboxBadge: 'Bac à sable : données de test uniquement',
  productionBadge: 'Production',
  signInHeading: 'Se connecter à la console développeur',
  signUpHeading: 'Créer un compte développeur',
  email: 'E-mail',
  password: 'Mot de passe (8 caractères ou plus)',
  organizationName: 'Nom de l’organisation',
  signIn: 'Se connecter',
  signUp: 'Créer le compte',
  signOut: 'Se déconnecter',
  noAccount: 'Pas encore de compte ? En créer un',
  haveInvitation: 'Invité ? Créez votre compte avec le jeton d’invitation',
  haveAccount: 'Déjà un compte ? Se connecter',
  wrongPassword: 'L’e-mail ou le mot de passe est incorrect.',
  tooManyAttempts: 'Trop de tentatives. Patientez un instant.',
  formExpired: 'Ce formulaire a expiré. Veuillez réessayer.',
  checkMailHeading: 'Consultez votre messagerie',
  checkMail: (email, minutes) => `Nous avons envoyé un lien à ${email}. Ouvrez-le dans les ${minutes} minutes pour terminer la création de votre compte.`,
  checkMailElse: 'Pas de message ? Regardez dans les indésirables, ou inscrivez-vous à nouveau pour recevoir un nouveau lien.',
  confirmHeading: 'Terminer la création de votre compte',
  confirmIntro: (email) => `Votre compte pour ${email} est créé dès que vous saisissez le mot de passe choisi à l’inscription.`,
  confirmPassword: 'Mot de passe choisi à l’inscription',
  confirm: 'Créer le compte',
  linkInvalid: 'Ce lien d’inscription est inconnu, déjà utilisé ou expiré. Inscrivez-vous à nouveau pour en recevoir un nouveau.',
  notADeveloper: 'Ce compte n’appartient à aucune organisation. Demandez une invitation à un propriétaire.',
  organization: (name, role) => `${name} · vous êtes ${role === 'owner' ? 'propriétaire' : 'développeur'}`,
  applications: 'Applications',
  apiKeys: 'Clés d’API',
  members: 'Membres',
  tokens: 'Jetons',
  testUsers: 'Utilisateurs de test',
  webhooks: 'Webhooks',
  changeList: 'Autorisations récentes',
  none: 'Aucun pour l’instant.',
  name: 'Nom',
  redirectUris: 'URI de redirection',
  redirectUrisHint: 'Une par ligne ; exactes, https (http seulement sur localhost)',
  scopes: 'Portées',
  type: 'Type',
  confidential: 'Confidentielle (un serveur garde un secret)',
  public: 'Publique (PKCE seul : mobile ou monopage)',
  requireDpop: 'Exiger des jetons liés par DPoP',
  authMethod: 'Comment une application confidentielle s’authentifie',
  jwks: 'Ses clés publiques, pour private_key_jwt (un JWK Set)',
  requiresPalm: 'Exiger la vérification de la paume',
  presetWindow: 'Fenêtre de données (secondes)',
  register: 'Enregistrer l’application',
  rotateSecret: 'Renouveler le secret',
  revoke: 'Révoquer',
  revoked: 'révoquée',
  permissions: 'Permissions',
  hourlyLimit: 'Requêtes par heure',
  burstLimit: 'Pointe',
  lastUsed: (when) => `dernière utilisation ${when}`,
  neverUsed: 'jamais utilisée',
  fapiProfile: 'Profil FAPI 2.0 (PAR, DPoP ou mTLS, PS256 ; exige private_key_jwt ou un certificat client)',
  usedThisHour: (requests, limit) => `${requests} requêtes sur ${limit} cette heure-ci`,
  limits: (hourly, burst) => `${hourly} par heure, pointes de ${burst}`,
  createKey: 'Créer une clé d’API',
  disable: 'Désactiver',
  disabled: 'désactivée',
  role: 'Rôle',
  invite: 'Ajouter ou inviter',
  invited: 'invité',
  personalAccessToken: 'Jeton d’accès personnel (scripts et CI)',
  expiresInDays: 'Expire dans (jours, 365 au plus)',
  initialAccessToken: 'Jeton d’accès initial (enregistrement RFC 7591)',
  expiresInHours: 'Expire dans (heures)',
  create: 'Créer',
  presetsJson: 'Presets (JSON), p. ex. {"date_of_birth": "1990-04-12", "kyc_passed": true}',
  statusesJson: 'Statuts (JSON), p. ex. {"kyc_passed": "pending"}',
  palmVerified: 'Paume vérifiée',
  walletAddress: 'Adresse de portefeuille (facultative)',
  createTestUser: 'Créer un utilisateur de test',
  delete: 'Supprimer',
  testUserCreated: 'Utilisateur de test créé',
  testUserPassword: 'Mot de passe',
  testUserPasswordOnce:
    'Affiché une seule fois : seule son empreinte est conservée. Connectez-vous en tant que cet utilisateur de test avec l’e-mail ci-dessus et ce mot de passe là où votre application demande une connexion.',
  secretHeading: 'Copiez-le maintenant',
  secretOnce: 'Il n’est affiché qu’une fois : seule son empreinte est conservée. Rangez-le là où votre application lit ses secrets.',
  back: 'Retour à la console',
  problems: 'Veuillez corriger :',
  environmentNote: (other) => `La production est à ${other} : ses identifiants sont distincts.`,
  movedHere: (address) =>
    `La console ne fonctionne qu’à ${address}, où la connexion et les formulaires fonctionnent : vous y avez été amené depuis une autre adresse de cette machine.`,
  trySignIn: 'Essayer une connexion',
};

const TEXTS: Record<Locale, ConsoleTexts> = { en, de, fr };

export const consoleTexts = (locale: Locale): ConsoleTexts => TEXTS[locale];
