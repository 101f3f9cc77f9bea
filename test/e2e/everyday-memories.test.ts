import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * Everyday notes and memories over HTTP with the real sentence encoder: the
 * cases where keyword ranking tuned on scientific abstracts went wrong
 * (docs/search-quality.md).
 */
let server: TestServer;
let key: string;
const ids: Record<string, string> = {};

const NOTES: Record<string, string> = {
  heating: 'Turn the heating up before the guests arrive.',
  rent: 'The landlord raised the rent by 8 percent this year.',
  fruit: 'Market stall today: apples 2.40 a kilo, pears 3.10 a kilo, plums 4.50 a kilo.',
  offsite: 'Team meeting, 3 March: we agreed to hold the offsite in Lisbon in May, two days, budget 6000 euros.',
  dentist: 'Dentist appointment Tuesday 9:30 with Dr Okafor.',
  milk: 'Buy milk, eggs and bread.',
  mum: 'Call mum on Sunday about her birthday.',
  bike: 'The bike needs new brake pads.',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(id: string) {
  for (let i = 0; i < 200; i++) {
    const res = await server.api(`/v1/documents/${id}?end_user_id=everyday`, { key, method: 'GET' });
    if (res.body.status === 'ready') return;
    await sleep(100);
  }
  throw new Error(`document ${id} never became ready`);
}

const search = async (q: string) =>
  (await server.api(`/v1/search?q=${encodeURIComponent(q)}&limit=10&end_user_id=everyday`, { key, method: 'GET' })).body
    .results as Array<{
    id: string;
    score: number;
    from_keyword: boolean;
  }>;

const chat = (question: string) => server.api('/v1/chat', { key, body: { question, end_user_id: 'everyday' } });

beforeAll(async () => {
  server = await startTestServer();
  key = await server.newKey('everyday');
  for (const [name, text] of Object.entries(NOTES)) {
    const res = await server.api('/v1/capture', { key, body: { text, end_user_id: 'everyday' } });
    expect(res.status).toBe(201);
    ids[name] = res.body.id;
  }
  for (const id of Object.values(ids)) await ready(id);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('search over everyday notes', () => {
  it('ranks the note that says it in other words above one that shares only a common word', async () => {
    const results = await search('housing costs went up');
    const rank = (name: string) => results.findIndex((r) => r.id === ids[name]);
    expect(rank('rent')).toBeGreaterThanOrEqual(0);
    const heating = results.find((r) => r.id === ids.heating);
    if (heating) {
      expect(rank('rent')).toBeLessThan(rank('heating'));
      // One common word shared is weak keyword evidence, not a near-perfect score.
      expect(heating.score).toBeLessThan(0.6);
    }
  });

  it('finds a short note by a paraphrase that shares no word with it', async () => {
    const results = await search('when do I see the dentist for my teeth');
    expect(results[0]!.id).toBe(ids.dentist);
  });
});

describe('chat over everyday notes', () => {
  it('makes the table of fruit prices from a note that lists them', async () => {
    const res = await chat('make a table of the fruit prices');
    expect(res.status).toBe(200);
    expect(res.body.sources.map((s: { file_id: string }) => s.file_id)).toContain(ids.fruit);
    const [artifact] = res.body.artifacts;
    expect(artifact).toMatchObject({ type: 'table', content_type: 'text/markdown' });
    expect(artifact.content).toMatch(/apples 2\.40/i);
    expect(artifact.content).toMatch(/plums 4\.50/i);
  });

  it('answers "what did we decide about X" from the note of the decision', async () => {
    const res = await chat('what did we decide about the offsite?');
    expect(res.status).toBe(200);
    expect(res.body.sources[0].file_id).toBe(ids.offsite);
    expect(res.body.reply).toContain('Lisbon');
  });

  it('still refuses a question the notes hold nothing about', async () => {
    const res = await chat('What is the boiling point of mercury?');
    expect(res.status).toBe(200);
    expect(res.body.sources).toEqual([]);
  });
});

describe('a conversation captured turn by turn', () => {
  const TURNS = [
    'Joanna: Can I come over on Saturday to watch your turtles play?',
    'Nate: Of course, they love an audience.',
    'Joanna: Alright, see you then!',
    'Nate: I also started learning the violin last month.',
  ];
  const turnIds: string[] = [];

  beforeAll(async () => {
    const res = await server.api('/v1/capture/batch', {
      key,
      body: { end_user_id: 'joanna', items: TURNS.map((text, i) => ({ text, source_ref: `D1:${i + 1}` })) },
    });
    expect(res.status).toBe(200);
    turnIds.push(...res.body.results.map((r: { id: string }) => r.id));
  }, 60_000);

  const searchJoanna = async (q: string) =>
    (await server.api(`/v1/search?q=${encodeURIComponent(q)}&limit=10&end_user_id=joanna`, { key, method: 'GET' })).body
      .results as Array<{ id: string; from_keyword: boolean }>;

  it('finds a turn that shares no word with the question through the turns around it, not as a keyword match', async () => {
    const results = await searchJoanna('turtles Saturday');
    expect(results[0]!.id).toBe(turnIds[0]);
    expect(results[0]!.from_keyword).toBe(true);
    const seeYou = results.find((r) => r.id === turnIds[2]);
    expect(seeYou).toBeDefined();
    expect(seeYou!.from_keyword).toBe(false); // its own words do not match: its neighbours' do
    // The two turns after it come next; the violin turn, three turns from the question's words, is out of reach.
    expect(
      results
        .slice(1, 3)
        .map((r) => r.id)
        .sort(),
    ).toEqual([turnIds[1], turnIds[2]].sort());
  });

  it("forgets a deleted turn's words in its neighbours", async () => {
    const res = await server.api(`/v1/documents/${turnIds[0]}?end_user_id=joanna`, { key, method: 'DELETE' });
    expect(res.status).toBeLessThan(300);
    const results = await searchJoanna('turtles Saturday');
    expect(results.some((r) => r.id === turnIds[0])).toBe(false);
    expect(results.every((r) => !r.from_keyword)).toBe(true);
    // Not even through a neighbour: the keyword leg finds nothing by those words now.
    const tenantId = (await server.api('/v1/usage', { key, method: 'GET' })).body.tenant_id as string;
    expect(
      await server.stack.ports.index.keywordSearch(
        { tenantId, endUserId: 'joanna' },
        { text: 'turtles Saturday', limit: 10 },
      ),
    ).toEqual([]);
  });
});
