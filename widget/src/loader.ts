/**
 * The `CalcWidget` API: mount, destroy and scan. Each element is mounted at most once,
 * however often scan() runs or the script is included.
 */
import { createInstance, type Instance } from './instance';
import type { MountOptions } from './options';

export interface CalcWidgetApi {
  /** Mounts a widget on `element` (no-op when it already has one). */
  mount(element: Element, options?: MountOptions): void;
  /** Removes the widget, its listeners and its pending request. */
  destroy(element: Element): void;
  /** Mounts every `[data-calc-widget]` element under `root` that has no widget yet. */
  scan(root?: ParentNode): void;
}

export function createLoader(apiOrigin: string): CalcWidgetApi {
  // Weak: an element a single-page app drops without destroy() can still be collected.
  const instances = new WeakMap<Element, Instance>();

  const mount = (element: Element, options?: MountOptions) => {
    if (!(element instanceof HTMLElement) || instances.has(element)) return;
    try {
      instances.set(element, createInstance(element, options, apiOrigin));
    } catch (error) {
      // E.g. the element already carries someone else's closed shadow root.
      console.warn(
        `[calc] calculator unavailable: mount_failed (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  };

  return {
    mount,
    destroy(element) {
      instances.get(element)?.destroy();
      instances.delete(element);
    },
    scan(root = document) {
      for (const element of root.querySelectorAll('[data-calc-widget]')) mount(element);
    },
  };
}
