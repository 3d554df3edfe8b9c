/**
 * A modal property sheet or prompt: title, optional tabs, body, and OK / Cancel / Apply. Esc closes it
 * (also when the focus was lost, e.g. to a button that became disabled); focus stays inside (DialogHost
 * returns it to where it was when the dialog closes). A property sheet keeps one size whatever its tab.
 */
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** One tab of a property sheet. */
export interface DialogTab {
  id: string;
  label: string;
  render(): ReactNode;
}

/** Whether the dialog is the top one (the one with the keyboard); set by DialogHost. */
export const DialogLayer = createContext<{ top: boolean }>({ top: true });

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
  /** The action loses data: Cancel is the default button (focused, Enter), the OK button is marked. */
  destructive?: boolean;
  /** An error to show above the buttons (with the service's code). */
  error?: string | null;
  /** A notice under the title, on every tab (the message left its queue meanwhile). */
  banner?: ReactNode;
  width?: number;
  /** Fixed body height of a property sheet (tabs never resize it); default for tabbed sheets. */
  height?: number;
  initialTab?: string;
}

const FOCUSABLE = 'button, input, select, textarea, [tabindex="0"], a[href]';

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
  destructive = false,
  error,
  banner,
  width = 520,
  height,
  initialTab,
}: Props) {
  const { top } = useContext(DialogLayer);
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [tab, setTab] = useState(initialTab ?? tabs?.[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const root = ref.current;
    // The first thing to type into, as a Windows dialog opens: a marked field, else the first field of the
    // page, else the selected tab, else the first button. A destructive question starts on Cancel.
    const first = destructive
      ? cancelRef.current
      : (root?.querySelector<HTMLElement>('[data-autofocus]') ??
        root?.querySelector<HTMLElement>('.dialog-body :is(input, select, textarea):not([disabled])') ??
        root?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"], button'));
    first?.focus();
    // DialogHost gives the focus back when the dialog closes.
  }, [destructive]);

  // Esc closes the top dialog even when nothing in it has the focus (a button that just became disabled).
  useEffect(() => {
    if (!top) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || ref.current?.contains(document.activeElement)) return; // the dialog's own keydown
      if (event.key === 'Escape') {
        event.preventDefault();
        closeRef.current();
      } else if (event.key === 'Tab') {
        // The focus was outside (a click on the backdrop): Tab brings it back into the dialog, never behind it.
        event.preventDefault();
        ref.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [top]);

  const ok = async () => {
    if (!onOk) return onClose();
    setBusy(true);
    try {
      const result = await onOk();
      if (result !== false) onClose();
    } finally {
      setBusy(false);
    }
  };
  // An onOk that throws is a bug in the dialog (they catch the service's errors and show them): say so.
  const runOk = () => {
    ok().catch((e: unknown) => setFailure(e instanceof Error ? e.message : String(e)));
  };
  const runApply = () => {
    Promise.resolve(onApply?.()).catch((e: unknown) => setFailure(e instanceof Error ? e.message : String(e)));
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      onClose();
    } else if (
      event.key === 'Enter' &&
      (target.tagName === 'INPUT' || target.getAttribute('role') === 'tab') &&
      !event.nativeEvent.isComposing
    ) {
      // Enter in a field presses the default button, as in any Windows dialog (Cancel when the action loses data).
      const type = (target as HTMLInputElement).type;
      if (type === 'checkbox' || type === 'radio' || type === 'file' || type === 'search') return;
      event.preventDefault();
      if (destructive) onClose();
      else if (onOk && !okDisabled && !busy) runOk();
    } else if (event.key === 'Tab') {
      // Keep focus inside the modal.
      const focusables = Array.from(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
        (e) => !e.hasAttribute('disabled'),
      );
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
  const bodyHeight = height ?? (tabs && tabs.length > 0 ? 400 : undefined);
  return (
    <div className="dialog-backdrop" inert={!top}>
      <div
        ref={ref}
        className={`dialog${tabs ? ' sheet' : ''}`}
        role={destructive ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        style={{ width }}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-title" id={titleId}>
          {title}
        </div>
        {banner}
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
          style={bodyHeight ? { height: bodyHeight } : undefined}
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
              className={destructive ? 'danger' : 'primary'}
              disabled={okDisabled || busy}
              onClick={runOk}
            >
              {okLabel}
            </button>
          )}
          <button ref={cancelRef} type="button" className={destructive ? 'primary' : undefined} onClick={onClose}>
            {onOk ? 'Cancel' : 'Close'}
          </button>
          {onApply && (
            <button type="button" disabled={applyDisabled || busy} onClick={runApply}>
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

/** The sentence under an invalid field that says what is allowed (not only a red border). */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <span className="field-error" id={id} role="alert">
      {children}
    </span>
  );
}
