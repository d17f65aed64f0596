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
