/**
 * The builder's form controls. Each is bound to one place of the draft and shows the
 * validator's problems for that place beneath it, linked to the control with
 * aria-describedby and marked with aria-invalid, so a screen reader reads the problem
 * with the field. A formula's problem also marks the character it is at.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LOCALES } from '../../../src/definition/locales.ts';
import type { Problem } from '../../../src/definition/types.ts';
import { asObject, child, idOf, isObject, type Json, type Loc, parseNumber } from './draft.ts';
import { type Bound, useBound, useEditor } from './editor-context.ts';

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });
export const languageName = (code: string): string => LANGUAGE_NAMES.of(code) ?? code;
const TRANSLATIONS = LOCALES.filter((language) => language !== 'en');

/** The problems placed at these paths, registered as on the page. */
function useProblems(paths: string[]): Problem[] {
  const editor = useEditor();
  for (const path of paths) editor.register(path);
  return paths.flatMap((path) => editor.problemsAt(path));
}

/** A formula with the character a problem is at marked, as a picture beside the message. */
function Caret(props: { text: string; position: number }) {
  const { text, position } = props;
  return (
    <code class="caret" aria-hidden="true">
      {text.slice(0, position)}
      <mark>{text.charAt(position) || ' '}</mark>
      {text.slice(position + 1)}
    </code>
  );
}

function ProblemList(props: { id: string; problems: Problem[]; formula?: string }) {
  if (props.problems.length === 0) return null;
  return (
    <ul id={props.id} class="field-problems">
      {props.problems.map((problem) => (
        <li key={`${problem.path} ${problem.message}`}>
          {problem.message}
          {props.formula !== undefined && problem.position !== undefined && (
            <Caret text={props.formula} position={problem.position} />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The problems of a group (an item, a list) that no control inside it shows. */
export function GroupProblems(props: { path: string }) {
  const problems = useProblems([props.path]);
  return <ProblemList id={`${idOf(props.path)}-problems`} problems={problems} />;
}

interface Described {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The attributes linking a control to its hint and problems. */
function described(path: string, problems: Problem[], hint: boolean): Described {
  const id = idOf(path);
  const ids = [hint ? `${id}-hint` : '', problems.length > 0 ? `${id}-problems` : ''].filter(Boolean);
  return {
    id,
    'aria-invalid': problems.length > 0 ? true : undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  };
}

function Hint(props: { path: string; children?: ComponentChildren }) {
  if (props.children === undefined) return null;
  return (
    <p id={`${idOf(props.path)}-hint`} class="hint">
      {props.children}
    </p>
  );
}

const text = (value: Json): string => (typeof value === 'string' ? value : value === undefined ? '' : String(value));

/** A line of text: a key, a value, a formula (`code`). Emptied, an optional field is left out. */
export function TextInput(props: {
  bound: Bound;
  label: string;
  hint?: ComponentChildren;
  optional?: boolean;
  code?: boolean;
  formula?: boolean;
}) {
  const { bound } = props;
  const problems = useProblems([bound.path]);
  const value = text(bound.value);
  return (
    <div class={props.formula ? 'control formula' : 'control'}>
      <label for={idOf(bound.path)}>{props.label}</label>
      <input
        {...described(bound.path, problems, props.hint !== undefined)}
        type="text"
        class={props.code ? 'code' : undefined}
        autocomplete="off"
        spellcheck={false}
        value={value}
        onInput={(event) => {
          const typed = event.currentTarget.value;
          bound.set(typed === '' && props.optional ? undefined : typed);
        }}
      />
      <Hint path={bound.path}>{props.hint}</Hint>
      <ProblemList
        id={`${idOf(bound.path)}-problems`}
        problems={problems}
        formula={props.formula ? value : undefined}
      />
    </div>
  );
}

const shownNumber = (value: Json): string => (value === undefined ? '' : String(value));

/**
 * A number as the owner types it: the text stays as typed, and the draft holds the number
 * it reads as (or the text, which the validator then calls "must be a number").
 */
export function NumberInput(props: { bound: Bound; label: string; hint?: ComponentChildren; optional?: boolean }) {
  const { bound } = props;
  const problems = useProblems([bound.path]);
  const [typed, setTyped] = useState(shownNumber(bound.value));
  // Changed from elsewhere (a list reordered, an import): show the new value.
  useEffect(() => {
    if (parseNumber(typed) !== bound.value) setTyped(shownNumber(bound.value));
  }, [bound.value]);
  return (
    <div class="control">
      <label for={idOf(bound.path)}>{props.label}</label>
      <input
        {...described(bound.path, problems, props.hint !== undefined)}
        type="text"
        inputMode="decimal"
        autocomplete="off"
        value={typed}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          setTyped(raw);
          bound.set(parseNumber(raw));
        }}
      />
      <Hint path={bound.path}>{props.hint}</Hint>
      <ProblemList id={`${idOf(bound.path)}-problems`} problems={problems} />
    </div>
  );
}

export function Choice(props: {
  bound: Bound;
  label: string;
  options: readonly (readonly [string, string])[];
  /** The choice that leaves the field out (its value is ''). */
  none?: string;
  hint?: ComponentChildren;
  onChoose?: (value: string) => void;
}) {
  const { bound } = props;
  const problems = useProblems([bound.path]);
  const current = bound.value === undefined ? '' : String(bound.value);
  const known = props.options.some(([value]) => value === current) || (current === '' && props.none !== undefined);
  return (
    <div class="control">
      <label for={idOf(bound.path)}>{props.label}</label>
      <select
        {...described(bound.path, problems, props.hint !== undefined)}
        value={current}
        onChange={(event) => {
          const chosen = event.currentTarget.value;
          if (props.onChoose) props.onChoose(chosen);
          else bound.set(chosen === '' && props.none !== undefined ? undefined : chosen);
        }}
      >
        {props.none !== undefined && <option value="">{props.none}</option>}
        {/* A value the list does not offer (from an import) stays visible until it is changed. */}
        {!known && <option value={current}>{current}</option>}
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <Hint path={bound.path}>{props.hint}</Hint>
      <ProblemList id={`${idOf(bound.path)}-problems`} problems={problems} />
    </div>
  );
}

/** A true/false field; unchecked leaves an optional one out. */
export function Check(props: { bound: Bound; label: string; optional?: boolean }) {
  const { bound } = props;
  const problems = useProblems([bound.path]);
  return (
    <div class="control">
      <label class="check">
        <input
          {...described(bound.path, problems, false)}
          type="checkbox"
          checked={bound.value === true}
          onChange={(event) => bound.set(event.currentTarget.checked ? true : props.optional ? undefined : false)}
        />
        {props.label}
      </label>
      <ProblemList id={`${idOf(bound.path)}-problems`} problems={problems} />
    </div>
  );
}

/**
 * Owner text: the English text, and on demand the same text in the widget's other
 * languages (a visitor whose language has none sees English). Stored as one string while
 * there is no translation, else as `{en, de, …}`.
 */
export function TextField(props: { bound: Bound; label: string; optional?: boolean; hint?: ComponentChildren }) {
  const { bound } = props;
  const own = isObject(bound.value) ? bound.value : { en: bound.value };
  const enPath = child({ path: bound.path, keys: [] }, 'en').path;
  const problems = useProblems([bound.path, enPath]);
  const translated = TRANSLATIONS.filter((language) => typeof own[language] === 'string');
  const write = (language: string, typed: string) => {
    const next: Record<string, Json> = { ...own, [language]: typed };
    if (typed === '' && language !== 'en') delete next[language];
    const others = Object.keys(next).filter((key) => key !== 'en');
    const english = next.en === undefined ? '' : next.en;
    if (others.length > 0) bound.set(next);
    else bound.set(english === '' && props.optional ? undefined : english);
  };
  return (
    <div class="control text-field">
      <label for={idOf(bound.path)}>{props.label}</label>
      <input
        {...described(bound.path, problems, props.hint !== undefined)}
        type="text"
        value={text(own.en)}
        onInput={(event) => write('en', event.currentTarget.value)}
      />
      <Hint path={bound.path}>{props.hint}</Hint>
      <ProblemList id={`${idOf(bound.path)}-problems`} problems={problems} />
      <details class="translations">
        <summary>
          Translations{translated.length > 0 ? ` (${translated.length})` : ''}
          <span class="visually-hidden"> of {props.label}</span>
        </summary>
        <div class="row">
          {TRANSLATIONS.map((language) => (
            <Translation
              key={language}
              language={language}
              label={props.label}
              text={own}
              path={bound.path}
              write={write}
            />
          ))}
        </div>
      </details>
    </div>
  );
}

function Translation(props: {
  language: string;
  label: string;
  text: Record<string, Json>;
  path: string;
  write: (language: string, typed: string) => void;
}) {
  const path = child({ path: props.path, keys: [] }, props.language).path;
  const problems = useProblems([path]);
  return (
    <div class="control translation">
      <label for={idOf(path)}>
        {props.label} in {languageName(props.language)} <span class="hint">({props.language})</span>
      </label>
      <input
        {...described(path, problems, false)}
        type="text"
        lang={props.language}
        value={text(props.text[props.language])}
        onInput={(event) => props.write(props.language, event.currentTarget.value)}
      />
      <ProblemList id={`${idOf(path)}-problems`} problems={problems} />
    </div>
  );
}

const SYSTEM_NAMES = { metric: 'metric', imperial: 'imperial' } as const;

/**
 * A value that may differ by unit system (a number input's min, max, default and unit):
 * with two systems, one field for each, stored as one value while they agree.
 */
export function PerSystem(props: { loc: Loc; render: (bound: Bound, suffix: string) => ComponentChildren }) {
  const editor = useEditor();
  const bound = useBound(props.loc);
  const split = isObject(bound.value) && ('metric' in bound.value || 'imperial' in bound.value);
  if (editor.systems.length < 2 && !split) return <>{props.render(bound, '')}</>;
  const parts = asObject(split ? bound.value : {});
  const valueIn = (system: 'metric' | 'imperial') => (split ? parts[system] : bound.value);
  return (
    <div class="per-system">
      {(['metric', 'imperial'] as const).map((system) => {
        const other = system === 'metric' ? 'imperial' : 'metric';
        const systemBound: Bound = {
          path: child(props.loc, system).path,
          value: valueIn(system),
          set: (value) => {
            const next = { [system]: value, [other]: valueIn(other) };
            const same = JSON.stringify(next[system]) === JSON.stringify(next[other]);
            bound.set(same ? value : { metric: next.metric, imperial: next.imperial });
          },
        };
        return <div key={system}>{props.render(systemBound, ` (${SYSTEM_NAMES[system]})`)}</div>;
      })}
      {/* Problems of the value as a whole ("min is above max (imperial)"). */}
      <GroupProblems path={props.loc.path} />
    </div>
  );
}
