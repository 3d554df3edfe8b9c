/** Browsing a queue page by page (issue 2: a query with paging, never "load the queue into memory"). */
import { normalizeMessageId, QkError } from '@qk/model';
import type { QueueRecord, Store } from '@qk/store';
import type { QueueRegistry } from './queue-registry.js';
import type { BrowseInput, BrowsePage } from './types.js';
import { NO_BODY, toMessageInfo } from './message-view.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1_000;

function timeMs(text: string | undefined, what: string): number | undefined {
  if (text === undefined || text === '') return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new QkError('INVALID_PARAMETER', `${what} '${text}' is not an ISO 8601 time.`);
  return ms;
}

export function browseQueue(
  store: Store,
  registry: QueueRegistry,
  queue: QueueRecord,
  input: BrowseInput,
  nowMs: number,
): BrowsePage {
  const usage = registry.usageOf(queue.id);
  const limit = Math.min(Math.max(input.limit ?? DEFAULT_PAGE, 1), MAX_PAGE);
  const filter = input.filter ?? {};
  const page = store.messages.browse({
    queueId: queue.id,
    offset: Math.max(input.offset ?? 0, 0),
    limit,
    sort: { column: input.sort?.column ?? 'queue', descending: input.sort?.descending === true },
    filter: {
      label: filter.label,
      bodyText: filter.bodyText,
      classCodes: filter.classCodes,
      arrivedFromMs: timeMs(filter.arrivedFrom, 'arrivedFrom'),
      arrivedToMs: timeMs(filter.arrivedTo, 'arrivedTo'),
      correlationId: filter.correlationId === undefined ? undefined : normalizeMessageId(filter.correlationId),
      appSpecific: filter.appSpecific,
      sourceMachine: filter.sourceMachine,
      delivery: filter.delivery,
    },
    knownTotal: usage.count,
    hasRetained: usage.retained > 0,
    includeBody: input.includeBody === true,
  });
  return {
    total: page.total,
    messages: page.messages.map((m) => toMessageInfo(m, nowMs, input.includeBody === true ? undefined : NO_BODY)),
  };
}
