/**
 * Set-up of bench/webhook.ts and bench/webhook-hanging.ts: Extra accounts with or without
 * a webhook on bmi, widget loads, and the counters of the webhook target
 * (bench/webhook-target.ts).
 */
import { api, CALC_ID, ORIGIN, widgetCall } from './lib/api.ts';
import { progress } from './lib/report.ts';

const PASSWORD = 'bench-password-123';
/** What the target's /prefill webhook answers (and a load with it pre-fills). */
export const PREFILL_VALUES = { weightKg: 72.5, heightCm: 180 };

export async function widgetLoad(
  base: string,
  apiKey: string,
): Promise<{ status: number; values: Record<string, unknown> }> {
  const { status, json } = await widgetCall(base, 'load', apiKey);
  return { status, values: (json as { values?: Record<string, unknown> }).values ?? {} };
}

/** Runs tasks with at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface Account {
  email: string;
  token: string;
  apiKey: string;
}

/** signup → set-plan extra (operator command) → domain → optional webhook on bmi. */
export async function createAccounts(
  base: string,
  bin: string,
  dataDir: string,
  prefix: string,
  count: number,
  webhookUrl: string | null,
): Promise<Account[]> {
  const t0 = performance.now();
  const accounts = await pool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const email = `${prefix}-${i}@bench.example`;
      const signup = await api(base, 'POST', '/v1/auth/signup', { email, password: PASSWORD });
      return { email, token: signup.token as string, apiKey: signup.account.apiKey as string };
    },
  );
  const t1 = performance.now();
  await pool(accounts, 4, async (account) => {
    const out = Bun.spawn(
      [bin, 'admin', 'accounts', 'set-plan', '--email', account.email, '--plan', 'extra', '--data', dataDir],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    const [stdout, stderr, code] = await Promise.all([
      new Response(out.stdout).text(),
      new Response(out.stderr).text(),
      out.exited,
    ]);
    if (code !== 0) throw new Error(`set-plan ${account.email} exited ${code}: ${stdout}${stderr}`);
  });
  await pool(accounts, 8, async (account) => {
    await api(base, 'POST', '/v1/domains', { domain: ORIGIN }, account.token);
    if (webhookUrl)
      await api(
        base,
        'PUT',
        `/v1/widget-config/${CALC_ID}`,
        { config: { webhook: { url: webhookUrl } } },
        account.token,
      );
  });
  const t2 = performance.now();
  progress(
    `webhook: ${count} ${prefix} accounts: signup ${Math.round(t1 - t0)} ms, set-plan ${Math.round(t2 - t1)} ms (with domain and webhook)`,
  );
  return accounts;
}

export async function targetStats(targetUrl: string): Promise<{ prefill: number; hang: number; open: number }> {
  return (await (await fetch(`${targetUrl}/stats`)).json()) as { prefill: number; hang: number; open: number };
}
