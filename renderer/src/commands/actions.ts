/**
 * What can be done now, as MMC's Actions pane lists it: first for the selected tree node, then for what is
 * selected in the result pane (messages, or a queue in a folder's list). The Actions pane, the context
 * menus, the Action menu, the toolbar and the keyboard all use this one model, so they never disagree.
 */
import { formatCount } from '../format/format.js';
import type { AppStore } from '../store/app-store.js';
import { nodeCaption, parseNodeId } from '../tree/tree-model.js';
import type { ActionItem } from './action-item.js';
import { nodeActions } from './node-actions.js';
import { messageSelectionActions, resultItemActions, singleSelected } from './selection-actions.js';

export type { ActionItem } from './action-item.js';
export { attempt } from './action-item.js';
export { openSelectedProperties } from './selection-actions.js';
export { confirmDeleteSelected } from './confirmations.js';

/** The two sections of the Actions pane. */
export interface ActionsModel {
  nodeTitle: string;
  nodeActions: ActionItem[];
  selectionTitle: string | null;
  selectionActions: ActionItem[];
}

const empty: ActionsModel = { nodeTitle: '', nodeActions: [], selectionTitle: null, selectionActions: [] };

/** The Actions pane model for the current state. */
export function buildActions(store: AppStore): ActionsModel {
  const state = store.getState();
  const selected = state.selectedNodeId;
  if (!selected) return empty;
  const ref = parseNodeId(selected);
  const computerName = (key: string) => state.computers.find((c) => c.key === key)?.name ?? '';
  const model: ActionsModel = {
    nodeTitle: nodeCaption(ref, computerName(ref.computer)),
    nodeActions: nodeActions(store, state, ref),
    selectionTitle: null,
    selectionActions: [],
  };
  if (state.target) {
    const count = state.selectedCount();
    if (count === 0) return model;
    const one = singleSelected(state);
    model.selectionTitle =
      count === 1
        ? (one && 'label' in one && one.label) || 'Selected message'
        : `${formatCount(count)} selected messages`;
    model.selectionActions = messageSelectionActions(store, state);
  } else if (state.resultSelection) {
    const item = parseNodeId(state.resultSelection);
    model.selectionTitle = nodeCaption(item, computerName(item.computer));
    model.selectionActions = resultItemActions(store, state, state.resultSelection);
  }
  return model;
}

/** An action of the selection, else of the node, by id (the toolbar's and the keyboard's lookup). */
export function findAction(model: ActionsModel, ...ids: string[]): ActionItem | undefined {
  for (const id of ids) {
    const found = model.selectionActions.find((a) => a.id === id);
    if (found) return found;
  }
  for (const id of ids) {
    const found = model.nodeActions.find((a) => a.id === id);
    if (found) return found;
  }
  return undefined;
}
