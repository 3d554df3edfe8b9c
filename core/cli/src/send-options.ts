/** The send options of CLI.md, shared by `qk send` and `qk arrive`, turned into the API's SendProperties. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { SendProperties } from '@qk/model';
import type { OptionValue } from './context.js';
import { parseAcknowledge, parseMessageJournal, parseNumber } from './parse-values.js';
import { UsageError } from './usage-error.js';

/** Adds every send option to a command. */
export function addSendOptions(command: Command): Command {
  return command
    .option('--body <text>', 'message body (text)')
    .option('--body-file <file>', 'message body read from a file (bytes)')
    .option('--label <text>', 'message label')
    .option('--priority <n>', 'priority 0..7 (default 3)')
    .option('--express', 'express delivery: kept in memory, lost on restart (the default, as in MSMQ)')
    .option('--recoverable', 'recoverable delivery: stored on disk before the send returns')
    .option('--journal <level>', 'none|deadletter|journal|both or the MSMQ number 0-3')
    .option(
      '--ack <level>',
      'none|pos-arrival|pos-receive|nack-reach-queue|full-reach-queue|neg-receive|nack-receive|full-receive or 0-15',
    )
    .option('--admin-queue <path>', 'administration queue for acknowledgments')
    .option('--response-queue <path>', 'response queue')
    .option('--ttrq <seconds>', 'time-to-reach-queue in seconds (default: LongLiveTime)')
    .option('--ttbr <seconds>', 'time-to-be-received in seconds (default: unlimited)')
    .option('--correlation-id <id>', 'correlation ID: a message ID {GUID}\\N')
    .option('--app-specific <n>', 'application-specific number')
    .option('--conversation <id>', 'conversation (Service Broker) this message belongs to')
    .option('--from <path>', "the sending application's own queue (keeps a retained copy when it has retention on)")
    .option(
      '--dead-letter-queue <path>',
      'per-application dead-letter queue (a local transactional queue) for a transactional message sent with --journal deadletter',
    );
}

/** SendProperties from parsed options; throws UsageError for values that are not what the option takes. */
export function sendPropertiesFrom(o: Record<string, OptionValue>): SendProperties {
  if (o['body'] !== undefined && o['bodyFile'] !== undefined)
    throw new UsageError('give --body or --body-file, not both.');
  if (o['express'] && o['recoverable']) throw new UsageError('give --express or --recoverable, not both.');
  const props: SendProperties = {};
  if (o['body'] !== undefined) props.body = String(o['body']);
  if (o['bodyFile'] !== undefined) props.bodyBase64 = readBodyFile(String(o['bodyFile']));
  if (o['label'] !== undefined) props.label = String(o['label']);
  if (o['priority'] !== undefined) props.priority = parseNumber(String(o['priority']), '--priority');
  if (o['recoverable']) props.delivery = 'recoverable';
  else if (o['express']) props.delivery = 'express';
  if (o['journal'] !== undefined) props.journal = parseMessageJournal(String(o['journal']));
  if (o['ack'] !== undefined) props.acknowledge = parseAcknowledge(String(o['ack']));
  if (o['adminQueue'] !== undefined) props.adminQueue = String(o['adminQueue']);
  if (o['responseQueue'] !== undefined) props.responseQueue = String(o['responseQueue']);
  if (o['ttrq'] !== undefined) props.timeToReachQueue = parseNumber(String(o['ttrq']), '--ttrq');
  if (o['ttbr'] !== undefined) props.timeToBeReceived = parseNumber(String(o['ttbr']), '--ttbr');
  if (o['correlationId'] !== undefined) props.correlationId = String(o['correlationId']);
  if (o['appSpecific'] !== undefined) props.appSpecific = parseNumber(String(o['appSpecific']), '--app-specific');
  if (o['conversation'] !== undefined) props.conversation = String(o['conversation']);
  if (o['from'] !== undefined) props.from = String(o['from']);
  if (o['deadLetterQueue'] !== undefined) props.deadLetterQueue = String(o['deadLetterQueue']);
  return props;
}

function readBodyFile(file: string): string {
  try {
    // Always base64: the bytes reach the queue unchanged whatever their encoding.
    return readFileSync(file).toString('base64');
  } catch (error) {
    throw new UsageError(
      `--body-file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`,
    );
  }
}
