/**
 * Deleted means gone from the file: after an account is deleted (by its owner over HTTP,
 * or by the operator's command while the server runs) none of its bytes are left in the
 * SQLite database or its write-ahead log — not its email, password hash, API key or domains.
 */
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCliSession, TEST_PASSWORD, type CliSession } from '../helpers/cli-session.ts';

// Processes and password hashes: a loaded machine must not fail these.
setDefaultTimeout(60_000);

let session: CliSession;
beforeAll(async () => {
  session = await startCliSession();
}, 60_000);
afterAll(() => session[Symbol.asyncDispose]());

const FILES = ['calc.db', 'calc.db-wal'];

/** The database files (of those that exist) in which `text` occurs. */
function filesHolding(text: string): string[] {
  const needle = Buffer.from(text, 'utf8');
  return FILES.filter((name) => {
    const path = join(session.dataDir, name);
    return existsSync(path) && readFileSync(path).includes(needle);
  });
}

/** An owner with two domains, signed in; answers the token and every text of theirs that must not outlive them. */
async function ownerWithTraces() {
  const account = await session.createAccount();
  const login = await fetch(`${session.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const tag = crypto.randomUUID().slice(0, 8);
  const domains = [`https://shop-${tag}.example`, `https://blog-${tag}.example`];
  for (const domain of domains) {
    const added = await fetch(`${session.url}/v1/domains`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ domain }),
    });
    expect(added.status).toBe(201);
  }
  // The hash as stored (read-only, beside the running server, as SQLite's WAL mode allows).
  const db = new Database(join(session.dataDir, 'calc.db'), { readonly: true });
  const row = db.query('SELECT password_hash FROM accounts WHERE email = ?').get(account.email) as {
    password_hash: string;
  };
  db.close();
  const traces = { email: account.email, passwordHash: row.password_hash, apiKey: account.apiKey };
  return { ...account, token, traces: { ...traces, domain0: domains[0] ?? '', domain1: domains[1] ?? '' } };
}

/** Where each trace is found, by name: `{}` when the files hold none of them. */
function whereFound(traces: Record<string, string>): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [name, text] of Object.entries(traces)) {
    const files = filesHolding(text);
    if (files.length > 0) found[name] = files;
  }
  return found;
}

describe('a deleted account leaves none of its bytes in calc.db or its write-ahead log', () => {
  test('DELETE /v1/account', async () => {
    const owner = await ownerWithTraces();
    // Before: every trace is on disk, so the check below can see one left behind.
    expect(Object.keys(whereFound(owner.traces)).sort()).toEqual(Object.keys(owner.traces).sort());
    const deleted = await fetch(`${session.url}/v1/account`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ password: TEST_PASSWORD }),
    });
    expect(deleted.status).toBe(200);
    expect(whereFound(owner.traces)).toEqual({});
  });

  test('calc admin accounts delete, while the server runs', async () => {
    const owner = await ownerWithTraces();
    expect(Object.keys(whereFound(owner.traces)).sort()).toEqual(Object.keys(owner.traces).sort());
    const result = await session.calc([
      'admin',
      'accounts',
      'delete',
      '--email',
      owner.email,
      '--yes',
      '--data',
      session.dataDir,
    ]);
    expect(result.exitCode).toBe(0);
    expect(whereFound(owner.traces)).toEqual({});
    // The server goes on with the database the command changed.
    const gone = await fetch(`${session.url}/v1/account`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(gone.status).toBe(401);
  });
});
