/** The quota fields of queue forms: KB as typed, empty meaning no limit. */

/** The typed quota in KB, or null for no limit. */
export function kbOrNull(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

/** Whether a quota field holds a whole number of KB that fits MSMQ's 32-bit quota (or is empty). */
export function validKb(text: string): boolean {
  return text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) <= 0xffffffff);
}
