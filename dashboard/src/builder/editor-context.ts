import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Problem, UnitSystem } from '../../../src/definition/types.ts';
import { getIn, type Json, type Loc } from './draft.ts';

/** What every control of the builder reads and writes through. */
export interface Editor {
  draft: Json;
  set(loc: Loc, value: Json): void;
  /** The unit systems the draft offers (metric when it names none). */
  systems: UnitSystem[];
  /** The problems shown at this path: those whose nearest place on the page it is. */
  problemsAt(path: string): Problem[];
  /** A control or group says it is on the page, so problems at its path show there. */
  register(path: string): void;
  /** Focus moves to the element with this id once the page has been redrawn. */
  focusLater(id: string): void;
}

export const EditorContext = createContext<Editor | null>(null);

export function useEditor(): Editor {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('a builder control outside the builder');
  return editor;
}

/** A value of the draft with its setter and its problems' path: what a control is bound to. */
export interface Bound {
  path: string;
  value: Json;
  set(value: Json): void;
}

/** Binds a control to `loc` (a plain function: callable in loops and branches, unlike a hook). */
export function bind(editor: Editor, loc: Loc): Bound {
  return { path: loc.path, value: getIn(editor.draft, loc.keys), set: (value) => editor.set(loc, value) };
}

export const useBound = (loc: Loc): Bound => bind(useEditor(), loc);
