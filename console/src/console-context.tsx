import { createContext, useContext } from 'react';
import type { Library } from '../../client/src/index.js';

/** What every page gets: the client signed in with the person's key, and whose library is shown. */
export interface ConsoleContextValue {
  library: Library;
  /** The end user whose library the pages show; undefined: the shared library. */
  endUser: string | undefined;
  /** The `end_user_id` parameter for the client's calls: `{}` for the shared library. */
  scope: { end_user_id?: string };
  /** Shows another library, as the header's "End user" field does (undefined: the shared library). */
  setEndUser: (next: string | undefined) => void;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}
