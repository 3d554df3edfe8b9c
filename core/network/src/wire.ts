/** The engine's transit messages to and from the peer link's wire format (core/api peer-link.ts). */
import type { WireMessage } from '@qk/api';
import type { TransitMessage } from '@qk/engine';

export function toWire(m: TransitMessage): WireMessage {
  return {
    id: m.msgId,
    classCode: m.classCode,
    label: m.label,
    bodyBase64: m.body.toString('base64'),
    priority: m.priority,
    recoverable: m.recoverable,
    journal: m.journal,
    acknowledge: m.ack,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destinationQueue: m.destQueue,
    correlationId: m.correlationId,
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: m.sourceMachineId,
    sentTime: new Date(m.sentMs).toISOString(),
    reachQueueWithinMs: m.reachQueueWithinMs,
    receiveWithinMs: m.receiveWithinMs,
    timeToReachQueue: m.ttrq,
    timeToBeReceived: m.ttbr,
    hops: m.hops,
    transactional: m.transactional,
    sequence: m.sequence,
    conversation: m.conversation,
  };
}

export function fromWire(w: WireMessage): TransitMessage {
  const sentMs = Date.parse(w.sentTime);
  return {
    msgId: w.id,
    classCode: w.classCode,
    label: w.label,
    body: Buffer.from(w.bodyBase64, 'base64'),
    priority: w.priority,
    recoverable: w.recoverable,
    journal: w.journal,
    ack: w.acknowledge,
    adminQueue: w.adminQueue,
    responseQueue: w.responseQueue,
    destQueue: w.destinationQueue,
    correlationId: w.correlationId,
    appSpecific: w.appSpecific,
    sourceMachine: w.sourceMachine,
    sourceMachineId: w.sourceMachineId,
    // A send time the source wrote badly is shown as the arrival: timers never depend on it (R-X2).
    sentMs: Number.isNaN(sentMs) ? Date.now() : sentMs,
    reachQueueWithinMs: w.reachQueueWithinMs,
    receiveWithinMs: w.receiveWithinMs,
    ttrq: w.timeToReachQueue,
    ttbr: w.timeToBeReceived,
    hops: w.hops,
    transactional: w.transactional,
    sequence: w.sequence,
    conversation: w.conversation,
  };
}
