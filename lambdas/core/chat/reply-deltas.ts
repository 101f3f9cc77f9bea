import { NOT_IN_LIBRARY } from './prompt.js';

/**
 * Passes a model's reply on as it is written (a streamed chat's `delta`
 * events), so that the pieces passed on add up to the reply the chat
 * answers with whenever they can:
 * - what may still turn out to be the model's NOT_IN_LIBRARY (it becomes
 *   the "does not hold the answer" reply) is held back until it cannot be;
 * - white space around the reply is held back (the reply is trimmed);
 * - `finish` passes on the rest of the final reply when the pieces so far
 *   are its beginning: all of it when the model was not called or found
 *   nothing, or the note an artifact appends.
 * When the final reply does not begin with what was passed on (a reply the
 * chat replaced after it was written), nothing more is sent: the final
 * event's reply is the one to show (docs/api-notes.md, "Streamed replies").
 */
export class ReplyDeltas {
  private written = '';
  private received = '';

  constructor(private readonly send: (text: string) => void) {}

  /** A piece of the reply as the model wrote it. */
  readonly push = (piece: string): void => {
    this.received += piece;
    const text = this.received.trimStart();
    if (!text || NOT_IN_LIBRARY.startsWith(text) || text.startsWith(NOT_IN_LIBRARY)) return;
    const ready = text.trimEnd();
    // Pieces are only ever appended, so what was passed on is the beginning of the text.
    if (!ready.startsWith(this.written) || ready.length === this.written.length) return;
    const delta = ready.slice(this.written.length);
    this.written = ready;
    this.send(delta);
  };

  /** The reply the chat answers with: its part not passed on yet, when what was passed on begins it. */
  finish(reply: string): void {
    if (!reply.startsWith(this.written) || reply.length === this.written.length) return;
    const delta = reply.slice(this.written.length);
    this.written = reply;
    this.send(delta);
  }
}
