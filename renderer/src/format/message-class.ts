/** How a message class reads in the console: name, hex code, tone, and its one-sentence meaning. */
import {
  formatClassCode,
  isNackClass,
  messageClassMeaning,
  messageClassName,
  MessageClass,
  type MessageClassName,
} from '@qk/model';

/** NACK classes warn, ACK classes reassure, NORMAL and REPORT stay neutral. */
export type ClassTone = 'nack' | 'ack' | 'normal';

/** Tone for colouring a class cell. */
export function classTone(code: number): ClassTone {
  if (isNackClass(code)) return 'nack';
  if (code === MessageClass.ACK_REACH_QUEUE || code === MessageClass.ACK_RECEIVE) return 'ack';
  return 'normal';
}

/** "NACK_Q_PURGED 0xC001". */
export function classLabel(code: number): string {
  return `${messageClassName(code)} ${formatClassCode(code)}`;
}

/** The plain sentence for a class, or a neutral one for codes MSMQ does not define. */
export function classMeaning(code: number): string {
  const name = messageClassName(code);
  return name in messageClassMeaning
    ? messageClassMeaning[name as MessageClassName]
    : `An unknown message class (${formatClassCode(code)}).`;
}

/** Every known class, for the class filter. */
export const knownClasses: ReadonlyArray<{ name: MessageClassName; code: number }> = (
  Object.entries(MessageClass) as [MessageClassName, number][]
).map(([name, code]) => ({ name, code }));
