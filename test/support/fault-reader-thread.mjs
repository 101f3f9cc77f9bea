// A stand-in for lambdas/adapters/extraction/isolation/extraction-thread.ts in
// tests of the reader pool: it speaks the same protocol, and misbehaves as
// the filename it is asked to read says:
//
//   spin      loops forever in synchronous code (a backtracking pattern)
//   alloc     fills 32 MiB typed arrays forever (a decompression bomb: outside the heap limit)
//   heap      grows the JavaScript heap forever (a deep structure)
//   crash     throws from a timer (the thread dies)
//   sleep:N   answers after N ms, without using the processor
//   ocr       asks the supervisor to OCR one image and answers with its text
//   bloat     answers at once, saying its heap is now 200 MiB (a big read's leftovers)
//   anything else: answers at once with "read <filename>"
import { readlinkSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const threadId = (() => {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
})();

const ocrCalls = new Map();
const answer = (id, text, heapBytes = 1024 * 1024) =>
  parentPort.postMessage({
    type: 'done',
    id,
    value: { text, kind: 'file', contentType: 'text/plain', pageCount: null, ocrPages: 0 },
    heapBytes,
  });

parentPort.on('message', (message) => {
  if (message.type === 'ocr-reply') {
    ocrCalls.get(message.call)?.(message);
    return;
  }
  if (message.op === 'slow-work') {
    parentPort.postMessage({ type: 'done', id: message.id, value: false, heapBytes: 1024 * 1024 });
    return;
  }
  const name = message.filename;
  if (name === 'spin') for (;;);
  if (name === 'alloc') {
    const kept = [];
    for (;;) kept.push(new Uint8Array(32 * 1024 * 1024).fill(1));
  }
  if (name === 'heap') {
    const kept = [];
    for (let i = 0; ; i++) kept.push({ i, text: `entry ${i}`, list: [i, i + 1, i + 2] });
  }
  if (name === 'crash') {
    setTimeout(() => {
      throw new Error('a reader crashed');
    }, 1);
    return;
  }
  if (name.startsWith('sleep:')) {
    setTimeout(() => answer(message.id, `read ${name}`), Number(name.slice(6)));
    return;
  }
  if (name === 'ocr') {
    const png = new Uint8Array([1, 2, 3]);
    ocrCalls.set(7, (reply) =>
      answer(message.id, reply.error ? `ocr failed: ${reply.error.detail ?? reply.error.message}` : reply.result.text),
    );
    parentPort.postMessage({ type: 'ocr', call: 7, image: { png, width: 1, height: 1 } });
    return;
  }
  if (name === 'bloat') {
    answer(message.id, 'read bloat', 200 * 1024 * 1024);
    return;
  }
  answer(message.id, `read ${name}`);
});

parentPort.postMessage({ type: 'ready', threadId });
