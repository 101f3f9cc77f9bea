import { split } from 'sentence-splitter';
import { HOLDS, type Wanted, wanted } from '../../core/chat/answer-kinds.js';
import type { CategoryRequest } from '../../core/chat/category-requests.js';
import { categoryOf } from '../../core/chat/intent.js';
import { properNameTerms, thingsAsked } from '../../core/chat/subject-words.js';
import { contentTerms, termSet } from '../../core/chat/terms.js';
import type { ChatModel, ChatModelAnswer, ChatModelRequest, Citation, GroundingPassage } from '../../core/ports.js';
import { O200kTokenCounter, type TokenCounter } from './o200k-tokens.js';

/**
 * The offline default chat model: no weights, no network. It splits the
 * retrieved passages into sentences (sentence-splitter), scores each by the
 * question's content words it contains (weighted by how rare each word is
 * among the candidates, so the distinctive words count most), favours the
 * passages the hybrid search ranked higher, and composes a short reply: the
 * best sentences of the best documents, verbatim, each followed by its [n]
 * citation, then the other documents that hold evidence ("Also relevant:
 * [3], [4]", their sentences are in the sources' snippets). It never writes
 * a word that is not in a passage.
 */
export interface ExtractiveOptions {
  /** Sentences in a short answer (one per passage at most), and in an itemized one (for lists, tables and charts). */
  maxSentences: number;
  /** Of a short answer's sentences, how many are quoted in the reply; the rest are cited as further evidence. */
  quotedInShortAnswer: number;
  /** A sentence after the first is quoted only if it scores at least this share of the best one (else it is further evidence). */
  quoteCutoff: number;
  maxItemized: number;
  /** A sentence joins the reply only if it scores at least this share of the best one. */
  relativeCutoff: number;
  /** Longest sentence quoted whole; longer ones are cut around their matching words. */
  maxSentenceChars: number;
  /** Sentences of one note quoted for a summary ("summarise ...", "what happened with ..."). */
  maxSummarySentences: number;
}

export const DEFAULT_EXTRACTIVE: ExtractiveOptions = {
  maxSentences: 10,
  quotedInShortAnswer: 2,
  quoteCutoff: 0.5,
  maxItemized: 8,
  relativeCutoff: 0.15,
  maxSentenceChars: 400,
  maxSummarySentences: 4,
};

interface Block {
  text: string;
  firstLine: number;
  lastLine: number;
  /** A short line that names what follows (no closing punctuation): it answers nothing itself. */
  heading: boolean;
}

interface Sentence {
  passage: GroundingPassage;
  /** The passage's blocks and this sentence's block, to read what follows a heading. */
  blocks: Block[];
  block: number;
  text: string;
  lines: number[];
  terms: Set<string>;
  score: number;
  /** Whether the sentence holds any of the question's words (not only its meaning or the kind of thing asked). */
  sharesWords?: boolean;
}

/**
 * A guess: a sentence of a note only admitted beside evidence that supports the answer, sharing no word of the
 * question (an amount or a date of the kind asked for, perhaps of another thing). Not one ranked by meaning alone,
 * which never weighed its words.
 */
const isGuess = (s: Sentence, someSupport: boolean) => someSupport && !s.passage.supports && s.sharesWords === false;

/** Sentences of one passage itemized for a request naming a kind of thing (one note may list several bills). */
const STATING_PER_PASSAGE = 3;

const TERMINAL = /[.!?:;]["')\]]?$/;

/** What the question wants: a follow-up's own ask first ("who is it with?" after "how much will it cost?"). */
const wantedBy = (request: ChatModelRequest) =>
  (request.followUp === undefined ? null : wanted(request.followUp)) ?? wanted(request.question);

/** Lines joined into blocks where prose was wrapped; a new block where a line ends a sentence or starts a new item. */
function blocks(passage: GroundingPassage): Block[] {
  const out: Block[] = [];
  passage.lines.forEach((raw, i) => {
    const line = raw.trim();
    const number = passage.lineStart + i;
    if (!line) return;
    const previous = out[out.length - 1];
    const continues =
      previous && previous.lastLine === number - 1 && !TERMINAL.test(previous.text) && /^[\p{Ll}(]/u.test(line);
    if (continues) {
      previous.text += `\n${line}`;
      previous.lastLine = number;
    } else {
      out.push({ text: line, firstLine: number, lastLine: number, heading: false });
    }
  });
  for (const block of out) {
    block.heading =
      block.firstLine === block.lastLine &&
      block.text.length <= 60 &&
      !/[.!?;,]$/.test(block.text) &&
      block.text.split(/\s+/).length <= 8 &&
      !/:\s+\S/.test(block.text);
  }
  return out;
}

function sentencesOf(passage: GroundingPassage): Array<Omit<Sentence, 'score'>> {
  const sentences: Array<Omit<Sentence, 'score'>> = [];
  const all = blocks(passage);
  all.forEach((block, blockIndex) => {
    for (const node of split(block.text)) {
      if (node.type !== 'Sentence') continue;
      const text = node.raw.replace(/\s+/g, ' ').trim();
      if (text.length < 3) continue;
      const lines: number[] = [];
      for (let l = node.loc.start.line; l <= node.loc.end.line; l++) lines.push(block.firstLine + l - 1);
      sentences.push({ passage, blocks: all, block: blockIndex, text, lines, terms: new Set(contentTerms(text)) });
    }
  });
  return sentences;
}

/**
 * What each note of several sentences is about, as terms every one of its
 * sentences is read with: its title when one was given (a title the text
 * does not hold, as "Denver trip flights" over "Flights to Denver for ..."),
 * else its first sentence ("Oil change at Jiffy Lube on April 20, ..." for
 * "Next oil change due at 53,200 miles"). A default title is the text's
 * first line, which for a note of one line is all of it: it would make every
 * sentence hold every word. Only a short note (NOTE_SENTENCES).
 */
/** The most sentences of a note read with its topic (noteTopics). */
const NOTE_SENTENCES = 6;

function noteTopics(sentences: ReadonlyArray<Omit<Sentence, 'score'>>): Map<GroundingPassage, Set<string>> {
  const byPassage = new Map<GroundingPassage, Array<Omit<Sentence, 'score'>>>();
  for (const s of sentences) byPassage.set(s.passage, [...(byPassage.get(s.passage) ?? []), s]);
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const topics = new Map<GroundingPassage, Set<string>>();
  for (const [passage, own] of byPassage) {
    // A note of a few sentences is about one thing; a longer text's sentences each say their own (a scientific
    // abstract's title read into every sentence cost SciFact claims).
    if (own.length < 2 || own.length > NOTE_SENTENCES) continue;
    const title = passage.title ? flat(passage.title) : '';
    const given = title !== '' && !flat(passage.lines.join(' ')).includes(title);
    topics.set(passage, given ? termSet(passage.title!) : own[0]!.terms);
  }
  return topics;
}

/** The lines right under a heading (up to a blank line or the next heading), as sentences of their own. */
function underHeading(heading: Sentence): Sentence[] {
  const out: Sentence[] = [];
  let previous = heading.blocks[heading.block]!;
  for (let i = heading.block + 1; i < heading.blocks.length; i++) {
    const block = heading.blocks[i]!;
    if (block.heading || block.firstLine !== previous.lastLine + 1) break;
    const lines: number[] = [];
    for (let l = block.firstLine; l <= block.lastLine; l++) lines.push(l);
    const text = block.text.replace(/\s+/g, ' ').trim();
    out.push({ ...heading, block: i, text, lines, terms: new Set(contentTerms(text)) });
    previous = block;
  }
  return out;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  const union = a.size + b.size - shared;
  return union ? shared / union : 0;
}

export class ExtractiveAnswerer implements ChatModel {
  readonly name = 'extractive';
  readonly judges = false;

  /**
   * `tokens` counts what the answer "read" and wrote, for usage: it has no model
   * of its own, so the stack's embedder tokenizer (o200k_base when none is given).
   */
  constructor(
    private readonly options: ExtractiveOptions = DEFAULT_EXTRACTIVE,
    private readonly tokens: TokenCounter = new O200kTokenCounter(),
  ) {}

  async answer(request: ChatModelRequest): Promise<ChatModelAnswer> {
    const promptTokens = await this.tokens.count([
      request.question,
      ...request.passages.map((p) => p.lines.join('\n')),
    ]);
    const selected = this.select(request);
    if (!selected.length) return { reply: null, citations: [], usage: { promptTokens, completionTokens: 0 } };

    const quoted = selected.map((s) => ({ sentence: s, quote: this.quote(s.text) }));
    const best = selected[0]!.score;
    // A summary quotes its note whole (up to maxSummarySentences); a short answer its best sentences.
    const summary = wantedBy(request) === 'summary';
    // A guess is cited, never quoted as part of the answer ("NHS band 2, £73.20." answers the dentist's charge; the
    // vet's "£68" is another thing).
    const someSupport = request.passages.some((p) => p.supports);
    const isLead = ({ sentence }: { sentence: Sentence }, i: number) =>
      summary ||
      i === 0 ||
      (i < this.options.quotedInShortAnswer &&
        sentence.score >= best * this.options.quoteCutoff &&
        !isGuess(sentence, someSupport));
    const lead = quoted.filter(isLead);
    // Other passages holding evidence; not one the answer already cites ("[1] ... Also relevant: [1]").
    const quotedPassages = new Set(lead.map(({ sentence }) => sentence.passage.number));
    const further = [
      ...new Set(
        quoted
          .filter((q, i) => !isLead(q, i) && !quotedPassages.has(q.sentence.passage.number))
          .map(({ sentence }) => `[${sentence.passage.number}]`),
      ),
    ];
    const reply = request.itemize
      ? ['From your library:', ...quoted.map(({ sentence, quote }) => `- ${quote} [${sentence.passage.number}]`)].join(
          '\n',
        )
      : `From your library: ${lead.map(({ sentence, quote }) => `${quote} [${sentence.passage.number}]`).join(' ')}` +
        (further.length ? ` Also relevant: ${further.join(', ')}.` : '');
    const citations: Citation[] = quoted.map(({ sentence, quote }) => ({
      passage: sentence.passage.number,
      lines: sentence.lines,
      quote: quote.replace(/…/g, '').trim(),
    }));
    return { reply, citations, usage: { promptTokens, completionTokens: await this.tokens.count([reply]) } };
  }

  /** The best sentences, most relevant first, none repeating another. */
  private select(request: ChatModelRequest): Sentence[] {
    const question = new Set(contentTerms(request.question));
    const sentences = request.passages.flatMap(sentencesOf);
    if (!sentences.length) return [];
    // A kind of thing asked for without a subject: no word of the request is in its notes.
    const category = request.itemize ? categoryOf(request.question) : null;
    if (category && !category.subject.size) {
      const ofTheKind = this.ofTheKind(sentences, category);
      if (ofTheKind.length) return ofTheKind;
    }
    const want = wantedBy(request);
    // A summary of one note: its sentences in order, not the best of several.
    if (want === 'summary' && !request.itemize) return this.summary(sentences, question);
    if (!question.size) return this.byMeaning(sentences, want);

    // Rarer words among the candidates say more about which sentence answers.
    const df = new Map<string, number>();
    for (const s of sentences) for (const t of question) if (s.terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
    const weight = (t: string) => Math.log(1 + (sentences.length + 1) / ((df.get(t) ?? 0) + 0.5));
    const total = [...question].reduce((sum, t) => sum + weight(t), 0);

    const holds = want && want !== 'summary' ? HOLDS[want] : null;
    const someSupport = request.passages.some((p) => p.supports);
    const coverageOf = (s: Pick<Sentence, 'terms'>) => {
      let matched = 0;
      for (const t of question) if (s.terms.has(t)) matched += weight(t);
      return matched / total;
    };
    // Each sentence is read with what its note is about (noteTopics): the words naming the note say which note
    // answers, and among its sentences the question's other words say which one does ("the confirmation number for
    // the Denver flights" is the sentence holding "confirmation", not the one naming the flights to Denver).
    // (A short answer's: an itemized one takes the sentences that hold the question's words themselves.)
    const topics = request.itemize ? new Map<GroundingPassage, Set<string>>() : noteTopics(sentences);
    // Not a heading: it answers with the lines under it only when its own words match ("Risks" is no answer to when).
    const inItsNote = (s: Omit<Sentence, 'score'>) =>
      s.blocks[s.block]!.heading ? s : { terms: new Set([...s.terms, ...(topics.get(s.passage) ?? [])]) };
    // The best coverage in each passage: a note that holds the question answers "how much" with its sentence that
    // holds an amount ("Total bill was £142" in a note titled "Car repair", over the car insurance's "£612").
    const passageBest = new Map<number, number>();
    for (const s of sentences)
      passageBest.set(s.passage.number, Math.max(passageBest.get(s.passage.number) ?? 0, coverageOf(inItsNote(s))));
    const scored: Sentence[] = sentences.map((s) => {
      const fitting = holds?.test(s.text) ?? false;
      const own = coverageOf(inItsNote(s));
      const coverage = fitting ? Math.max(own, 0.8 * passageBest.get(s.passage.number)!) : own;
      // Earlier passages were ranked higher by the hybrid search.
      const prior = 1 / (1 + 0.08 * (s.passage.number - 1));
      // Very long sentences say many things; prefer the focused one among equals.
      const focus = 1 / (1 + Math.max(0, s.text.length - 250) / 1000);
      // The kind of thing asked for (a time, an amount) counts: among a note's sentences it picks the answer,
      // and in a note admitted by meaning alone it is the only clue.
      const fits = fitting ? 1 : 0;
      // A note that supports an answer by meaning alone counts as half the question's words, and so does a
      // supporting note's sentence holding what is asked for when none of its sentences holds the question's own
      // words: a follow-up ("and how much did that cost?") found its notes with the turns before it.
      const words =
        coverage > 0
          ? coverage
          : s.passage.supports && (s.passage.byMeaning || fitting)
            ? 0.5
            : s.passage.byMeaning
              ? 0.2 * fits
              : 0;
      return { ...s, score: words * (1 + 0.5 * fits) * prior * focus, sharesWords: coverage > 0 };
    });
    // Evidence that supports an answer leads; what was only admitted beside it follows. It is still
    // cited when it holds enough of the question's own words; one that holds none (only a time or an
    // amount of the kind asked for) must stand out twice as far to be cited.
    const leadWeight = (x: Sentence) => (someSupport && !x.passage.supports ? 0.5 : 1);
    const cutoffWeight = (x: Sentence) => (x.sharesWords ? 1 : leadWeight(x));

    let ranked = scored.filter((s) => s.score > 0).sort((a, b) => b.score * leadWeight(b) - a.score * leadWeight(a));
    // Nothing shares a word: a passage the gate admitted by meaning answers with its leading sentences.
    if (!ranked.length && !request.itemize) return this.byMeaning(sentences, want);
    // A table, list or chart request whose passages cleared the relevance gate
    // by meaning alone ("the fruit prices" over a list of apples and plums):
    // no sentence shares a word, so the search's order (the passages' order)
    // says which to itemize, up to maxItemized; all score alike, so the
    // relative cut-off below keeps them. A short answer still needs a shared word.
    if (!ranked.length && request.itemize) ranked = scored.map((s) => ({ ...s, score: 1 }));
    if (!ranked.length) return [];
    const bestScore = Math.max(...ranked.map((s) => s.score));
    const limit = request.itemize ? this.options.maxItemized : this.options.maxSentences;
    const chosen: Sentence[] = [];
    let guessed = false;
    const reading: PassageReading = { terms: memoized((p) => termSet(passageText(p))), turns: areTurns(request) };
    const lacksAskedName = namedApart(request, reading);
    const aboutLess = coversLess(request, reading);
    const apart = (best: GroundingPassage, other: GroundingPassage) =>
      lacksAskedName(best, other) || aboutLess(best, other);
    const take = (s: Sentence, underAHeading = false) => {
      if (chosen.length === limit || (chosen.length && apart(chosen[0]!.passage, s.passage))) return;
      // Nor one repeating another: the same words, or one holding the other (the line under a matching heading holds
      // the sentence already quoted from it).
      const repeats = (c: Sentence) =>
        c.text.includes(s.text) || s.text.includes(c.text) || (c.terms.size > 2 && jaccard(c.terms, s.terms) > 0.6);
      if (chosen.some(repeats)) return;
      // A short answer gathers the best evidence of several documents rather than all of one; a follow-up that goes
      // on about one thing stays with its note ("what should I bring?" after the dermatologist's appointment also
      // quoted the book club's "I'm bringing a salad").
      const documentOf = (x: Sentence) => x.passage.document ?? `#${x.passage.number}`;
      if (!request.itemize && !underAHeading && chosen.some((c) => documentOf(c) === documentOf(s))) return;
      if (!request.itemize && request.goesOn && chosen.length && documentOf(chosen[0]!) !== documentOf(s)) return;
      chosen.push(s);
    };
    for (const s of ranked) {
      if (chosen.length === limit) break;
      if (s.score * cutoffWeight(s) < bestScore * this.options.relativeCutoff) continue;
      // Beside evidence that answers, a short answer cites at most one note that shares none of the question's words
      // and was only admitted (the search's best of them): several such amounts or dates are of other things
      // ("how much tax do I owe" over a sofa's price, a repair and a swimming fee).
      if (!request.itemize && isGuess(s, someSupport)) {
        if (guessed) continue;
        guessed = true;
      }
      // A matching heading answers with what it heads; one that heads nothing
      // (a document's title above a blank line) is itself the evidence.
      const headed = s.blocks[s.block]!.heading ? underHeading(s) : [];
      if (headed.length) headed.forEach((line) => take(line, true));
      else take(s);
    }
    return chosen;
  }

  /**
   * A request naming only a kind of thing ("list the appointments I have
   * coming up"): for each passage of that kind, in the search's order, its
   * sentences that state what the kind states (a time, an amount; up to
   * STATING_PER_PASSAGE), else its first sentence when it states it across
   * sentences. Passages admitted beside them that state nothing of the kind
   * are left out.
   */
  private ofTheKind(sentences: Array<Omit<Sentence, 'score'>>, category: CategoryRequest): Sentence[] {
    const byPassage = new Map<GroundingPassage, Array<Omit<Sentence, 'score'>>>();
    for (const s of sentences) byPassage.set(s.passage, [...(byPassage.get(s.passage) ?? []), s]);
    const lines: Sentence[] = [];
    for (const [passage, own] of byPassage) {
      const stating = own.filter((s) => category.isStatedIn(s.text)).slice(0, STATING_PER_PASSAGE);
      // Across sentences, or in its title ("Dentist 4 June" over "Bring the form."), as the gate read it.
      if (!stating.length && category.isStatedIn(`${passage.title ?? ''}\n${passage.lines.join('\n')}`))
        stating.push(own[0]!);
      lines.push(...stating.map((s) => ({ ...s, score: 1 })));
    }
    return lines.slice(0, this.options.maxItemized);
  }

  /**
   * A summary: the note that holds the most of the question (the first
   * passage on a tie, or when none shares a word but one was admitted by
   * meaning), its sentences in order, up to maxSummarySentences.
   */
  private summary(sentences: Array<Omit<Sentence, 'score'>>, question: ReadonlySet<string>): Sentence[] {
    const shared = (s: Omit<Sentence, 'score'>) => [...question].filter((t) => s.terms.has(t)).length;
    const byPassage = new Map<number, Array<Omit<Sentence, 'score'>>>();
    for (const s of sentences) byPassage.set(s.passage.number, [...(byPassage.get(s.passage.number) ?? []), s]);
    let best: Array<Omit<Sentence, 'score'>> | null = null;
    let bestShared = 0;
    for (const group of byPassage.values()) {
      const count = group.reduce((n, s) => n + shared(s), 0);
      if (count > bestShared) [best, bestShared] = [group, count];
    }
    best ??= [...byPassage.values()].find((group) => group[0]!.passage.byMeaning) ?? null;
    if (!best) return [];
    return best.slice(0, this.options.maxSummarySentences).map((s) => ({ ...s, score: 1 }));
  }

  /**
   * No sentence shares a word: the first passage that supports the answer (a follow-up's note, found with the turns
   * before it: "where are we staying?" after the flights to Lisbon), else the first admitted by meaning; its sentences
   * that hold what is wanted, else its first.
   */
  private byMeaning(sentences: Array<Omit<Sentence, 'score'>>, want: Wanted | null): Sentence[] {
    const first = (sentences.find((s) => s.passage.supports) ?? sentences.find((s) => s.passage.byMeaning))?.passage;
    if (!first) return [];
    const own = sentences.filter((s) => s.passage === first);
    const holds = want && want !== 'summary' ? HOLDS[want] : null;
    const fitting = holds ? own.filter((s) => holds.test(s.text)) : [];
    return (fitting.length ? fitting : own).slice(0, this.options.quotedInShortAnswer).map((s) => ({ ...s, score: 1 }));
  }

  private quote(text: string): string {
    const max = this.options.maxSentenceChars;
    // The cut drops the last word and the spaces before it; (?<!\s) tries a run of spaces from its
    // first one only (linear), where /\s+\S*$/ retried it from each of its positions.
    return text.length <= max ? text : `${text.slice(0, max - 1).replace(/(?<!\s)\s+\S*$/, '')}…`;
  }
}

/** A speaker's label opening a line of a conversation's memory: "Tim: ...", "[8 May 2023] Caroline: ...". */
const SPEAKER_LABEL = /^(?:\[[^\]]*\]\s*)?\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*)?:\s/mu;

/** A passage's words, its title's included (a note titled "Car repair" is about the repair). */
const passageText = (p: GroundingPassage) => `${p.title ?? ''}\n${p.lines.join('\n')}`;

/**
 * Whether the passages are a conversation's turns: most of them open a line
 * with a speaker's label ("Caroline: ..."). One note written "Dentist:
 * cleaning with Dr. Kim ..." among others is no conversation (it turned the
 * rules that keep a short answer to its note off for every question it was
 * found for).
 */
const areTurns = (request: ChatModelRequest) =>
  request.passages.filter((p) => SPEAKER_LABEL.test(passageText(p))).length * 2 > request.passages.length;

/** What the rules keeping a short answer to its note read of the passages, once per answer. */
interface PassageReading {
  /** Each passage's terms, its title's included. */
  terms: (p: GroundingPassage) => Set<string>;
  /** Whether the passages are a conversation's turns (areTurns). */
  turns: boolean;
}

/** A function of a passage, computed once per passage. */
function memoized<V>(of: (p: GroundingPassage) => V): (p: GroundingPassage) => V {
  const known = new Map<GroundingPassage, V>();
  return (p) => {
    if (!known.has(p)) known.set(p, of(p));
    return known.get(p)!;
  };
}

/**
 * For a short answer: whether a passage is about less than the best one,
 * when the best one holds every thing the question asks about (its nouns
 * and names, not the kind of answer: "cost", "time"). A passage lacking one
 * of them and adding none of its own answers another thing, however well
 * it fits the kind asked for: "What did the vet cost?" over the vet's "£58"
 * also quoted the dentist's "costs £65", and "How much was the car repair?"
 * the car insurance's "£612". One that names a thing the best lacks stays
 * ("what did the vet and the dentist cost?"). Not among a conversation's
 * turns (there the evidence is as often the other speaker's turn, in other
 * words), nor when the best holds only some of the things asked (a
 * scientific claim's abstracts each say part of it); and not for names,
 * which namedApart reads.
 */
function coversLess(
  request: ChatModelRequest,
  { terms, turns }: PassageReading,
): (best: GroundingPassage, other: GroundingPassage) => boolean {
  if (request.itemize || turns) return () => false;
  // Names are namedApart's: a note lacking one may speak of the same thing in general terms ("every project ships
  // after review" beside "when does project Orion ship?").
  const names = properNameTerms(request.question, []);
  const things = [...thingsAsked(request.question)].filter((t) => !names.has(t));
  if (!things.length) return () => false;
  // The best holds them all, so the other, lacking one, can name none the best lacks.
  return (best, other) => things.every((t) => terms(best).has(t)) && things.some((t) => !terms(other).has(t));
}

/**
 * For a short answer: whether a passage is about something else than the
 * best one, by a name the question asks about ("project Orion") that the
 * best passage holds and it lacks, naming another instead ("Project Zephyr
 * ships on Monday" beside Orion's date). Not among a conversation's turns (a passage opening a
 * line with a speaker's label, "Caroline: ...").
 */
function namedApart(
  request: ChatModelRequest,
  { terms, turns }: PassageReading,
): (best: GroundingPassage, other: GroundingPassage) => boolean {
  if (request.itemize) return () => false;
  // Turns of a conversation: a name there labels who speaks as often as what is spoken of, and the evidence is
  // as often the other speaker's turn ("What did Mel paint?" answered by Caroline's "your painting of the lake").
  if (turns) return () => false;
  // As the question writes them, capitalised mid-sentence ("project Orion"): a claim's or a lower-case question's
  // words are not read from how the passages write them here.
  const names = [...properNameTerms(request.question, [])];
  if (!names.length) return () => false;
  const ownNames = memoized((p) => properNameTerms(passageText(p), []));
  // It lacks the name and names something else instead (a passage that names nothing may be about the same
  // thing in general terms: an abstract on the virus a claim names elsewhere).
  return (best, other) =>
    names.some((t) => terms(best).has(t) && !terms(other).has(t)) &&
    [...ownNames(other)].some((t) => !names.includes(t) && !terms(best).has(t));
}
