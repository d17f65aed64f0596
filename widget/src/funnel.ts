/**
 * The funnel a widget reports (docs/embedding.md, "Funnel analytics"): `view` (at least
 * half of the element visible for 1 s), `start` (the visitor changed an input) and
 * `complete` (then a finite main result), each at most once per page view, by
 * `sendBeacon` to POST /v1/widget/events. At most two requests: one when the view is
 * reached (or the last step, when the visitor got there first), one when the last step is
 * reached or the page is hidden (also when it is left) or the element removed. Nothing is
 * stored, no visitor is named, and nothing is sent before the load has answered: a page
 * the widget is not served on reports nothing.
 */
import type { WidgetEvent } from '../../src/usage/funnel.ts';

export interface Funnel {
  /** A field changed (`byVisitor`: the visitor did it); `finite`: the main result now is a number. */
  changed(byVisitor: boolean, finite: boolean): void;
  /** The load answered: once the first result is on screen, send what is due and watch for the view. */
  loaded(): void;
}

export function createFunnel(
  host: HTMLElement,
  url: string,
  call: { apiKey: string; domain: string; calcId: string },
  signal: AbortSignal,
): Funnel {
  /** The steps reached, in order; those from `sent` on are not sent yet. */
  const reached: WidgetEvent[] = [];
  let sent = 0;
  let requests = 0;
  let live = false;

  const send = () => {
    if (!live || !reached[sent] || requests++ > 1) return;
    const body = JSON.stringify({ ...call, events: reached.slice(sent) });
    sent = reached.length;
    // A text/plain body: a CORS simple request, no preflight; the answer is not read.
    navigator.sendBeacon?.(url, body) || fetch(url, { method: 'POST', body, keepalive: true }).catch(() => {});
  };
  const reach = (step: WidgetEvent) => reached.includes(step) || reached.push(step);
  /** All three steps: nothing is left to wait for. */
  const sendWhenDone = () => reached[2] && send();

  return {
    changed(byVisitor, finite) {
      if (!byVisitor) return;
      // Someone who changed a value saw the calculator, however briefly.
      reach('view');
      reach('start');
      if (finite) reach('complete');
      sendWhenDone();
    },
    loaded() {
      // A task of its own, after the first result is on screen: nothing here may delay it.
      setTimeout(() => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const seen = new IntersectionObserver(
          ([entry]) => {
            clearTimeout(timer);
            // Seen once is enough: the observer stops, and the view goes with whatever is unsent.
            if (entry && entry.intersectionRatio >= 0.5)
              timer = setTimeout(() => {
                seen.disconnect();
                reach('view');
                send();
              }, 1000);
          },
          { threshold: 0.5 },
        );
        seen.observe(host);
        live = true;
        // Hidden is the last moment a page surely has (leaving it hides it first).
        document.addEventListener('visibilitychange', () => document.hidden && send(), { signal });
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          seen.disconnect();
          send();
        });
        sendWhenDone();
      });
    },
  };
}
