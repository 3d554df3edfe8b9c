/**
 * What the message list asks the service for: the sort and filter the user set, mapped to a browse call.
 * Sort and filter are evaluated by the service, so a million-message queue is never shipped to be filtered.
 */
import type { browseFilterSchema, OperationInput } from '@qk/api';
import type { BrowseSortColumn } from '@qk/model';
import type { z } from 'zod';

/** A sort column the service can sort by (core/model's one list). */
export type SortColumn = BrowseSortColumn;

/** Service-side sort of the message list. */
export interface ListSort {
  column: SortColumn;
  descending: boolean;
}

/** The filter as the filter bar holds it (text fields as typed, times as datetime-local strings). */
export interface ListFilter {
  label: string;
  bodyText: string;
  classCodes: number[];
  /** datetime-local strings ('' = open). */
  arrivedFrom: string;
  arrivedTo: string;
  /** The exact correlation ID, as typed. */
  correlationId: string;
  /** The application-specific value, as typed ('' = any; not a whole number = no filter, flagged by the bar). */
  appSpecific: string;
  /** Source computer name contains. */
  sourceMachine: string;
}

/** Which queue the message list shows. */
export interface ListTarget {
  computer: string;
  path: string;
}

/** The filter the service evaluates. */
export type ServiceFilter = z.input<typeof browseFilterSchema>;

export const emptyFilter: ListFilter = {
  label: '',
  bodyText: '',
  classCodes: [],
  arrivedFrom: '',
  arrivedTo: '',
  correlationId: '',
  appSpecific: '',
  sourceMachine: '',
};
/** Receive order: priority, then arrival (the order MSMQ's snap-in lists). */
export const defaultSort: ListSort = { column: 'queue', descending: false };

/** The browse filter for the service; empty fields are left out, and no filter at all is undefined. */
export function serviceFilter(filter: ListFilter): ServiceFilter | undefined {
  const out: ServiceFilter = {};
  if (filter.label.trim()) out.label = filter.label.trim();
  if (filter.bodyText.trim()) out.bodyText = filter.bodyText.trim();
  if (filter.classCodes.length > 0) out.classCodes = [...filter.classCodes];
  const from = localToIso(filter.arrivedFrom);
  const to = localToIso(filter.arrivedTo);
  if (from) out.arrivedFrom = from;
  if (to) out.arrivedTo = to;
  if (filter.correlationId.trim()) out.correlationId = filter.correlationId.trim();
  if (/^\d+$/.test(filter.appSpecific.trim()) && Number(filter.appSpecific) <= 0xffffffff)
    out.appSpecific = Number(filter.appSpecific.trim());
  if (filter.sourceMachine.trim()) out.sourceMachine = filter.sourceMachine.trim();
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A datetime-local value (the user's local time) as an ISO instant; null when empty or not a time. */
export function localToIso(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Whether the filter narrows the list at all (the header then says "match the filter"). */
export function isFilterActive(filter: ListFilter): boolean {
  return serviceFilter(filter) !== undefined;
}

/** The browse call for rows [offset, offset + limit) of a queue under a sort and filter. */
export function browseInput(
  path: string,
  sort: ListSort,
  filter: ListFilter,
  offset: number,
  limit: number,
): OperationInput<'browse'> {
  const browseFilter = serviceFilter(filter);
  return {
    path,
    offset,
    limit,
    sort: { column: sort.column, descending: sort.descending },
    ...(browseFilter ? { filter: browseFilter } : {}),
  };
}

/** The next sort when a column header is clicked: ascending, then descending, then back to queue order. */
export function nextSort(current: ListSort, column: SortColumn): ListSort {
  if (current.column !== column) return { column, descending: false };
  if (!current.descending) return { column, descending: true };
  return defaultSort;
}
