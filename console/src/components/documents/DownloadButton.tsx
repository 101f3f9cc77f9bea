import { Button } from '@mantine/core';
import { useState } from 'react';
import type { Document } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';

/**
 * "Download": the original bytes through the client (the key goes in a
 * header, so a plain link cannot fetch them), handed to the browser as a
 * blob: URL (the page's CSP allows blob:) clicked as an `<a download>`.
 */
export function DownloadButton({ doc, onError }: { doc: Document; onError: (error: unknown) => void }) {
  const { library, scope } = useConsole();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const file = await library.documents.file(doc.id, scope);
      const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename ?? doc.filename ?? `${doc.title}.txt`;
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has taken the bytes once the download started; free them a while later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" onClick={download} loading={busy}>
      Download
    </Button>
  );
}
