import { describe, expect, it } from 'vitest';
import type { MessageInfo } from '@qk/model';
import {
  applyPendingSelect,
  clearSelected,
  noSelection,
  pruneSelection,
  selectAllRows,
  selectedCount,
  selectRow,
} from '../../../../renderer/src/message-list/selection.js';
import { message } from '../support/messages.js';

const rows = Array.from({ length: 10 }, (_, i) => message(101 + i));
const all = (i: number): MessageInfo | undefined => rows[i];
const ids = (s: { selection: Record<number, true> }) => Object.keys(s.selection).map(Number);

describe('list selection', () => {
  it('click replaces, Ctrl+click toggles, Shift+click selects from the anchor', () => {
    let s = selectRow(noSelection, 2, 'replace', all);
    expect(ids(s)).toEqual([103]);
    s = selectRow(s, 5, 'toggle', all);
    expect(ids(s)).toEqual([103, 106]);
    expect(s.anchorIndex).toBe(5);
    s = selectRow(s, 5, 'toggle', all);
    expect(ids(s)).toEqual([103]);
    s = selectRow(s, 8, 'range', all);
    // The anchor is the last toggled row (5): 5..8, and the anchor stays for the next Shift+click.
    expect(ids(s)).toEqual([106, 107, 108, 109]);
    expect(s.anchorIndex).toBe(5);
    s = selectRow(s, 3, 'range', all);
    expect(ids(s)).toEqual([104, 105, 106]);
    expect(selectedCount(s, 10)).toBe(3);
  });

  it('a row whose page has not arrived gets the focus now and the selection when it arrives', () => {
    const nothing = () => undefined;
    let s = selectRow(selectRow(noSelection, 1, 'replace', all), 9, 'replace', nothing);
    expect(s.focusIndex).toBe(9);
    expect(ids(s)).toEqual([102]);
    expect(applyPendingSelect(s, nothing)).toBe(s);
    s = applyPendingSelect(s, all);
    expect(ids(s)).toEqual([110]);
    expect(s.pendingSelect).toBeNull();
  });

  it('a pending selection is dropped when the focus moved on before its row arrived', () => {
    const nothing = () => undefined;
    let s = selectRow(noSelection, 9, 'replace', nothing);
    s = { ...s, focusIndex: 4 };
    s = applyPendingSelect(s, all);
    expect(ids(s)).toEqual([]);
    expect(s.pendingSelect).toBeNull();
  });

  it('Ctrl+A stands for every row of the list, loaded or not', () => {
    const s = selectAllRows(noSelection, [rows.slice(0, 3)]);
    expect(s.allSelected).toBe(true);
    expect(selectedCount(s, 2_500)).toBe(2_500);
    const cleared = clearSelected(s);
    expect(selectedCount(cleared, 2_500)).toBe(0);
  });

  it('a refresh drops selected messages that are gone and keeps those still listed', () => {
    const selection = { 101: true, 102: true, 103: true } as Record<number, true>;
    const before = rows.slice(0, 3);
    const after = [rows[0] as MessageInfo, rows[2] as MessageInfo];
    expect(pruneSelection(selection, before, [after])).toEqual({ 101: true, 103: true });
    // Nothing gone: the same object, so the store does not re-render.
    expect(pruneSelection(selection, before, [before])).toBe(selection);
    // A first load (no previous rows) prunes nothing.
    expect(pruneSelection(selection, undefined, [after])).toBe(selection);
  });
});
