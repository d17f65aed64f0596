/**
 * The results endpoint's page in Chromium: set it up, copy the secret shown once, send a
 * test event, resend from the log, rotate, turn off and on, each checked against the
 * receiving endpoint and the API; axe finds nothing serious.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ROOT } from '../helpers/process.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import {
  dashboardContext,
  docsScreenshot,
  FLOW_TIMEOUT_MS,
  PASSWORD,
  signIn,
  useDashboard,
} from './support/dashboard.ts';

const suite = useDashboard({ env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = startReceiver();
  // As `calc serve` does: the loop makes the attempts of a resend.
  await suite.server.app.delivery.start();
});
afterAll(() => receiver.stop());

test(
  'set up the endpoint, keep the secret shown once, test, resend, rotate, turn off and on',
  async () => {
    const owner = await suite.server.app.signup(`endpoint-${crypto.randomUUID().slice(0, 8)}@shop.example`, PASSWORD);
    await suite.server.app.accounts.setPlan(owner.id, 'base');
    const { context } = await dashboardContext(suite.browser);
    const page = await context.newPage();
    await page.goto(`${suite.server.url}/dashboard/account`);
    await signIn(page, owner.email);
    await page.getByRole('link', { name: 'Set up the results endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Results endpoint' }).waitFor();

    await page.getByLabel('Endpoint URL').fill(receiver.url());
    await page.getByRole('checkbox', { name: 'usage.warning' }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Endpoint created.').waitFor();
    const secret = await page.getByLabel('Signing secret (shown once)').inputValue();
    expect(secret).toStartWith('whsec_');
    const stored = await suite.server.api('GET', '/v1/account/results-endpoint', owner.token);
    expect(stored.json.endpoint).toMatchObject({
      url: receiver.url(),
      events: ['result.submitted', 'usage.exhausted'],
      secretLast4: secret.slice(-4),
    });

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event: ok (HTTP 200).').waitFor();
    const got = receiver.received.at(-1);
    const eventId = got?.headers['webhook-id'] ?? '';
    expect(new Webhook(secret).verify(got?.body ?? '', got?.headers ?? {})).toMatchObject({
      id: eventId,
      type: 'test',
    });
    await page.getByRole('rowheader', { name: new RegExp(eventId) }).waitFor();
    await docsScreenshot(page, 'results-endpoint');

    const before = receiver.received.length;
    await page
      .getByRole('button', { name: `Resend ${eventId}` })
      .first()
      .click();
    await page.getByText(`Event ${eventId} is being sent again.`).waitFor();
    await receiver.waitFor(before + 1);
    expect(receiver.ids().at(-1)).toBe(eventId);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: "Rotate the endpoint's secret?" })
      .getByRole('button', { name: 'Rotate' })
      .click();
    await page.getByText(/New secret made/).waitFor();
    const rotated = await page.getByLabel('Signing secret (shown once)').inputValue();
    expect(rotated).not.toBe(secret);
    // Leaving the page forgets it: the server never shows it again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Results endpoint' }).waitFor();
    await page.getByLabel('Endpoint URL').waitFor();
    expect(await page.getByLabel('Signing secret (shown once)').count()).toBe(0);
    expect(await page.content()).not.toContain(rotated.slice(6));

    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('Off: Turned off by the owner.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save and turn on' }).click();
    await page.getByText('Endpoint saved and on.').waitFor();
    expect((await suite.server.api('GET', '/v1/account/results-endpoint', owner.token)).json.endpoint.enabled).toBe(
      true,
    );

    // axe-core: nothing serious or critical on the page as set up.
    await page.evaluate(await Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text());
    const violations = (await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(d: Document): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run(document)).violations;
    })) as { id: string; impact: string | null }[];
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    await page.getByRole('button', { name: 'Remove endpoint' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the results endpoint?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByText('Endpoint removed with its queued events and log.').waitFor();
    expect((await suite.server.api('GET', '/v1/account/results-endpoint', owner.token)).json.endpoint).toBeNull();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
