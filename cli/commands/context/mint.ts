import { Flags } from '@oclif/core';
import { CliFailure } from '../../base-command.ts';
import { OwnerCommand } from '../../owner-command.ts';
import { calcIdSegment } from '../../lib/calc-id.ts';
import { passwordStdinFlag, wholeSigningSecret } from '../../lib/signing-secret.ts';
import { normaliseOrigin } from '../../../src/domains/origin.ts';
import {
  type ContextClaims,
  isVisitorId,
  MAX_CONTEXT_LIFETIME_S,
  mintContext,
} from '../../../src/security/visitor-context.ts';

const TTL = /^(\d{1,6})(s|m|h)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;

function ttlSeconds(text: string): number {
  const match = TTL.exec(text.trim());
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS] : Number.NaN;
  if (!(seconds >= 1 && seconds <= MAX_CONTEXT_LIFETIME_S))
    throw new CliFailure(`--ttl must be a duration such as 90s, 10m or 2h, at most 24h; got "${text}".`);
  return seconds;
}

function originClaim(text: string): string {
  try {
    const { origin, wildcard } = normaliseOrigin(text);
    if (!wildcard) return origin;
  } catch {
    // Reported below, with the rule.
  }
  throw new CliFailure(`--origin must be a page's origin such as https://shop.example; got "${text}".`);
}

export default class ContextMint extends OwnerCommand {
  static override summary =
    'Mint a visitor context token for data-context (for tests and backends without a JWT library).';
  static override description =
    'Signs a JWT (HS256) with your signing secret, as your backend would: `sub` is the visitor, `exp` is now plus --ttl. Put it on the page as data-context; each widget load then makes the webhook pull carry Calc-Visitor. ' +
    'The secret comes from CALC_SIGNING_SECRET when set (nothing is sent anywhere), else from the server you are signed in to, which asks for your password when you signed in more than a few minutes ago (on a terminal, or with --password-stdin). ' +
    'Prints only the token (so `$(calc context mint …)` works); with --json, {token, claims}.';
  static override examples = [
    '<%= config.bin %> context mint --visitor cust_42',
    '<%= config.bin %> context mint --visitor cust_42 --ttl 1h --calc bmi --origin https://shop.example',
    'CALC_SIGNING_SECRET=whsec_… <%= config.bin %> context mint --visitor cust_42 --json',
  ];
  static override flags = {
    visitor: Flags.string({ description: 'the visitor id (sub): 1–128 printable ASCII characters', required: true }),
    ttl: Flags.string({ description: 'how long the token is valid: 90s, 10m, 2h … at most 24h', default: '10m' }),
    calc: Flags.string({ description: 'valid only for this calculator id' }),
    origin: Flags.string({ description: "valid only on this page's origin" }),
    'password-stdin': passwordStdinFlag,
  };

  async run() {
    const { flags } = await this.parse(ContextMint);
    if (!isVisitorId(flags.visitor))
      throw new CliFailure('--visitor must be 1–128 printable ASCII characters, without a space at either end.');
    const claims: ContextClaims = {
      sub: flags.visitor,
      exp: Math.floor(Date.now() / 1000) + ttlSeconds(flags.ttl),
    };
    if (flags.calc !== undefined) claims.calc = calcIdSegment(flags.calc);
    if (flags.origin !== undefined) claims.origin = originClaim(flags.origin);
    const token = mintContext(await this.secret(flags), claims);
    this.log(token);
    return { token, claims };
  }

  private async secret(flags: { 'api-url'?: string; 'password-stdin': boolean }): Promise<string> {
    const fromEnv = process.env.CALC_SIGNING_SECRET?.trim();
    if (fromEnv) return fromEnv;
    return (await wholeSigningSecret(this.api(flags), flags['password-stdin'])).signingSecret;
  }
}
