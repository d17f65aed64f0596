/**
 * Guarded fetch versus plain fetch, one process: an in-process `Bun.serve` on
 * 127.0.0.2 answering a small JSON object, called one request at a time. bench/webhook.ts
 * runs this file pinned to one core and reads the JSON it prints on stdout.
 *
 * Variants, alternated block by block (A B A B …, `Bun.gc(true)` before each block):
 *   plain            fetch(url) → response.json()             (the baseline of docs/performance.md)
 *   guarded          guardedFetch(url, {}, deps)              (the product)
 * and two for attribution only (where the added time goes):
 *   options          fetch with the guard's options and headers (signal, manual redirect,
 *                    proxy false, decompress false) → arrayBuffer → fatal TextDecoder → JSON.parse
 *   options+capped   the same, body read by readCappedBody (the guard's body reader)
 *
 * Each block records wall µs per call (the latency a load waits) and process CPU µs per
 * call (this process's user+system time, which includes Bun's HTTP client thread and the
 * in-process target: less sensitive than wall time to other processes on a shared core).
 *
 * Env: WEBHOOK_FETCH_BLOCKS (10), WEBHOOK_FETCH_CALLS (1000), WEBHOOK_FETCH_WARMUP (3000).
 */
import { machineBusySeconds } from './lib/proc-stats.ts';
import { median } from './lib/sampling.ts';
import { createAddressPolicy } from '../src/webhook/address-policy.ts';
import { guardedFetch } from '../src/webhook/guarded-fetch.ts';
import { buildRequestHeaders } from '../src/webhook/headers.ts';
import { readCappedBody } from '../src/webhook/read-body.ts';
import { systemResolver } from '../src/webhook/url-check.ts';

const BLOCKS = Number(process.env.WEBHOOK_FETCH_BLOCKS ?? 10);
const CALLS = Number(process.env.WEBHOOK_FETCH_CALLS ?? 1000);
const WARMUP = Number(process.env.WEBHOOK_FETCH_WARMUP ?? 3000);
const HOST = '127.0.0.2';
const BODY = { weightKg: 72.5, heightCm: 180 };

export type VariantName = 'plain' | 'guarded' | 'options' | 'options+capped';
export const VARIANTS: VariantName[] = ['plain', 'guarded', 'options', 'options+capped'];
const MAX_BYTES = 256 * 1024;

export interface FetchBenchOutput {
  blocks: number;
  callsPerBlock: number;
  warmupCalls: number;
  /** Wall µs per call of every block, in the order measured. */
  samples: Record<VariantName, number[]>;
  /** Process CPU µs per call of every block. */
  cpuSamples: Record<VariantName, number[]>;
  /** Cores used by other processes during each round (all variants' blocks of one round). */
  roundInterference: number[];
  /** CPU-only costs the local target does not exercise (µs per call, median of 3 runs). */
  cpu: { policyCheckPublicV4Us: number; policyCheckPublicV6Us: number; policyCheckAllowlistedUs: number };
  /** One lookup of a name through the production resolver (getaddrinfo), median µs. */
  resolverLocalhostUs: number;
  /** Cores used by other processes while the blocks ran (machine busy minus this process). */
  interferenceCores: number;
  wallSeconds: number;
}

export async function measure(): Promise<FetchBenchOutput> {
  const server = Bun.serve({ hostname: HOST, port: 0, fetch: () => Response.json(BODY) });
  try {
    const url = `http://${HOST}:${server.port}/prefill`;
    const host = new URL(url).host;
    const policy = createAddressPolicy({ allowCidrs: [`${HOST}/32`] });
    const deps = { resolve: systemResolver, policy, userAgent: 'calc-webhook/bench' };
    const guardOptions = (signal: AbortSignal) =>
      ({
        method: 'GET',
        headers: buildRequestHeaders({}, { userAgent: deps.userAgent, host }),
        signal,
        redirect: 'manual',
        proxy: false,
        decompress: false,
      }) as RequestInit;
    const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));

    const variants: Record<VariantName, () => Promise<unknown>> = {
      plain: async () => {
        const response = await fetch(url);
        return response.json();
      },
      guarded: async () => {
        const result = await guardedFetch(url, {}, deps);
        if (result.outcome !== 'ok') throw new Error(`guarded fetch ended with ${result.outcome}`);
        return result.body;
      },
      options: async () => {
        const signal = AbortSignal.timeout(5000);
        const response = await fetch(url, guardOptions(signal));
        return decode(new Uint8Array(await response.arrayBuffer()));
      },
      'options+capped': async () => {
        const signal = AbortSignal.timeout(5000);
        const response = await fetch(url, guardOptions(signal));
        const read = await readCappedBody(response, { maxBytes: MAX_BYTES, signal });
        if (!read.ok) throw new Error(`readCappedBody: ${read.outcome}`);
        return decode(read.bytes);
      },
    };

    // Every variant must do the same job: get the object back.
    for (const [name, call] of Object.entries(variants)) {
      const body = await call();
      if (!Bun.deepEquals(body, BODY)) throw new Error(`${name} returned ${JSON.stringify(body)}`);
    }

    const block = async (call: () => Promise<unknown>, n: number): Promise<{ wall: number; cpu: number }> => {
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < n; i++) await call();
      const wall = ((performance.now() - started) * 1000) / n;
      const used = process.cpuUsage(cpuStart);
      return { wall, cpu: (used.user + used.system) / n };
    };

    for (const call of Object.values(variants)) await block(call, WARMUP);

    const samples = Object.fromEntries(VARIANTS.map((name) => [name, [] as number[]])) as Record<VariantName, number[]>;
    const cpuSamples = Object.fromEntries(VARIANTS.map((name) => [name, [] as number[]])) as Record<
      VariantName,
      number[]
    >;
    const roundInterference: number[] = [];
    const busy0 = machineBusySeconds();
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    for (let round = 0; round < BLOCKS; round++) {
      const roundBusy = machineBusySeconds();
      const roundCpu = process.cpuUsage();
      const roundWall = performance.now();
      for (const name of VARIANTS) {
        Bun.gc(true);
        const result = await block(variants[name], CALLS);
        samples[name].push(result.wall);
        cpuSamples[name].push(result.cpu);
      }
      const ownCpu = process.cpuUsage(roundCpu);
      const seconds = (performance.now() - roundWall) / 1000;
      roundInterference.push(
        Math.round(
          Math.max(0, (machineBusySeconds() - roundBusy - (ownCpu.user + ownCpu.system) / 1e6) / seconds) * 100,
        ) / 100,
      );
    }
    const wallSeconds = (performance.now() - wall0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const own = (cpu.user + cpu.system) / 1e6;
    const interferenceCores = Math.max(0, (machineBusySeconds() - busy0 - own) / wallSeconds);

    // CPU-only parts that the allowlisted loopback target skips: a public address goes
    // through ipaddr.js range() and the blocked-range lists on every fetch.
    const publicPolicy = createAddressPolicy({ allowCidrs: [] });
    const cpuCost = (fn: () => unknown, n = 20_000): number => {
      const runs: number[] = [];
      for (let r = 0; r < 3; r++) {
        const started = performance.now();
        for (let i = 0; i < n; i++) fn();
        runs.push(((performance.now() - started) * 1000) / n);
      }
      return median(runs);
    };
    cpuCost(() => publicPolicy.check('93.184.215.14'), 5000);
    const cpuResult = {
      policyCheckPublicV4Us: cpuCost(() => publicPolicy.check('93.184.215.14')),
      policyCheckPublicV6Us: cpuCost(() => publicPolicy.check('2606:2800:21f:cb07:6820:80da:af6b:8b2c')),
      policyCheckAllowlistedUs: cpuCost(() => policy.check(HOST)),
    };

    // A name (not an IP literal) costs one lookup per fetch through the system resolver.
    const lookups: number[] = [];
    for (let i = 0; i < 220; i++) {
      const started = performance.now();
      await systemResolver('localhost');
      if (i >= 20) lookups.push((performance.now() - started) * 1000);
    }

    return {
      blocks: BLOCKS,
      callsPerBlock: CALLS,
      warmupCalls: WARMUP,
      samples,
      cpuSamples,
      roundInterference,
      cpu: cpuResult,
      resolverLocalhostUs: median(lookups),
      interferenceCores: Math.round(interferenceCores * 100) / 100,
      wallSeconds: Math.round(wallSeconds * 100) / 100,
    };
  } finally {
    server.stop(true);
  }
}

if (import.meta.main) {
  const output = await measure();
  process.stdout.write(`${JSON.stringify(output)}\n`);
  process.exit(0);
}
