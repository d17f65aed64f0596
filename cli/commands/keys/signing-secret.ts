import { Flags } from '@oclif/core';
import { OwnerCommand } from '../../owner-command.ts';
import type { SigningSecretBody } from '../../../src/api-bodies.ts';
import { formatDetails } from '../../lib/details.ts';

export default class KeysSigningSecret extends OwnerCommand {
  static override summary = 'Show the signing secret, or replace it with --rotate.';
  static override description =
    'The signing secret (whsec_…) signs every webhook GET (Calc-Signature) and the visitor context tokens your backend mints; keep it on your servers only. ' +
    'After --rotate the previous secret keeps signing and verifying for 24 hours, time to update your backend. ' +
    'With --json, stdout holds the body of GET (or, with --rotate, POST) /v1/account/signing-secret.';
  static override examples = [
    '<%= config.bin %> keys signing-secret',
    '<%= config.bin %> keys signing-secret --rotate',
    '<%= config.bin %> keys signing-secret --json',
  ];
  static override flags = {
    rotate: Flags.boolean({ description: 'make a new secret; the previous one stays valid for 24 hours' }),
  };

  async run() {
    const { flags } = await this.parse(KeysSigningSecret);
    const api = this.api(flags);
    const path = '/v1/account/signing-secret';
    const { body } = flags.rotate ? await api.post<SigningSecretBody>(path) : await api.get<SigningSecretBody>(path);
    this.log(
      formatDetails([
        ['Signing secret', body.signingSecret],
        ['Created', body.createdAt],
        ['Previous secret', body.previousValidUntil === null ? 'none' : `still valid until ${body.previousValidUntil}`],
      ]),
    );
    if (flags.rotate) this.log('Update your backend with the new secret within 24 hours.');
    return body;
  }
}
