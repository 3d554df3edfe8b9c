/**
 * The message filter (Ctrl+F), evaluated by the service: label, body text, class, and
 * (More) arrival time range, correlation ID, application-specific value and source computer. Text fields
 * apply after a short pause in typing. One compact row; the extra fields open a second.
 */
import { useEffect, useRef, useState } from 'react';
import { formatClassCode } from '@qk/model';
import { knownClasses } from '../format/message-class.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { emptyFilter, type ListFilter } from './list-query.js';

const TYPING_DELAY_MS = 300;

type TextKey = 'label' | 'bodyText' | 'correlationId' | 'appSpecific' | 'sourceMachine';
const TEXT_KEYS: TextKey[] = ['label', 'bodyText', 'correlationId', 'appSpecific', 'sourceMachine'];

const pickText = (f: ListFilter) => Object.fromEntries(TEXT_KEYS.map((k) => [k, f[k]])) as Record<TextKey, string>;

/** Filter inputs. */
export function FilterBar() {
  const store = useStoreApi();
  const filter = useAppStore((s) => s.filter);
  const visible = useAppStore((s) => s.filterVisible);
  const [text, setText] = useState(() => pickText(filter));
  const [more, setMore] = useState(
    () =>
      filter.correlationId !== '' ||
      filter.appSpecific !== '' ||
      filter.sourceMachine !== '' ||
      filter.arrivedFrom !== '' ||
      filter.arrivedTo !== '',
  );
  const labelRef = useRef<HTMLInputElement>(null);
  const applied = pickText(filter);
  const appliedKey = JSON.stringify(applied);

  // What the store holds wins (another queue opened, Clear): the fields follow it.
  useEffect(() => {
    setText(JSON.parse(appliedKey) as Record<TextKey, string>);
  }, [appliedKey]);

  useEffect(() => {
    if (JSON.stringify(text) === appliedKey) return undefined;
    const timer = setTimeout(() => store.getState().setFilter(text), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, appliedKey, store]);

  // The box takes the focus when the user opens the bar (Ctrl+F, Filter…) on this list. A bar already open
  // when a list appears (another node selected in the tree) leaves the focus where the user is working.
  const wasVisible = useRef(visible);
  useEffect(() => {
    if (visible && !wasVisible.current) labelRef.current?.focus();
    wasVisible.current = visible;
  }, [visible]);

  if (!visible) return null;
  const classValue =
    filter.classCodes.length === 1 ? String(filter.classCodes[0]) : filter.classCodes.length > 1 ? 'nack' : '';
  const appSpecificInvalid = text.appSpecific.trim() !== '' && !/^\d+$/.test(text.appSpecific.trim());
  const input = (key: TextKey, label: string, extra: { invalid?: boolean; className?: string } = {}) => (
    <input
      ref={key === 'label' ? labelRef : undefined}
      type="search"
      placeholder={`${label}…`}
      aria-label={label}
      className={extra.className}
      aria-invalid={extra.invalid === true}
      title={extra.invalid ? 'A whole number, as the sender set it' : undefined}
      value={text[key]}
      onChange={(e) => setText((t) => ({ ...t, [key]: e.target.value }))}
    />
  );
  return (
    <div className="filter-bar" role="search" aria-label="Filter messages">
      <div className="filter-row">
        {input('label', 'Label contains')}
        {input('bodyText', 'Body contains')}
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
        <button type="button" aria-expanded={more} onClick={() => setMore(!more)}>
          More {more ? '▴' : '▾'}
        </button>
        <button type="button" onClick={() => store.getState().setFilter(emptyFilter)}>
          Clear
        </button>
        <button type="button" aria-label="Close filter" onClick={() => store.getState().setFilterVisible(false)}>
          ✕
        </button>
      </div>
      {more && (
        <div className="filter-row">
          <span className="inline-label" role="group" aria-label="Arrived between">
            Arrived
            <input
              type="datetime-local"
              step="1"
              aria-label="Arrived from"
              value={filter.arrivedFrom}
              onChange={(e) => store.getState().setFilter({ arrivedFrom: e.target.value })}
            />
            –
            <input
              type="datetime-local"
              step="1"
              aria-label="Arrived to"
              value={filter.arrivedTo}
              onChange={(e) => store.getState().setFilter({ arrivedTo: e.target.value })}
            />
          </span>
          {input('correlationId', 'Correlation ID', { className: 'wide-input' })}
          {input('appSpecific', 'Application-specific', { invalid: appSpecificInvalid })}
          {input('sourceMachine', 'Source computer contains')}
        </div>
      )}
    </div>
  );
}
