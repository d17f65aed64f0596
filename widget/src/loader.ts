/**
 * The `CalcWidget` API: mount, destroy and scan. Each element is mounted at most once,
 * however often scan() runs or the script is included. A MutationObserver mounts
 * `[data-calc-widget]` elements added later, releases those removed, and remounts one
 * whose options (data attributes) change, so single-page apps need no calls at all.
 */
import { createInstance, type Instance } from './instance.ts';
import type { MountOptions } from './options.ts';

export interface CalcWidgetApi {
  /** Mounts a widget on `element` (no-op when it already has one). */
  mount(element: Element, options?: MountOptions): void;
  /** Removes the widget, its listeners and its pending request. */
  destroy(element: Element): void;
  /** Mounts every `[data-calc-widget]` element under `root` that has no widget yet. */
  scan(root?: ParentNode): void;
}

const SELECTOR = '[data-calc-widget]';
// The attributes a widget reads when it mounts: a change remounts it.
const OPTION_ATTRIBUTES = [
  'data-calc-widget',
  'data-calc-id',
  'data-api-key',
  'data-units',
  'data-theme',
  'data-locale',
  'data-currency',
  'data-values',
  'data-context',
  'data-analytics',
];

interface Mounted {
  instance: Instance;
  options: MountOptions | undefined;
}

/** `analytics`: false when the page turned the funnel off for every element (the script tag's `data-analytics`). */
export function createLoader(apiOrigin: string, doc: Document, analytics = true): CalcWidgetApi {
  // Weak: an element dropped where the observer cannot see (another shadow tree) can still be collected.
  const mounted = new WeakMap<Element, Mounted>();
  // The mounted elements the observer checks after a removal; only ever the live ones.
  const live = new Set<Element>();

  const mount = (element: Element, options?: MountOptions) => {
    if (!(element instanceof HTMLElement) || mounted.has(element)) return;
    try {
      mounted.set(element, { instance: createInstance(element, options, apiOrigin, analytics), options });
      live.add(element);
    } catch (error) {
      // E.g. the element already carries someone else's closed shadow root.
      console.warn(
        `[calc] calculator unavailable: mount_failed (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  };

  const destroy = (element: Element) => {
    mounted.get(element)?.instance.destroy();
    mounted.delete(element);
    live.delete(element);
  };

  const scan = (root: ParentNode = doc) => {
    if (root instanceof Element && root.matches(SELECTOR)) mount(root);
    for (const element of root.querySelectorAll(SELECTOR)) mount(element);
  };

  new MutationObserver((records) => {
    let removed = false;
    // Several attributes set at once remount an element once.
    const changed = new Set<Element>();
    for (const record of records) {
      if (record.type === 'attributes') {
        if (record.target instanceof Element) changed.add(record.target);
        continue;
      }
      if (record.removedNodes.length > 0) removed = true;
      for (const node of record.addedNodes) if (node instanceof Element && node.isConnected) scan(node);
    }
    for (const target of changed) {
      if (!target.isConnected) continue;
      const current = mounted.get(target);
      if (current) destroy(target);
      // Mounted by mount(): stays mounted with its options; by the attribute: while it has it.
      if (current?.options || target.matches(SELECTOR)) mount(target, current?.options);
    }
    // A node moved within the page is connected again by now and keeps its widget.
    if (removed) for (const element of live) if (!element.isConnected) destroy(element);
  }).observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: OPTION_ATTRIBUTES });

  return { mount, destroy, scan };
}
