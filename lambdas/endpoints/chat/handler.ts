import type { Services } from '../../core/services.js';
import { createEndpoint } from '../../http/endpoint.js';
import { libraryOf } from '../../http/library.js';
import { ChatRequest } from '../../http/schemas.js';

export const createHandler = (deps: Pick<Services, 'chat'>) =>
  createEndpoint({
    auth: true,
    body: ChatRequest,
    async run({ tenantId, body }) {
      return { status: 200, body: await deps.chat.chat(libraryOf(tenantId, body.end_user_id), body.question, { conversationId: body.conversation_id }) };
    },
  });
