/**
 * What the owner's webhook pre-fills into the draft being edited, as a visitor's widget
 * would get it, asked of `POST /v1/widget/preview` with `draft: true` (not counted as a
 * load; the server pulls through the draft's input keys, published or not). The preview
 * itself renders the draft in the editor, unsaved edits included (widget-preview.tsx);
 * only these values come from the server, and this is the one place that asks for them.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PreviewBody } from '../../../src/api-bodies.ts';
import type { InputValues } from '../../../src/definition/types.ts';
import { api, messageOf } from '../api.ts';

export interface DraftPrefill {
  values: InputValues;
  /** Why there is no pre-fill (the server's message), or null. */
  note: string | null;
}

/** The pre-fill of `calcId`'s draft; asked again whenever `round` changes. */
export function useDraftPrefill(calcId: string, round: number): DraftPrefill {
  const [prefill, setPrefill] = useState<DraftPrefill>({ values: {}, note: null });
  useEffect(() => {
    let live = true;
    api<PreviewBody>('POST', '/v1/widget/preview', { calcId, draft: true }).then(
      (answer) => live && setPrefill({ values: answer.values, note: null }),
      (failure) => live && setPrefill({ values: {}, note: messageOf(failure) }),
    );
    return () => {
      live = false;
    };
  }, [calcId, round]);
  return prefill;
}
