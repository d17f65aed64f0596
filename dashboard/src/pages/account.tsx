import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, messageOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { Link } from '../components/link.tsx';
import { BASE, RESULTS_ENDPOINT_PATH } from '../router.ts';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { endSession, startSession } from '../session.ts';
import { formatDateTime } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { AccountOverviewBody, NewTokenBody, SigningSecretBody } from '../../../src/api-bodies.ts';

/** The option to replace the signing secret along with a change of credentials. */
function RotateSecretToo(props: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <>
      <label class="check" for={props.id}>
        <input
          id={props.id}
          type="checkbox"
          checked={props.checked}
          aria-describedby={`${props.id}-hint`}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
        Also replace the signing secret
      </label>
      <p id={`${props.id}-hint`} class="hint">
        The current signing secret stops working at once: do this when a session or the password may have leaked, then
        put the new secret in your backend.
      </p>
    </>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [rotate, setRotate] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="password-heading" class="card">
      <h2 id="password-heading">Change password</h2>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          try {
            const { token } = await api<NewTokenBody>('POST', '/v1/account/password', {
              currentPassword: current,
              newPassword: next,
              ...(rotate ? { rotateSigningSecret: true } : {}),
            });
            // Every other session ends; this one continues with the new token.
            startSession(token);
            setCurrent('');
            setNext('');
            setNotice({
              kind: 'ok',
              text: `Password changed. Every other session is signed out.${rotate ? ' The signing secret was replaced.' : ''}`,
            });
            setRotate(false);
          } catch (error) {
            setNotice({ kind: 'error', text: messageOf(error) });
          }
          setBusy(false);
        }}
      >
        <label for="current-password">Current password</label>
        <input
          id="current-password"
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onInput={(event) => setCurrent(event.currentTarget.value)}
        />
        <label for="new-password">New password</label>
        <input
          id="new-password"
          type="password"
          autocomplete="new-password"
          required
          minLength={10}
          aria-describedby="new-password-hint"
          value={next}
          onInput={(event) => setNext(event.currentTarget.value)}
        />
        <p id="new-password-hint" class="hint">
          At least 10 characters.
        </p>
        <RotateSecretToo id="password-rotate-secret" checked={rotate} onChange={setRotate} />
        <button type="submit" class="primary" disabled={busy}>
          Change password
        </button>
      </form>
      <Notice notice={notice} />
    </section>
  );
}

function Sessions() {
  const [rotate, setRotate] = useState(false);
  const [password, setPassword] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);
  return (
    <section aria-labelledby="sessions-heading" class="card">
      <h2 id="sessions-heading">Sessions</h2>
      <p class="hint">Ends every session of this account: this browser, other browsers and the CLI.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          try {
            await api('POST', '/v1/auth/logout', rotate ? { rotateSigningSecret: true, password } : undefined);
            endSession(
              rotate
                ? 'You are signed out everywhere, and the signing secret was replaced.'
                : 'You are signed out everywhere.',
            );
          } catch (error) {
            setNotice({ kind: 'error', text: messageOf(error) });
          }
        }}
      >
        <RotateSecretToo id="sessions-rotate-secret" checked={rotate} onChange={setRotate} />
        {rotate && (
          <>
            <label for="sessions-password">Password</label>
            <input
              id="sessions-password"
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(event) => setPassword(event.currentTarget.value)}
            />
          </>
        )}
        <button type="submit">Sign out everywhere</button>
      </form>
      <Notice notice={notice} />
    </section>
  );
}

/** A dialog that asks for the password before the signing secret is shown or replaced. */
function SecretDialog(props: {
  title: string;
  confirmLabel: string;
  onSubmit: (password: string, endNow: boolean) => Promise<void>;
  onClose: () => void;
  offerEndNow?: boolean;
  children?: ComponentChildren;
}) {
  const [password, setPassword] = useState('');
  const [endNow, setEndNow] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Confirm
      title={props.title}
      confirmLabel={props.confirmLabel}
      busy={busy}
      onClose={props.onClose}
      onConfirm={async () => {
        setBusy(true);
        await props.onSubmit(password, endNow);
        setBusy(false);
      }}
    >
      {props.children}
      <label for="secret-password">Password</label>
      <input
        id="secret-password"
        type="password"
        autocomplete="current-password"
        required
        value={password}
        onInput={(event) => setPassword(event.currentTarget.value)}
      />
      {props.offerEndNow && (
        <label class="check" for="secret-end-now">
          <input
            id="secret-end-now"
            type="checkbox"
            checked={endNow}
            onChange={(event) => setEndNow(event.currentTarget.checked)}
          />
          End the previous secret now (it may have leaked)
        </label>
      )}
    </Confirm>
  );
}

function SigningSecret() {
  const secret = useApi<SigningSecretBody>('/v1/account/signing-secret');
  const [shown, setShown] = useState(false);
  const [asking, setAsking] = useState<'reveal' | 'rotate' | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  // The whole secret reaches the page only right after a sign-in, or once the password is given.
  const whole = secret.data?.signingSecret ?? null;
  return (
    <section aria-labelledby="secret-heading" class="card wide">
      <h2 id="secret-heading">Signing secret and visitor context</h2>
      <p class="hint">
        Every webhook call carries a <code>Calc-Signature</code> made with this secret, so your endpoint can check that
        the call comes from this server. Your backend also signs visitor-context tokens with it. Keep it on your servers
        only: showing or replacing it asks for your password.
      </p>
      {secret.error && <p role="alert">{secret.error}</p>}
      {secret.data && (
        <>
          <p>
            <code class="key" id="signing-secret">
              {shown && whole ? whole : `whsec_••••••••••••••••${secret.data.last4}`}
            </code>
          </p>
          <p class="hint">
            Created {formatDateTime(secret.data.createdAt)}
            {secret.data.previousValidUntil
              ? `; the previous secret stays valid until ${formatDateTime(secret.data.previousValidUntil)}`
              : ''}
            .
          </p>
          <div class="actions">
            <button
              type="button"
              onClick={() => (shown ? setShown(false) : whole ? setShown(true) : setAsking('reveal'))}
              aria-pressed={shown}
            >
              {shown ? 'Hide secret' : 'Reveal secret'}
            </button>
            {whole && (
              <button
                type="button"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(whole);
                    setNotice({ kind: 'ok', text: 'Signing secret copied.' });
                  } catch {
                    setNotice({
                      kind: 'error',
                      text: 'Copying is blocked here: reveal the secret and copy it by hand.',
                    });
                  }
                }}
              >
                Copy secret
              </button>
            )}
            <button type="button" onClick={() => setAsking('rotate')}>
              Rotate secret
            </button>
          </div>
        </>
      )}
      <Notice notice={notice} />
      <h3>Visitor context: pre-fill per visitor</h3>
      <ol class="how-to">
        <li>
          On your server, mint a short-lived JWT (HS256) signed with this secret, with claims <code>sub</code> (your id
          for the visitor), <code>exp</code> (at most 24 hours ahead) and optionally <code>calc</code> and{' '}
          <code>origin</code>. Without a JWT library: <code>calc context mint --visitor SUB</code>.
        </li>
        <li>
          Put it on the widget element: <code>{'<div data-calc-widget … data-context="TOKEN"></div>'}</code>.
        </li>
        <li>
          Your webhook then receives <code>Calc-Visitor: SUB</code> and can answer with that visitor's values. Check{' '}
          <code>Calc-Signature</code> first (see the webhooks guide).
        </li>
      </ol>
      {asking === 'reveal' && (
        <SecretDialog
          title="Reveal the signing secret"
          confirmLabel="Reveal"
          onClose={() => setAsking(null)}
          onSubmit={async (password) => {
            try {
              secret.set(await api<SigningSecretBody>('POST', '/v1/account/signing-secret/reveal', { password }));
              setShown(true);
              setNotice(null);
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
            }
            setAsking(null);
          }}
        />
      )}
      {asking === 'rotate' && (
        <SecretDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate"
          offerEndNow
          onClose={() => setAsking(null)}
          onSubmit={async (password, endNow) => {
            try {
              secret.set(
                await api<SigningSecretBody>('POST', '/v1/account/signing-secret', {
                  password,
                  ...(endNow ? { now: true } : {}),
                }),
              );
              setNotice({
                kind: 'ok',
                text: endNow
                  ? 'New signing secret created; the previous one no longer works.'
                  : 'New signing secret created; the previous one stays valid for 24 hours.',
              });
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
            }
            setAsking(null);
          }}
        >
          <p>
            Update your endpoint and your backend within 24 hours: after that the previous secret stops working. If it
            may have leaked, end it now.
          </p>
        </SecretDialog>
      )}
    </section>
  );
}

function DeleteAccount(props: { email: string }) {
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="delete-heading" class="card">
      <h2 id="delete-heading">Delete account</h2>
      <p class="hint">
        Deletes {props.email} with its domains, webhooks and usage. Its API key stops working at once; this cannot be
        undone.
      </p>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete account
      </button>
      <Notice notice={notice} />
      {asking && (
        <Confirm
          title="Delete this account for good?"
          confirmLabel="Delete account"
          busy={busy}
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            setBusy(true);
            try {
              await api('DELETE', '/v1/account', { password });
              endSession('The account is deleted.');
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
              setAsking(false);
            }
            setBusy(false);
          }}
        >
          <label for="delete-password">Password</label>
          <input
            id="delete-password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
        </Confirm>
      )}
    </section>
  );
}

function ResultsEndpointLink() {
  return (
    <section aria-labelledby="endpoint-heading" class="card">
      <h2 id="endpoint-heading">Results endpoint</h2>
      <p class="hint">Where calc sends what visitors submit, signed, with retries and a delivery log.</p>
      <Link href={`${BASE}${RESULTS_ENDPOINT_PATH}`}>Set up the results endpoint</Link>
    </section>
  );
}

export function Account() {
  const overview = useApi<AccountOverviewBody>('/v1/account');
  return (
    <>
      <PageTitle>Account</PageTitle>
      {overview.error && <p role="alert">{overview.error}</p>}
      {overview.data && (
        <div class="grid">
          <ChangePassword />
          <Sessions />
          <SigningSecret />
          <ResultsEndpointLink />
          <DeleteAccount email={overview.data.account.email} />
        </div>
      )}
    </>
  );
}
