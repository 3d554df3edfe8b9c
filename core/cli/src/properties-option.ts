/** `--properties NAME,…` of `qk peek` and `qk receive`: the message properties to print (MQMSGPROPS). */
import type { Command } from 'commander';
import type { MessageProperty } from '@qk/model';
import type { OptionValue } from './context.js';
import { UsageError } from './usage-error.js';

export function addPropertiesOption(command: Command): Command {
  return command.option(
    '--properties <names>',
    'with --json: print only these message properties (comma-separated JSON field names, e.g. body,label), plus id and lookupId',
  );
}

/**
 * The `properties` part of a peek, receive or stream input. The service checks the names (INVALID_PARAMETER for
 * one a message does not have); the human format shows every property, so the option needs --json.
 */
export function propertiesFrom(o: Record<string, OptionValue>, json: boolean): { properties?: MessageProperty[] } {
  if (o['properties'] === undefined) return {};
  if (!json) throw new UsageError('--properties chooses the fields of the JSON output: use it with --json.');
  const names = String(o['properties'])
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return { properties: names as MessageProperty[] };
}
