import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { jsonOf, startCliSession, type CliSession } from '../helpers/cli-session.ts';

// Every test starts processes; a loaded machine must not turn that into a failure.
setDefaultTimeout(30_000);

let session: CliSession;
let owner: Awaited<ReturnType<CliSession['signedIn']>>;
beforeAll(async () => {
  session = await startCliSession();
  owner = await session.signedIn();
}, 30_000);
afterAll(() => session[Symbol.asyncDispose]());

const calc = (...args: string[]) => session.calc(args, { env: owner.env });

/** What a page with the public key does: ask for its origin, leaving a pending request. */
async function requestFromPage(domain: string) {
  const response = await fetch(`${session.url}/v1/widget/register-domain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: owner.apiKey, domain }),
  });
  expect(response.status).toBe(202);
}

async function apiDomains() {
  const token = JSON.parse(await Bun.file(`${owner.configDir}/credentials.json`).text()).token as string;
  const response = await fetch(`${session.url}/v1/domains`, { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

describe('calc domains', () => {
  test('an empty list says how to add a domain', async () => {
    const result = await calc('domains');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('No domains yet');
    expect(jsonOf((await calc('domains', '--json')).stdout)).toEqual({ domains: [] });
  });

  test('add normalises the origin, is idempotent, and --json is the POST /v1/domains body', async () => {
    const added = await calc('domains', 'add', 'https://Shop.Example/');
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toBe('Added https://shop.example; it is active.\n');
    const again = await calc('domains', 'add', 'https://shop.example', '--json');
    expect(again.exitCode).toBe(0);
    const body = jsonOf<{ domain: { domain: string; status: string; createdAt: string } }>(again.stdout);
    expect(Object.keys(body)).toEqual(['domain']);
    expect(body.domain).toMatchObject({ domain: 'https://shop.example', status: 'active' });
    expect((await calc('domains', 'add', 'https://shop.example')).stdout).toBe(
      'https://shop.example was already active.\n',
    );
  });

  test("an invalid origin is refused with the server's message: exit 1", async () => {
    const result = await calc('domains', 'add', 'https://shop.example/path');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('Error: domain must be an origin without a path, such as https://shop.example.\n');
  });

  test('the list shows pending requests clearly, and --json is exactly GET /v1/domains', async () => {
    await requestFromPage('https://blog.shop.example');
    const result = await calc('domains');
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^DOMAIN\s+STATUS\s+SINCE$/);
    expect(lines[1]).toMatch(/^https:\/\/blog\.shop\.example\s+PENDING approval\s+\d{4}-/);
    expect(lines[2]).toMatch(/^https:\/\/shop\.example\s+active\s+\d{4}-/);
    expect(result.stdout).toContain('1 pending request: approve with `calc domains approve ORIGIN`');
    expect(jsonOf((await calc('domains', '--json')).stdout)).toEqual(await apiDomains());
  });

  test('approve activates a pending request (found by any spelling of the origin)', async () => {
    await requestFromPage('https://approve-me.example');
    const result = await calc('domains', 'approve', 'https://Approve-Me.example/', '--json');
    expect(result.exitCode).toBe(0);
    expect(jsonOf(result.stdout)).toMatchObject({ domain: { domain: 'https://approve-me.example', status: 'active' } });
    const listed = (await apiDomains()) as { domains: { domain: string; status: string }[] };
    expect(listed.domains.find((d) => d.domain === 'https://approve-me.example')?.status).toBe('active');
  });

  test('approve refuses an active origin and an unknown one: exit 1, nothing added', async () => {
    const active = await calc('domains', 'approve', 'https://shop.example');
    expect(active.exitCode).toBe(1);
    expect(active.stderr).toBe('Error: https://shop.example is already active; there is nothing to approve.\n');
    const unknown = await calc('domains', 'approve', 'https://never-asked.example');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('There is no pending request for https://never-asked.example');
    const listed = (await apiDomains()) as { domains: { domain: string }[] };
    expect(listed.domains.map((d) => d.domain)).not.toContain('https://never-asked.example');
  });

  test("remove deletes a domain; removing it again passes the server's 404 message through", async () => {
    const removed = await calc('domains', 'remove', 'https://blog.shop.example', '--yes');
    expect(removed.exitCode).toBe(0);
    expect(removed.stdout).toBe('Removed https://blog.shop.example (a pending request).\n');
    const again = await calc('domains', 'remove', 'https://blog.shop.example', '--yes', '--json');
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toBe('');
    expect(jsonOf(again.stderr)).toEqual({
      error: { code: 'domain_not_found', message: 'https://blog.shop.example is not registered for this account.' },
    });
  });

  test('a missing ORIGIN is a syntax error: exit 2', async () => {
    for (const verb of ['add', 'remove', 'approve']) {
      const result = await calc('domains', verb);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('Missing 1 required arg');
    }
  });

  test('not signed in: exit 4', async () => {
    const result = await session.calc(['domains', 'add', 'https://shop.example']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('calc login');
  });
});
