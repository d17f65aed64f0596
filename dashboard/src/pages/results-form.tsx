import { useEffect, useState } from 'preact/hooks';
import type { AccountOverviewBody, WidgetConfigBody } from '../../../src/api-bodies.ts';
import type { Text } from '../../../src/definition/types.ts';
import { hasResults } from '../../../src/plans.ts';
import { CONTACT_FIELDS, CONTACT_MODES } from '../../../src/results/config.ts';
import { api, messageOf } from '../api.ts';
import { Link } from '../components/link.tsx';
import { ResultsPlanWarning } from '../components/results-plan.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { BASE } from '../router.ts';

type ResultsConfig = NonNullable<WidgetConfigBody['config']['results']>;
type Contact = Record<(typeof CONTACT_FIELDS)[number], (typeof CONTACT_MODES)[number]>;

const MODE_LABELS: Record<(typeof CONTACT_MODES)[number], string> = {
  off: 'Not asked',
  optional: 'Optional',
  required: 'Required',
};
const FIELD_LABELS: Record<(typeof CONTACT_FIELDS)[number], string> = { email: 'Email address', name: 'Name' };

const english = (text: Text | undefined): string =>
  text === undefined ? '' : typeof text === 'string' ? text : text.en;

/** The English text typed, keeping the translations a saved text has (set with the CLI or the API). */
function withEnglish(saved: Text | undefined, typed: string): Text | undefined {
  if (typed.trim() === '') return undefined;
  return saved !== undefined && typeof saved !== 'string' ? { ...saved, en: typed } : typed;
}

/**
 * Whether visitors may send their result from this calculator: the button, the contact
 * fields, the consent text (docs/results.md). Base and Extra plans.
 */
export function ResultsForm(props: {
  calcId: string;
  account: Pick<AccountOverviewBody['account'], 'email' | 'plan'>;
  onChanged: () => void;
}) {
  const [saved, setSaved] = useState<ResultsConfig | null | undefined>(undefined);
  const [enabled, setEnabled] = useState(false);
  const [button, setButton] = useState('');
  const [contact, setContact] = useState<Contact>({ email: 'off', name: 'off' });
  const [consent, setConsent] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const allowed = hasResults(props.account.plan);

  const show = (config: ResultsConfig | undefined) => {
    setSaved(config ?? null);
    setEnabled(config?.enabled ?? false);
    setButton(english(config?.button));
    setContact({ email: config?.contact?.email ?? 'off', name: config?.contact?.name ?? 'off' });
    setConsent(english(config?.consentText));
  };
  useEffect(() => {
    api<WidgetConfigBody>('GET', `/v1/widget-config/${props.calcId}`).then(
      (body) => show(body.config.results),
      (error) => setNotice({ kind: 'error', text: messageOf(error) }),
    );
  }, [props.calcId]);

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    const results: ResultsConfig = { enabled, contact };
    const buttonText = withEnglish(saved?.button, button);
    const consentText = withEnglish(saved?.consentText, consent);
    if (buttonText !== undefined) results.button = buttonText;
    if (consentText !== undefined) results.consentText = consentText;
    try {
      const body = await api<WidgetConfigBody>('PUT', `/v1/widget-config/${props.calcId}`, { config: { results } });
      show(body.config.results);
      props.onChanged();
      setNotice({ kind: 'ok', text: enabled ? 'Saved: visitors can send their result.' : 'Saved: results are off.' });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    setBusy(false);
  }

  return (
    <section aria-labelledby="results-config-heading" class="card">
      <h2 id="results-config-heading">Results</h2>
      <p class="hint">
        Let visitors send their result to you: the widget shows a button under it, asks for the contact fields you
        choose, and the visitor ticks your consent text. They appear on the{' '}
        <Link href={`${BASE}/results`}>Results</Link> page.
      </p>
      <ResultsPlanWarning account={props.account} />
      {saved !== undefined && (
        <form onSubmit={save}>
          <label class="check">
            <input
              type="checkbox"
              checked={enabled}
              disabled={!allowed && !enabled}
              onChange={(event) => setEnabled(event.currentTarget.checked)}
            />
            Visitors can send their result
          </label>
          <label for="results-button">Button text (optional)</label>
          <input
            id="results-button"
            maxLength={200}
            placeholder="Send my result (in the visitor's language)"
            value={button}
            onInput={(event) => setButton(event.currentTarget.value)}
          />
          {CONTACT_FIELDS.map((field) => (
            <div key={field}>
              <label for={`results-${field}`}>{FIELD_LABELS[field]}</label>
              <select
                id={`results-${field}`}
                value={contact[field]}
                onChange={(event) =>
                  setContact((now) => ({ ...now, [field]: event.currentTarget.value as Contact[typeof field] }))
                }
              >
                {CONTACT_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {MODE_LABELS[mode]}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <label for="results-consent">Consent text</label>
          <textarea
            id="results-consent"
            maxLength={200}
            rows={3}
            aria-describedby="results-consent-hint"
            value={consent}
            onInput={(event) => setConsent(event.currentTarget.value)}
          />
          <p id="results-consent-hint" class="hint">
            Required when you ask for an email address or a name: the visitor must tick it to send. Translations set
            with the CLI are kept.
          </p>
          <div class="actions">
            <button type="submit" class="primary" disabled={busy || (!allowed && !saved?.enabled)}>
              Apply results settings
            </button>
          </div>
        </form>
      )}
      <Notice notice={notice} />
    </section>
  );
}
