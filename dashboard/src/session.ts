/**
 * The signed-in session. The token lives in sessionStorage only: never a cookie (no
 * cross-site request can carry it), never localStorage (it ends with the tab), never a
 * URL (it would leak into history and logs).
 */
import { signal } from '@preact/signals';

const KEY = 'calc.token';

function stored(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export const token = signal<string | null>(stored());

/** Why the sign-in form is showing (an expired session, a sign-out), or null. */
export const signInNotice = signal<string | null>(null);

export function startSession(value: string): void {
  sessionStorage.setItem(KEY, value);
  signInNotice.value = null;
  token.value = value;
}

export function endSession(notice: string | null): void {
  sessionStorage.removeItem(KEY);
  signInNotice.value = notice;
  token.value = null;
}
