import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { ChatModel } from '../../lambdas/core/ports.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Conversations and streamed replies over HTTP against the real local server
 * (real SQLite, the real sentence encoder, the offline answerer):
 * docs/api-notes.md, "Conversations" and "Streamed replies".
 */
let server: TestServer;
let keyA: string;
let keyB: string;
const ids: Record<string, string> = {};

const NOTES: Record<string, string> = {
  parking: 'Parked the car on level 3 of the Harbour Street garage on Tuesday 14 May.',
  wifi: 'The wifi password at the cabin is spruce-lantern-42.',
  dentist: 'Dentist appointment with Dr. Amara Okafor at the Riverside Clinic, Thursday at 10.',
  falcon:
    'Project Falcon status\nThe Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells.\nThe team lead is Ingrid Solberg.',
};

interface SseEvent {
  event: string;
  data: any;
}

/** Parses a text/event-stream body: events separated by a blank line, `event:` and `data:` fields, `:` comments skipped. */
function parseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      if (field === 'data') data.push(value);
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

/** POST /v1/chat asking for server-sent events; the time until the first `event: start` line arrived, and the events. */
async function streamChat(base: string, key: string, body: Record<string, unknown>, accept = 'text/event-stream') {
  const started = performance.now();
  const response = await fetch(`${base}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let firstEventMs: number | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (firstEventMs === null && text.includes('event: start\n')) firstEventMs = performance.now() - started;
  }
  text += decoder.decode();
  return {
    response,
    text,
    firstEventMs,
    events: response.headers.get('content-type')?.startsWith('text/event-stream') ? parseEvents(text) : [],
  };
}

const chat = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.api('/v1/chat', { key, body, headers });

beforeAll(async () => {
  server = await startTestServer();
  keyA = await server.newKey('conv-a');
  keyB = await server.newKey('conv-b');
  for (const [name, text] of Object.entries(NOTES)) {
    const res = await server.api('/v1/capture', { key: keyA, body: { text, title: name } });
    expect(res.status).toBe(201);
    ids[name] = res.body.id;
  }
  for (const name of ['parking', 'wifi'] as const) {
    const res = await server.api('/v1/capture', {
      key: keyA,
      body: { text: NOTES[name], title: name, end_user_id: 'ann' },
    });
    ids[`ann-${name}`] = res.body.id;
  }
}, 120_000);
afterAll(async () => server?.close());

describe('conversations over HTTP', () => {
  it('answers a follow-up in its conversation from the note the bare follow-up does not find', async () => {
    const first = await chat(keyA, { question: 'Where did I park the car?' });
    expect(first.status).toBe(200);
    expect(first.body.conversation_id).toMatch(/^cnv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(first.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.parking]);

    const bare = await chat(keyA, { question: 'And when was that?' });
    expect(bare.body.sources).toEqual([]);
    expect(bare.body.reply).toMatch(/does not hold the answer/);

    const followUp = await chat(keyA, { question: 'And when was that?', conversation_id: first.body.conversation_id });
    expect(followUp.status).toBe(200);
    expect(followUp.body.conversation_id).toBe(first.body.conversation_id);
    expect(followUp.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.parking]);
    expect(followUp.body.reply).toContain('Tuesday 14 May');

    // A new subject in the same conversation is searched on its own.
    const wifi = await chat(keyA, {
      question: 'What is the wifi password at the cabin?',
      conversation_id: first.body.conversation_id,
    });
    expect(wifi.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids.wifi]);
  });

  it("answers a follow-up that shares no word with the note from that note's sentence holding what it asks", async () => {
    const notes = {
      car: "Car wouldn't start Monday morning, flat battery. AA jump started it. New Varta battery fitted at Halfords on Wednesday for £139.",
      rent: 'Landlord letter: rent going up from £950 to £1,025 a month from 1 September.',
      washer: 'Washing machine leaking from the door seal. Repair man replaced the gasket, £85 including call out.',
    };
    const fileOf: Record<string, string> = {};
    // Each findable by meaning before the chats, so what the gate sees does not depend on the embedder's pace.
    for (const [name, text] of Object.entries(notes))
      fileOf[await server.captureReady(keyA, { text, end_user_id: 'bo' })] = name;
    const cited = (body: { sources: Array<{ file_id: string }> }) => body.sources.map((s) => fileOf[s.file_id]);
    // "car" is the question's only thing, and the car note holds it: the rest ("wrong") is said all the time.
    const first = await chat(keyA, { question: 'What was wrong with the car?', end_user_id: 'bo' });
    expect(cited(first.body)).toEqual(['car']);
    const cost = await chat(keyA, {
      question: 'And how much did that cost?',
      end_user_id: 'bo',
      conversation_id: first.body.conversation_id,
    });
    expect(cited(cost.body)[0]).toBe('car');
    expect(cost.body.reply).toContain('£139');
    expect(cost.body.reply).not.toContain('£85');
  });

  it('takes a follow-up that names no thing of its own ("where are we staying?") as going on from the conversation', async () => {
    const trip = await server.captureReady(keyA, {
      text: 'Booked Lisbon for October half term: flights with easyJet, Manchester to Lisbon 25 Oct 07:05, back 1 Nov. Hotel Alfama Patio, 7 nights, £812 total.',
      end_user_id: 'cy',
    });
    for (const text of [
      'Kids swimming lessons moved to Saturday 9am at Castle Leisure Centre.',
      'Landlord letter: rent going up from £950 to £1,025 a month from 1 September.',
      'Physio for my knee: Tuesday 3 June 4:15pm with Dr Okafor at Bodyworks. Bring shorts.',
      'Decided with Tom to go with the grey sofa from DFS rather than the green one.',
    ])
      await server.captureReady(keyA, { text, end_user_id: 'cy' });
    const first = await chat(keyA, { question: 'What time is the flight to Lisbon?', end_user_id: 'cy' });
    expect(first.body.sources[0].file_id).toBe(trip);
    const staying = await chat(keyA, {
      question: 'Where are we staying?',
      end_user_id: 'cy',
      conversation_id: first.body.conversation_id,
    });
    expect(staying.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([trip]);
    expect(staying.body.reply).toContain('Hotel Alfama Patio');
  });

  it("never continues someone else's conversation: another tenant's key, another end user or the shared library get 404, JSON even when a stream was asked", async () => {
    const ann = await chat(keyA, { question: 'Where did I park the car?', end_user_id: 'ann' });
    expect(ann.body.sources.map((s: { file_id: string }) => s.file_id)).toEqual([ids['ann-parking']]);
    const id = ann.body.conversation_id;
    const attempts: Array<[string, Record<string, unknown>]> = [
      [keyB, { question: 'And when was that?', conversation_id: id, end_user_id: 'ann' }],
      [keyB, { question: 'And when was that?', conversation_id: id }],
      [keyA, { question: 'And when was that?', conversation_id: id }],
      [keyA, { question: 'And when was that?', conversation_id: id, end_user_id: 'bob' }],
    ];
    for (const [key, body] of attempts) {
      for (const headers of [{}, { accept: 'text/event-stream' }] as Array<Record<string, string>>) {
        const res = await chat(key, body, headers);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.body.error).toMatchObject({ code: 'not_found', message: `conversation ${id} not found` });
      }
    }
    // Tenant B learnt nothing, and its own library gained nothing from the attempts.
    const bSearch = await server.api(`/v1/search?q=${encodeURIComponent('when was that')}&kind=chat`, { key: keyB });
    expect(bSearch.body.results).toEqual([]);
    // Ann's conversation goes on for ann.
    const mine = await chat(keyA, { question: 'And when was that?', conversation_id: id, end_user_id: 'ann' });
    expect(mine.status).toBe(200);
    expect(mine.body.reply).toContain('14 May');
  });

  it('validates conversation_id', async () => {
    for (const conversation_id of [
      '',
      'cnv_',
      'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P',
      'run_01JD7ZQ8W3M4X9N2B5C6V7K8P3',
      'cnv_01jd7zq8w3m4x9n2b5c6v7k8p3',
      'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8PI',
      7,
      null,
    ]) {
      const res = await chat(keyA, { question: 'hi', conversation_id });
      expect(res.status, String(conversation_id)).toBe(422);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(/^conversation_id: /);
    }
    const unknown = await chat(keyA, { question: 'hi', conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3' });
    expect(unknown.status).toBe(404);
  });

  it("ends with its end user's erasure: the id answers 404 and nothing of the conversation is left in the data folder", async () => {
    const marker = 'Zanzibarquokka';
    await server.api('/v1/capture', {
      key: keyA,
      body: { text: `The ${marker} lives behind the greenhouse.`, end_user_id: 'erin' },
    });
    const first = await chat(keyA, { question: `Where does the ${marker} live?`, end_user_id: 'erin' });
    const id = first.body.conversation_id;
    expect(
      (
        await chat(keyA, {
          question: `And what does the ${marker} eat there?`,
          conversation_id: id,
          end_user_id: 'erin',
        })
      ).status,
    ).toBe(200);
    expect(
      server.stack.db.prepare('SELECT count(*) FROM conversation_turns WHERE conversation_id = ?').pluck().get(id),
    ).toBe(2);
    await server.stack.settled();

    const erased = await server.api('/v1/end-users/erin', { key: keyA, method: 'DELETE' });
    expect(erased.status).toBe(200);
    const after = await chat(keyA, { question: 'And when?', conversation_id: id, end_user_id: 'erin' });
    expect(after.status).toBe(404);
    expect(
      server.stack.db.prepare('SELECT count(*) FROM conversation_turns WHERE conversation_id = ?').pluck().get(id),
    ).toBe(0);
    const files = readdirSync(server.dataDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    const residue = files.filter((file) => existsSync(file) && readFileSync(file).includes(Buffer.from(marker)));
    expect(residue).toEqual([]);
    // The shared library's conversations are untouched.
    const shared = await chat(keyA, { question: 'Where did I park the car?' });
    expect(
      (await chat(keyA, { question: 'And when was that?', conversation_id: shared.body.conversation_id })).status,
    ).toBe(200);
  });
});

describe('streamed replies (Accept: text/event-stream)', () => {
  it('streams start, the reply as deltas, then done, whose body is what the JSON answer is; the first event comes at once', async () => {
    // Warm: the first chat of a process compiles and loads what the next ones reuse.
    await chat(keyA, { question: 'Who leads the Falcon team?' });
    const question = 'When is the Falcon launch now?';
    const json = await chat(keyA, { question });
    const streamed = await streamChat(server.url, keyA, { question });
    expect(streamed.response.status).toBe(200);
    expect(streamed.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(streamed.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(streamed.response.headers.get('x-request-id')).toMatch(/^req_/);

    const { events } = streamed;
    expect(events[0]!.event).toBe('start');
    expect(events.at(-1)!.event).toBe('done');
    const deltas = events.slice(1, -1);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((e) => e.event === 'delta' && typeof e.data.text === 'string')).toBe(true);
    const done = events.at(-1)!.data;
    expect(events[0]!.data).toEqual({ run_id: done.run_id, conversation_id: done.conversation_id });
    expect(deltas.map((e) => e.data.text).join('')).toBe(done.reply);
    // The same answer as JSON, but for its own run and conversation.
    expect(Object.keys(done).sort()).toEqual(Object.keys(json.body).sort());
    const { run_id: _r1, conversation_id: _c1, tokens_used: _t1, ...streamedRest } = done;
    const { run_id: _r2, conversation_id: _c2, tokens_used: _t2, ...jsonRest } = json.body;
    expect(streamedRest).toEqual(jsonRest);
    expect(done.reply).toContain('14 March 2027');
    expect(done.tokens_used).toBeGreaterThan(0);

    // The stream is a chat like any: a follow-up in its conversation.
    const next = await streamChat(server.url, keyA, {
      question: 'Who leads it?',
      conversation_id: done.conversation_id,
    });
    expect(next.events.at(-1)!.data).toMatchObject({ conversation_id: done.conversation_id });
    expect(next.events.at(-1)!.data.reply).toContain('Ingrid Solberg');
  });

  it('sends the first event within 100 ms of the request on an idle server', async () => {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      await server.stack.settled();
      const { firstEventMs, events } = await streamChat(server.url, keyA, {
        question: 'What is the wifi password at the cabin?',
      });
      expect(events.at(-1)!.event).toBe('done');
      times.push(firstEventMs!);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `first streamed event after ${times.map((t) => t.toFixed(1)).join(', ')} ms (median ${median.toFixed(1)} ms)`,
    );
    expect(median).toBeLessThanOrEqual(100);
  });

  it('answers JSON unless the event stream is preferred', async () => {
    const cases: Array<[string | undefined, 'json' | 'stream']> = [
      [undefined, 'json'],
      ['application/json', 'json'],
      ['*/*', 'json'],
      ['text/event-stream, application/json', 'json'],
      ['text/event-stream;q=0.5, application/json', 'json'],
      ['text/html', 'json'],
      ['text/event-stream', 'stream'],
      ['application/json;q=0.5, text/event-stream', 'stream'],
      ['text/*, application/json;q=0.2', 'stream'],
      ['TEXT/EVENT-STREAM', 'stream'],
    ];
    for (const [accept, expected] of cases) {
      const res = await fetch(`${server.url}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json', ...(accept ? { accept } : {}) },
        body: JSON.stringify({ question: 'What is the wifi password at the cabin?' }),
      });
      const type = res.headers.get('content-type') ?? '';
      await res.text();
      expect(type.startsWith(expected === 'json' ? 'application/json' : 'text/event-stream'), String(accept)).toBe(
        true,
      );
    }
  });

  it('answers a failure before the stream starts with its status and JSON error body', async () => {
    const invalid = await streamChat(server.url, keyA, { question: '' });
    expect(invalid.response.status).toBe(422);
    expect(invalid.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(invalid.text).error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^question: /),
    });
    const unauthorized = await streamChat(server.url, 'lib_nope', { question: 'hi' });
    expect(unauthorized.response.status).toBe(401);
    expect(JSON.parse(unauthorized.text).error.code).toBe('unauthorized');
  });
});

describe('a chat model that fails once the stream has started', () => {
  it('ends the stream with an error event carrying the contract error body, and stores nothing', async () => {
    let calls = 0;
    const down: ChatModel = {
      name: 'down',
      judges: true,
      async answer(_request, options) {
        calls += 1;
        options?.onDelta?.('Partial ');
        throw new BackendUnavailableError('model down', 4);
      },
    };
    const failing = await startTestServer({ embedder: new HashingEmbedder(), chatModel: down });
    try {
      const key = await failing.newKey('t');
      await failing.api('/v1/capture', { key, body: { text: NOTES.falcon } });
      const { response, events } = await streamChat(failing.url, key, { question: 'When is the Falcon launch?' });
      expect(calls).toBe(1);
      expect(response.status).toBe(200);
      expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'error']);
      expect(events[2]!.data).toEqual({
        error: {
          code: 'unavailable',
          message: 'a backend is unavailable; safe to retry',
          request_id: response.headers.get('x-request-id'),
          retry_after: 4,
        },
      });
      // Nothing was kept: no memory, no charge, and the conversation the start event named was never begun.
      expect((await failing.api('/v1/search?q=Falcon&kind=chat', { key })).body.results).toEqual([]);
      expect((await failing.api('/v1/usage', { key })).body.chat_calls).toBe(0);
      const again = await failing.api('/v1/chat', {
        key,
        body: { question: 'And when?', conversation_id: events[0]!.data.conversation_id },
      });
      expect(again.status).toBe(404);
    } finally {
      await failing.close();
    }
  });
});
