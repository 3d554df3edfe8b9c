/** Polls the traffic of a queue (or the computer) once a second while a chart shows it. */
import { useEffect, useState } from 'react';
import { describeError } from '../client/console-client.js';
import { useStoreApi } from '../store/use-app-store.js';
import type { Traffic } from './traffic-types.js';

/** How far back the charts look (the service keeps 300 s). */
export const CHART_SECONDS = 300;
const POLL_MS = 1_000;

/** The latest series, or the error of the last read. */
export function useTraffic(computer: string, path: string | null): { traffic: Traffic | null; error: string | null } {
  const store = useStoreApi();
  const [state, setState] = useState<{ traffic: Traffic | null; error: string | null }>({ traffic: null, error: null });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      if (!stopped) timer = setTimeout(read, POLL_MS);
    };
    const read = () => {
      store
        .getState()
        .trafficOf(computer, path, CHART_SECONDS)
        .then(
          (traffic) => {
            if (!stopped) setState({ traffic, error: null });
            next();
          },
          (error: unknown) => {
            const { code, message } = describeError(error);
            if (!stopped) setState((s) => ({ traffic: s.traffic, error: `${code}: ${message}` }));
            next();
          },
        );
    };
    read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [store, computer, path]);
  return state;
}
