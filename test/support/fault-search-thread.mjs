// A stand-in for the search thread (search-thread-worker.ts) that misbehaves
// on cue, by the keyword query's text: 'slow' busy-waits 400 ms before
// answering (a search over a huge library), 'crash' ends the thread, 'fail'
// answers an error; anything else answers no hits.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => {
  if (message.type !== 'keyword' && message.type !== 'vector') return;
  const text = message.type === 'keyword' ? message.query.text : '';
  if (text === 'crash') process.exit(3);
  if (text === 'fail') {
    parentPort.postMessage({ type: 'failed', id: message.id, name: 'BackendUnavailableError', message: 'disk gone' });
    return;
  }
  if (text === 'slow') {
    const until = Date.now() + 400;
    while (Date.now() < until) {
      // the thread is busy; the server's thread is not
    }
  }
  parentPort.postMessage({ type: 'hits', id: message.id, hits: [] });
});
parentPort.postMessage({ type: 'ready' });
