/**
 * What a destination or routing server owes the source of a transactional message (docs/network.md): control
 * items sent store-and-forward. Apart from confirmations.ts so the removal and dead-letter paths can use it
 * without an import cycle.
 */
import type { Core } from '../core.js';
import type { Draft } from '../drafts.js';
import type { ComputerRef, ControlItem } from './port-types.js';

/** This computer as a control item names it. */
export function selfRef(core: Core): ComputerRef {
  return { name: core.identity.name, id: core.identity.id };
}

// ── the destination: what it owes ─────────────────────────────────────────────────────────────────────

/**
 * Owes the source of a transactional message its final confirmation: ACK_RECEIVE when an application
 * received it, else the class it failed with. Runs in the unit of work that decided the message's fate.
 */
export function oweFinal(
  core: Core,
  message: Pick<Draft, 'msgId' | 'sourceMachine' | 'sourceMachineId'>,
  classCode: number,
): void {
  const item: ControlItem = {
    kind: 'final',
    to: { name: message.sourceMachine, id: message.sourceMachineId },
    from: selfRef(core),
    messageId: message.msgId,
    classCode,
  };
  core.store.delivery.addControl(message.sourceMachine.toLowerCase(), null, JSON.stringify(item), core.clock.now());
}

/** Owes the source its order acknowledgment (R-E3); a later one replaces an earlier one of the same stream. */
export function oweSequenceAck(core: Core, to: ComputerRef, stream: string, through: number): void {
  const item: ControlItem = { kind: 'sequenceAck', to, from: selfRef(core), stream, through };
  core.store.delivery.addControl(to.name.toLowerCase(), `seq:${stream}`, JSON.stringify(item), core.clock.now());
}
