import { Database } from 'bun:sqlite';
import { beforeAll, describe, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDemo } from '../helpers/faults.ts';
import { ensureCompiled, runCommand, startServe } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { HOOK_TIMEOUT_MS } from '../helpers/timeouts.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, HOOK_TIMEOUT_MS);

describe('start-up', () => {
  test('failure 4 (first start races): serve and admin accounts create on a new data directory both succeed, six times over', async () => {
    using dir = tempDir();
    for (let round = 0; round < 6; round++) {
      const data = join(dir.path, `data-${round}`);
      const [server, created] = await Promise.all([
        startServe([calc], ['--data', data]),
        runCommand(
          [calc],
          ['admin', 'accounts', 'create', '--email', `owner${round}@shop.example`, '--json', '--data', data],
        ),
      ]);
      await using _ = server;
      expect({ round, exitCode: created.exitCode, stderr: created.stderr }).toEqual({ round, exitCode: 0, stderr: '' });
      const login = await fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `owner${round}@shop.example`, password: JSON.parse(created.stdout).password }),
      });
      expect(login.status).toBe(200);
      expect((await server.stop()).exitCode).toBe(0);
    }
  }, 60_000);

  for (const secret of ['jwt-secret', 'webhook-key']) {
    test(`failure 5 (missing secrets): without ${secret} serve refuses naming the file; --regenerate-secrets starts it, and the owner's config answers without a 500`, async () => {
      using dir = tempDir();
      const data = join(dir.path, 'data');
      const env = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
      // An operator command creates the database (and its secrets) before any server ran.
      const created = await runCommand(
        [calc],
        ['admin', 'accounts', 'create', '--email', 'o@shop.example', '--plan', 'extra', '--json', '--data', data],
      );
      expect(created.exitCode).toBe(0);
      const { password } = JSON.parse(created.stdout) as { password: string };
      const server = await startServe([calc], ['--data', data], env);
      const signIn = async (url: string) => {
        const login = await fetch(`${url}/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'o@shop.example', password }),
        });
        expect(login.status).toBe(200);
        return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
      };
      const saved = await fetch(`${server.url}/v1/widget-config/bmi`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(await signIn(server.url)) },
        body: JSON.stringify({
          config: { webhook: { url: 'http://127.0.0.2:1024/prefill', headers: { 'X-Api-Key': 's3cret' } } },
        }),
      });
      expect(saved.status).toBe(200);
      expect((await server.stop()).exitCode).toBe(0);

      rmSync(join(data, secret));
      const refused = await runCommand([calc], ['serve', '--port', '0', '--data', data]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(`${join(data, secret)} is missing`);
      expect(refused.stderr).toContain('--regenerate-secrets');
      expect(refused.stderr).not.toContain('    at ');

      const regenerated = await startServe([calc], ['--data', data, '--regenerate-secrets'], env);
      const config = await fetch(`${regenerated.url}/v1/widget-config/bmi`, { headers: await signIn(regenerated.url) });
      expect(config.status).toBe(200);
      const headers = ((await config.json()) as { config: { webhook: { headers: object } } }).config.webhook.headers;
      // A new webhook-key cannot read the stored values: they are gone, not a 500.
      expect(headers).toEqual(secret === 'webhook-key' ? {} : { 'X-Api-Key': '<redacted>' });
      expect((await regenerated.stop()).exitCode).toBe(0);
      // Once regenerated, the file is there again: a plain start works.
      const plain = await startServe([calc], ['--data', data]);
      expect((await plain.stop()).exitCode).toBe(0);
    }, 30_000);
  }

  test('failure 6 (corrupt database): serve and operator commands refuse it with its path and how to restore a backup', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    const { server } = await serveDemo(calc, data);
    expect((await server.stop()).exitCode).toBe(0);
    const file = join(data, 'calc.db');
    writeFileSync(file, 'not a database, not even close '.repeat(400));
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });

    for (const args of [
      ['serve', '--port', '0'],
      ['admin', 'accounts', 'list'],
    ]) {
      const result = await runCommand([calc], [...args, '--data', data]);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 1 });
      expect(result.stderr).toContain(`The database ${file} cannot be read`);
      expect(result.stderr).toContain('restore it from a backup');
      expect(result.stderr).toContain('calc admin backup');
      expect(result.stderr).not.toContain('    at ');
    }
    // Nothing was written over the damaged file.
    expect(() => new Database(file, { readonly: true }).query('SELECT 1 FROM sqlite_master').all()).toThrow();
  }, 30_000);
});
