/** Small monochrome icons in the manner of the MMC snap-in (drawn, so no asset files or fonts). */
import type { NodeKind } from '../tree/tree-model.js';

const common = { width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const;

/** The icon of a tree node kind. */
export function NodeIcon({ kind }: { kind: NodeKind }) {
  switch (kind) {
    case 'computer':
      return (
        <svg {...common} className="icon icon-computer">
          <rect x="1.5" y="2.5" width="13" height="8" rx="1" fill="var(--icon-screen)" stroke="currentColor" />
          <path d="M5 13.5h6M8 10.5v3" stroke="currentColor" />
        </svg>
      );
    case 'msmq':
      return (
        <svg {...common} className="icon icon-msmq">
          <rect x="1.5" y="3.5" width="13" height="9" rx="1" fill="var(--icon-msmq)" stroke="currentColor" />
          <path d="M1.5 4l6.5 5 6.5-5" stroke="currentColor" fill="none" />
        </svg>
      );
    case 'outgoing':
    case 'public':
    case 'private':
    case 'system':
      return (
        <svg {...common} className="icon icon-folder">
          <path d="M1.5 4.5v8h13v-7h-7l-1.5-1.5h-4.5z" fill="var(--icon-folder)" stroke="currentColor" />
        </svg>
      );
    case 'queue':
    case 'systemQueue':
      return (
        <svg {...common} className="icon icon-queue">
          <rect x="1.5" y="4.5" width="13" height="7" fill="var(--icon-queue)" stroke="currentColor" />
          <path d="M5 4.5v7M8.5 4.5v7M12 4.5v7" stroke="currentColor" />
        </svg>
      );
    case 'queueMessages':
    case 'subqueue':
      return (
        <svg {...common} className="icon icon-messages">
          <rect x="2.5" y="3.5" width="11" height="9" fill="var(--icon-msmq)" stroke="currentColor" />
          <path d="M2.5 4l5.5 4.5 5.5-4.5" stroke="currentColor" fill="none" />
        </svg>
      );
    case 'journalMessages':
      return (
        <svg {...common} className="icon icon-journal">
          <rect x="3.5" y="1.5" width="9" height="13" fill="var(--icon-journal)" stroke="currentColor" />
          <path d="M5.5 5h5M5.5 8h5M5.5 11h3" stroke="currentColor" />
        </svg>
      );
    default:
      return null;
  }
}
