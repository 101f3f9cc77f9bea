import { chunkText } from '../chunking.js';
import { LibraryErasedError } from '../errors.js';
import type { Filter } from '../filter.js';
import { putUnderGeneration } from '../generations.js';
import { newId } from '../ids.js';
import type { IndexItem, LibraryRef } from '../model.js';
import type {
  ChatModel,
  ChatModelAnswer,
  Clock,
  ConversationStore,
  DocumentStore,
  Embedder,
  SearchIndex,
} from '../ports.js';
import type { RememberedQueries } from '../remembered-queries.js';
import { SearchService } from '../search.js';
import type { UsageService } from '../usage.js';
import { buildArtifact } from './artifacts.js';
import type { CosineScale } from './calibration.js';
import { Conversations, erasedDuringChat, searchQuestion } from './conversations.js';
import { artifactIntent, wantsItems } from './intent.js';
import { passageLines, readDocumentLines } from './lines.js';
import { attachPendingVectors, type DeferredVectors, type PendingVectors } from './memory-vectors.js';
import { standaloneParts } from './question-parts.js';
import { ReplyDeltas } from './reply-deltas.js';
import { ChatRetriever, type RetrievedPassage } from './retrieval.js';
import { buildSources, type ChatSource, citedFacts, type GroundedPassage } from './sources.js';

export interface ChatArtifact {
  id: string;
  type: 'table' | 'chart' | 'document' | 'app';
  title: string;
  content_type: string;
  content: string;
}

/** The chat response, exactly as API.md publishes it. */
export interface ChatResponse {
  reply: string;
  artifacts: ChatArtifact[];
  sources: ChatSource[];
  tokens_used: number;
  run_id: string;
  /** `cnv_` + ULID: the conversation this chat belongs to (the one it named, or one it began). */
  conversation_id: string;
}

/** What a chat says as soon as it has begun (a streamed chat's `start` event). */
export interface ChatStarted {
  run_id: string;
  conversation_id: string;
}

export interface ChatDeps {
  index: SearchIndex;
  embedder: Embedder;
  documents: DocumentStore;
  chatModel: ChatModel;
  clock: Clock;
  usage: UsageService;
  /** The conversations' recent turns (docs/api-notes.md, "Conversations"). */
  conversations: ConversationStore;
  /** Where present, the reply's and creations' vectors are attached after the answer (see remember). */
  deferVectors?: DeferredVectors;
  /** The embedder's cosine scale (calibration.ts), recorded with it; absent: cosines are read as they come. */
  cosineScale?: () => Promise<CosineScale | undefined>;
  /** Where present, a library's recent questions are embedded once (core/remembered-queries.ts). */
  rememberedQueries?: RememberedQueries;
}

/** How a question is asked. */
export interface ChatOptions {
  /** The conversation the question goes on (its earlier turns are read); absent: a new conversation. */
  conversationId?: string;
  /** Only documents matching it are evidence (API.md, "Filters"). */
  filter?: Filter;
  /**
   * Called once the chat has begun: the request is valid and the
   * conversation found, so from here a failure is the chat's own. Nothing
   * after it is awaited before retrieval starts.
   */
  onStart?: (started: ChatStarted) => void;
  /**
   * Receives the reply's text as it is written (a streamed reply; see
   * ReplyDeltas for how the pieces relate to the final reply); the response
   * still comes whole.
   */
  onDelta?: (text: string) => void;
}

export const NO_ANSWER_REPLY =
  'Your library does not hold the answer to this question: nothing in it is relevant enough to cite, so I will not guess.';

/**
 * POST /v1/chat: answers only from the caller's library. Retrieves with the
 * hybrid search, keeps the passages that support an answer, lets the chat
 * model answer from them alone, cites the lines it used, builds the creation
 * the question asks for, remembers the exchange in the library (kind chat and
 * creation), and charges the tokens to the tenant.
 */
export class ChatService {
  private readonly retriever: ChatRetriever;
  private readonly conversations: Conversations;

  constructor(private readonly deps: ChatDeps) {
    this.retriever = new ChatRetriever(new SearchService(deps), undefined, deps.cosineScale);
    this.conversations = new Conversations(deps);
  }

  async chat(ref: LibraryRef, question: string, options: ChatOptions = {}): Promise<ChatResponse> {
    const runId = newId('run');
    const conversation = await this.conversations.open(ref, options.conversationId);
    options.onStart?.({ run_id: runId, conversation_id: conversation.id });
    const deltas = options.onDelta ? new ReplyDeltas(options.onDelta) : null;
    const intent = artifactIntent(question);
    const { chatModel } = this.deps;
    // A follow-up that points back is searched with what it points back to (conversations.ts).
    const asked = searchQuestion(question, conversation.history, { noAnswerReply: NO_ANSWER_REPLY });
    const retrieval = { judging: chatModel.judges, filter: options.filter };
    const found = await this.retriever.retrieve(ref, asked.search, retrieval);
    const { questionVector, generation } = found;
    let { passages: retrieved, questionTokens } = found;
    // A question asking two things whose passages did not clear the gate as a whole: each ask on its own (question-parts.ts).
    const parts = retrieved.length || generation === null || asked.inContext ? [] : standaloneParts(question);
    if (parts.length) {
      const byParts = await this.retriever.retrieveParts(ref, parts, generation!, retrieval);
      retrieved = byParts.passages;
      questionTokens += byParts.questionTokens;
    }
    // The passages' lines are read in the generation the passages were found in (none without a library).
    const passages = generation === null ? [] : await this.ground(ref, retrieved, generation);

    let answer: ChatModelAnswer = { reply: null, citations: [], usage: { promptTokens: 0, completionTokens: 0 } };
    if (passages.length) {
      const history = conversation.history.map(({ question: q, reply: r }) => ({ question: q, reply: r }));
      answer = await chatModel.answer(
        {
          // A model that judges reads the history; one that matches words (the extractive answerer) is given a question without words of its own with those it goes on from.
          question: chatModel.judges ? question : asked.question,
          ...(!chatModel.judges && asked.question !== question ? { followUp: question } : {}),
          ...(!chatModel.judges && asked.inContext ? { goesOn: true } : {}),
          passages,
          itemize: wantsItems(question),
          ...(history.length ? { history } : {}),
        },
        { onDelta: deltas?.push },
      );
    }
    // A reply that cites nothing rests on everything it was given, and only on that: so for the extractive answerer, whose
    // passages all cleared the support gate. A judging model was given candidates, some of them noise: its reply must cite
    // (an uncited one is no answer). A reply citing a passage it was not given is rejected whole, from any model (docs/chat.md).
    const citations =
      answer.reply && !answer.citations.length && !chatModel.judges
        ? passages.map((p) => ({ passage: p.number }))
        : answer.citations;
    const given = new Set(passages.map((p) => p.number));
    const sources =
      answer.reply && citations.every((c) => given.has(c.passage)) ? buildSources(passages, citations) : [];
    let reply = answer.reply && sources.length ? answer.reply : NO_ANSWER_REPLY;

    const artifacts: ChatArtifact[] = [];
    const creations: IndexItem[] = [];
    const now = this.deps.clock.now();
    if (intent && sources.length) {
      const built = buildArtifact(intent, question, citedFacts(passages, citations));
      if (built) {
        const id = newId('crt');
        const { searchText, ...artifact } = built.draft;
        artifacts.push({ id, ...artifact });
        creations.push(this.item(id, 'creation', artifact.title, runId, now, searchText));
        if (built.note) reply = `${reply}\n\n${built.note}`;
      }
    }
    deltas?.finish(reply);

    const messages = [
      this.item(newId('msg'), 'chat', null, runId, now, question),
      this.item(newId('msg'), 'chat', null, runId, this.deps.clock.now(), reply),
      ...creations,
    ];
    // What the chat stores (its memory, the conversation's turn, the charge) is stored whole or not at all.
    const undo: Array<() => Promise<unknown>> = [];
    let tokensUsed: number;
    let pending: PendingVectors[];
    try {
      // The turn first: a library its erasure ended meanwhile (the conversation's, or the one the reply quotes) fails the
      // chat before anything else is written. The memory goes into the turn's generation.
      // ('' is a library from before generations, read-only: it gets its generation at this first write.)
      const groundedIn = sources.length && generation ? generation : null;
      const turn = await this.conversations.append(ref, conversation, { runId, question, reply, at: now }, groundedIn);
      undo.push(turn.undo);
      const known = { text: asked.search, vector: questionVector };
      const memory = await this.remember(ref, turn.generation, messages, now, known, undo).catch((error: unknown) => {
        throw error instanceof LibraryErasedError ? erasedDuringChat(conversation) : error;
      });
      pending = memory.pending;
      // Every token the model ports reported for this call; a reply embedded after the answer (deferVectors) is charged when it is.
      tokensUsed = questionTokens + answer.usage.promptTokens + answer.usage.completionTokens + memory.tokens;
      await this.deps.usage.recordChat(ref.tenantId, now, tokensUsed);
    } catch (error) {
      for (const step of undo.reverse()) await step().catch(() => undefined);
      throw error;
    }
    await this.embedLater(pending);
    return { reply, artifacts, sources, tokens_used: tokensUsed, run_id: runId, conversation_id: conversation.id };
  }

  /** Numbers the supported passages and gives each its document lines. */
  private async ground(
    ref: LibraryRef,
    retrieved: readonly RetrievedPassage[],
    generation: string,
  ): Promise<GroundedPassage[]> {
    const documentLines = new Map<string, Promise<string[] | null>>();
    for (const r of retrieved) {
      if (!documentLines.has(r.itemId))
        documentLines.set(r.itemId, readDocumentLines(this.deps.index, ref, r.itemId, generation));
    }
    return Promise.all(
      retrieved.map(async (r, i) => {
        const { lineStart, lines } = passageLines(await documentLines.get(r.itemId)!, r.passage);
        return {
          number: i + 1,
          title: r.title,
          lineStart,
          lines,
          document: r.itemId,
          metadata: r.metadata,
          ...(r.signals.matchedTerms === 0 ? { byMeaning: true } : {}),
          ...(r.supporting ? { supports: true } : {}),
        };
      }),
    );
  }

  private item(
    itemId: string,
    kind: 'chat' | 'creation',
    title: string | null,
    runId: string,
    at: string,
    text: string,
  ): IndexItem {
    return { itemId, kind, title, sourceRef: runId, contentDate: at, text, passages: chunkText(text), vectors: [] };
  }

  /**
   * Stores the exchange in the library (creating it, and so the end user, on
   * first use) and returns the tokens it embedded for it before answering,
   * and the items whose vectors come later. The question keeps the vector it
   * was searched with when that was its own text (a stored question is
   * query text). With `deferVectors` (the local stack) the items are written
   * at once, found by words, and the reply's and creations' vectors are
   * attached once the chat is stored whole (embedLater): the answer does not
   * wait for them. Without it (a Lambda, frozen once it answers) they are
   * embedded first and each item is written once. Each item written adds
   * its removal to `undo`.
   */
  private async remember(
    ref: LibraryRef,
    generation: string,
    items: IndexItem[],
    at: string,
    known: { text: string; vector: Float32Array },
    undo: Array<() => Promise<unknown>>,
  ): Promise<{ tokens: number; pending: PendingVectors[] }> {
    const reusable = (item: IndexItem) =>
      known.vector.length > 0 && item.passages.length === 1 && item.passages[0]!.text === known.text;
    const pending = items
      .filter((item) => !reusable(item))
      .map((item) => ({ ref, itemId: item.itemId, texts: item.passages.map((p) => p.text) }));
    const texts = pending.flatMap((item) => item.texts);
    const deferred = this.deps.deferVectors;
    const { vectors, tokens } =
      deferred || !texts.length ? { vectors: [], tokens: 0 } : await this.deps.embedder.embed(texts, 'passage');
    let offset = 0;
    for (const item of items) {
      undo.push(() => this.deps.index.remove(ref, item.itemId));
      const count = reusable(item) ? 0 : item.passages.length;
      const itemVectors = reusable(item) ? [known.vector] : deferred ? [] : vectors.slice(offset, offset + count);
      offset += count;
      await putUnderGeneration(this.deps, ref, { ...item, vectors: itemVectors }, generation);
    }
    // The chat is activity in the library; a touch that finds another generation means an erasure came after the writes.
    if ((await this.deps.documents.touchLibrary(ref, at)) !== generation) throw new LibraryErasedError();
    return { tokens, pending: deferred ? pending : [] };
  }

  /** Attaches the vectors of items written without them, in the background (and charges their tokens then). */
  private async embedLater(pending: PendingVectors[]): Promise<void> {
    const deferred = this.deps.deferVectors;
    if (!deferred || !pending.length) return;
    const deps = {
      index: deferred.index,
      embedder: this.deps.embedder,
      spend: this.deps.usage,
      clock: this.deps.clock,
    };
    await deferred.background.run('chat memory vectors', () => attachPendingVectors(deps, pending));
  }
}
