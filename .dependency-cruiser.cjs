/**
 * The house's layers, checked by `npm run lint:deps` (part of `npm test`).
 * lambdas/core/ holds the rules and the ports they need and imports nothing
 * else of the project; adapters implement ports and never reach into the
 * wiring, the endpoints or the workers; nothing imports in a circle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other (even for types) cannot be read or moved apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'console-talks-only-through-the-client',
      severity: 'error',
      comment: 'The web console is a browser app over the public API: it imports the typed client, never the service.',
      from: { path: '^console/src/' },
      to: { path: '^(lambdas|lib|bin|bench|test|scripts)/' },
    },
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment: 'The core knows the rules, not the world: no AWS, SQLite, HTTP or wiring.',
      from: { path: '^lambdas/core/' },
      to: { path: '^(lambdas/(?!core/)|lib/|bin/|bench/|client/|test/)' },
    },
    {
      name: 'core-no-infrastructure-packages',
      severity: 'error',
      comment: 'The core reaches the world only through its ports.',
      from: { path: '^lambdas/core/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'],
        path: '(^|/)node_modules/(@aws-sdk|@smithy|better-sqlite3|sqlite-vec|@opensearch-project|aws-cdk-lib|constructs|@middy|@aws-lambda-powertools)/',
      },
    },
    {
      name: 'adapters-not-upward',
      severity: 'error',
      comment: "An adapter implements a port; which adapter runs where is the wiring's business.",
      from: { path: '^lambdas/adapters/' },
      to: { path: '^(lambdas/(wiring|endpoints|workers|local-gateway|mcp)/|lib/|bin/)' },
    },
    {
      name: 'http-not-upward',
      severity: 'error',
      comment: 'The HTTP layer parses and maps errors; it does not choose adapters or routes.',
      from: { path: '^lambdas/http/' },
      to: { path: '^(lambdas/(wiring|endpoints|workers|local-gateway|adapters)/|lib/|bin/)' },
    },
    {
      name: 'wiring-not-into-entries',
      severity: 'error',
      comment:
        'The wiring composes adapters and services; Lambda entries and the local gateway use it, not the other way round.',
      from: { path: '^lambdas/wiring/' },
      to: { path: '^(lambdas/(endpoints|workers|local-gateway)/|lib/|bin/)' },
    },
    {
      name: 'runtime-not-into-infrastructure',
      severity: 'error',
      comment: 'The stacks read the routes and their access; the code the functions run never reads the stacks.',
      from: { path: '^lambdas/' },
      to: { path: '^lib/' },
    },
    {
      name: 'runtime-not-into-tests-or-benchmarks',
      severity: 'error',
      from: { path: '^(lambdas|lib|bin|client/src)/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|cdk\\.out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
