import * as z from 'zod/mini';
import { CHAT_LIMITS } from '../../core/chat/limits.js';
import { idPatternOf } from '../../core/ids.js';
import { checkedByCore, FilterSchema, meta, NewEndUserId, nonBlankText } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const ChatRequest = meta(
  z.strictObject({
    question: meta(nonBlankText(CHAT_LIMITS.questionChars), {
      description: 'Answered only from the selected library.',
    }),
    end_user_id: z.optional(NewEndUserId),
    conversation_id: meta(
      z.optional(
        // A pattern (not a refinement): the OpenAPI document then says it too.
        z
          .string()
          .check(
            z.regex(idPatternOf('cnv'), 'must be a conversation id from an earlier chat (cnv_ and 26 ULID characters)'),
          ),
      ),
      {
        description:
          'Goes on with that conversation: the question is read in the light of its recent turns (a follow-up such as "and when was that?" is searched with what it points back to). Omitted: a new conversation. Only in the library it began in (same key\'s tenant and `end_user_id`); elsewhere, or after that end user was erased, it is 404.',
      },
    ),
    filter: checkedByCore(FilterSchema, 'Only documents matching it are used as evidence (see Filter).'),
  }),
  { id: 'ChatRequest' },
);

export const contract = {
  name: 'chat',
  method: 'POST',
  path: '/v1/chat',
  auth: true,
  summary: 'Answer a question from the library, citing it',
  streaming: true,
  request: { body: ChatRequest },
  access: { documents: 'write', usage: 'write', search: 'write', embed: true, chat: true, endUserLogKey: true },
} as const satisfies RouteContract;
