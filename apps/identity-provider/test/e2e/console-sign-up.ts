// Signing up in the console as a person does: the form, the "check your mail" page, then the
// mailed link (read here from the service's local outbox, or handed in), and the password again.
import type { Page } from 'playwright-core';

/** The newest sign-up link mailed to `email`, from the local outbox of the service at `baseUrl`. */
export async function outboxLink(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/dev/outbox.json?to=${encodeURIComponent(email)}`);
  const { items } = (await res.json()) as { items: { links: string[] }[] };
  const link = items[0]?.links.find((l) => l.includes('/console/signup/confirm'));
  if (!link) throw new Error(`no sign-up link mailed to ${email}`);
  return link;
}

/**
 * Fills the console's sign-up form at `baseUrl` and follows the link `linkFor` finds (by default
 * the local outbox's); the browser is then signed in, on the console.
 */
export async function signUpInConsole(
  page: Page,
  baseUrl: string,
  input: { email: string; password: string; organization: string },
  linkFor: (email: string) => Promise<string> = (email) => outboxLink(baseUrl, email),
): Promise<void> {
  if (!page.url().includes('/console/signup')) await page.goto(`${baseUrl}/console/signup`);
  await page.getByLabel('Email').fill(input.email);
  await page.getByLabel('Password (8 characters or more)').fill(input.password);
  await page.getByLabel('Organization name').fill(input.organization);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  await page.goto(await linkFor(input.email));
  await page.getByRole('heading', { name: 'Finish creating your account' }).waitFor();
  await page.getByLabel('Password chosen at sign-up').fill(input.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Developer console' }).waitFor();
}
