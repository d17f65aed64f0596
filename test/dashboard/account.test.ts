/** The account page in Chromium: password change, sign-out everywhere, deletion, each checked against the API. */
import { expect, test } from 'bun:test';
import { dashboardContext, FLOW_TIMEOUT_MS, PASSWORD, pageToken, signIn, useDashboard } from './support/dashboard.ts';

const suite = useDashboard();

const newOwner = () => suite.server.app.signup(`account-${crypto.randomUUID().slice(0, 8)}@shop.example`, PASSWORD);

const login = (email: string, password: string) =>
  fetch(`${suite.server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  }).then((res) => res.status);

async function accountPage() {
  const { context } = await dashboardContext(suite.browser);
  const page = await context.newPage();
  await page.goto(`${suite.server.url}/dashboard/account`);
  return { context, page };
}

test(
  'change password: a wrong current password is a form error; the right one keeps this session and ends the others',
  async () => {
    const owner = await newOwner();
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    // Still signed in: a wrong password on a form does not end the session.
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    expect(await login(owner.email, PASSWORD)).toBe(401);
    expect(await login(owner.email, 'a brand new password')).toBe(200);
    // The token issued before the change stopped working; the page holds the new one.
    expect((await suite.server.api('GET', '/v1/account', owner.token)).status).toBe(401);
    const fresh = await pageToken(page);
    expect(fresh).not.toBe(owner.token);
    expect((await suite.server.api('GET', '/v1/account', fresh ?? '')).status).toBe(200);
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'sign out everywhere revokes every token and returns to sign-in',
  async () => {
    const owner = await newOwner();
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    const token = await pageToken(page);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByText('You are signed out everywhere.').waitFor();
    expect(await pageToken(page)).toBeNull();
    for (const revoked of [owner.token, token ?? ''])
      expect((await suite.server.api('GET', '/v1/account', revoked)).status).toBe(401);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'delete account asks for the password, refuses a wrong one, then deletes the account for good',
  async () => {
    const owner = await newOwner();
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this account for good?' });
    await dialog.getByLabel('Password').fill('not my password at all');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    expect((await suite.server.api('GET', '/v1/account', owner.token)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.getByText('The account is deleted.').waitFor();
    expect(await login(owner.email, PASSWORD)).toBe(401);
    expect((await suite.server.api('GET', '/v1/account', owner.token)).status).toBe(401);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

/** The secrets that sign now, read on the server's side. */
const activeSecrets = (accountId: string) => suite.server.app.signingSecrets.active(accountId);

test(
  'signing secret: shown right after sign-in; later, revealing it asks for the password',
  async () => {
    const owner = await newOwner();
    const [secret] = await activeSecrets(owner.id);
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    const card = page.getByRole('region', { name: 'Signing secret and visitor context' });
    await card.getByRole('button', { name: 'Reveal secret' }).click();
    await card.getByText(secret ?? 'missing').waitFor();

    // Six minutes on, the session is no longer fresh: the page holds only the last four characters.
    suite.server.advance(6 * 60_000);
    await page.reload();
    await card.getByText(`whsec_••••••••••••••••${secret?.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(secret);
    await card.getByRole('button', { name: 'Reveal secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reveal the signing secret' });
    await dialog.getByLabel('Password').fill('not my password at all');
    await dialog.getByRole('button', { name: 'Reveal' }).click();
    await card.getByRole('alert').filter({ hasText: 'The password is wrong.' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await card.getByRole('button', { name: 'Reveal secret' }).click();
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Reveal' }).click();
    await card.getByText(secret ?? 'missing').waitFor();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'rotate: asks for the password; "end the previous secret now" leaves only the new one',
  async () => {
    const owner = await newOwner();
    const [first] = await activeSecrets(owner.id);
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    const card = page.getByRole('region', { name: 'Signing secret and visitor context' });
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByLabel('End the previous secret now (it may have leaked)').check();
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await page.getByText('New signing secret created; the previous one no longer works.').waitFor();
    const active = await activeSecrets(owner.id);
    expect(active).toHaveLength(1);
    expect(active).not.toContain(first);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'sign out everywhere can replace the signing secret too; it asks for the password',
  async () => {
    const owner = await newOwner();
    const [first] = await activeSecrets(owner.id);
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await sessions.getByLabel('Also replace the signing secret').check();
    await sessions.getByLabel('Password').fill(PASSWORD);
    await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('You are signed out everywhere, and the signing secret was replaced.').waitFor();
    expect((await suite.server.api('GET', '/v1/account', owner.token)).status).toBe(401);
    expect(await activeSecrets(owner.id)).not.toContain(first);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'change password can replace the signing secret at once',
  async () => {
    const owner = await newOwner();
    const [first] = await activeSecrets(owner.id);
    const { context, page } = await accountPage();
    await signIn(page, owner.email);
    const form = page.getByRole('region', { name: 'Change password' });
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('New password').fill('a brand new password');
    await form.getByLabel('Also replace the signing secret').check();
    await form.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByText('Password changed. Every other session is signed out. The signing secret was replaced.')
      .waitFor();
    const active = await activeSecrets(owner.id);
    expect(active).toHaveLength(1);
    expect(active).not.toContain(first);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
