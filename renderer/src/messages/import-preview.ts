/**
 * What an import file holds, shown before anything is imported (issue 12, point 5): how many messages,
 * from which queue of which computer, of which classes, and what keeping their original identity would
 * mean — timers that already ran out expire on arrival, and NACK classes would land as acknowledgments.
 */
import { isNackClass, messageClassName, type ExportedMessage, type MessageFileHeader } from '@qk/model';

/** The preview of a file. */
export interface ImportPreview {
  count: number;
  bytes: number;
  source: MessageFileHeader | null;
  /** Messages per class, most first. */
  classes: Array<{ name: string; code: number; count: number }>;
  /** Kept as they were, these expire on arrival: their time-to-be-received ran out since they were sent. */
  expiredIfKept: number;
  /** Kept as they were, these keep a NACK class (dead letters, negative acknowledgments). */
  nackClasses: number;
}

/** Summarizes messages read from a file, at time `now`. */
export function previewImport(
  messages: readonly ExportedMessage[],
  source: MessageFileHeader | null,
  now: number,
): ImportPreview {
  const classes = new Map<number, number>();
  let bytes = 0;
  let expiredIfKept = 0;
  let nackClasses = 0;
  for (const m of messages) {
    classes.set(m.classCode, (classes.get(m.classCode) ?? 0) + 1);
    bytes +=
      Math.floor((m.bodyBase64.length * 3) / 4) -
      (m.bodyBase64.endsWith('==') ? 2 : m.bodyBase64.endsWith('=') ? 1 : 0);
    // Timers count from their base (the send, or the arrival from another computer), not the arrival here.
    if (m.timeToBeReceived !== null && Date.parse(m.timerBaseTime) + m.timeToBeReceived * 1000 <= now)
      expiredIfKept += 1;
    if (isNackClass(m.classCode)) nackClasses += 1;
  }
  return {
    count: messages.length,
    bytes,
    source,
    classes: [...classes]
      .map(([code, count]) => ({ name: messageClassName(code), code, count }))
      .sort((a, b) => b.count - a.count || a.code - b.code),
    expiredIfKept,
    nackClasses,
  };
}
