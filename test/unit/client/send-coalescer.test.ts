import { describe, expect, it } from 'vitest';
import { QkError } from '@qk/model';
import { MAX_SENDS_PER_CALL, SendCoalescer } from '../../../core/client/src/send-coalescer.js';

/** A fake transport: records every call and answers sendEach with one result per send. */
function fakeService(options: { knowsSendEach?: boolean; refuse?: (input: unknown) => QkError | undefined } = {}) {
  const calls: { op: string; input: unknown }[] = [];
  let next = 1;
  const answer = (input: unknown) => {
    const refusal = options.refuse?.(input);
    return refusal
      ? { ok: false, error: { code: refusal.code, message: refusal.message } }
      : { ok: true, value: { id: `m${next++}` } };
  };
  const call = async (op: string, input: unknown): Promise<unknown> => {
    calls.push({ op, input });
    if (op === 'sendEach') {
      if (options.knowsSendEach === false) throw new QkError('INVALID_PARAMETER', "Unknown operation 'sendEach'.");
      return { results: (input as { sends: unknown[] }).sends.map(answer) };
    }
    if (op === 'send') {
      const refusal = options.refuse?.(input);
      if (refusal) throw refusal;
      return { id: `m${next++}` };
    }
    return {};
  };
  return { calls, call };
}

const send = (body: string, path = '.\\private$\\q') => ({ path, message: { body } });

describe('SendCoalescer (issue 11: sends in flight leave as one sendEach)', () => {
  it('sends made in one turn go as one sendEach, each answered with its own result, in order', async () => {
    const service = fakeService();
    const coalescer = new SendCoalescer(service.call);
    const answers = await Promise.all(['a', 'b', 'c'].map((body) => coalescer.send(send(body))));
    expect(service.calls).toEqual([{ op: 'sendEach', input: { sends: [send('a'), send('b'), send('c')] } }]);
    expect(answers).toEqual([{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }]);
  });

  it('a lone send goes as a plain send', async () => {
    const service = fakeService();
    const coalescer = new SendCoalescer(service.call);
    await expect(coalescer.send(send('alone'))).resolves.toEqual({ id: 'm1' });
    expect(service.calls.map((c) => c.op)).toEqual(['send']);
  });

  it('a refused send fails alone with its own code; the others are answered', async () => {
    const service = fakeService({
      refuse: (input) =>
        (input as { path: string }).path.endsWith('missing')
          ? new QkError('QUEUE_NOT_FOUND', 'No such queue.')
          : undefined,
    });
    const coalescer = new SendCoalescer(service.call);
    const outcomes = await Promise.allSettled([
      coalescer.send(send('a')),
      coalescer.send(send('b', '.\\private$\\missing')),
      coalescer.send(send('c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (outcomes[1] as PromiseRejectedResult).reason as QkError;
    expect(refused).toBeInstanceOf(QkError);
    expect(refused.code).toBe('QUEUE_NOT_FOUND');
  });

  it('a later call of the client leaves after the sends queued before it', async () => {
    const service = fakeService();
    const coalescer = new SendCoalescer(service.call);
    const sends = [coalescer.send(send('a')), coalescer.send(send('b'))];
    // What the WebSocket transport does before any other call.
    coalescer.flush();
    await service.call('transactionCommit', { transaction: 't' });
    await Promise.all(sends);
    expect(service.calls.map((c) => c.op)).toEqual(['sendEach', 'transactionCommit']);
  });

  it(`a call holds at most ${MAX_SENDS_PER_CALL} sends; a large body leaves on its own`, async () => {
    const service = fakeService();
    const coalescer = new SendCoalescer(service.call);
    const many = Array.from({ length: MAX_SENDS_PER_CALL + 5 }, (_, i) => coalescer.send(send(`m${i}`)));
    const large = coalescer.send(send('x'.repeat(300 * 1024)));
    await Promise.all([...many, large]);
    const sizes = service.calls.map((c) => (c.op === 'sendEach' ? (c.input as { sends: unknown[] }).sends.length : 1));
    expect(service.calls.map((c) => c.op)).toEqual(['sendEach', 'sendEach', 'send']);
    expect(sizes).toEqual([MAX_SENDS_PER_CALL, 5, 1]);
  });

  it('against a service without sendEach, each send goes again on its own, and later ones go alone', async () => {
    const service = fakeService({ knowsSendEach: false });
    const coalescer = new SendCoalescer(service.call);
    const answers = await Promise.all([coalescer.send(send('a')), coalescer.send(send('b'))]);
    expect(answers).toEqual([{ id: 'm1' }, { id: 'm2' }]);
    await Promise.all([coalescer.send(send('c')), coalescer.send(send('d'))]);
    expect(service.calls.map((c) => c.op)).toEqual(['sendEach', 'send', 'send', 'send', 'send']);
  });

  it('a call that fails as a whole (the connection closed) fails each of its sends, none sent again', async () => {
    const calls: string[] = [];
    const coalescer = new SendCoalescer(async (op) => {
      calls.push(op);
      throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection to the service closed (1006).');
    });
    const outcomes = await Promise.allSettled([coalescer.send(send('a')), coalescer.send(send('b'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(outcomes.map((o) => ((o as PromiseRejectedResult).reason as QkError).code)).toEqual([
      'SERVICE_NOT_AVAILABLE',
      'SERVICE_NOT_AVAILABLE',
    ]);
    expect(calls).toEqual(['sendEach']);
  });
});
