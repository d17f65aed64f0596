import { Database } from 'bun:sqlite';
import { beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCompiled, runCommand, startServe } from '../helpers/process.ts';
import { startTarget } from '../helpers/webhook-target.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, 120_000);

const json = (url: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('the compiled executable', () => {
  test('serves from an empty directory: accounts, domains, verify, load, backup while serving, SIGTERM loses no counts', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const server = await startServe([calc], ['--data', data]);
    const api = server.url;
    try {
      expect(mode(data)).toBe('700');
      for (const file of readdirSync(data))
        expect({ file, mode: mode(join(data, file)) }).toEqual({ file, mode: '600' });

      const signup = await json(`${api}/v1/auth/signup`, 'POST', {
        email: 'owner@shop.example',
        password: 'correct horse battery',
      });
      expect(signup.status).toBe(201);
      const login = await json(`${api}/v1/auth/login`, 'POST', {
        email: 'owner@shop.example',
        password: 'correct horse battery',
      });
      expect(login.status).toBe(200);
      const auth = { authorization: `Bearer ${login.body.token}` };
      expect((await json(`${api}/v1/domains`, 'POST', { domain: 'https://shop.example' }, auth)).status).toBe(201);
      const apiKey = signup.body.account.apiKey;
      const widgetBody = { apiKey, domain: 'https://shop.example', calcId: 'bmi' };
      expect(
        (await json(`${api}/v1/widget/verify`, 'POST', widgetBody, { origin: 'https://shop.example' })).body,
      ).toEqual({ ok: true, calcId: 'bmi' });
      const loads = 37;
      for (let i = 0; i < loads; i++)
        expect((await json(`${api}/v1/widget/load`, 'POST', widgetBody)).status).toBe(200);

      const backupFile = join(dir.path, 'backup.db');
      const backup = await runCommand([calc], ['admin', 'backup', backupFile, '--data', data]);
      expect(backup.exitCode).toBe(0);
      expect(mode(backupFile)).toBe('600');
      const copy = new Database(backupFile, { readonly: true });
      expect(copy.query('SELECT email FROM accounts').all()).toEqual([{ email: 'owner@shop.example' }]);
      copy.close();
      expect((await runCommand([calc], ['admin', 'backup', backupFile, '--data', data])).exitCode).toBe(1);

      const setPlan = await runCommand(
        [calc],
        ['admin', 'accounts', 'set-plan', '--email', 'owner@shop.example', '--plan', 'base', '--data', data],
      );
      expect(setPlan.exitCode).toBe(0);
      expect((await json(`${api}/v1/account`, 'GET', undefined, auth)).body.account.plan).toBe('base');

      // Loads right before SIGTERM are still in memory: the drain must flush them.
      for (let i = 0; i < 5; i++) await json(`${api}/v1/widget/load`, 'POST', widgetBody);
      const stopped = await server.stop();
      expect(stopped.exitCode).toBe(0);
      const db = new Database(join(data, 'calc.db'), { readonly: true });
      expect((db.query('SELECT sum(loads) AS n FROM usage').get() as { n: number }).n).toBe(loads + 5);
      db.close();
      const logLines = stopped.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(logLines.some((l) => l.msg === 'request' && l.path === '/v1/widget/load' && l.status === 200)).toBe(true);
      expect(stopped.stderr).not.toContain('correct horse battery');
      expect(stopped.stderr).not.toContain(login.body.token);

      const created = await runCommand(
        [calc],
        ['admin', 'accounts', 'create', '--email', 'second@shop.example', '--json', '--data', data],
      );
      expect(created.exitCode).toBe(0);
      const second = JSON.parse(created.stdout);
      expect(second.account.email).toBe('second@shop.example');
      // Generated (no --password-stdin): the password must reach a --json reader, and work.
      const stored = new Database(join(data, 'calc.db'), { readonly: true });
      const row = stored
        .query("SELECT password_hash AS hash FROM accounts WHERE email = 'second@shop.example'")
        .get() as { hash: string };
      stored.close();
      expect(await Bun.password.verify(second.password, row.hash)).toBe(true);

      const list = await runCommand([calc], ['admin', 'accounts', 'list', '--json', '--data', data]);
      expect(JSON.parse(list.stdout).accounts[0]).toMatchObject({
        email: 'owner@shop.example',
        plan: 'base',
        usage: { used: loads + 5 },
      });
    } finally {
      await server[Symbol.asyncDispose]();
    }
  }, 60_000);

  test('SIGTERM lets an in-flight request finish before exiting', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    // A webhook that answers only when released keeps one load in flight for as long as needed.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const target = startTarget('127.0.0.2', async () => {
      await released;
      return Response.json({ weightKg: 81 });
    });
    const server = await startServe([calc], ['--data', data], { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' });
    try {
      const signup = await json(`${server.url}/v1/auth/signup`, 'POST', {
        email: 'late@shop.example',
        password: 'correct horse battery',
      });
      const auth = { authorization: `Bearer ${signup.body.token}` };
      expect(
        (
          await runCommand(
            [calc],
            ['admin', 'accounts', 'set-plan', '--email', 'late@shop.example', '--plan', 'extra', '--data', data],
          )
        ).exitCode,
      ).toBe(0);
      await json(`${server.url}/v1/domains`, 'POST', { domain: 'https://shop.example' }, auth);
      expect(
        (
          await json(
            `${server.url}/v1/widget-config/bmi`,
            'PUT',
            { config: { webhook: { url: target.url('/hold') } } },
            auth,
          )
        ).status,
      ).toBe(200);

      const pending = json(`${server.url}/v1/widget/load`, 'POST', {
        apiKey: signup.body.account.apiKey,
        domain: 'https://shop.example',
        calcId: 'bmi',
      });
      while (target.hits === 0) await Bun.sleep(5);
      const stopped = server.stop();
      await Bun.sleep(100);
      expect(server.proc.exitCode).toBeNull();
      release();
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(answer.body.values).toEqual({ weightKg: 81 });
      expect((await stopped).exitCode).toBe(0);
    } finally {
      release();
      await target.stop();
      await server[Symbol.asyncDispose]();
    }
  }, 30_000);

  test('--demo seeds an empty database once; the demo page embeds the demo key', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const first = await startServe([calc], ['--data', data, '--demo']);
    let apiKey: string;
    try {
      const out = first.stdout();
      apiKey = /API key:\s+(pk_\w+)/.exec(out)?.[1] ?? '';
      expect(apiKey).toMatch(/^pk_/);
      expect(out).toMatch(/password:\s+\S{12,}/);
      const page = await fetch(`${first.url}/`);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await page.text()).toContain(apiKey);
      const script = await fetch(`${first.url}/widget.js`, { headers: { 'accept-encoding': 'br' } });
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('javascript');
      expect(script.headers.get('content-encoding')).toBe('br');
      expect(script.headers.get('etag')).toBeTruthy();
      // The catalogue's template files, whose names the script holds, are inside too.
      const scriptText = await (await fetch(`${first.url}/widget.js`)).text();
      const bmiFile = /"(bmi\.[0-9a-f]{12}\.json)"/.exec(scriptText)?.[1];
      const template = await fetch(`${first.url}/widget/calculators/${bmiFile}`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(template.status).toBe(200);
      expect(template.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(((await template.json()) as { id: string }).id).toBe('bmi');
      // And the results form's chunk.
      const chunkFile = /results\.[0-9a-f]{12}\.js/.exec(scriptText)?.[0];
      const chunk = await fetch(`${first.url}/widget/chunks/${chunkFile}`);
      expect(chunk.status).toBe(200);
      expect(chunk.headers.get('content-type')).toContain('javascript');
      expect(await chunk.text()).toContain('export');
      // The API reference's script is inside the executable too, plain and compressed.
      const redoc = await fetch(`${first.url}/docs/redoc.standalone.js`);
      expect(redoc.status).toBe(200);
      expect((await redoc.text()).length).toBeGreaterThan(500_000);
      const redocGzip = await fetch(`${first.url}/docs/redoc.standalone.js`, {
        headers: { 'accept-encoding': 'gzip' },
        decompress: false,
      });
      expect(redocGzip.headers.get('content-encoding')).toBe('gzip');
      expect(Bun.gunzipSync(new Uint8Array(await redocGzip.arrayBuffer())).length).toBeGreaterThan(500_000);
      const origin = new URL(first.url).origin;
      const load = await json(
        `${first.url}/v1/widget/load`,
        'POST',
        { apiKey, domain: origin, calcId: 'bmi' },
        { origin },
      );
      expect(load.status).toBe(200);
    } finally {
      await first.stop();
    }
    const second = await startServe([calc], ['--data', data, '--demo']);
    try {
      expect(second.stdout()).not.toContain('API key');
    } finally {
      await second.stop();
    }
    const plain = await startServe([calc], ['--data', join(dir.path, 'other')]);
    try {
      expect(plain.stdout()).not.toContain('API key');
      const accounts = await runCommand(
        [calc],
        ['admin', 'accounts', 'list', '--json', '--data', join(dir.path, 'other')],
      );
      expect(JSON.parse(accounts.stdout).accounts).toEqual([]);
    } finally {
      await plain.stop();
    }
  }, 60_000);

  test('--help works inside the executable for every topic; bad flags exit 2', async () => {
    for (const args of [
      ['--help'],
      ['serve', '--help'],
      ['admin', '--help'],
      ['admin', 'accounts', '--help'],
      ['admin', 'backup', '--help'],
      ['help', 'admin'],
    ]) {
      const res = await runCommand([calc], args);
      expect({ args, exitCode: res.exitCode }).toEqual({ args, exitCode: 0 });
      expect(res.stdout).toContain('USAGE');
    }
    const bad = await runCommand([calc], ['serve', '--no-such-flag']);
    expect(bad.exitCode).toBe(2);
  });

  test('a bad setting fails fast with one clear line', async () => {
    const res = await runCommand([calc], ['serve', '--port', '0'], { env: { CALC_QUOTA_FREE: 'lots' } });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('quota-free must be a whole number');
    expect(res.stderr).not.toMatch(/\bat .*:\d+:\d+/);
  });
});
