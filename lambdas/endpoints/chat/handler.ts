import type { ChatOptions } from '../../core/chat/chat-service.js';
import { parseFilter } from '../../core/filter.js';
import { createEndpoint, headerValue } from '../../http/endpoint.js';
import { eventStream, prefersEventStream } from '../../http/event-stream.js';
import { libraryOf } from '../../http/library.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

/**
 * POST /v1/chat. JSON by default; with `Accept: text/event-stream` the same
 * chat streamed as server-sent events (docs/api-notes.md, "Streamed
 * replies"): `start` once the request is accepted and the conversation
 * found, `delta` for each piece of the reply as it is written, then `done`
 * with the whole response, exactly what the JSON answer would be. A failure
 * before `start` is the usual JSON error; after it, an `error` event.
 */
/** JSON or a stream, by the Accept header: a cache must key on it. */
const VARIES_BY_ACCEPT = { vary: 'Accept' };

export const createHandler = (deps: Pick<Services, 'chat'>, options: { heartbeatMs?: number } = {}) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, body, event, requestId }) {
      const ref = libraryOf(tenantId, body.end_user_id);
      // The filter is read before the chat begins: a malformed one is 422 before any stream starts.
      const filter = body.filter === undefined ? undefined : parseFilter(body.filter);
      const ask = (more: ChatOptions = {}) =>
        deps.chat.chat(ref, body.question, { conversationId: body.conversation_id, filter, ...more });
      if (!prefersEventStream(headerValue(event, 'accept')))
        return { status: 200, body: await ask(), headers: VARIES_BY_ACCEPT };
      const streamed = await eventStream(
        requestId,
        async (events) => {
          const response = await ask({
            onStart: (started) => events.send('start', started),
            onDelta: (text) => events.send('delta', { text }),
          });
          events.send('done', response);
        },
        options,
      );
      return { ...streamed, headers: { ...streamed.headers, ...VARIES_BY_ACCEPT } };
    },
  });
