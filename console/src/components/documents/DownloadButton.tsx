import { Button } from '@mantine/core';
import { useState } from 'react';
import type { Document } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';

/**
 * "Download": the original file through the client (the key goes in a
 * header, so a plain link cannot fetch it). Where the service answers with
 * the bytes (the local stack), they are handed to the browser as a blob: URL
 * (the page's CSP allows blob:) through an `<a download>` click; where it
 * answers with a short-lived link (AWS), the link opens in a new tab (it
 * serves the file as an attachment; should the storage answer inline or with
 * an error, that tab shows it and the console stays as it was).
 */
function clickLink(href: string, options: { download: string } | { newTab: true }) {
  const link = document.createElement('a');
  link.href = href;
  if ('download' in options) link.download = options.download;
  else link.target = '_blank';
  link.rel = 'noopener noreferrer';
  document.body.append(link);
  link.click();
  link.remove();
}

export function DownloadButton({ doc, onError }: { doc: Document; onError: (error: unknown) => void }) {
  const { library, scope } = useConsole();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const answer = await library.documents.fileOrLink(doc.id, scope);
      if ('link' in answer) {
        clickLink(answer.link.url, { newTab: true });
        return;
      }
      const { file } = answer;
      const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.contentType }));
      clickLink(url, { download: file.filename ?? doc.filename ?? `${doc.title}.txt` });
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
