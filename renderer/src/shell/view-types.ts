/** State and actions of View › Customize View, typed apart from the slice. */

/** The parts of the window an administrator can hide. */
export interface ViewOptions {
  tree: boolean;
  actions: boolean;
  toolbar: boolean;
  statusBar: boolean;
}

/** The view slice. */
export interface ViewSlice {
  view: ViewOptions;
  setView(patch: Partial<ViewOptions>): void;
}
