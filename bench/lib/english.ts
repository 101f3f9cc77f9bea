/**
 * Deterministic English-like text for benchmarks that must run anywhere
 * (no data set needed): sentences assembled from a fixed word list by a
 * seeded PRNG. The same seed gives the same text on every machine.
 *
 *   rng(seed)                          -> () => float in [0, 1) (mulberry32)
 *   sentence(random)                   -> one sentence
 *   paragraph(random, sentences?)      -> 5-9 sentences (~400-700 characters), wrapped at 80 columns
 *   textOfBytes(random, bytes, marker?) -> paragraphs separated by blank lines, cut at a word
 *                                         boundary to at most `bytes` UTF-8 bytes (ASCII: chars);
 *                                         `marker` (a word) is put in the first sentence
 *   bigText(random, bytes, marker)     -> the same, with the marker in a paragraph of its own
 *                                         in the middle (one line hit for grep)
 *   query(random)                      -> a 2-4 word search query from the same vocabulary
 */
const NOUNS = (
  'river mountain garden window letter market engine village teacher doctor farmer student ' +
  'computer network signal protein cell membrane enzyme bridge harbor forest island planet ' +
  'battery circuit sensor library museum painter author reader record method sample pattern ' +
  'system theory model report budget contract council city street school kitchen winter summer ' +
  'storm cloud ocean desert valley journey question answer problem solution result measure ' +
  'patient nurse hospital clinic medicine treatment symptom virus vaccine gene molecule crystal ' +
  'metal mineral fossil animal insect bird flower tree seed harvest orchard wheat coffee tea ' +
  'bottle basket candle mirror ladder tower castle wall gate road train station airport pilot ' +
  'captain sailor soldier merchant banker lawyer judge witness camera picture song poem story ' +
  'chapter language culture history science physics chemistry biology economy industry factory'
).split(' ');

const ADJECTIVES = (
  'quiet bright narrow ancient modern careful rapid gentle heavy fragile golden silver hidden ' +
  'open distant local global early late simple complex stable unusual common rare strong weak ' +
  'warm cold dry humid clear cloudy sharp smooth rough small large tiny enormous young old ' +
  'curious patient honest brave clever practical formal casual digital natural chemical ' +
  'economic political social medical urban rural coastal northern southern eastern western'
).split(' ');

/** Regular verbs: past = +ed (or +d), third person = +s. */
const VERBS = (
  'measure observe collect protect improve compare describe explain repair deliver discover ' +
  'question support reduce increase produce examine visit follow reach change transform ' +
  'publish record count study travel restore design arrange signal connect review'
).split(' ');

const ADVERBS =
  'quietly rapidly carefully rarely often slowly suddenly gradually clearly barely eventually frequently'.split(' ');
const PREPOSITIONS = 'near beside across behind under above beyond within around between'.split(' ');
const PLACES =
  'the northern valley|the old harbor|a small village|the city council|the research station|the coastal town|the mountain pass|the public library'.split(
    '|',
  );

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const past = (verb: string) =>
  verb.endsWith('e') ? `${verb}d` : verb.endsWith('y') ? `${verb.slice(0, -1)}ied` : `${verb}ed`;
const third = (verb: string) =>
  verb.endsWith('y') ? `${verb.slice(0, -1)}ies` : verb.endsWith('h') ? `${verb}es` : `${verb}s`;
const plural = (noun: string) =>
  noun.endsWith('y') && !/[aeiou]y$/.test(noun)
    ? `${noun.slice(0, -1)}ies`
    : /(s|sh|ch|x)$/.test(noun)
      ? `${noun}es`
      : `${noun}s`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function clause(random: () => number): string {
  const r = random();
  if (r < 0.3)
    return `the ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)} ${past(pick(random, VERBS))} the ${pick(random, NOUNS)}`;
  if (r < 0.6)
    return `${plural(pick(random, NOUNS))} ${pick(random, VERBS)} ${pick(random, ADJECTIVES)} ${plural(pick(random, NOUNS))} ${pick(random, PREPOSITIONS)} ${pick(random, PLACES)}`;
  return `a ${pick(random, NOUNS)} ${pick(random, ADVERBS)} ${third(pick(random, VERBS))} the ${pick(random, NOUNS)} of ${pick(random, PLACES)}`;
}

export function sentence(random: () => number): string {
  const r = random();
  if (r < 0.2) return `${capital(clause(random))}.`;
  if (r < 0.4) return `${capital(pick(random, ADVERBS))}, ${clause(random)} because ${clause(random)}.`;
  if (r < 0.55) return `In ${1850 + Math.floor(random() * 170)}, ${clause(random)}.`;
  if (r < 0.7) return `When ${clause(random)}, ${clause(random)}.`;
  if (r < 0.85)
    return `The ${pick(random, NOUNS)} ${pick(random, PREPOSITIONS)} ${pick(random, PLACES)} was ${pick(random, ADJECTIVES)} and ${pick(random, ADJECTIVES)}.`;
  return `Did ${clause(random)}?`;
}

export function paragraph(random: () => number, sentences = 5 + Math.floor(random() * 5)): string {
  return wrap(Array.from({ length: sentences }, () => sentence(random)).join(' '));
}

/** Hard-wraps at `columns` as plain-text files often are (chunkText then fills passages to ~400 characters). */
function wrap(text: string, columns = 80): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

function cutAtWord(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  const cut = text.slice(0, bytes);
  return cut.slice(0, cut.lastIndexOf(' ')).trimEnd();
}

export function textOfBytes(random: () => number, bytes: number, marker?: string): string {
  const parts: string[] = [];
  let length = 0;
  if (marker) {
    const first = `Record ${marker}: ${sentence(random)}`;
    parts.push(first);
    length += first.length;
  }
  while (length < bytes) {
    const p = paragraph(random);
    parts.push(p);
    length += p.length + 2;
  }
  return cutAtWord(parts.join('\n\n'), bytes);
}

export function bigText(random: () => number, bytes: number, marker: string): string {
  const half = textOfBytes(random, Math.floor(bytes / 2) - 200);
  const middle = `Reference ${marker} marks the middle of this text. ${sentence(random)}`;
  const rest = textOfBytes(random, bytes - Buffer.byteLength(half) - Buffer.byteLength(middle) - 4);
  return `${half}\n\n${middle}\n\n${rest}`;
}

export function query(random: () => number): string {
  const r = random();
  if (r < 0.4) return `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
  if (r < 0.8) return `${pick(random, NOUNS)} ${pick(random, VERBS)} ${pick(random, NOUNS)}`;
  return `${past(pick(random, VERBS))} ${pick(random, ADJECTIVES)} ${plural(pick(random, NOUNS))} ${pick(random, PLACES)}`;
}
