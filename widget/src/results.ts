/**
 * The results chunk (docs/embedding.md, "Sending the result"): loaded by the script only
 * for a calculator whose owner asks visitors for their result, so pages without results do
 * not carry it. The offer to send the result, under it: the
 * owner's button, the contact fields and the consent checkbox the owner's config asks for,
 * and a honeypot field people never see. The owner's texts are set as text, never as
 * HTML. A live region says what happened: sending, sent, failed (the button sends again),
 * or which fields are missing (the first one gets the focus). After "sent" the button waits
 * for the visitor's next change, so one result is not sent twice by a second click.
 */
import { textIn } from '../../src/definition/text.ts';
import type { Text } from '../../src/definition/types.ts';
import { h } from './dom.ts';
import type { Look } from './render.ts';
import { isRecord } from './transport.ts';

/** The form's own texts, in English: keys of the language packs, like the script's (texts.ts). */
export const TEXTS = {
  send: 'Send my result',
  email: 'Email',
  name: 'Name',
  optional: '{label} (optional)',
  sending: 'Sending…',
  sent: 'Sent. Thank you!',
  failed: 'Sending failed. Please try again.',
  missing: 'Please fill in the required fields.',
} as const;

/** The form's styles, adopted beside the widget's (its palette variables come from there). */
export const css = `.send{margin-top:16px}
button{font:inherit;font-weight:600;color:var(--_bg);background:var(--_a);border:0;border-radius:calc(var(--calc-radius,8px)/2);padding:8px 16px;margin:0;cursor:pointer;justify-self:start}
button[aria-disabled=true]{opacity:.6;cursor:default}
.hp{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
[data-state=sent]{color:var(--_g)}
[data-state=failed],[data-state=missing]{color:var(--_e)}`;

/** What the form adds to the submission: the visitor's contact, their consent, the honeypot. */
export interface Sent {
  contact: { email?: string; name?: string };
  consent: boolean;
  hp: string;
}

const isText = (value: unknown): value is Text => typeof value === 'string' || isRecord(value);

/**
 * The form for the load answer's `results` (`{button?, contact: {email, name}, consentText?}`).
 * `complete` says whether the calculator has a result to send; `send` answers whether the
 * server stored it.
 */
export function resultsForm(
  doc: Document,
  host: HTMLElement,
  look: Look,
  config: Record<string, unknown>,
  complete: () => boolean,
  send: (sent: Sent) => Promise<boolean>,
  signal: AbortSignal,
): HTMLElement {
  const { t } = look;
  const own = (text: unknown, fallback: string) => (isText(text) ? textIn(text, look.language) : t(fallback));
  const contact = isRecord(config.contact) ? config.contact : {};
  const button = h(doc, 'button', { type: 'submit', part: 'send-button' }, own(config.button, TEXTS.send));
  const status = h(doc, 'p', { class: 'note', role: 'status', part: 'send-status' });
  const form = h(doc, 'form', {
    class: 'send',
    novalidate: true,
    part: 'send',
    'aria-label': button.textContent ?? '',
  });
  const controls: HTMLInputElement[] = [];
  const add = (id: string, attributes: Record<string, string | boolean>) => {
    const control = h(doc, 'input', { id, part: 'input', ...attributes });
    controls.push(control);
    return control;
  };

  for (const [key, type, autocomplete] of [
    ['email', 'email', 'email'],
    ['name', 'text', 'name'],
  ] as const) {
    const mode = contact[key];
    if (mode !== 'required' && mode !== 'optional') continue;
    const label = t(TEXTS[key]);
    const control = add(`s-${key}`, { type, autocomplete, required: mode === 'required', 'data-send': key });
    form.append(
      h(
        doc,
        'div',
        { class: 'field', part: 'field' },
        h(doc, 'label', { for: control.id, part: 'label' }, mode === 'required' ? label : t(TEXTS.optional, { label })),
        control,
      ),
    );
  }
  const consent = isText(config.consentText)
    ? add('s-consent', { type: 'checkbox', required: true, part: 'consent' })
    : undefined;
  if (consent)
    form.append(
      h(doc, 'div', { class: 'check' }, consent, h(doc, 'label', { for: consent.id }, own(config.consentText, ''))),
    );
  // Off-screen, out of the tab order and of the accessibility tree: only a bot fills it in.
  const hp = h(doc, 'input', { id: 's-hp', type: 'text', tabindex: '-1', autocomplete: 'off' });
  form.append(
    h(doc, 'div', { class: 'hp', 'aria-hidden': 'true' }, h(doc, 'label', { for: hp.id }, 'Website'), hp),
    button,
    status,
  );

  /** `sending` and `sent` hold the button; its focus stays where it is (a disabled button would drop it). */
  const show = (state: keyof typeof TEXTS | '', held: boolean) => {
    status.textContent = state && t(TEXTS[state]);
    status.dataset.state = state;
    button.setAttribute('aria-disabled', String(held));
  };
  const held = () => button.getAttribute('aria-disabled') === 'true';
  show('', false);

  form.addEventListener(
    'submit',
    async (event) => {
      event.preventDefault();
      if (held()) return;
      const missing = controls.filter((control) => {
        const bad = !control.checkValidity();
        if (bad) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
        return bad;
      });
      if (missing.length > 0 || !complete()) {
        show('missing', false);
        missing[0]?.focus();
        return;
      }
      const sent: Sent = { contact: {}, consent: consent?.checked === true, hp: hp.value };
      for (const control of controls) {
        const key = control.dataset.send as keyof Sent['contact'] | undefined;
        const value = control.value.trim();
        if (key && value) sent.contact[key] = value;
      }
      show('sending', true);
      const stored = await send(sent);
      if (!signal.aborted) show(stored ? 'sent' : 'failed', stored);
    },
    { signal },
  );
  // A new result may be sent once the visitor changed the calculator.
  host.addEventListener('calc:change', () => status.dataset.state === 'sent' && show('', false), { signal });
  return form;
}
