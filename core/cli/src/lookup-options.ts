/** `--lookup-id N --action first|last|next|previous|current` of `qk peek` and `qk receive` (R-L2). */
import type { Command } from 'commander';
import type { OptionValue } from './context.js';
import { isQkError, lookupActions, QkError, type LookupAction } from '@qk/model';
import { parseWhole } from './parse-values.js';
import { UsageError } from './usage-error.js';

/** A lookup that found no message: MSMQ's MESSAGE_NOT_FOUND, and exit 3 as for a receive that timed out. */
export class NothingThereError extends QkError {}

/** Adds the lookup options to a command. */
export function addLookupOptions(command: Command): Command {
  return command
    .option('--lookup-id <n>', 'the message with this lookup ID (or, with --action, one relative to it)')
    .option(
      '--action <action>',
      'with --lookup-id: current (default), next, previous; or first, last (which need no --lookup-id)',
    );
}

/** The lookup part of a peek or receive input, from the parsed options. */
export function lookupFrom(o: Record<string, OptionValue>): { lookupId?: number; lookupAction?: LookupAction } {
  // 0 is MSMQ's "no lookup ID", which first and last take (R-L2).
  const id = o['lookupId'] === undefined ? undefined : parseWhole(String(o['lookupId']), '--lookup-id', 0);
  const actionText = o['action'] === undefined ? undefined : String(o['action']).trim().toLowerCase();
  if (actionText === undefined) return id === undefined ? {} : { lookupId: id, lookupAction: 'current' };
  const action = lookupActions.find((a) => a === actionText || (a === 'previous' && actionText === 'prev'));
  if (!action)
    throw new UsageError(`--action must be one of ${lookupActions.join(', ')}, not '${String(o['action'])}'.`);
  if (id === undefined && action !== 'first' && action !== 'last')
    throw new UsageError(`--action ${action} needs --lookup-id N.`);
  // CLI.md: first and last ignore N (MSMQ passes 0 for them, R-L2).
  if (action === 'first' || action === 'last') return { lookupAction: action };
  return { ...(id !== undefined ? { lookupId: id } : {}), lookupAction: action };
}

/** Runs a lookup; a lookup that finds nothing becomes NothingThereError (exit 3). */
export async function lookingUp<T>(byLookup: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (byLookup && isQkError(error) && error.code === 'MESSAGE_NOT_FOUND')
      throw new NothingThereError(error.code, error.message);
    throw error;
  }
}
