/** The current time for a view that counts down (a message's timers), ticking once a second. */
import { useEffect, useState } from 'react';

/** Date.now(), updated every `intervalMs` while the component is shown. */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
