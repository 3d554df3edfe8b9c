/** Which message-list columns the user chose (View › Add/Remove Columns) and their widths, remembered. */
import type { SliceCreator } from '../store/shared.js';
import type { ColumnsSlice } from '../store/types.js';

const COLUMNS_KEY = 'queuekeeper.messageColumns';

/** Default message columns: MSMQ's (Label, Priority, Class, Size, Message ID) plus arrival and lookup ID; the long ID last. */
export const defaultMessageColumns = ['label', 'priority', 'class', 'size', 'arrivedTime', 'lookupId', 'id'];

export const createColumnsSlice: SliceCreator<ColumnsSlice> = (set, get, ctx) => {
  let saved: { columns?: unknown; sizes?: unknown } = {};
  try {
    saved = JSON.parse(ctx.storage?.getItem(COLUMNS_KEY) ?? '{}') as typeof saved;
  } catch {
    saved = {};
  }
  const persist = () =>
    ctx.storage?.setItem(COLUMNS_KEY, JSON.stringify({ columns: get().columns, sizes: get().columnSizes }));
  const columns =
    Array.isArray(saved.columns) && saved.columns.every((c) => typeof c === 'string') && saved.columns.length > 0
      ? saved.columns
      : defaultMessageColumns;
  const sizes = typeof saved.sizes === 'object' && saved.sizes !== null ? (saved.sizes as Record<string, number>) : {};
  return {
    columns,
    columnSizes: sizes,
    setColumns(next) {
      set({ columns: next.length > 0 ? next : defaultMessageColumns });
      persist();
    },
    setColumnSizes(next) {
      set({ columnSizes: next });
      persist();
    },
  };
};
