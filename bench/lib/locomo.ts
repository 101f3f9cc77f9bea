/**
 * LoCoMo conversations (conversational memory), read in place, never copied
 * into the repository.
 *
 *   loadLocomo(dir?)  -> every conv-*.json of the folder as a Conversation:
 *     turns      each turn as a memory: `[8 May 2023] Caroline: <text>` (a shared photo
 *                appended as `[shares a photo: <caption>]`), with its dia_id
 *     questions  categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop) with
 *                their evidence dia_ids; category 5 (adversarial, no answer) is left out, and so
 *                is a question whose evidence names no turn of the conversation
 *   locomoDir()       -> where the data is read from: $LOCOMO_DIR (the conversations' JSON files)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataSetDir } from './data-dir.js';

export const locomoDir = () => dataSetDir('LOCOMO_DIR', 'the LoCoMo conversations (conv-*.json)');

export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

export interface Turn {
  diaId: string;
  text: string;
}

export interface MemoryQuestion {
  question: string;
  category: number;
  evidence: string[];
}

export interface Conversation {
  id: string;
  turns: Turn[];
  questions: MemoryQuestion[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** "1:56 pm on 8 May, 2023" -> "8 May 2023" (the session's day, as a person would write it). */
export function sessionDay(dateTime: string): string {
  const match = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(dateTime);
  if (!match || !MONTHS.includes(match[2]!)) throw new Error(`unexpected session date: ${dateTime}`);
  return `${match[1]} ${match[2]} ${match[3]}`;
}

export function memoryText(day: string, turn: RawTurn): string {
  const photo = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : '';
  return `[${day}] ${turn.speaker}: ${turn.text}${photo}`;
}

/** Evidence as written in the data, split into dia_ids ("D8:6; D9:17" happens). */
const evidenceIds = (evidence: unknown[]): string[] =>
  evidence.flatMap((e) => String(e).split(/[;,\s]+/)).filter((id) => /^D\d+:\d+$/.test(id));

export function loadConversation(file: string): Conversation {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & {
    qa: Array<{ question: string; category: number; evidence?: unknown[] }>;
  };
  const turns: Turn[] = [];
  for (let session = 1; Array.isArray(raw[`session_${session}`]) || raw[`session_${session}_date_time`]; session++) {
    const list = raw[`session_${session}`] as RawTurn[] | undefined;
    if (!list?.length) continue;
    const day = sessionDay(String(raw[`session_${session}_date_time`]));
    for (const turn of list) turns.push({ diaId: turn.dia_id, text: memoryText(day, turn) });
  }
  const known = new Set(turns.map((t) => t.diaId));
  const questions = raw.qa
    .filter((q) => q.category >= 1 && q.category <= 4)
    .map((q) => ({
      question: String(q.question),
      category: q.category,
      evidence: evidenceIds(q.evidence ?? []).filter((id) => known.has(id)),
    }))
    .filter((q) => q.evidence.length > 0);
  return { id: file.replace(/^.*\//, '').replace(/\.json$/, ''), turns, questions };
}

export function loadLocomo(dir = locomoDir()): Conversation[] {
  return readdirSync(dir)
    .filter((f) => /^conv-.*\.json$/.test(f))
    .sort()
    .map((f) => loadConversation(join(dir, f)));
}
