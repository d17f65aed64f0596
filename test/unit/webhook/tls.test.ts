import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { runCommand } from '../../helpers/process.ts';

type Report = { report: Record<string, { outcome: string; host: string | null }>; trustedPort: number };

async function runProbe(env: Record<string, string>): Promise<Report> {
  const { stdout, stderr, exitCode } = await runCommand(
    [process.execPath, join(import.meta.dir, 'fixtures', 'tls-probe.ts')],
    [],
    { env: { NODE_EXTRA_CA_CERTS: join(import.meta.dir, 'fixtures', 'certs', 'ca.pem'), ...env } },
  );
  expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
  return JSON.parse(stdout.trim()) as Report;
}

// The request goes to the IP; SNI and certificate verification must still use the
// customer's host name, and verification must hold even when the environment says
// NODE_TLS_REJECT_UNAUTHORIZED=0.
describe.each([
  ['default environment', {}],
  ['NODE_TLS_REJECT_UNAUTHORIZED=0', { NODE_TLS_REJECT_UNAUTHORIZED: '0' }],
])('https through the pinned IP (%s)', (_label, env) => {
  let result: Promise<Report> | undefined;
  const probe = (): Promise<Report> => (result ??= runProbe(env));

  test.each([
    ['name matching the certificate', 'ok'],
    ['name not in the certificate', 'unreachable'],
    ['IP literal (certificate has no IP)', 'unreachable'],
    ['self-signed certificate', 'unreachable'],
  ])(
    '%s -> %s',
    async (label, outcome) => {
      const { report } = await probe();
      expect(report[label]?.outcome).toBe(outcome);
    },
    15_000,
  );

  test('the Host header is the original host:port', async () => {
    const { report, trustedPort } = await probe();
    expect(report['name matching the certificate']?.host).toBe(`shop.test:${trustedPort}`);
  }, 15_000);
});
