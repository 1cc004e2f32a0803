/**
 * Loads something asynchronous for a component: `{data, error, loading, reload}`. A newer load
 * (deps changed, reload called) wins over an older one still in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
  /** Replaces the data locally (an optimistic update), from the latest data when given a function. */
  set(data: T | ((prev: T | undefined) => T)): void;
}

export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error?: Error; loading: boolean }>({
    data: undefined,
    loading: true,
  });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(ctl.signal).then(
      (data) => {
        if (!ctl.signal.aborted) setState({ data, loading: false });
      },
      (error: Error) => {
        if (!ctl.signal.aborted) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    return () => ctl.abort();
  }, [...deps, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const set = useCallback(
    (data: T | ((prev: T | undefined) => T)) =>
      setState((s) => ({
        data: typeof data === 'function' ? (data as (prev: T | undefined) => T)(s.data) : data,
        loading: false,
      })),
    [],
  );
  return { data: state.data, error: state.error, loading: state.loading, reload, set };
}
