/** Owners as the webhook tests need them: on the Extra plan, with a page and a webhook. */
import type { TestApp } from './test-app.ts';

/** The page origin the webhook owners register (and their widget loads come from). */
export const SHOP_ORIGIN = 'https://shop.example';

/** A new owner moved to the Extra plan (as the operator does with `calc admin accounts set-plan`). */
export async function extraOwner(app: TestApp) {
  const owner = await app.signup();
  await app.accounts.setPlan(owner.id, 'extra');
  return owner;
}

/** An Extra owner whose page is SHOP_ORIGIN and whose bmi webhook is `url` (with `headers`). */
export async function extraShop(app: TestApp, url: string, headers: Record<string, string> = {}) {
  const owner = await extraOwner(app);
  await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: SHOP_ORIGIN } });
  const saved = await app.request('PUT', '/v1/widget-config/bmi', {
    token: owner.token,
    body: { config: { webhook: { url, headers } } },
  });
  if (saved.status !== 200) throw new Error(`save failed: ${saved.text}`);
  return owner;
}
