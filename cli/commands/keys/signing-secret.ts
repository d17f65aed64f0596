import { Flags } from '@oclif/core';
import { OwnerCommand } from '../../owner-command.ts';
import type { SigningSecretBody } from '../../../src/api-bodies.ts';
import { confirmAction, yesFlag } from '../../lib/confirm.ts';
import { formatDetails } from '../../lib/details.ts';
import { passwordStdinFlag, wholeSigningSecret, withPassword } from '../../lib/signing-secret.ts';

export default class KeysSigningSecret extends OwnerCommand {
  static override summary = 'Show the signing secret, or replace it with --rotate.';
  static override description =
    'The signing secret (whsec_…) signs every webhook GET (Calc-Signature) and the visitor context tokens your backend mints; keep it on your servers only. ' +
    'It is a credential of its own: the server shows it, and replaces it, only within a few minutes of `calc login` or with your password, which is asked for on a terminal (or read with --password-stdin). ' +
    'After --rotate the previous secret keeps signing and verifying for 24 hours, time to update your backend; only one previous secret is kept, so rotating again within those 24 hours cuts the older one off at once. ' +
    'With --rotate --now the previous secret stops at once: do that when the secret, or a session token, may have leaked. ' +
    '--rotate asks first on a terminal; scripts pass --yes. ' +
    'With --json, stdout holds the body of GET (or POST …/reveal, or with --rotate POST) /v1/account/signing-secret.';
  static override examples = [
    '<%= config.bin %> keys signing-secret',
    '<%= config.bin %> keys signing-secret --rotate',
    '<%= config.bin %> keys signing-secret --rotate --now',
    'printf "%s\\n" "$CALC_PASSWORD" | <%= config.bin %> keys signing-secret --rotate --yes --password-stdin --json',
  ];
  static override flags = {
    rotate: Flags.boolean({ description: 'make a new secret; the previous one stays valid for 24 hours' }),
    now: Flags.boolean({
      description: 'with --rotate: the previous secret stops at once (it may have leaked)',
      dependsOn: ['rotate'],
    }),
    'password-stdin': passwordStdinFlag,
    yes: yesFlag,
  };

  async run() {
    const { flags } = await this.parse(KeysSigningSecret);
    const api = this.api(flags);
    const path = '/v1/account/signing-secret';
    if (flags.rotate && !flags.yes) {
      const { body: current } = await api.get<SigningSecretBody>(path);
      await confirmAction(rotationWarning(current, flags.now), 'Rotate the signing secret?');
    }
    const body = flags.rotate
      ? await withPassword(flags['password-stdin'], async (password) => {
          const request = { ...(password === undefined ? {} : { password }), ...(flags.now ? { now: true } : {}) };
          return (await api.post<SigningSecretBody>(path, { body: request })).body;
        })
      : await wholeSigningSecret(api, flags['password-stdin']);
    this.log(
      formatDetails([
        ['Signing secret', body.signingSecret ?? `whsec_…${body.last4}`],
        ['Created', body.createdAt],
        ['Previous secret', body.previousValidUntil === null ? 'none' : `still valid until ${body.previousValidUntil}`],
      ]),
    );
    if (flags.rotate)
      this.log(
        flags.now
          ? 'Update your backend with the new secret now: pulls signed with the previous one no longer verify.'
          : 'Update your backend with the new secret within 24 hours.',
      );
    return body;
  }
}

/** What a rotation breaks: the server keeps one previous secret, so a second rotation drops the first at once. */
function rotationWarning(current: SigningSecretBody, now: boolean): string {
  if (now)
    return 'The current secret stops working at once: webhook calls are no longer signed with it (a backend verifying with it rejects them) and context tokens signed with it no longer name the visitor.';
  const later =
    'The current secret works for 24 more hours only: then webhook calls are no longer signed with it (a backend verifying with it rejects them) and context tokens signed with it no longer name the visitor.';
  return current.previousValidUntil === null
    ? later
    : `The secret replaced by the last rotation (valid until ${current.previousValidUntil}) stops working at once. ${later}`;
}
