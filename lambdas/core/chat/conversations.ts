import { LibraryErasedError, notFound } from '../errors.js';
import { inCurrentGeneration } from '../generations.js';
import { newId } from '../ids.js';
import type { LibraryRef } from '../model.js';
import type { Clock, ConversationStore, ConversationTurnRecord, DocumentStore } from '../ports.js';
import { ASKING_NOUNS } from './answer-kinds.js';
import { thingsAsked } from './subject-words.js';
import { contentTerms } from './terms.js';

/**
 * Conversations (POST /v1/chat `conversation_id`; docs/api-notes.md,
 * "Conversations"): a conversation is the recent turns (question, reply) of
 * chats that named it, kept in the library the chats asked in and in that
 * library's generation, so an erasure ends it and no other library (another
 * tenant's, another end user's) can reach it.
 */
export const CONVERSATION_LIMITS = {
  /** Turns kept per conversation; an older one is dropped when a newer one comes. */
  keptTurns: 10,
  /** The newest turns a chat model is given as the conversation's history. */
  historyTurns: 4,
  /** Earlier questions a follow-up is searched with: back to the last that stood on its own, at most this many. */
  contextQuestions: 2,
  /** Words of the previous reply a follow-up is searched with (what "that" or "her" named), at most. */
  replyWords: 8,
} as const;

/** A conversation as a chat sees it: its id, the generation it lives in (null: begun by this chat), and its recent turns. */
export interface OpenConversation {
  id: string;
  /** The library generation the conversation lives in; null for a new conversation (it takes the one its first turn is written in). */
  generation: string | null;
  /** The newest turns, oldest first (at most CONVERSATION_LIMITS.historyTurns). */
  history: ConversationTurnRecord[];
}

export class Conversations {
  constructor(private readonly deps: { conversations: ConversationStore; documents: DocumentStore; clock: Clock }) {}

  /**
   * The conversation a chat continues: a new one when `id` is absent. An id
   * that has no turn in this library's live generation (never begun, begun
   * in another library or by another tenant, erased, or begun by a chat that
   * failed) is not found: the answer never says whether it exists elsewhere.
   */
  async open(ref: LibraryRef, id: string | undefined): Promise<OpenConversation> {
    if (id === undefined) return { id: newId('cnv'), generation: null, history: [] };
    const generation = await this.deps.documents.libraryGeneration(ref);
    const history =
      generation === null
        ? []
        : await this.deps.conversations.recentTurns(ref, id, generation, CONVERSATION_LIMITS.historyTurns);
    if (!history.length) throw notFound(`conversation ${id} not found`);
    return { id, generation, history };
  }

  /**
   * Appends the chat's turn and returns the generation it was written in
   * (the chat's memory goes there too) and how to take it back (a later step
   * of the chat failed). A conversation goes on in the generation it lives
   * in, and a new one whose reply quotes passages in the generation they
   * were read in (`groundedIn`): when an erasure ended it meanwhile, the turn
   * is removed again and the chat fails, so a reply built from an erased
   * library is never delivered nor kept. A new conversation that quotes
   * nothing begins in the library's current generation (created afresh when
   * an erasure came between the chat's start and this write). The generation
   * is read again after the write, as for index writes (core/generations.ts):
   * either the erasure's sweep sees the turn, or this check sees the
   * generation ended.
   */
  async append(
    ref: LibraryRef,
    conversation: OpenConversation,
    turn: ConversationTurnRecord,
    groundedIn: string | null,
  ): Promise<{ generation: string; undo: () => Promise<void> }> {
    const { conversations, documents, clock } = this.deps;
    const undo = () => conversations.removeTurn(ref, conversation.id, turn.runId);
    const writeUnder = async (generation: string) => {
      await conversations.append(ref, conversation.id, generation, turn, CONVERSATION_LIMITS.keptTurns);
      if ((await documents.libraryGeneration(ref)) === generation) return generation;
      await undo();
      throw new LibraryErasedError();
    };
    const bound = conversation.generation ?? groundedIn;
    if (bound === null) {
      const generation = await inCurrentGeneration(3, async () =>
        writeUnder(await documents.touchLibrary(ref, clock.now())),
      );
      return { generation, undo };
    }
    const generation = await writeUnder(bound).catch((error: unknown) => {
      throw error instanceof LibraryErasedError ? erasedDuringChat(conversation) : error;
    });
    return { generation, undo };
  }
}

/** The chat's error when its library was erased while it ran (nothing of it is kept). */
export function erasedDuringChat(conversation: OpenConversation) {
  return conversation.generation === null
    ? notFound('library erased while the chat ran: nothing of the chat was kept')
    : notFound(`conversation ${conversation.id} not found: its library was erased`);
}

// ---- what a follow-up is searched with

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Pronouns and words that point back at what was said before ("it", "her", "those", "the same", "what else"). */
const POINTING_BACK = new Set(
  `it it's its itself they they're them their theirs themselves he he's him his himself she she's her hers herself
  those these same else former latter above aforementioned then that's`
    .split(/\s+/)
    .filter(Boolean),
);
/** Words a question opens with when it goes on from the previous one ("and when?", "but why", "also ..."). */
const CONTINUING = new Set(['and', 'but', 'also', 'so', 'or', 'plus']);
const OPENING_PAIRS = new Set([
  'what about',
  'how about',
  'what else',
  'why not',
  'and what',
  'and when',
  'and where',
  'and who',
  'and how',
]);
/** Beside "that", words that make it a pronoun ("when was that", "that cost", "is that right") rather than a relative ("the note that says"). */
const AFTER_POINTING_THAT = new Set([
  'is',
  'was',
  'were',
  'are',
  'be',
  'been',
  'will',
  'would',
  'could',
  'did',
  'does',
  'do',
  'has',
  'have',
  'had',
  'cost',
  'costs',
  'mean',
  'means',
  'happen',
  'happened',
]);
const BE = new Set(['is', 'are', 'was', 'were', 'be', "'s"]);
/** "this"/"these" before these words speak of now ("this week"), not of what was said. */
const NOW_WORDS = new Set([
  'week',
  'weekend',
  'month',
  'year',
  'morning',
  'afternoon',
  'evening',
  'night',
  'time',
  'quarter',
  'season',
  'summer',
  'winter',
  'spring',
  'autumn',
  'fall',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);

/**
 * Whether a question points back at the conversation rather than standing
 * on its own: it opens by going on ("and ...", "what about ..."), uses a
 * pronoun or demonstrative for something said before ("when was that?",
 * "what is her number?", "those"), has no word that carries meaning of
 * its own ("Why?", "When?", "How come?"), or names no thing of its own, no
 * noun or name ("where are we staying?", "what did we decide?":
 * subject-words.ts) but the kind of answer it wants ("what time?", "which
 * day?", "what price?": thingsAsked). A question with a subject and no
 * such marker stands alone ("When is the dentist?"), even a short one:
 * searching it with an earlier, unrelated subject would answer that one.
 * English; a follow-up it misreads as standing alone is searched alone.
 */
export function refersBack(question: string): boolean {
  const words = [...question.toLowerCase().replace(/’/g, "'").matchAll(WORD)].map((m) => m[0]);
  if (!words.length) return true;
  if (CONTINUING.has(words[0]!) || OPENING_PAIRS.has(`${words[0]} ${words[1] ?? ''}`)) return true;
  // No word of its own ("Why?"), or none naming a thing ("where are we staying?", "what did we decide?"), or only the
  // kind of answer asked for ("what time?", "which day?", "what price?").
  if (!thingsAsked(question).size) return true;
  return words.some((word, i) => {
    const next = words[i + 1];
    if (POINTING_BACK.has(word)) return true;
    // "that" as a pronoun: "when was that", "that cost", "is that right?"; not a relative ("the note that says").
    if (word === 'that')
      return next === undefined || AFTER_POINTING_THAT.has(next) || AFTER_POINTING_THAT.has(words[i - 1] ?? '');
    if (word === 'this' || word === 'these') return next === undefined || !NOW_WORDS.has(next);
    // "there" of a place said before ("what did we eat there"), not "is there a note ...".
    if (word === 'there') return next === undefined || !(BE.has(next) || BE.has(words[i - 1] ?? ''));
    return false;
  });
}

/** What a chat searches the library with, and the question a model that reads no history is given. */
export interface SearchQuestion {
  /** The text the hybrid search runs on. */
  search: string;
  /**
   * What a model that reads no history (the extractive answerer, which
   * matches words) is given: the question, or, when it has no word of its
   * own ("and when was that?"), the question with the earlier ones it goes
   * on from.
   */
  question: string;
  /** Whether the conversation's earlier turns were drawn in. */
  inContext: boolean;
}

const CITATION_MARKER = /\[\d+(?:\s*,\s*\d+)*\]/g;

/**
 * What a reply answered: its text up to its first citation (the statement
 * it leads with), or all of it when it cites nothing. What it cites after
 * that is what else the library holds nearby ("Project Zephyr ships on
 * Monday" after Orion's date), which "who leads it?" does not point at.
 */
function answerOf(reply: string): string {
  const first = reply.search(CITATION_MARKER);
  return first < 0 ? reply : reply.slice(0, first);
}

/**
 * Whether a question asks only about things the previous reply's answer
 * named: "Which day is the appointment?" after "Dermatologist appointment
 * with Dr. Patel ..." goes on about that appointment, as its "the" says
 * (searched alone, it found the vet's). One naming a thing the answer did
 * not ("When is the vet appointment?") stands alone.
 */
function aboutThePreviousAnswer(question: string, last: ConversationTurnRecord, noAnswerReply?: string): boolean {
  if (last.reply === noAnswerReply) return false;
  const things = thingsAsked(question);
  if (!things.size) return false;
  const answered = new Set(contentTerms(answerOf(last.reply)));
  return [...things].every((thing) => answered.has(thing));
}

/**
 * A follow-up that points back (refersBack, or asks about what the previous
 * answer named: aboutThePreviousAnswer) is searched together with the
 * earlier questions it goes on from (back to the last one that stood on its
 * own, at most CONVERSATION_LIMITS.contextQuestions) and a few words of the
 * previous reply's answer (answerOf) that its questions did not hold (the
 * names and facts "that" or "her" stands for), so "and when was that?" finds what the previous turn
 * was about. Any other question is searched alone, so a new subject in the
 * same conversation is not pulled back to the old one.
 */
export function searchQuestion(
  question: string,
  history: readonly ConversationTurnRecord[],
  options: { noAnswerReply?: string } = {},
): SearchQuestion {
  const goesOn =
    history.length > 0 &&
    (refersBack(question) || aboutThePreviousAnswer(question, history[history.length - 1]!, options.noAnswerReply));
  if (!goesOn) return { search: question, question, inContext: false };
  const earlier: string[] = [];
  for (let i = history.length - 1; i >= 0 && earlier.length < CONVERSATION_LIMITS.contextQuestions; i--) {
    const asked = history[i]!.question;
    earlier.unshift(asked);
    if (!refersBack(asked)) break;
  }
  const withEarlier = [...earlier, question].join('\n');
  const known = new Set(contentTerms(withEarlier));
  const last = history[history.length - 1]!;
  const replyWords: string[] = [];
  if (last.reply !== options.noAnswerReply) {
    for (const match of answerOf(last.reply).matchAll(WORD)) {
      if (replyWords.length >= CONVERSATION_LIMITS.replyWords) break;
      const [term] = contentTerms(match[0]);
      if (term === undefined || known.has(term)) continue;
      known.add(term);
      replyWords.push(match[0]);
    }
  }
  const search = [...earlier, ...(replyWords.length ? [replyWords.join(' ')] : []), question].join('\n');
  // The passages were found in context; among them, a question's own words pick what answers it ("who leads it?": the
  // lead). One whose only words name the kind of answer ("what time?", "what price?") is read with the earlier ones.
  const ownWords = contentTerms(question).some((term) => !ASKING_NOUNS.has(term));
  return { search, question: ownWords ? question : withEarlier, inContext: true };
}
