/**
 * Reading another computer's queue (issue 7, item 8). A remote path resolves to this computer's outgoing
 * queue for it; MSMQ lets only an administrator read an outgoing queue, and an application's receive or peek
 * of a remote queue goes to that computer's queue manager (remote read), never to the local outgoing queue.
 */
import { printableName, QkError, type QueueRef } from '@qk/model';

/** Which computer a remote reference names, as a person would write it. */
function computerOf(ref: QueueRef): string {
  switch (ref.computer.by) {
    case 'name':
      return ref.computer.name;
    case 'guid':
      return `the computer {${ref.computer.guid}}`;
    case 'local':
      return '.';
  }
}

/** ACCESS_DENIED for a receive or peek of a queue on another computer, naming what to do instead. */
export function remoteReadDenied(op: 'receive' | 'peek', path: string, ref: QueueRef): QkError {
  const computer = printableName(computerOf(ref));
  return new QkError(
    'ACCESS_DENIED',
    `Cannot ${op} '${printableName(path)}': it is a queue on ${computer}, and ${op === 'receive' ? 'receiving' : 'peeking'} ` +
      `here would read this computer's outgoing queue for it, which only an administrator may browse. ` +
      `Connect to ${computer}'s own service instead (qk --service URL --token TOKEN ${op} …); ` +
      `to inspect the outgoing queue as an administrator, use qk messages, qk queue show or qk queue purge.`,
  );
}
