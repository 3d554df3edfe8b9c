/**
 * The dependency arrows of DESIGN.md, checked on every `npm test`. A rule broken here is an import
 * that points the wrong way.
 */
const layer = (name) => `^core/${name}/`;
const ours = '^(core|electron|renderer)/';

/** For each layer, the layers of ours it may import (besides itself). */
const allowed = {
  model: [],
  store: ['model'],
  engine: ['model', 'store'],
  api: ['model'],
  // The service hosts everything below it; never the CLI: `qk service start` reaches the service runner through
  // bin/qk-entry.ts, the composition root that joins core/cli and core/service (the only code that may).
  service: ['model', 'store', 'engine', 'api', 'rpc', 'network'],
  // One call protocol for every connection, browser-safe: the renderer imports it too.
  rpc: ['model'],
  // DESIGN: core/network may import model, engine, api and rpc (never the store: the engine owns it).
  network: ['model', 'engine', 'api', 'rpc'],
  client: ['model', 'api', 'rpc'],
  cli: ['model', 'api', 'client'],
};

const layerRules = Object.entries(allowed).map(([name, deps]) => ({
  name: `${name}-imports-only-${deps.length ? deps.join('-') : 'itself'}`,
  severity: 'error',
  from: { path: layer(name) },
  to: {
    path: ours,
    pathNot: [layer(name), ...deps.map(layer)],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Circular imports hide layering mistakes and break module initialisation order.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-never-imports-electron-or-react',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '(^|/)node_modules/(electron|react|react-dom|zustand|@tanstack)/' },
    },
    {
      name: 'core-never-imports-ui-layers',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(electron|renderer)/' },
    },
    {
      name: 'rpc-common-part-is-browser-safe',
      severity: 'error',
      comment: 'The renderer loads core/rpc: only core/rpc/src/node/ may use Node modules or ws.',
      from: { path: '^core/rpc/', pathNot: '^core/rpc/src/node/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'rpc-common-part-has-no-socket-library',
      severity: 'error',
      from: { path: '^core/rpc/', pathNot: '^core/rpc/src/node/' },
      to: { path: '(^|/)node_modules/ws/' },
    },
    {
      name: 'nothing-imports-the-composition-root',
      severity: 'error',
      comment: 'bin/ joins the layers (the qk entry); a layer importing it would import every other layer.',
      from: { path: ours },
      to: { path: '^bin/' },
    },
    {
      name: 'renderer-imports-only-api-model-and-rpc',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: ours, pathNot: ['^renderer/', layer('api'), layer('model'), '^core/rpc/src/(?!node/)'] },
    },
    {
      name: 'renderer-never-imports-node',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-never-imports-native-or-server-modules',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '(^|/)node_modules/(better-sqlite3|fastify|ws|electron|commander)/' },
    },
    {
      name: 'only-store-uses-sqlite',
      severity: 'error',
      from: { path: '^(core|electron|renderer)/', pathNot: '^core/store/' },
      to: { path: '(^|/)node_modules/better-sqlite3/' },
    },
    {
      name: 'electron-only-in-electron',
      severity: 'error',
      from: { pathNot: '^electron/' },
      to: { path: '(^|/)node_modules/electron/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|build/types)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
