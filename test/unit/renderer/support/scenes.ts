/** Situations an administrator meets, made on the real queue manager through its public operations. */
import { Acknowledgment, MessageJournal } from '@qk/model';
import type { EngineClient } from './engine-client.js';

let seq = 0;

/** A message ID from another computer (`{GUID}\N`). */
export function foreignId(): string {
  seq += 1;
  return `{6f1c2a3b-0000-4000-8000-00000000beef}\\${seq}`;
}

/**
 * A message from another computer for a queue that does not exist here: the arrival path sends
 * NACK_BAD_DST_Q to `adminQueue` (when given) and keeps a dead letter in DEADLETTER$ (R-A5/R-D5).
 */
export async function deadLetterFor(
  client: EngineClient,
  destination: string,
  patch: { label?: string; adminQueue?: string } = {},
): Promise<string> {
  const id = foreignId();
  await client.messageArrive({
    path: destination,
    message: {
      id,
      sourceMachine: 'BETA',
      sourceMachineId: '6f1c2a3b-0000-4000-8000-00000000beef',
      label: patch.label ?? 'dead letter',
      body: 'lost on the way',
      journal: MessageJournal.DEADLETTER,
      ...(patch.adminQueue ? { adminQueue: patch.adminQueue, acknowledge: Acknowledgment.NACK_REACH_QUEUE } : {}),
    },
  });
  return id;
}
