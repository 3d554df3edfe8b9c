import { describe, expect, it } from 'vitest';
import {
  browseInput,
  defaultSort,
  emptyFilter,
  isFilterActive,
  nextSort,
  serviceFilter,
} from '../../../../renderer/src/message-list/list-query.js';

describe('list query', () => {
  it('leaves out empty filter fields, trims text and turns local times into instants', () => {
    expect(serviceFilter(emptyFilter)).toBeUndefined();
    expect(isFilterActive({ ...emptyFilter, label: '   ' })).toBe(false);
    const f = serviceFilter({
      ...emptyFilter,
      label: ' order ',
      classCodes: [0x8003],
      arrivedFrom: '2026-01-01T10:00',
    });
    expect(f).toEqual({
      label: 'order',
      classCodes: [0x8003],
      arrivedFrom: new Date('2026-01-01T10:00').toISOString(),
    });
    expect(serviceFilter({ ...emptyFilter, arrivedTo: 'not a time' })).toBeUndefined();
  });

  it('builds the browse call of a page', () => {
    expect(browseInput('.\\private$\\q', defaultSort, emptyFilter, 400, 200)).toEqual({
      path: '.\\private$\\q',
      offset: 400,
      limit: 200,
      sort: { column: 'queue', descending: false },
    });
    expect(
      browseInput('.\\private$\\q', { column: 'size', descending: true }, { ...emptyFilter, bodyText: 'x' }, 0, 10),
    ).toMatchObject({ sort: { column: 'size', descending: true }, filter: { bodyText: 'x' } });
  });

  it('a header click sorts ascending, then descending, then back to queue order', () => {
    const asc = nextSort(defaultSort, 'label');
    expect(asc).toEqual({ column: 'label', descending: false });
    const desc = nextSort(asc, 'label');
    expect(desc).toEqual({ column: 'label', descending: true });
    expect(nextSort(desc, 'label')).toEqual(defaultSort);
    expect(nextSort(desc, 'size')).toEqual({ column: 'size', descending: false });
  });
});
