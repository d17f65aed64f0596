import { PLAN_NAMES } from '../../src/plans.ts';
import { OwnerCommand } from '../owner-command.ts';
import type { SessionBody } from '../../src/api-bodies.ts';
import { writeLogin } from '../lib/credentials.ts';
import { readSignInInput, signInFlags } from '../lib/sign-in-input.ts';

export default class Login extends OwnerCommand {
  static override summary = 'Sign in to a calc server and keep the session token.';
  static override description =
    'Asks for the password on the terminal without showing it; in scripts pipe it in with --password-stdin. ' +
    'The token is stored in credentials.json in the config directory ($CALC_CONFIG_DIR, else $XDG_CONFIG_HOME/calc, else ~/.config/calc), readable by you only. ' +
    'With --json, stdout holds the body of POST /v1/auth/login.';
  static override examples = [
    '<%= config.bin %> login --email owner@shop.example',
    '<%= config.bin %> login --api-url https://calc.example.com',
    'printf "%s\\n" "$CALC_PASSWORD" | <%= config.bin %> login --email owner@shop.example --password-stdin',
  ];
  static override flags = signInFlags;

  async run() {
    const { flags } = await this.parse(Login);
    const api = this.api(flags);
    const input = await readSignInInput(flags, 'login', { confirm: false });
    const { body } = await api.post<SessionBody>('/v1/auth/login', { body: input, auth: false });
    writeLogin({ apiUrl: api.baseUrl, token: body.token, email: body.account.email, expiresAt: body.expiresAt });
    this.log(
      `Signed in to ${api.baseUrl} as ${body.account.email} (${PLAN_NAMES[body.account.plan]} plan) until ${body.expiresAt}.`,
    );
    return body;
  }
}
