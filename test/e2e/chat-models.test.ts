import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answersFrom,
  type ChatModelServer,
  passagesIn,
  questionIn,
  type SeenRequest,
  startChatModelServer,
} from '../support/chat-model-server.js';
import { FALCON } from '../support/chat-notes.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * POST /v1/chat over HTTP on the local server configured with an
 * OpenAI-compatible model (as LIBRARY_CHAT_URL / LIBRARY_CHAT_MODEL do),
 * the model being a scripted one on loopback that reads the prompt it is
 * sent: the model judges, the service validates what it says.
 */
let model: ChatModelServer;
let server: TestServer;
let keyA: string;
let keyB: string;
const ids: Record<string, string> = {};

const SOURDOUGH = `Sourdough notes
Feed the starter twice a day with equal weights of flour and water.`;

const HERON = `Heron field notes
The grey heron nests in colonies near the lake from February to June.`;

const FALCON_B = `Falcon programme (tenant B)
The Falcon launch is planned for June 2028 after the second design review.
The team lead of Falcon is Bruno Keller; the secret code of the team is ZEBRA-99.`;

/** Every line of each library, to check what the model was shown. */
const LIBRARY_LINES = {
  a: [FALCON, SOURDOUGH].flatMap((t) => t.split('\n')),
  aUser: HERON.split('\n'),
  b: FALCON_B.split('\n'),
};

const chat = (key: string, question: string, endUserId?: string) =>
  server.api('/v1/chat', { key, body: { question, ...(endUserId ? { end_user_id: endUserId } : {}) } });

async function capture(key: string, text: string, title: string, endUserId?: string): Promise<string> {
  const res = await server.api('/v1/capture', {
    key,
    body: { text, title, ...(endUserId ? { end_user_id: endUserId } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** The requests the model received during `run`. */
async function modelRequests(run: () => Promise<unknown>): Promise<SeenRequest[]> {
  const before = model.requests.length;
  await run();
  return model.requests.slice(before);
}

beforeAll(async () => {
  model = await startChatModelServer({ model: 'llama3.1:8b' });
  server = await startTestServer({ embedder: new HashingEmbedder(), chat: { url: model.url, model: 'llama3.1:8b' } });
  keyA = await server.newKey('tenant-a');
  keyB = await server.newKey('tenant-b');
  ids.falcon = await capture(keyA, FALCON, 'Falcon status');
  ids.sourdough = await capture(keyA, SOURDOUGH, 'Sourdough');
  ids.heron = await capture(keyA, HERON, 'Heron', 'user-1');
  ids.falconB = await capture(keyB, FALCON_B, 'Falcon B');
}, 120_000);
afterAll(async () => {
  await server?.close();
  await model?.close();
});
beforeEach(() => {
  model.script = answersFrom('The team lead is Ingrid Solberg', (n) => `Ingrid Solberg leads the Falcon team [${n}].`);
});

describe('chat with a judging model over HTTP', () => {
  const question = 'Who manages Falcon?';

  it('answers from the candidates the noise gate passes, citing the line the model quoted', async () => {
    // With a model, clear noise only is dropped; the model finds the answer among the candidates and cites it.
    const [seen] = await modelRequests(async () => {
      const res = await chat(keyA, question);
      expect(res.status).toBe(200);
      expect(res.body.reply).toMatch(/^Ingrid Solberg leads the Falcon team \[\d+\]\.$/);
      const marker = Number(/\[(\d+)\]/.exec(res.body.reply)![1]);
      expect(res.body.sources).toEqual([
        {
          kind: 'file',
          title: 'Falcon status',
          file_id: ids.falcon,
          snippet: '5: The team lead is Ingrid Solberg; she reports to the CTO every Friday.',
          metadata: {},
          markers: [{ marker, lines: [5] }],
        },
      ]);
      expect(res.body.tokens_used).toBeGreaterThan(0);
    });
    expect(seen!.body.response_format).toMatchObject({ type: 'json_schema' });
    expect(questionIn(seen!.user)).toBe(question);
  });

  it('gives the no-answer reply and no sources when the model says the library does not hold it', async () => {
    model.script = () => ({ json: { answer: null, citations: [] } });
    const seen = await modelRequests(async () => {
      const res = await chat(keyA, 'What did the CTO decide about the Falcon budget on Friday?');
      expect(res.status).toBe(200);
      expect(res.body.reply).toMatch(/does not hold the answer/);
      expect(res.body.sources).toEqual([]);
      expect(res.body.artifacts).toEqual([]);
    });
    // The gate let candidates through: the model judged.
    expect(seen).toHaveLength(1);
    expect(passagesIn(seen[0]!.user).length).toBeGreaterThan(0);
  });

  it('rejects a reply citing a passage it was not given: the no-answer reply, nothing cited', async () => {
    model.script = (request) => {
      const beyond = passagesIn(request.user).length + 1;
      return {
        json: {
          answer: `The Falcon team is led by Ingrid Solberg [${beyond}].`,
          citations: [{ passage: beyond, quote: 'Ingrid Solberg' }],
        },
      };
    };
    const res = await chat(keyA, question);
    expect(res.status).toBe(200);
    expect(res.body.reply).toMatch(/does not hold the answer/);
    expect(res.body.reply).not.toContain('Ingrid');
    expect(res.body.sources).toEqual([]);
  });

  it('does not trust a factual reply that cites nothing', async () => {
    model.script = () => ({ json: { answer: 'Ingrid Solberg leads the Falcon team.', citations: [] } });
    const res = await chat(keyA, question);
    expect(res.body.reply).toMatch(/does not hold the answer/);
    expect(res.body.sources).toEqual([]);
  });

  it("keeps a citation whose quote is not in the passage, showing the passage's lines", async () => {
    model.script = answersFrom('The team lead is Ingrid Solberg', (n) => `Ingrid Solberg [${n}].`);
    const script = model.script;
    model.script = (request) => {
      const reply = script(request) as {
        json: { answer: string; citations: Array<{ passage: number; quote: string }> };
      };
      return {
        json: {
          ...reply.json,
          citations: reply.json.citations.map((c) => ({ ...c, quote: 'Ingrid Solberg runs the whole company' })),
        },
      };
    };
    const res = await chat(keyA, question);
    expect(res.body.reply).toMatch(/^Ingrid Solberg \[\d+\]\.$/);
    expect(res.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.falcon]);
    expect(res.body.sources[0].snippet).toContain('5: The team lead is Ingrid Solberg');
  });

  it('shows the model nothing from another tenant or another library of the same tenant', async () => {
    // Any text the model could be shown from elsewhere: B's Falcon (June 2028, Bruno Keller, ZEBRA-99), the end user's heron notes.
    const questions: Array<[string, string, string | undefined, string[]]> = [
      [keyA, 'When is the Falcon launch?', undefined, LIBRARY_LINES.a],
      [keyA, 'Who is the Falcon team lead and what is the secret code of the team?', undefined, LIBRARY_LINES.a],
      [keyA, 'When does the grey heron nest?', undefined, LIBRARY_LINES.a],
      [keyA, 'When is the Falcon launch?', 'user-1', LIBRARY_LINES.aUser],
      [keyA, 'When does the grey heron nest near the lake?', 'user-1', LIBRARY_LINES.aUser],
      [keyB, 'When is the Falcon launch and who leads the team?', undefined, LIBRARY_LINES.b],
      [keyB, 'How often do I feed the sourdough starter?', undefined, LIBRARY_LINES.b],
    ];
    let prompts = 0;
    for (const [key, question, endUser, own] of questions) {
      for (const seen of await modelRequests(() => chat(key, question, endUser))) {
        prompts += 1;
        for (const passage of passagesIn(seen.user)) {
          for (const { text } of passage.lines)
            expect(own, `${question} (${endUser ?? 'shared'}) was shown "${text}"`).toContain(text);
        }
        const others = key === keyB ? [FALCON, HERON] : endUser ? [FALCON, FALCON_B] : [HERON, FALCON_B];
        for (const text of others.flatMap((t) => t.split('\n')).filter((l) => l.length > 20))
          expect(seen.user).not.toContain(text);
      }
    }
    // The questions that have something in their own library reached the model.
    expect(prompts).toBeGreaterThanOrEqual(4);
  });

  it("answers 503 with the model server's Retry-After when it throttles, and when its output is malformed; stores and charges nothing", async () => {
    const key = await server.newKey('tenant-faults');
    await capture(key, FALCON, 'Falcon status');
    model.script = () => ({ status: 429, retryAfter: '6', error: 'slow down' });
    const throttled = await chat(key, question);
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get('retry-after')).toBe('6');
    expect(throttled.body.error.code).toBe('unavailable');

    model.script = () => ({
      text: '{"answer": "Ingrid Solberg [1]", "citations": [{"passage": 1, "quo',
      finishReason: 'length',
    });
    const malformed = await chat(key, question);
    expect(malformed.status).toBe(503);
    expect(malformed.body.error.code).toBe('unavailable');

    expect((await server.api('/v1/search?q=Falcon&kind=chat', { key })).body.results).toEqual([]);
    expect((await server.api('/v1/usage', { key })).body.chat_calls).toBe(0);
  });
});
