import { useEffect, useState } from 'react';
import { useConsole } from '../../console-context';
import { snippetProbe } from './lines';

/**
 * The line of its document where a search snippet starts. A search result
 * names its document but not the lines of its passage, so the snippet's
 * first line is looked up with grep, literally, in that document alone (one
 * small request; the typed client waits out a 429). Undefined until known,
 * null when not found (the link then opens the document at its top).
 */
export function useSnippetLine(fileId: string | null, snippet: string): number | null | undefined {
  const { library, scope } = useConsole();
  const [line, setLine] = useState<number | null | undefined>(undefined);

  useEffect(() => {
    const probe = snippetProbe(snippet);
    if (!fileId || !probe) {
      setLine(null);
      return;
    }
    const controller = new AbortController();
    setLine(undefined);
    (async () => {
      try {
        const page = await library.grep(
          { pattern: probe, case_sensitive: true, file_id: fileId, limit: 1, ...scope },
          { signal: controller.signal },
        );
        let found: number | null = null;
        for await (const hit of page) {
          found = hit.line;
          break;
        }
        if (!controller.signal.aborted) setLine(found);
      } catch {
        // The link still opens the document, at its top.
        if (!controller.signal.aborted) setLine(null);
      }
    })();
    return () => controller.abort();
  }, [library, scope, fileId, snippet]);

  return line;
}
