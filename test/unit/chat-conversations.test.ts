import { describe, expect, it } from 'vitest';
import { type ChatResponse, NO_ANSWER_REPLY } from '../../lambdas/core/chat/chat-service.js';
import { CONVERSATION_LIMITS, refersBack, searchQuestion } from '../../lambdas/core/chat/conversations.js';
import { ReplyDeltas } from '../../lambdas/core/chat/reply-deltas.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import { isIdOf } from '../../lambdas/core/ids.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import type { ChatModel, ChatModelCallOptions, ChatModelRequest, UsageLedger } from '../../lambdas/core/ports.js';
import { coreHarness } from '../support/core-harness.js';
import { InMemoryConversationStore, withFault } from '../support/in-memory-ports.js';

/** The conversation flow of the chat use case, on the core's in-memory ports (docs/api-notes.md, "Conversations"). */

const NOTES = {
  parking: 'Parked the car on level 3 of the Harbour Street garage on Tuesday 14 May.',
  wifi: 'The wifi password at the cabin is spruce-lantern-42.',
  dentist: 'Dentist appointment with Dr. Amara Okafor at the Riverside Clinic, Thursday at 10.',
};

async function library(
  ref: LibraryRef = { tenantId: 't', endUserId: 'ann' },
  overrides: Parameters<typeof coreHarness>[0] = {},
) {
  const conversations = new InMemoryConversationStore();
  const harness = coreHarness({ conversations, ...overrides });
  const ids: Record<string, string> = {};
  for (const [name, text] of Object.entries(NOTES))
    ids[name] = (await harness.services.capture.capture(ref, { text, title: name })).id!;
  return { ...harness, conversations, ref, ids };
}

const cited = (response: ChatResponse) => response.sources.map((s) => s.file_id);

/** A model that judges and writes its reply piece by piece, recording what it was asked. */
class ScriptedModel implements ChatModel {
  readonly name = 'scripted';
  readonly requests: ChatModelRequest[] = [];
  constructor(
    readonly judges: boolean,
    private readonly pieces: (request: ChatModelRequest) => string[],
  ) {}
  async answer(request: ChatModelRequest, options: ChatModelCallOptions = {}) {
    this.requests.push(structuredClone(request));
    const pieces = this.pieces(request);
    for (const piece of pieces) options.onDelta?.(piece);
    const text = pieces.join('').trim();
    return {
      reply: text.startsWith('NOT_IN_LIBRARY') ? null : text,
      citations: [{ passage: 1 }],
      usage: { promptTokens: 10, completionTokens: 5 },
    };
  }
}

/** A judging model that erases the end user (when told how) before it answers, as a slow model racing an erasure would. */
class ErasingModel implements ChatModel {
  readonly name = 'erasing';
  readonly judges = true;
  erase: () => Promise<unknown> = async () => undefined;
  constructor(private readonly model: ScriptedModel) {}
  async answer(request: ChatModelRequest, options?: ChatModelCallOptions) {
    await this.erase();
    return this.model.answer(request, options);
  }
}

describe('conversations (core)', () => {
  it('answers a follow-up from the note the previous turn was about, which the bare follow-up does not find', async () => {
    const { services, ref, ids } = await library();
    const first = await services.chat.chat(ref, 'Where did I park the car?');
    expect(isIdOf('cnv', first.conversation_id)).toBe(true);
    expect(cited(first)).toEqual([ids.parking]);

    const bare = await services.chat.chat(ref, 'And when was that?');
    expect(bare.sources).toEqual([]);
    expect(bare.reply).toBe(NO_ANSWER_REPLY);
    expect(bare.conversation_id).not.toBe(first.conversation_id);

    const followUp = await services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id });
    expect(followUp.conversation_id).toBe(first.conversation_id);
    expect(cited(followUp)).toEqual([ids.parking]);
    expect(followUp.reply).toContain('Tuesday 14 May');
  });

  it('searches a new subject in the same conversation alone: it is not pulled back to the earlier one', async () => {
    const { services, ref, ids } = await library();
    const first = await services.chat.chat(ref, 'Where did I park the car?');
    for (const question of ['What is the wifi password at the cabin?', 'When is the dentist appointment?']) {
      const next = await services.chat.chat(ref, question, { conversationId: first.conversation_id });
      expect(cited(next), question).not.toContain(ids.parking);
    }
    const wifi = await services.chat.chat(ref, 'What is the wifi password at the cabin?', {
      conversationId: first.conversation_id,
    });
    expect(cited(wifi)).toEqual([ids.wifi]);
  });

  it('gives a model that judges the bare question and the recent turns, oldest first; one that does not, a question without words of its own with those it goes on from', async () => {
    const judging = new ScriptedModel(true, () => ['From the note [1].']);
    const { services, ref } = await library(undefined, { chatModel: judging });
    const first = await services.chat.chat(ref, 'Where did I park the car?');
    expect(judging.requests[0]!.history).toBeUndefined();
    const second = await services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id });
    expect(judging.requests[1]).toMatchObject({
      question: 'And when was that?',
      history: [{ question: 'Where did I park the car?', reply: first.reply }],
    });
    await services.chat.chat(ref, 'What did I note about it?', { conversationId: second.conversation_id });
    expect(judging.requests[2]!.history!.map((t) => t.question)).toEqual([
      'Where did I park the car?',
      'And when was that?',
    ]);
    expect(Object.keys(judging.requests[2]!.history![0]!).sort()).toEqual(['question', 'reply']);

    const matching = new ScriptedModel(false, (request) => [`${request.question} [1]`]);
    const other = await library({ tenantId: 't2', endUserId: null }, { chatModel: matching });
    const start = await other.services.chat.chat(other.ref, 'Where did I park the car?');
    await other.services.chat.chat(other.ref, 'And when was that?', { conversationId: start.conversation_id });
    expect(matching.requests[1]!.question).toBe('Where did I park the car?\nAnd when was that?');
  });

  it('keeps the last turns only, and gives the model the newest few', async () => {
    const judging = new ScriptedModel(true, () => ['Noted [1].']);
    const { services, ref, conversations, ports } = await library(undefined, { chatModel: judging });
    let id: string | undefined;
    for (let i = 0; i < CONVERSATION_LIMITS.keptTurns + 3; i++) {
      id = (await services.chat.chat(ref, `Question ${i} about the Harbour Street garage?`, { conversationId: id }))
        .conversation_id;
    }
    const generation = (await ports.documents.libraryGeneration(ref))!;
    const kept = await conversations.recentTurns(ref, id!, generation, 100);
    expect(kept.map((t) => t.question)).toEqual(
      Array.from(
        { length: CONVERSATION_LIMITS.keptTurns },
        (_, i) => `Question ${i + 3} about the Harbour Street garage?`,
      ),
    );
    expect(judging.requests.at(-1)!.history).toHaveLength(CONVERSATION_LIMITS.historyTurns);
    expect(judging.requests.at(-1)!.history!.at(-1)!.question).toBe(
      `Question ${CONVERSATION_LIMITS.keptTurns + 1} about the Harbour Street garage?`,
    );
  });

  it('answers not found for a conversation of another library, another tenant, or none, and stores nothing for it', async () => {
    const { services, ref, ports } = await library();
    const mine = await services.chat.chat(ref, 'Where did I park the car?');
    const elsewhere: LibraryRef[] = [
      { tenantId: 't', endUserId: 'bob' },
      { tenantId: 't', endUserId: null },
      { tenantId: 'other-tenant', endUserId: 'ann' },
    ];
    for (const other of elsewhere) {
      await expect(
        services.chat.chat(other, 'And when was that?', { conversationId: mine.conversation_id }),
      ).rejects.toMatchObject({ code: 'not_found' });
      // The refused chat made no library and remembered nothing.
      expect(await ports.documents.libraryExists(other)).toBe(false);
    }
    await expect(
      services.chat.chat(ref, 'And when was that?', { conversationId: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3' }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: 'conversation cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3 not found',
    });
    const started: unknown[] = [];
    await expect(
      services.chat.chat(ref, 'x', {
        conversationId: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3',
        onStart: (s) => started.push(s),
      }),
    ).rejects.toThrow();
    expect(started).toEqual([]);
  });

  it('a chat that fails stores nothing: no turn, no memory, no charge', async () => {
    const down = { fail: false };
    const model: ChatModel = {
      name: 'flaky',
      judges: true,
      async answer() {
        if (down.fail) throw new BackendUnavailableError('model down');
        return {
          reply: 'You parked on level 3 [1].',
          citations: [{ passage: 1 }],
          usage: { promptTokens: 1, completionTokens: 1 },
        };
      },
    };
    const { services, ref, ports, conversations, db } = await library(undefined, { chatModel: model });
    const first = await services.chat.chat(ref, 'Where did I park the car?');
    const chatItems = () => db.prepare(`SELECT count(*) FROM items WHERE kind = 'chat'`).pluck().get() as number;
    const before = {
      turns: conversations.turns.size,
      items: chatItems(),
      usage: await ports.usage.days('t', '2000-01-01', '2999-12-31'),
    };

    down.fail = true;
    await expect(
      services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id }),
    ).rejects.toBeInstanceOf(BackendUnavailableError);
    expect({
      turns: conversations.turns.size,
      items: chatItems(),
      usage: await ports.usage.days('t', '2000-01-01', '2999-12-31'),
    }).toEqual(before);

    // A failure after the answer (the charge is refused): the turn and the memory written are taken back.
    down.fail = false;
    const ledger = withFault(ports.usage as UsageLedger, 'add', () => new BackendUnavailableError('ledger down'));
    const failing = coreHarness({
      conversations,
      documents: ports.documents,
      index: ports.index,
      usage: ledger,
      chatModel: model,
    });
    ledger.failing = true;
    await expect(
      failing.services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id }),
    ).rejects.toBeInstanceOf(BackendUnavailableError);
    expect({ turns: conversations.turns.size, items: chatItems() }).toEqual({
      turns: before.turns,
      items: before.items,
    });
  });

  it('an erased end user takes its conversations along: the id is not found, no turn is left, and the id never reaches the next library', async () => {
    const { services, ref, conversations } = await library();
    const first = await services.chat.chat(ref, 'Where did I park the car?');
    await services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id });
    const shared = await services.chat.chat({ tenantId: 't', endUserId: null }, 'Anything about parking?');
    expect(conversations.turns.size).toBe(3);

    await services.endUsers.erase('t', 'ann');
    expect([...conversations.turns.values()].map((t) => t.conversationId)).toEqual([shared.conversation_id]);
    await expect(
      services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // The end user's next library starts empty: the old id is unknown there too.
    await services.capture.capture(ref, { text: NOTES.parking });
    await expect(
      services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a conversation whose library is erased while a follow-up is answered: the follow-up fails not found and leaves nothing', async () => {
    const erasing = new ErasingModel(new ScriptedModel(true, () => ['Level 3 [1].']));
    const { services, ref, conversations, ports } = await library(undefined, { chatModel: erasing });
    const first = await services.chat.chat(ref, 'Where did I park the car?');
    erasing.erase = () => services.endUsers.erase('t', 'ann');
    await expect(
      services.chat.chat(ref, 'And when was that?', { conversationId: first.conversation_id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(conversations.turns.size).toBe(0);
    expect(await ports.documents.libraryExists(ref)).toBe(false);
  });

  it('a new conversation whose library is erased while its reply is written: the chat fails, nothing of the erased library is kept or recreated', async () => {
    const erasing = new ErasingModel(new ScriptedModel(true, () => ['Level 3 of the Harbour Street garage [1].']));
    const { services, ref, conversations, ports } = await library(undefined, { chatModel: erasing });
    erasing.erase = () => services.endUsers.erase('t', 'ann');
    await expect(services.chat.chat(ref, 'Where did I park the car?')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('erased while the chat ran'),
    });
    expect(conversations.turns.size).toBe(0);
    // Before, the reply (quoting the erased note) was remembered in a library created afresh for the end user.
    expect(await ports.documents.libraryExists(ref)).toBe(false);
  });

  it('a new conversation that found nothing to quote still begins in the library made after an erasure', async () => {
    const erasing = new ErasingModel(new ScriptedModel(true, () => ['NOT_IN_LIBRARY']));
    const { services, ref, conversations } = await library(undefined, { chatModel: erasing });
    erasing.erase = () => services.endUsers.erase('t', 'ann');
    const refused = await services.chat.chat(ref, 'Where did I park the car?');
    expect(refused.reply).toBe(NO_ANSWER_REPLY);
    expect(conversations.turns.size).toBe(1);
  });

  it('says it has begun before it searches, then passes the reply on as it is written; the pieces add up to the reply', async () => {
    const events: string[] = [];
    const model = new ScriptedModel(true, () => ['  You parked ', 'on level 3', ' [1].', '\n']);
    const { services, ref } = await library(undefined, { chatModel: model });
    const response = await services.chat.chat(ref, 'Where did I park the car?', {
      onStart: (started) => events.push(`start ${started.run_id} ${started.conversation_id}`),
      onDelta: (text) => events.push(text),
    });
    expect(events).toEqual([
      `start ${response.run_id} ${response.conversation_id}`,
      'You parked',
      ' on level 3',
      ' [1].',
    ]);
    expect(events.slice(1).join('')).toBe(response.reply);
  });

  it("streams the no-answer reply whole when the model finds nothing (its NOT_IN_LIBRARY is never passed on), and an artifact's note after the reply", async () => {
    const deltas: string[] = [];
    const refusing = new ScriptedModel(true, () => ['NOT_', 'IN_LIB', 'RARY']);
    const { services, ref } = await library(undefined, { chatModel: refusing });
    const none = await services.chat.chat(ref, 'Where did I park the car?', { onDelta: (text) => deltas.push(text) });
    expect(none.reply).toBe(NO_ANSWER_REPLY);
    expect(deltas).toEqual([NO_ANSWER_REPLY]);

    // Nothing relevant at all: the model is not called, the reply still comes as one piece.
    deltas.length = 0;
    const nothing = await services.chat.chat(ref, 'What is the capital of Peru?', {
      onDelta: (text) => deltas.push(text),
    });
    expect(deltas.join('')).toBe(nothing.reply);

    // The offline answerer writes no pieces itself; a chart request gets its reply, then the note a table replaced it with.
    const offline = await library({ tenantId: 't3', endUserId: null });
    await offline.services.capture.capture(offline.ref, {
      text: 'Garage levels: the Harbour Street garage has level 3 for residents.',
      title: 'levels',
    });
    deltas.length = 0;
    const chart = await offline.services.chat.chat(offline.ref, 'Draw a chart of the Harbour Street garage levels', {
      onDelta: (text) => deltas.push(text),
    });
    expect(deltas.join('')).toBe(chart.reply);
  });
});

describe('which questions point back (refersBack)', () => {
  it.each([
    'And when was that?',
    'and where?',
    'What about the Berlin office?',
    'How about next week?',
    'When was that?',
    'What is her phone number?',
    'Who else was there?',
    'How much did it cost?',
    'Why?',
    'When?',
    'Can you say more about those?',
    'Is that right?',
    'What did we eat there?',
    "What's his name?",
    'Did they agree?',
    'Also, who paid?',
    // No noun or name of its own: about what was said.
    'Where are we staying?',
    'What did we decide?',
    // Only the kind of answer it wants: the time, day or price of what was said.
    'what time?',
    'Which day?',
    'what date?',
    'What price?',
  ])('%s points back', (question) => {
    expect(refersBack(question)).toBe(true);
  });

  it.each([
    'Where did I park the car?',
    'When is the dentist?',
    'What is the wifi password at the cabin?',
    'Is there a note about the Berlin office?',
    'What is the note that mentions Paris?',
    'What is on this week?',
    'Which level is the garage?',
    'Make a table of the quarterly revenue',
    'Where is the hotel?',
    'What did we decide about the mortgage?',
    'What time is the dentist?',
    'What price is the sofa?',
  ])('%s stands alone', (question) => {
    expect(refersBack(question)).toBe(false);
  });
});

describe('what a follow-up is searched with (searchQuestion)', () => {
  const turn = (question: string, reply: string) => ({
    runId: 'run_x',
    question,
    reply,
    at: '2026-11-25T00:00:00.000000',
  });

  it('searches a question that stands alone as it is, whatever came before', () => {
    expect(searchQuestion('Where is my passport?', [turn('Where did I park?', 'Level 3 [1].')])).toEqual({
      search: 'Where is my passport?',
      question: 'Where is my passport?',
      inContext: false,
    });
    expect(searchQuestion('And when was that?', [])).toEqual({
      search: 'And when was that?',
      question: 'And when was that?',
      inContext: false,
    });
  });

  it('draws in the earlier questions back to the last that stood alone, and the new words of the last reply', () => {
    const history = [
      turn('What is the wifi password?', 'spruce-lantern-42 [1].'),
      turn('Who is my dentist?', 'From your library: Dr. Amara Okafor at the Riverside Clinic [2].'),
      turn('And where is her clinic?', 'On Mill Road [1], next to the dentist [2].'),
    ];
    const asked = searchQuestion('What is her phone number?', history);
    // Found in context, answered by its own words.
    expect(asked.question).toBe('What is her phone number?');
    expect(searchQuestion('And when was that?', history).question).toBe(
      'Who is my dentist?\nAnd where is her clinic?\nAnd when was that?',
    );
    // The reply's words up to its first citation: what it answered, not what it cited beside.
    expect(asked.search).toBe('Who is my dentist?\nAnd where is her clinic?\nMill Road\nWhat is her phone number?');
    expect(asked.inContext).toBe(true);
  });

  it("takes no word from what a reply cited beside its answer: the other project is not what 'it' names", () => {
    const history = [
      turn(
        'When does project Orion ship?',
        'From your library: Project Orion ships on Wednesday. [1] Project Zephyr ships on Monday. [2] Also relevant: [3].',
      ),
    ];
    const asked = searchQuestion('Who leads it?', history);
    expect(asked.search).toBe('When does project Orion ship?\nWednesday\nWho leads it?');
    expect(asked.search).not.toMatch(/Zephyr/);
  });

  it('never draws in the no-answer reply, and takes at most a few earlier questions and reply words', () => {
    const history = [turn('Why?', 'x'), turn('And then?', 'y'), turn('What about it?', NO_ANSWER_REPLY)];
    const asked = searchQuestion('And after that?', history, { noAnswerReply: NO_ANSWER_REPLY });
    expect(asked.search).toBe('And then?\nWhat about it?\nAnd after that?');
    const wordy = searchQuestion('And when?', [
      turn('Where did the team meet?', 'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo'),
    ]);
    expect(wordy.search.split('\n')[1]!.split(' ')).toHaveLength(CONVERSATION_LIMITS.replyWords);
  });
});

describe('reply deltas (ReplyDeltas)', () => {
  const run = (pieces: string[], reply: string) => {
    const sent: string[] = [];
    const deltas = new ReplyDeltas((text) => sent.push(text));
    for (const piece of pieces) deltas.push(piece);
    deltas.finish(reply);
    return sent;
  };

  it('passes pieces on, holding back white space around the reply', () => {
    expect(run(['\n  Hel', 'lo ', ' ', 'world', '\n\n'], 'Hello  world')).toEqual(['Hel', 'lo', '  world']);
  });

  it('holds back what may still be NOT_IN_LIBRARY, and lets it go once it cannot be', () => {
    expect(run(['NOT', '_IN', '_LIB', 'RARY'], 'no answer')).toEqual(['no answer']);
    expect(run(['N', 'O', 'W is the time [1].'], 'NOW is the time [1].')).toEqual(['NOW is the time [1].']);
    expect(run(['N', 'o', 'w then [1].'], 'Now then [1].')).toEqual(['No', 'w then [1].']);
    expect(run(['NOT_IN_LIBRARY', ' really'], 'no answer')).toEqual(['no answer']);
  });

  it('adds what the final reply has beyond the pieces, and nothing when it is another text', () => {
    expect(run(['A table [1].'], 'A table [1].\n\nThe note.')).toEqual(['A table [1].', '\n\nThe note.']);
    expect(run(['Something else'], 'Replaced.')).toEqual(['Something else']);
    expect(run([], 'Whole.')).toEqual(['Whole.']);
  });
});

describe('what the offline answerer is given for a follow-up (searchQuestion)', () => {
  const turn = (question: string, reply: string) => ({ runId: 'run_1', question, reply, at: '2026-01-01T00:00:00Z' });
  it('a follow-up naming only the kind of answer ("what time?") is given with the question it goes on from', () => {
    const history = [turn('When is the dentist appointment?', 'From your library: Tuesday at 3:30pm. [1]')];
    expect(searchQuestion('what time?', history).question).toBe('When is the dentist appointment?\nwhat time?');
    // One with a word of its own keeps it alone: its words pick what answers it among the passages found in context.
    expect(searchQuestion('who leads it?', history).question).toBe('who leads it?');
  });

  it('a question about only what the previous answer named goes on from it ("Which day is the appointment?")', () => {
    const history = [
      turn(
        'Who is the dermatologist?',
        'From your library: Dermatologist appointment with Dr. Patel at Bayview Dermatology. [1]',
      ),
    ];
    const followUp = searchQuestion('Which day is the appointment?', history);
    expect(followUp.inContext).toBe(true);
    expect(followUp.search).toContain('Who is the dermatologist?');
    // A thing the answer did not name starts a new subject.
    expect(searchQuestion('When is the vet appointment?', history).inContext).toBe(false);
    // Nor after a refusal.
    const refused = [turn('Who is the dermatologist?', NO_ANSWER_REPLY)];
    expect(searchQuestion('Which day is the appointment?', refused, { noAnswerReply: NO_ANSWER_REPLY }).inContext).toBe(
      false,
    );
  });
});
