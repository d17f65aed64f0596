/** The draft as a JSON file: downloaded as it is, or read from a file or pasted text. */
import { useState } from 'preact/hooks';
import { exportText, isObject, type Json } from './draft.ts';

/** Starts the download of the draft as `<id>.json`. */
export function downloadDraft(calcId: string, draft: Json): void {
  const url = URL.createObjectURL(new Blob([exportText(draft)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${calcId}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy by now.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export type ImportResult = { ok: true; definition: Json } | { ok: false; message: string };

/**
 * The definition in a JSON text: a definition, or a `{definition}` body as the API takes
 * it. What it holds is checked by the builder's validator once it is the draft.
 */
export function readDefinition(text: string): ImportResult {
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `That is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (isObject(parsed) && isObject(parsed.definition) && parsed.inputs === undefined)
    return { ok: true, definition: parsed.definition };
  if (!isObject(parsed)) return { ok: false, message: 'That JSON is not a definition: it must be an object.' };
  return { ok: true, definition: parsed };
}

export function ImportForm(props: { onText: (text: string) => void; busy: boolean }) {
  const [pasted, setPasted] = useState('');
  return (
    <section class="card" aria-labelledby="import-heading">
      <h2 id="import-heading">Import JSON</h2>
      <p class="hint">
        Replaces what the editor shows (nothing is saved until you save): a definition as docs/calculators.md describes
        it, or a file exported here. Its problems are listed as for any edit.
      </p>
      <label for="import-file">JSON file</label>
      <input
        id="import-file"
        type="file"
        accept="application/json,.json"
        disabled={props.busy}
        onChange={async (event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          props.onText(await file.text());
          input.value = '';
        }}
      />
      <label for="import-text">Or paste the JSON</label>
      <textarea
        id="import-text"
        class="code"
        rows={6}
        spellcheck={false}
        value={pasted}
        onInput={(event) => setPasted(event.currentTarget.value)}
      />
      <div class="actions">
        <button type="button" disabled={props.busy || pasted.trim() === ''} onClick={() => props.onText(pasted)}>
          Import pasted JSON
        </button>
      </div>
    </section>
  );
}
