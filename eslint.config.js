// `npm run lint:regex` (part of `npm test`): no regular expression in the code, tests included,
// whose matching time can grow faster than linearly with its input, so that no single request can
// stall the service (issue 24: one pattern took 24 s on a 204-byte HTML file). It checks regex
// literals and RegExp(...) built from strings the rules can read (constants, templates of them). Only these safety rules live
// here; formatting and style are not this file's concern. test/unit/regex-lint.test.ts proves
// the rules fire. A finding is fixed; where a pattern only ever sees short trusted text, an inline
// `// eslint-disable-next-line regexp/<rule> -- <why it is bounded>` is the exception.
import tsParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';
import library from './scripts/eslint/no-exponential-backtracking.js';

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'cdk.out/**',
      '.library/**',
      '.cache/**',
      'coverage/**',
      '**/.build/**',
      '.tools/**',
    ],
  },
  {
    files: ['**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}'],
    languageOptions: {
      parser: tsParser,
      // Syntax only: no type information and no JSDoc, since parsing is most of the run time.
      parserOptions: { jsDocParsingMode: 'none' },
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    linterOptions: {
      // A suppression that no longer suppresses anything is an error: it would hide the next finding.
      reportUnusedDisableDirectives: 'error',
    },
    plugins: { regexp, library },
    rules: {
      // Exponential backtracking on a repeated word of any length, which the plugin's own check
      // (one repeated character) misses: the HTML pattern of issue 24 ('<!---->' x 29).
      'library/no-exponential-backtracking': 'error',
      // Exponential or polynomial backtracking within one match attempt: /(a+)+$/, /\s*\s*x/.
      // 'potential' also reports what only backtracks when the caller's text fails a later part.
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      // Quadratic time across the start positions of an unanchored search: /\s+$/ on
      // 'a' + ' ' x 50,000 + 'b' retries the run of spaces from each of its positions.
      'regexp/no-super-linear-move': ['error', { report: 'potential' }],
      // A quantifier that can hand characters to its neighbour, so a group does not capture what
      // it seems to: the same ambiguity that makes backtracking blow up.
      'regexp/no-misleading-capturing-group': 'error',
      // Two adjacent quantifiers over overlapping characters (/\w+\d+/): an ambiguous concatenation.
      'regexp/optimal-quantifier-concatenation': 'error',
    },
  },
];
