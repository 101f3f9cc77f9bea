// ESLint rule `library/no-exponential-backtracking`: a regular expression in which some repetition
// can match the same text in two different ways, again and again. On a text that then fails to
// match, a backtracking engine (V8's) tries every way: 2^n attempts for n repetitions. That is how
// /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i
// spent 24 s on 29 comments '<!---->' (issue 24): the lazy body of one comment can swallow the next.
//
// eslint-plugin-regexp's no-super-linear-backtracking only finds attacks made of one repeated
// character (/(a+)+$/); this rule finds repeated words of any length. It builds the pattern's
// position automaton (Glushkov), keeping how many ways lead from one position to the next, and
// looks for exponential ambiguity (Weber and Seidl): a position from which two different paths
// read the same word and both return to it. In the product of the automaton with itself, that is
// a strongly connected component holding a pair (p, p) and either a pair of two different
// positions or a step that two ways take. `^` and `$` (without the m flag) are read as the start
// and the end of the text, which nothing may precede or follow; other anchors and lookarounds are
// ignored (taken as always true), backreferences dropped, lazy and greedy counted alike; an empty
// iteration of a loop does not count, as in JavaScript. A pattern too large to analyse is left
// alone. Known false alarm: a loop kept unambiguous only by a lookahead, such as a tempered
// comment body (?:(?!-->)[\s\S])*; write such a loop by position instead.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getStaticValue } from '@eslint-community/eslint-utils';
import { JS, Words } from 'refa';

const MAX_POSITIONS = 2000;
const MAX_PAIRS = 200_000;
/** What `^` and `$` read (when not multiline): the edges of the text, which no character matches. */
const START = 'start of text';
const END = 'end of text';

class TooComplex extends Error {}

/** Counts of ways are only ever compared with 1: cap them at 2. */
const cap = (n) => Math.min(2, n);
const addWays = (map, key, ways) => {
  if (ways > 0) map.set(key, cap((map.get(key) ?? 0) + ways));
};

/**
 * The position automaton of a refa expression: `chars[p]` is what position p reads, `follow[p]`
 * maps each next position to the number of ways (1 or 2+) to step there, `first` is where a
 * match starts.
 */
function positionAutomaton(expression, multiline) {
  const chars = [];
  const follow = [];
  const position = (characters) => {
    if (chars.length >= MAX_POSITIONS) throw new TooComplex();
    chars.push(characters);
    follow.push(new Map());
    return chars.length - 1;
  };
  const nothing = () => ({ first: new Map(), last: new Map(), empty: 0 });
  const emptyWord = () => ({ first: new Map(), last: new Map(), empty: 1 });
  const link = (last, first) => {
    for (const [from, a] of last) {
      for (const [to, b] of first) {
        // Nothing is read after the end of the text, nor before its start.
        if (chars[from] === END && chars[to] !== END) continue;
        if (chars[to] === START && chars[from] !== START) continue;
        addWays(follow[from], to, a * b);
      }
    }
  };
  const then = (a, b) => {
    link(a.last, b.first);
    const first = new Map(a.first);
    for (const [p, ways] of b.first) addWays(first, p, ways * a.empty);
    const last = new Map(b.last);
    for (const [p, ways] of a.last) addWays(last, p, ways * b.empty);
    return { first, last, empty: cap(a.empty * b.empty) };
  };
  const alternatives = (list) => {
    const out = nothing();
    for (const concatenation of list) {
      const part = concatenation.elements.reduce((acc, element) => then(acc, fragment(element)), emptyWord());
      for (const [p, ways] of part.first) addWays(out.first, p, ways);
      for (const [p, ways] of part.last) addWays(out.last, p, ways);
      out.empty = cap(out.empty + part.empty);
    }
    return out;
  };
  const quantifier = (q) => {
    let out = emptyWord();
    for (let i = 0; i < q.min; i++) out = then(out, alternatives(q.alternatives));
    if (q.max === Infinity) {
      const body = alternatives(q.alternatives);
      link(body.last, body.first);
      // Zero or more iterations; one that matches nothing is refused, so it adds no way.
      return then(out, { first: body.first, last: body.last, empty: 1 });
    }
    // x{0,3} is tried as (x(x(x)?)?)?: built from the inside out.
    let optional = emptyWord();
    for (let i = q.min; i < q.max; i++) {
      const step = then(alternatives(q.alternatives), optional);
      optional = { first: step.first, last: step.last, empty: cap(step.empty + 1) };
    }
    return then(out, optional);
  };
  const fragment = (element) => {
    switch (element.type) {
      case 'CharacterClass': {
        if (element.characters.isEmpty) return nothing();
        const p = position(element.characters);
        return { first: new Map([[p, 1]]), last: new Map([[p, 1]]), empty: 0 };
      }
      case 'Alternation':
        return alternatives(element.alternatives);
      case 'Quantifier':
        return quantifier(element);
      case 'Unknown': {
        // An assertion, by its source: only ^ and $ are kept, as the edges of the text.
        const edge = multiline ? null : element.id === '^' ? START : element.id === '$' ? END : null;
        if (!edge) return emptyWord();
        const p = position(edge);
        return { first: new Map([[p, 1]]), last: new Map([[p, 1]]), empty: 0 };
      }
      default:
        return nothing();
    }
  };
  const whole = alternatives(expression.alternatives);
  return { chars, follow, first: whole.first };
}

/**
 * A witness of exponential ambiguity, or null: `prefix` leads from the start to a position from
 * which `word` can be read back to it in two different ways.
 */
function exponentialAmbiguity({ chars, follow, first }) {
  const n = chars.length;
  const overlap = new Map();
  const common = (a, b) => {
    if (a === b || chars[a] === chars[b]) return chars[a];
    if (typeof chars[a] === 'string' || typeof chars[b] === 'string') return null;
    const key = a < b ? a * n + b : b * n + a;
    if (!overlap.has(key)) overlap.set(key, chars[a].isDisjointWith(chars[b]) ? null : chars[a].intersect(chars[b]));
    return overlap.get(key);
  };
  // Product nodes are a * n + b. successors(node) -> [next, twoWays, characters]
  const successors = (node) => {
    const a = Math.floor(node / n);
    const b = node % n;
    const out = [];
    for (const [x, waysA] of follow[a]) {
      for (const [y, _waysB] of follow[b]) {
        const characters = common(x, y);
        if (characters) out.push([x * n + y, a === b && x === y && waysA > 1, characters]);
      }
    }
    return out;
  };

  // Tarjan's strongly connected components over the pairs reachable from diagonal pairs, iteratively.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  let counter = 0;
  for (let p = 0; p < n; p++) {
    const root = p * n + p;
    if (index.has(root)) continue;
    const work = [[root, successors(root), 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (frame[2] < next.length) {
        const [child] = next[frame[2]++];
        if (!index.has(child)) {
          if (index.size >= MAX_PAIRS) throw new TooComplex();
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push([child, successors(child), 0]);
        } else if (onStack.has(child)) {
          low.set(node, Math.min(low.get(node), index.get(child)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) !== index.get(node)) continue;
      const component = new Set();
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.add(member);
      } while (member !== node);
      const witness = ambiguousCycle(component, n, successors);
      if (witness) return { ...witness, prefix: wordTo(Math.floor(witness.at / n), { chars, follow, first }) };
    }
  }
  return null;
}

/** In one component: a cycle from a diagonal pair through two different steps, as its word. */
function ambiguousCycle(component, n, successors) {
  const diagonal = [...component].find((node) => Math.floor(node / n) === node % n);
  if (diagonal === undefined) return null;
  // Search from the diagonal pair within the component: `split` records whether the two paths
  // have already differed. Reaching the diagonal pair again with split = true is the witness.
  const seen = new Map([[`${diagonal}:0`, null]]);
  const queue = [[diagonal, 0]];
  while (queue.length) {
    const [node, split] = queue.shift();
    for (const [next, twoWays, characters] of successors(node)) {
      if (!component.has(next)) continue;
      const nextSplit = split || twoWays || Math.floor(next / n) !== next % n ? 1 : 0;
      const key = `${next}:${nextSplit}`;
      if (seen.has(key)) continue;
      seen.set(key, { from: `${node}:${split}`, character: readable(characters) });
      if (next === diagonal && nextSplit) {
        let word = '';
        for (let at = key; seen.get(at); at = seen.get(at).from) word = seen.get(at).character + word;
        return { at: diagonal, word };
      }
      queue.push([next, nextSplit]);
    }
  }
  return null;
}

/** A shortest word that leads from the start of a match to position p. */
function wordTo(p, { chars, follow, first }) {
  const from = new Map();
  const queue = [];
  for (const start of first.keys()) {
    if (!from.has(start)) from.set(start, null);
    queue.push(start);
  }
  while (queue.length && !from.has(p)) {
    const at = queue.shift();
    for (const next of follow[at].keys()) {
      if (from.has(next)) continue;
      from.set(next, at);
      queue.push(next);
    }
  }
  let word = '';
  for (let at = p; at !== null && at !== undefined; at = from.get(at)) word = readable(chars[at]) + word;
  return word;
}

const readable = (characters) =>
  typeof characters === 'string' ? '' : String.fromCodePoint(Words.pickMostReadableCharacter(characters) ?? 0);

/** The witness of exponential backtracking in a pattern, null when there is none or it is too large to tell. */
export function findExponentialBacktracking(source, flags) {
  let expression;
  try {
    ({ expression } = JS.Parser.fromLiteral({ source, flags }).parse({
      assertions: 'unknown',
      backreferences: 'disable',
    }));
  } catch {
    return null; // not a pattern refa reads (invalid, or a feature it lacks): other checks will see it
  }
  try {
    return exponentialAmbiguity(positionAutomaton(expression, flags.includes('m')));
  } catch (error) {
    if (error instanceof TooComplex) return null;
    throw error;
  }
}

export const noExponentialBacktracking = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'disallow regular expressions whose repetitions can match the same text in two ways (exponential backtracking)',
    },
    schema: [],
    messages: {
      ambiguous:
        'Exponential backtracking: after {{prefix}}, the repeated part can read {{word}} in more than one way, so a text like {{prefix}} + {{word}} x 30 that then fails to match takes 2^30 attempts. Make each repetition unambiguous (e.g. a body that cannot run past its own end).',
    },
  },
  create(context) {
    const check = (node, source, flags) => {
      const witness = findExponentialBacktracking(source, flags);
      if (witness)
        context.report({
          node,
          messageId: 'ambiguous',
          data: { prefix: JSON.stringify(witness.prefix), word: JSON.stringify(witness.word) },
        });
    };
    const constructed = (node) => {
      if (node.callee.type !== 'Identifier' || node.callee.name !== 'RegExp') return;
      const [patternArgument, flagsArgument] = node.arguments;
      if (!patternArgument || patternArgument.type === 'SpreadElement') return;
      const scope = context.sourceCode.getScope(node);
      const pattern = getStaticValue(patternArgument, scope);
      if (!pattern || typeof pattern.value !== 'string') return; // a RegExp literal argument is checked as a literal
      const flags = flagsArgument ? getStaticValue(flagsArgument, scope) : { value: '' };
      check(node, pattern.value, flags && typeof flags.value === 'string' ? flags.value : '');
    };
    return {
      Literal(node) {
        if (node.regex) check(node, node.regex.pattern, node.regex.flags);
      },
      NewExpression: constructed,
      CallExpression: constructed,
    };
  },
};

/** The plugin; its version is this file's hash, so that ESLint's cache forgets results when the rule changes. */
export default {
  meta: {
    name: 'library',
    version: createHash('sha256')
      .update(readFileSync(new URL(import.meta.url)))
      .digest('hex')
      .slice(0, 16),
  },
  rules: { 'no-exponential-backtracking': noExponentialBacktracking },
};
