/**
 * The developer console's "Try a sign-in" ends at a callback of this service's own, which no
 * client registers: the console records those authorizations itself (never /oauth/authorize), so
 * exact redirect URI matching stays as it is for everyone else.
 */
export const TRY_CALLBACK_PATH = '/console/try-callback';

/**
 * Whether the consent page asks for a sign-in although a session is present: for a console try
 * that nobody has taken up yet, with a session older than the try. The developer's own console
 * session would otherwise answer for whoever they mean to sign in (a sandbox test user, say), and
 * the authorization would be bound to the developer before they could switch.
 */
export function asksFreshSignIn(a: { userId: string | null; redirectUri: string; createdAt: Date }, session: { authTime: Date }, issuer: string): boolean {
  return a.userId === null && a.redirectUri === `${issuer}${TRY_CALLBACK_PATH}` && session.authTime < a.createdAt;
}
