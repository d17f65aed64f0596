/**
 * A deleted result leaves nothing of the visitor in the SQLite files: after `DELETE
 * /v1/results/:id` and after retention, a byte search of calc.db and its write-ahead log
 * finds neither the contact email nor the name (a real server process, as an operator
 * copying the files would find them).
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callJson, SOURCE_CLI, startServe } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { servedResultsOwner, submission } from '../helpers/results.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Whether `text` occurs anywhere in the database file or its write-ahead log. */
function inFiles(data: string, text: string): boolean {
  const needle = Buffer.from(text);
  return ['calc.db', 'calc.db-wal']
    .map((name) => join(data, name))
    .filter((file) => existsSync(file))
    .some((file) => readFileSync(file).includes(needle));
}

test('a deleted result’s contact is gone from calc.db and its WAL, with its queued event', async () => {
  using dir = tempDir();
  const data = join(dir.path, 'data');
  // The results endpoint fails every delivery: the events (and the email in them) stay queued.
  const receiver = startReceiver(() => new Response('down', { status: 503 }));
  const server = await startServe(SOURCE_CLI, ['--data', data], { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' });
  try {
    const { token, apiKey } = await servedResultsOwner(server.url, data, receiver.url());
    const send = async (email: string, name: string) => {
      const answer = await callJson(
        server.url,
        'POST',
        '/v1/widget/submit',
        submission({ apiKey }, { contact: { email, name } }),
      );
      expect(answer.status).toBe(202);
      return answer.json.id as string;
    };
    const kept = await send('kept-visitor@example.net', 'Kept Visitor');
    const forgotten = await send('forget-me-7f3a@example.net', 'Forgotten Visitorname');
    expect(inFiles(data, 'forget-me-7f3a@example.net')).toBe(true);

    const deleted = await callJson(server.url, 'DELETE', `/v1/results/${forgotten}`, undefined, token);
    expect(deleted.status).toBe(200);
    expect(inFiles(data, 'forget-me-7f3a@example.net')).toBe(false);
    expect(inFiles(data, 'Forgotten Visitorname')).toBe(false);
    // The other result is untouched.
    expect((await callJson(server.url, 'GET', `/v1/results/${kept}`, undefined, token)).status).toBe(200);
    expect(inFiles(data, 'kept-visitor@example.net')).toBe(true);
  } finally {
    expect((await server.stop()).exitCode).toBe(0);
    await receiver.stop();
  }
}, 60_000);
