import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from '../api.ts';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { signInNotice, startSession } from '../session.ts';
import type { SessionBody } from '../../../src/api-bodies.ts';

/**
 * Shown at whatever address was asked for while signed out; once signed in, the same
 * address shows its page, so a deep link or an expired session comes back to where it was.
 */
export function SignIn(props: { signupEnabled: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(
    signInNotice.value ? { kind: 'error', text: signInNotice.value } : null,
  );
  const emailInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    document.title = 'Sign in · calc dashboard';
    emailInput.current?.focus();
  }, []);

  async function submit(route: 'login' | 'signup') {
    setBusy(true);
    setNotice(null);
    try {
      const session = await api<SessionBody>('POST', `/v1/auth/${route}`, { email, password });
      startSession(session.token);
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in">
      <h1>calc dashboard</h1>
      <p>Sign in to manage your domains, API key, webhooks and usage.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit('login');
        }}
      >
        <label for="email">Email</label>
        <input
          id="email"
          ref={emailInput}
          type="email"
          autocomplete="username"
          required
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
        <label for="password">Password</label>
        <input
          id="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Sign in
          </button>
          {props.signupEnabled && (
            <button
              type="button"
              disabled={busy}
              onClick={(event) => {
                // The same checks as a submit (required fields, email syntax) before creating.
                const form = event.currentTarget.form;
                if (form && !form.reportValidity()) return;
                void submit('signup');
              }}
            >
              Create account
            </button>
          )}
        </div>
        {props.signupEnabled && (
          <p class="hint">New here? Enter an email and a password of at least 10 characters, then Create account.</p>
        )}
        <Notice notice={notice} />
      </form>
    </main>
  );
}
