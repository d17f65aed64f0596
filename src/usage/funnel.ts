/**
 * The steps of a calculator's funnel (docs/api.md, "Funnel"), in order: `view` (at least
 * half of the element visible for one second), `start` (the visitor changed an input),
 * `complete` (a finite primary result after a change by the visitor), `submit` (the
 * server accepted a submitted result). Browser-safe: the widget sends the first three.
 */
export const FUNNEL_EVENTS = ['view', 'start', 'complete', 'submit'] as const;

export type FunnelEvent = (typeof FUNNEL_EVENTS)[number];

/** What a page may report: `submit` is counted by the server itself, never sent. */
export const WIDGET_EVENTS = ['view', 'start', 'complete'] as const satisfies readonly FunnelEvent[];

export type WidgetEvent = (typeof WIDGET_EVENTS)[number];

/** The count fields of funnel rows and totals, by step. */
export const FUNNEL_COUNTS = {
  view: 'views',
  start: 'starts',
  complete: 'completes',
  submit: 'submits',
} as const satisfies Record<FunnelEvent, string>;

export type FunnelCounts = Record<(typeof FUNNEL_COUNTS)[FunnelEvent], number>;

/** A funnel with nothing counted. */
export const noFunnel = (): FunnelCounts => ({ views: 0, starts: 0, completes: 0, submits: 0 });

/** The share of one count in another, null when the other is 0 (no rate to speak of). */
const rate = (part: number, of: number): number | null => (of === 0 ? null : part / of);

/**
 * The rates between steps (docs/api.md, "Funnel"): each step's count over the step before
 * it, null when that count is 0 (no rate to speak of).
 */
export function funnelRates(counts: FunnelCounts) {
  return {
    viewToStart: rate(counts.starts, counts.views),
    startToComplete: rate(counts.completes, counts.starts),
    completeToSubmit: rate(counts.submits, counts.completes),
  };
}
