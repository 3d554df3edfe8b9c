/**
 * Claims (R-C5, R-P2): claimed one by one or a lease at a time, released alone (with the removal a purge left
 * owed) or all at once, the counts per queue and what each release returns are those of a plain model.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { StoredMessage } from '@qk/store';
import { Claims } from '../../../core/engine/src/claims.js';

const message = (lookupId: number, queueId: number): StoredMessage => ({ lookupId, queueId }) as StoredMessage;

type Op =
  | { kind: 'take' | 'release'; id: number; queue: number }
  | { kind: 'takeAll' | 'releaseAll'; ids: number[]; queue: number }
  | { kind: 'mark'; queue: number };

const id = fc.integer({ min: 1, max: 30 });
const queue = fc.integer({ min: 1, max: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('take' as const, 'release' as const), id, queue }),
  fc.record({ kind: fc.constantFrom('takeAll' as const, 'releaseAll' as const), ids: fc.uniqueArray(id), queue }),
  fc.record({ kind: fc.constant('mark' as const), queue }),
);

test('claims keep the counts and owed removals of a plain model', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
      const claims = new Claims();
      const model = new Map<number, { queue: number; removeAs: string | null }>();
      for (const o of ops) {
        if (o.kind === 'take' || o.kind === 'takeAll') {
          const ids: number[] = 'ids' in o ? o.ids : [o.id];
          // A message is claimed by one receive at a time: only unclaimed ones are taken.
          const fresh: number[] = ids.filter((i) => !model.has(i));
          const messages = fresh.map((i) => message(i, o.queue));
          if (o.kind === 'takeAll') claims.takeAll(messages);
          else for (const m of messages) claims.take(m);
          for (const i of fresh) model.set(i, { queue: o.queue, removeAs: null });
        } else if (o.kind === 'release') {
          expect(claims.release(o.id)).toBe(model.get(o.id)?.removeAs ?? null);
          model.delete(o.id);
        } else if (o.kind === 'releaseAll') {
          claims.releaseAll(o.ids.map((i) => message(i, model.get(i)?.queue ?? o.queue)));
          for (const i of o.ids) model.delete(i);
        } else {
          claims.markRemoval(o.queue, 'purged');
          for (const c of model.values()) if (c.queue === o.queue) c.removeAs = 'purged';
        }
        for (const q of [1, 2, 3]) {
          const inQueue = [...model].filter(([, c]) => c.queue === q).map(([i]) => i);
          expect(claims.countIn(q)).toBe(inQueue.length);
          expect(claims.idsIn(q).sort((a, b) => a - b)).toEqual(inQueue.sort((a, b) => a - b));
        }
        for (let i = 1; i <= 30; i++) expect(claims.has(i)).toBe(model.has(i));
      }
    }),
    { numRuns: 300 },
  );
});
