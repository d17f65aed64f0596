import { OwnerCommand } from '../owner-command.ts';
import type { SessionBody } from '../../src/api-bodies.ts';
import { writeLogin } from '../lib/credentials.ts';
import { readSignInInput, signInFlags } from '../lib/sign-in-input.ts';

export default class Signup extends OwnerCommand {
  static override summary = 'Create an account on a calc server (when it allows sign-up) and sign in.';
  static override description =
    "New accounts start on the Free plan; only the server's operator changes plans. The password needs at least 10 characters. " +
    'On a terminal the password is asked for twice without showing it. With --json, stdout holds the body of POST /v1/auth/signup.';
  static override examples = [
    '<%= config.bin %> signup --email owner@shop.example',
    'printf "%s\\n" "$CALC_PASSWORD" | <%= config.bin %> signup --email owner@shop.example --password-stdin --api-url https://calc.example.com',
  ];
  static override flags = signInFlags;

  async run() {
    const { flags } = await this.parse(Signup);
    const api = this.api(flags);
    const input = await readSignInInput(flags, 'signup', { confirm: true });
    const { body } = await api.post<SessionBody>('/v1/auth/signup', { body: input, auth: false });
    writeLogin({ apiUrl: api.baseUrl, token: body.token, email: body.account.email, expiresAt: body.expiresAt });
    this.log(`Created ${body.account.email} on the ${body.account.plan} plan at ${api.baseUrl}, and signed in.`);
    this.log(`API key: ${body.account.apiKey}`);
    this.log('Next: `calc domains add https://your-site.example`, then `calc embed bmi`.');
    return body;
  }
}
