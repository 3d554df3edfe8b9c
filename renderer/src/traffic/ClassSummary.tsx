/**
 * A dead-letter queue grouped by class (issue 9): how many of each failure, each group one click from its
 * messages (it filters the list to that class; clicking it again shows them all).
 */
import { useEffect, useState } from 'react';
import { formatClassCode } from '@qk/model';
import { formatCount } from '../format/format.js';
import { classMeaning, classTone } from '../format/message-class.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import type { ClassCount } from './traffic-types.js';

/** The strip of class counts above a dead-letter queue's list. */
export function ClassSummary({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  // Recounted whenever the list refreshes (live events, purge, resend).
  const generation = useAppStore((s) => s.generation);
  const classCodes = useAppStore((s) => s.filter.classCodes);
  const [counts, setCounts] = useState<ClassCount[] | null>(null);
  useEffect(() => {
    let current = true;
    store
      .getState()
      .classCountsOf(computer, path)
      .then(
        (c) => current && setCounts(c),
        (error: unknown) => store.getState().reportError(`Count ${path} by class`, error),
      );
    return () => {
      current = false;
    };
  }, [store, computer, path, generation]);
  if (!counts || counts.length === 0) return null;
  const only = classCodes.length === 1 ? classCodes[0] : null;
  return (
    <div className="class-summary" role="group" aria-label="Messages by class">
      <span className="muted">By class:</span>
      {counts.map((c) => (
        <button
          key={c.classCode}
          type="button"
          className={`class-chip class-${classTone(c.classCode)}${only === c.classCode ? ' active' : ''}`}
          aria-pressed={only === c.classCode}
          title={classMeaning(c.classCode)}
          onClick={() => store.getState().setFilter({ classCodes: only === c.classCode ? [] : [c.classCode] })}
        >
          {c.class} {formatClassCode(c.classCode)} <strong>{formatCount(c.count)}</strong>
        </button>
      ))}
    </div>
  );
}
