/**
 * The calculator builder (`/dashboard/calculators/<id>/edit`): an owner's calculator as
 * forms, checked as it is typed by the validator the server runs at save
 * (src/definition/validate.ts, the same messages), previewed in the real widget, saved as
 * the draft, published, restored from a version, imported and exported as JSON.
 * A chunk of its own, loaded when the page opens (docs/dashboard.md).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { refusalMessage } from '../../../src/definition/problems.ts';
import { textIn } from '../../../src/definition/text.ts';
import type { Definition, Problem, Text, UnitSystem } from '../../../src/definition/types.ts';
import { validateDefinition } from '../../../src/definition/validate.ts';
import type { AccountCalculatorBody } from '../../../src/api-bodies.ts';
import { api, messageOf, refusalOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { Link } from '../components/link.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { BASE, setLeaveGuard } from '../router.ts';
import { useDraftPrefill } from './draft-prefill.ts';
import { asObject, idOf, isObject, type Json, type Loc, pathsUp, placeName, setIn } from './draft.ts';
import { type Editor, EditorContext } from './editor-context.ts';
import { languageName } from './fields.tsx';
import { CalculatorSection, InputsSection, OutputsSection, TablesSection, VariablesSection } from './sections.tsx';
import { downloadDraft, ImportForm, readDefinition } from './transfer.tsx';
import { Versions } from './versions.tsx';
import { type PreviewLook, WidgetPreview } from './widget-preview.tsx';
import { LOCALES } from '../../../src/definition/locales.ts';
import { adoptBuilderStyles } from './styles.ts';

// The Calculators page (the list, new calculators) comes with the builder: one chunk, loaded on demand.
export { Calculators } from '../pages/calculators.tsx';

adoptBuilderStyles();

const LEAVE_QUESTION = 'This calculator has changes that are not saved. Leave without saving them?';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Moves to the control of a problem (the nearest group when it has none), at the character of a formula's problem. */
function jumpTo(problem: Problem): void {
  const element = pathsUp(problem.path)
    .map((path) => document.getElementById(idOf(path)))
    .find((found) => found !== null);
  if (!element) return;
  for (let details = element.closest('details'); details; details = details.parentElement?.closest('details') ?? null)
    details.open = true;
  element.focus();
  element.scrollIntoView({ block: 'center' });
  if (element instanceof HTMLInputElement && problem.position !== undefined)
    element.setSelectionRange(problem.position, problem.position + 1);
}

function ProblemsPanel(props: { problems: Problem[] }) {
  const { problems } = props;
  return (
    <section class="card problems" aria-labelledby="problems-heading">
      <h2 id="problems-heading" tabIndex={-1}>
        Problems
      </h2>
      <p role="status" class={problems.length > 0 ? 'notice error' : 'hint'}>
        {problems.length === 0
          ? 'None: the draft can be saved and published.'
          : `${plural(problems.length, 'problem')} to fix before saving.`}
      </p>
      {problems.length > 0 && (
        <ul class="problem-list">
          {problems.map((problem) => (
            <li key={`${problem.path} ${problem.message}`}>
              <a
                href={`#${idOf(problem.path)}`}
                onClick={(event) => {
                  event.preventDefault();
                  jumpTo(problem);
                }}
              >
                {placeName(problem.path)}
              </a>
              : {problem.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function statusText(calculator: AccountCalculatorBody): string {
  if (calculator.status === 'draft') return 'Not published yet: visitors cannot load it.';
  if (calculator.status === 'published') return `Published: visitors see version ${calculator.publishedVersion}.`;
  return `Visitors see version ${calculator.publishedVersion}; the saved draft has changed since.`;
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

export function Builder(props: { calcId: string }) {
  const { calcId } = props;
  const base = `/v1/account/calculators/${calcId}`;
  const [loaded, setLoaded] = useState<AccountCalculatorBody | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Json>(null);
  /** The draft as the server holds it, as JSON: unsaved changes differ from it. */
  const [saved, setSaved] = useState('');
  /** Bumped when the whole draft is replaced (import, restore), so every field starts afresh. */
  const [generation, setGeneration] = useState(0);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [versionsRound, setVersionsRound] = useState(0);
  const [previewRound, setPreviewRound] = useState(0);
  const prefill = useDraftPrefill(calcId, previewRound);
  const [look, setLook] = useState<PreviewLook>({ language: 'en', theme: 'light', currency: '' });

  useEffect(() => {
    api<AccountCalculatorBody>('GET', base).then(
      (answer) => {
        setLoaded(answer);
        setDraft(answer.draft);
        setSaved(JSON.stringify(answer.draft));
      },
      (failure) => setLoadError(messageOf(failure)),
    );
  }, [base]);

  const problems = useMemo(() => (draft === null ? [] : validateDefinition(draft)), [draft]);
  const dirty = draft !== null && JSON.stringify(draft) !== saved;

  // The preview follows every edit that leaves no problem; meanwhile it keeps the last such draft.
  const lastGood = useRef<Definition | null>(null);
  if (draft !== null && problems.length === 0) lastGood.current = draft as Definition;

  useEffect(() => {
    setLeaveGuard(dirty ? () => confirm(LEAVE_QUESTION) : null);
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = LEAVE_QUESTION;
    };
    if (dirty) addEventListener('beforeunload', warn);
    return () => {
      setLeaveGuard(null);
      removeEventListener('beforeunload', warn);
    };
  }, [dirty]);

  // Where each problem shows: at the nearest place on the page that a control or group registered.
  const registered = useRef<ReadonlySet<string>>(new Set());
  const registering = new Set<string>();
  const [, redraw] = useState(0);
  const placed = new Map<string, Problem[]>();
  for (const problem of problems) {
    const place = pathsUp(problem.path).find((path) => registered.current.has(path));
    if (place !== undefined) placed.set(place, [...(placed.get(place) ?? []), problem]);
  }
  const pendingFocus = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!sameSet(registering, registered.current)) {
      registered.current = registering;
      redraw((n) => n + 1);
    }
    const id = pendingFocus.current;
    pendingFocus.current = null;
    if (id) document.getElementById(id)?.focus();
  });

  const systems = asObject(draft).unitSystems;
  const editor: Editor = {
    draft,
    set: (loc: Loc, value: Json) => {
      setDraft((current: Json) => setIn(current, loc.keys, value));
      // A refusal answered an earlier state of the draft.
      if (notice?.kind === 'error') setNotice(null);
    },
    systems: Array.isArray(systems) && systems.length > 0 ? (systems as UnitSystem[]) : ['metric'],
    problemsAt: (path) => placed.get(path) ?? [],
    register: (path) => registering.add(path),
    focusLater: (id) => {
      pendingFocus.current = id;
    },
  };

  async function run(action: () => Promise<string | null>) {
    setBusy(true);
    try {
      const done = await action();
      if (done) setNotice({ kind: 'ok', text: done });
    } catch (failure) {
      const { code, details } = refusalOf(failure);
      const listed = code === 'invalid_definition' && Array.isArray(details) ? (details as Problem[]) : [];
      setNotice({ kind: 'error', text: listed.length > 0 ? refusalMessage(listed) : messageOf(failure) });
    }
    setBusy(false);
  }

  /** Saves the draft; false when it has problems (then focus goes to their list). */
  async function saveDraft(): Promise<boolean> {
    if (problems.length > 0) {
      setNotice({ kind: 'error', text: `Fix the ${plural(problems.length, 'problem')} listed under Problems first.` });
      document.getElementById('problems-heading')?.focus();
      return false;
    }
    const sent = draft;
    const answer = await api<AccountCalculatorBody>('PUT', base, { definition: sent });
    setLoaded(answer);
    setSaved(JSON.stringify(sent));
    setPreviewRound((n) => n + 1);
    return true;
  }

  const save = () =>
    run(async () => ((await saveDraft()) ? 'Draft saved. Visitors still see the published version.' : null));

  const publish = () =>
    run(async () => {
      if (dirty && !(await saveDraft())) return null;
      const answer = await api<AccountCalculatorBody>('POST', `${base}/publish`);
      setLoaded(answer);
      setVersionsRound((n) => n + 1);
      return `Published: visitors now see version ${answer.publishedVersion}.`;
    });

  const restore = (version: number) =>
    run(async () => {
      const answer = await api<AccountCalculatorBody>('POST', `${base}/versions/${version}/restore`);
      setRestoring(null);
      setLoaded(answer);
      setDraft(answer.draft);
      setSaved(JSON.stringify(answer.draft));
      setGeneration((n) => n + 1);
      setVersionsRound((n) => n + 1);
      setPreviewRound((n) => n + 1);
      return `Version ${version} is the draft now. Publish it to serve it.`;
    });

  function importText(text: string) {
    const read = readDefinition(text);
    if (!read.ok) {
      setNotice({ kind: 'error', text: read.message });
      return;
    }
    const imported = read.definition;
    const renamed = isObject(imported) && imported.id !== calcId;
    const next = isObject(imported) ? { ...imported, id: calcId } : imported;
    setDraft(next);
    setGeneration((n) => n + 1);
    const found = validateDefinition(next).length;
    setNotice({
      kind: 'ok',
      text: `Imported, not saved yet${renamed ? ` (under this calculator's id, ${calcId})` : ''}: ${
        found === 0 ? 'no problems.' : `${plural(found, 'problem')} to fix, listed under Problems.`
      }`,
    });
  }

  if (loadError) {
    return (
      <>
        <p class="crumbs">
          <Link href={`${BASE}/calculators`}>Calculators</Link>
        </p>
        <PageTitle>Calculator not found</PageTitle>
        <p role="alert">{loadError}</p>
      </>
    );
  }
  if (!loaded || draft === null) return <p aria-busy="true">Loading the calculator…</p>;

  const title = textIn(loaded.draft.title as Text, 'en');
  const translations = LOCALES.filter((language) => language !== 'en');
  const preview = lastGood.current;
  return (
    <EditorContext.Provider value={editor}>
      <p class="crumbs">
        <Link href={`${BASE}/calculators`}>Calculators</Link> ·{' '}
        <Link href={`${BASE}/calculators/${calcId}`}>Embed snippet and webhook</Link>
      </p>
      <PageTitle>{`Edit ${title}`}</PageTitle>
      <div class="toolbar">
        <p class="status-line">
          {statusText(loaded)}
          {dirty && <strong class="unsaved"> Unsaved changes.</strong>}
          {problems.length > 0 && (
            <button
              type="button"
              class="link problem-count"
              onClick={() => document.getElementById('problems-heading')?.focus()}
            >
              {plural(problems.length, 'problem')}
            </button>
          )}
        </p>
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={save}>
            Save draft
          </button>
          <button type="button" disabled={busy || (loaded.status === 'published' && !dirty)} onClick={publish}>
            Publish
          </button>
          <button type="button" onClick={() => downloadDraft(calcId, draft)}>
            Export JSON
          </button>
        </div>
        <Notice notice={notice} />
      </div>
      <div class="builder">
        <div class="builder-form" key={generation}>
          <CalculatorSection />
          <InputsSection />
          <VariablesSection />
          <OutputsSection />
          <TablesSection />
        </div>
        <div class="builder-side">
          <ProblemsPanel problems={problems} />
          <section class="card" aria-labelledby="preview-heading">
            <h2 id="preview-heading">Live preview</h2>
            <p class="hint">
              The real widget with your edits as you make them
              {problems.length > 0 ? ' (while there are problems, the last draft without any)' : ''}, pre-filled as your
              webhook would.
            </p>
            {prefill.note && <p class="hint">No pre-fill: {prefill.note}</p>}
            <div class="options">
              <label>
                Language
                <select
                  value={look.language}
                  onChange={(event) => setLook({ ...look, language: event.currentTarget.value })}
                >
                  <option value="en">English</option>
                  {translations.map((language) => (
                    <option key={language} value={language}>
                      {languageName(language)}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Theme
                <select
                  value={look.theme}
                  onChange={(event) => setLook({ ...look, theme: event.currentTarget.value as PreviewLook['theme'] })}
                >
                  <option value="light">Light</option>
                  <option value="dark">Dark</option>
                  <option value="auto">Auto (follows the system)</option>
                </select>
              </label>
              <label>
                Currency
                <input
                  type="text"
                  maxLength={3}
                  placeholder="EUR"
                  value={look.currency}
                  onInput={(event) => setLook({ ...look, currency: event.currentTarget.value.toUpperCase() })}
                />
              </label>
            </div>
            {preview && <WidgetPreview calcId={calcId} definition={preview} values={prefill.values} look={look} />}
            <div class="actions">
              <button type="button" onClick={() => setPreviewRound((n) => n + 1)}>
                Pull pre-fill again
              </button>
            </div>
          </section>
        </div>
      </div>
      <Versions
        calcId={calcId}
        round={versionsRound}
        busy={busy}
        onRestore={(version) => (dirty || loaded.status === 'changed' ? setRestoring(version) : restore(version))}
      />
      <ImportForm onText={importText} busy={busy} />
      {restoring !== null && (
        <Confirm
          title={`Restore version ${restoring}?`}
          confirmLabel="Restore"
          busy={busy}
          onClose={() => setRestoring(null)}
          onConfirm={() => void restore(restoring)}
        >
          <p>
            The draft has changes that are not published{dirty ? ', some of them not even saved' : ''}. Restoring
            version {restoring} replaces them.
          </p>
        </Confirm>
      )}
    </EditorContext.Provider>
  );
}
