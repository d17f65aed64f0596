import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api.ts';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload: () => void;
  set: (data: T) => void;
}

/** GETs `path` when the component shows (and again on reload); null path: nothing yet. */
export function useApi<T>(path: string | null): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    api<T>('GET', path).then(
      (body) => {
        if (!live) return;
        setData(body);
        setError(null);
      },
      (failure) => {
        if (live) setError(messageOf(failure));
      },
    );
    return () => {
      live = false;
    };
  }, [path, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data, error, reload, set: setData };
}
