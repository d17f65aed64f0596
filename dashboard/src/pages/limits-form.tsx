import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../api.ts';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { useApi } from '../use-api.ts';
import type { LimitsBody } from '../../../src/api-bodies.ts';

type Limits = LimitsBody['limits'];
type Cap = 'loadsPerDay' | 'loadsPerDayPerDomain' | 'pullsPerSecond';

const CAPS: { key: Cap; label: string; hint: string }[] = [
  {
    key: 'loadsPerDay',
    label: 'Loads a day',
    hint: 'In all, per UTC day. Past it, widgets show "Calculator unavailable" until 00:00 UTC.',
  },
  {
    key: 'loadsPerDayPerDomain',
    label: 'Loads a day per domain',
    hint: 'From each page origin, per UTC day. Under a wildcard every subdomain counts on its own.',
  },
  {
    key: 'pullsPerSecond',
    label: 'Webhook pulls a second',
    hint: 'Per server. Pulls over it are skipped: the widget shows its defaults.',
  },
];

type Draft = Record<Cap, string> & { registerDomain: boolean };

const draftOf = (limits: Limits): Draft => ({
  loadsPerDay: limits.loadsPerDay?.toString() ?? '',
  loadsPerDayPerDomain: limits.loadsPerDayPerDomain?.toString() ?? '',
  pullsPerSecond: limits.pullsPerSecond?.toString() ?? '',
  registerDomain: limits.registerDomain,
});

/** An empty field is no cap; anything else goes to the server, which judges it (a non-number as typed). */
function capOf(text: string): number | string | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isNaN(n) ? text : n;
}

/**
 * The owner's caps on what the public key can spend, beside the usage they limit and the
 * refusals they cause (docs/dashboard.md).
 */
export function LimitsForm() {
  const limits = useApi<LimitsBody>('/v1/account/limits');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (limits.data) setDraft(draftOf(limits.data.limits));
  }, [limits.data]);
  return (
    <section aria-labelledby="limits-heading" class="card limits">
      <h2 id="limits-heading">Limits</h2>
      <p class="hint">
        Your API key is in every page that embeds a calculator, so anyone can use it. These caps bound what it spends.
        Leave a field empty for no cap.
      </p>
      {limits.error && <p role="alert">{limits.error}</p>}
      {draft && (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            try {
              const saved = await api<LimitsBody>('PUT', '/v1/account/limits', {
                loadsPerDay: capOf(draft.loadsPerDay),
                loadsPerDayPerDomain: capOf(draft.loadsPerDayPerDomain),
                pullsPerSecond: capOf(draft.pullsPerSecond),
                registerDomain: draft.registerDomain,
              });
              limits.set(saved);
              setNotice({ kind: 'ok', text: 'Limits saved; they apply from the next widget load.' });
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
            }
            setBusy(false);
          }}
        >
          {CAPS.map(({ key, label, hint }) => (
            <div key={key}>
              <label for={`limit-${key}`}>{label}</label>
              <input
                id={`limit-${key}`}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                placeholder="No cap"
                aria-describedby={`limit-${key}-hint`}
                value={draft[key]}
                onInput={(event) => setDraft({ ...draft, [key]: event.currentTarget.value })}
              />
              <p id={`limit-${key}-hint`} class="hint">
                {hint}
              </p>
            </div>
          ))}
          <label class="check" for="limit-registerDomain">
            <input
              id="limit-registerDomain"
              type="checkbox"
              checked={draft.registerDomain}
              onChange={(event) => setDraft({ ...draft, registerDomain: event.currentTarget.checked })}
            />
            Pages may ask to be added to my domains
          </label>
          <p class="hint">Off, a page can no longer add a pending request; requests expire after 7 days.</p>
          <button type="submit" class="primary" disabled={busy}>
            Save limits
          </button>
        </form>
      )}
      <Notice notice={notice} />
    </section>
  );
}
