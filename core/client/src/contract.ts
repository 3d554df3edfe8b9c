/**
 * The few runtime values of the contract a client needs, kept here so that a one-shot client (the `qk`
 * CLI) does not load zod and every schema of core/api just to make one call. The compiler checks each
 * against core/api: a renamed path or a new operation fails the build until this file follows.
 */
import type * as api from '@qk/api';
import type { OperationName, ServiceFile } from '@qk/api';

/** Same as core/api's API_PREFIX. */
export const API_PREFIX: typeof api.API_PREFIX = '/api/v1';
/** Same as core/api's WEBSOCKET_PATH. */
export const WEBSOCKET_PATH: typeof api.WEBSOCKET_PATH = '/api/v1/ws';
/** Same as core/api's SERVICE_FILE. */
export const SERVICE_FILE: typeof api.SERVICE_FILE = 'service.json';
/** Same as core/api's CONSOLE_CODE_PATH. */
export const CONSOLE_CODE_PATH: typeof api.CONSOLE_CODE_PATH = '/console/code';
/** Same as core/api's TOKEN_FILE. */
export const TOKEN_FILE: typeof api.TOKEN_FILE = 'token';

/** Every operation of the contract, in the order of core/api's table. */
export const OPERATION_NAMES = [
  'serviceStatus',
  'serviceRestart',
  'serviceStop',
  'queueList',
  'queueShow',
  'queueCreate',
  'queueSet',
  'queueDelete',
  'queuePurge',
  'send',
  'sendBatch',
  'sendEach',
  'receive',
  'receiveBatch',
  'peek',
  'cursorOpen',
  'cursorPeek',
  'cursorReceive',
  'cursorClose',
  'browse',
  'messageGet',
  'messageDelete',
  'messagesDelete',
  'messagesMove',
  'messageMove',
  'messageReject',
  'resend',
  'messagesExport',
  'messagesImport',
  'messageFind',
  'acknowledgmentsFor',
  'messageArrive',
  'conversationEnd',
  'transactionBegin',
  'transactionCommit',
  'transactionAbort',
  'traffic',
  'queueClassCounts',
  'settingsList',
  'settingsSet',
  'peerAdd',
  'peerList',
  'peerRemove',
  'routeSet',
  'routeList',
  'routeRemove',
  'outgoingList',
  'outgoingPause',
  'outgoingResume',
  'serviceDisconnect',
  'serviceConnect',
  'messagesCopy',
  'messagesSearch',
  'serviceRestartImpact',
  'consume',
  'consumeCommit',
  'consumeAbort',
] as const satisfies readonly OperationName[];

// Compile-time proof that no operation of the contract is missing above.
type Missing = Exclude<OperationName, (typeof OPERATION_NAMES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** Checks a parsed service.json by hand (the shape of core/api's serviceFileSchema). */
export function isServiceFile(value: unknown): value is ServiceFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['url'] === 'string' &&
    typeof v['pid'] === 'number' &&
    Number.isInteger(v['pid']) &&
    typeof v['name'] === 'string' &&
    typeof v['id'] === 'string' &&
    typeof v['startedTime'] === 'string'
  );
}
