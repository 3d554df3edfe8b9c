/** A modal property sheet: title, optional tabs, body, and OK / Cancel / Apply — Esc closes it. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { errorText } from './error-text.js';

/** One tab of a property sheet. */
export interface DialogTab {
  id: string;
  label: string;
  render(): ReactNode;
}

interface Props {
  title: string;
  onClose: () => void;
  tabs?: DialogTab[];
  children?: ReactNode;
  /** OK applies then closes; omitted means the dialog only has Close. */
  onOk?: (() => Promise<boolean | void> | boolean | void) | undefined;
  onApply?: (() => Promise<void> | void) | undefined;
  okLabel?: string;
  okDisabled?: boolean;
  applyDisabled?: boolean;
  /** An error to show above the buttons (with the service's code). */
  error?: string | null;
  width?: number;
  initialTab?: string;
}

/** The dialog frame every property sheet and prompt uses. */
export function DialogShell({
  title,
  onClose,
  tabs,
  children,
  onOk,
  onApply,
  okLabel = 'OK',
  okDisabled,
  applyDisabled,
  error,
  width = 520,
  initialTab,
}: Props) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const [tab, setTab] = useState(initialTab ?? tabs?.[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  // What OK or Apply threw, when the dialog did not catch it itself.
  const [failure, setFailure] = useState<string | null>(null);
  const report = (e: unknown) => setFailure(errorText(e));

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>(
      '[data-autofocus], input:not([disabled]), select, textarea, [role="tab"][aria-selected="true"], button',
    );
    first?.focus();
    return () => previous?.focus?.();
  }, []);

  const ok = async () => {
    if (!onOk) return onClose();
    setBusy(true);
    setFailure(null);
    try {
      const result = await onOk();
      if (result !== false) onClose();
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Tab') {
      // Keep focus inside the modal.
      const focusables = Array.from(
        ref.current?.querySelectorAll<HTMLElement>('button, input, select, textarea, [tabindex="0"], a[href]') ?? [],
      ).filter((e) => !e.hasAttribute('disabled'));
      const firstEl = focusables[0];
      const lastEl = focusables[focusables.length - 1];
      if (event.shiftKey && document.activeElement === firstEl) {
        lastEl?.focus();
        event.preventDefault();
      } else if (!event.shiftKey && document.activeElement === lastEl) {
        firstEl?.focus();
        event.preventDefault();
      }
    }
  };

  const active = tabs?.find((t) => t.id === tab) ?? tabs?.[0];
  return (
    <div className="dialog-backdrop">
      <div
        ref={ref}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        style={{ width }}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-title" id={titleId}>
          {title}
        </div>
        {tabs && tabs.length > 0 && (
          <div className="tabs" role="tablist" aria-label={title}>
            {tabs.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`${titleId}-tab-${t.id}`}
                aria-selected={t.id === active?.id}
                aria-controls={`${titleId}-panel`}
                tabIndex={t.id === active?.id ? 0 : -1}
                className={`tab${t.id === active?.id ? ' active' : ''}`}
                onClick={() => setTab(t.id)}
                onKeyDown={(e) => {
                  const index = tabs.findIndex((x) => x.id === t.id);
                  const next =
                    e.key === 'ArrowRight'
                      ? tabs[(index + 1) % tabs.length]
                      : e.key === 'ArrowLeft'
                        ? tabs[(index - 1 + tabs.length) % tabs.length]
                        : undefined;
                  if (next) {
                    setTab(next.id);
                    document.getElementById(`${titleId}-tab-${next.id}`)?.focus();
                    e.preventDefault();
                  }
                }}
              >
                {t.label}
              </button>
            ))}
          </div>
        )}
        <div
          className="dialog-body"
          role={tabs ? 'tabpanel' : undefined}
          id={`${titleId}-panel`}
          aria-labelledby={active ? `${titleId}-tab-${active.id}` : undefined}
        >
          {active ? active.render() : children}
        </div>
        {(error ?? failure) && (
          <div className="dialog-error" role="alert">
            {error ?? failure}
          </div>
        )}
        <div className="dialog-buttons">
          {onOk && (
            <button
              type="button"
              className="primary"
              disabled={okDisabled || busy}
              onClick={() => {
                ok().catch(report);
              }}
            >
              {okLabel}
            </button>
          )}
          <button type="button" onClick={onClose}>
            {onOk ? 'Cancel' : 'Close'}
          </button>
          {onApply && (
            <button
              type="button"
              disabled={applyDisabled || busy}
              onClick={() => {
                Promise.resolve(onApply()).catch(report);
              }}
            >
              Apply
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/** A labelled read-only field row of a property sheet. */
export function Field({ label, children, title }: { label: string; children: ReactNode; title?: string }) {
  return (
    <div className="field" title={title}>
      <span className="field-label">{label}</span>
      <span className="field-value">{children}</span>
    </div>
  );
}
