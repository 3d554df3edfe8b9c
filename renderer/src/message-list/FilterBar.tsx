/** The message filter (Ctrl+F): label, body text, class, arrival time range — evaluated by the service. */
import { useEffect, useRef, useState } from 'react';
import { formatClassCode } from '@qk/model';
import { knownClasses } from '../format/message-class.js';
import { emptyFilter } from './list-query.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

const TYPING_DELAY_MS = 300;

/** Filter inputs; text fields apply after a short pause in typing. */
export function FilterBar() {
  const store = useStoreApi();
  const filter = useAppStore((s) => s.filter);
  const visible = useAppStore((s) => s.filterVisible);
  const focusTick = useAppStore((s) => s.filterVisible && s.generation >= 0);
  const [label, setLabel] = useState(filter.label);
  const [bodyText, setBodyText] = useState(filter.bodyText);
  const labelRef = useRef<HTMLInputElement>(null);
  // When the store's filter changes (Clear, another list), the boxes show it: adjusted while rendering, not after.
  const [shown, setShown] = useState(filter);
  if (shown.label !== filter.label || shown.bodyText !== filter.bodyText) {
    setShown(filter);
    setLabel(filter.label);
    setBodyText(filter.bodyText);
  }

  useEffect(() => {
    if (label === filter.label && bodyText === filter.bodyText) return undefined;
    const timer = setTimeout(() => store.getState().setFilter({ label, bodyText }), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [label, bodyText, filter.label, filter.bodyText, store]);

  useEffect(() => {
    if (visible) labelRef.current?.focus();
  }, [visible, focusTick]);

  if (!visible) return null;
  const classValue =
    filter.classCodes.length === 1 ? String(filter.classCodes[0]) : filter.classCodes.length > 1 ? 'nack' : '';
  return (
    <div className="filter-bar" role="search" aria-label="Filter messages">
      <input
        ref={labelRef}
        type="search"
        placeholder="Label contains…"
        aria-label="Label contains"
        value={label}
        onChange={(e) => setLabel(e.target.value)}
      />
      <input
        type="search"
        placeholder="Body contains…"
        aria-label="Body contains"
        value={bodyText}
        onChange={(e) => setBodyText(e.target.value)}
      />
      <select
        aria-label="Class"
        value={classValue}
        onChange={(e) => {
          const v = e.target.value;
          const codes =
            v === ''
              ? []
              : v === 'nack'
                ? knownClasses.filter((c) => (c.code & 0x8000) !== 0).map((c) => c.code)
                : [Number(v)];
          store.getState().setFilter({ classCodes: codes });
        }}
      >
        <option value="">Any class</option>
        <option value="nack">Any NACK</option>
        {knownClasses.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name} {formatClassCode(c.code)}
          </option>
        ))}
      </select>
      <label className="inline-label">
        Arrived from
        <input
          type="datetime-local"
          step="1"
          aria-label="Arrived from"
          value={filter.arrivedFrom}
          onChange={(e) => store.getState().setFilter({ arrivedFrom: e.target.value })}
        />
      </label>
      <label className="inline-label">
        to
        <input
          type="datetime-local"
          step="1"
          aria-label="Arrived to"
          value={filter.arrivedTo}
          onChange={(e) => store.getState().setFilter({ arrivedTo: e.target.value })}
        />
      </label>
      <button type="button" onClick={() => store.getState().setFilter(emptyFilter)}>
        Clear
      </button>
      <button type="button" aria-label="Close filter" onClick={() => store.getState().setFilterVisible(false)}>
        ✕
      </button>
    </div>
  );
}
