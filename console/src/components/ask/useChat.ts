import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { ChatResponse, Library } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';

/** One question and its answer, as it streams in. */
export interface Turn {
  key: number;
  question: string;
  /** The reply as written so far (the deltas); the final response's reply replaces it. */
  draft: string;
  response: ChatResponse | null;
  error: unknown;
  state: 'asking' | 'done' | 'failed';
}

interface ChatState {
  turns: Turn[];
  /** The library the conversation lives in (undefined: the shared one). */
  endUser: string | undefined;
}

/**
 * The conversation of one signed-in console: it outlives the Chat page, so
 * following a citation and coming back finds it as it was (an answer still
 * streaming goes on arriving). Each question is streamed (`chatStream`:
 * deltas, then the whole response), and the conversation id of an answer
 * goes with the next question so a follow-up is read in its light; a failed
 * chat begins no conversation, so only a final response's id is kept.
 */
class ChatSession {
  private state: ChatState = { turns: [], endUser: undefined };
  private conversation: string | null = null;
  private controller: AbortController | null = null;
  private readonly listeners = new Set<() => void>();
  private nextKey = 0;

  constructor(private readonly library: Library) {}

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.state;

  private update(turns: (all: Turn[]) => Turn[]) {
    this.state = { ...this.state, turns: turns(this.state.turns) };
    for (const listener of this.listeners) listener();
  }

  private patch(key: number, change: (turn: Turn) => Partial<Turn>) {
    this.update((all) => all.map((turn) => (turn.key === key ? { ...turn, ...change(turn) } : turn)));
  }

  /** Starts over, in `endUser`'s library. Leaving a stream stops reading it; the service still finishes and keeps that chat. */
  reset(endUser: string | undefined) {
    this.controller?.abort();
    this.controller = null;
    this.conversation = null;
    this.state = { turns: [], endUser };
    for (const listener of this.listeners) listener();
  }

  async ask(question: string) {
    const key = this.nextKey++;
    const abort = new AbortController();
    this.controller = abort;
    const { endUser } = this.state;
    this.update((all) => [...all, { key, question, draft: '', response: null, error: null, state: 'asking' }]);
    try {
      const events = this.library.chatStream(question, {
        ...(endUser ? { end_user_id: endUser } : {}),
        ...(this.conversation ? { conversationId: this.conversation } : {}),
        signal: abort.signal,
      });
      for await (const event of events) {
        if (abort.signal.aborted) return;
        if (event.type === 'delta') this.patch(key, (turn) => ({ draft: turn.draft + event.text }));
        else if (event.type === 'done') {
          this.conversation = event.response.conversation_id;
          this.patch(key, () => ({ response: event.response, state: 'done' }));
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) this.patch(key, () => ({ error, state: 'failed' }));
    }
  }
}

/** One conversation per signed-in client (a new key, a new client: a new conversation). */
const sessions = new WeakMap<Library, ChatSession>();

function sessionOf(library: Library): ChatSession {
  let session = sessions.get(library);
  if (!session) sessions.set(library, (session = new ChatSession(library)));
  return session;
}

/** The console's conversation with the library in the chosen end user's library; another end user starts over. */
export function useChat() {
  const { library, endUser } = useConsole();
  const session = sessionOf(library);
  const { turns, endUser: conversationUser } = useSyncExternalStore(session.subscribe, session.snapshot);

  useEffect(() => {
    if (conversationUser !== endUser) session.reset(endUser);
  }, [session, conversationUser, endUser]);

  const ask = useCallback((question: string) => session.ask(question), [session]);
  const newConversation = useCallback(() => session.reset(endUser), [session, endUser]);

  // Until the effect above starts over, another library's turns are not shown.
  const shown = conversationUser === endUser ? turns : [];
  return { turns: shown, asking: shown.some((turn) => turn.state === 'asking'), ask, newConversation };
}
