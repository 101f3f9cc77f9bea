import { Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { UploadDropzone } from '../components/documents/upload/UploadDropzone';
import { UploadList } from '../components/documents/upload/UploadList';
import { useUploads } from '../components/documents/upload/uploads';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/**
 * Files and folders into the library, through the batch endpoint, each with
 * its receipt and then its status. The list shows the files sent to the
 * library shown now; those sent to another stay, for when it is shown again.
 */
export function Upload() {
  const { library, endUser } = useConsole();
  const { entries: all, error, queue } = useUploads(library);
  const entries = all.filter((entry) => entry.endUser === endUser);
  const elsewhere = all.length - entries.length;
  const count = (test: (entry: (typeof entries)[number]) => boolean) => entries.filter(test).length;
  const sent = count((e) => e.stage !== 'queued' && e.stage !== 'sending');
  const ready = count((e) => e.status === 'ready');
  const failed = count((e) => e.status === 'failed');
  const rejected = count((e) => e.stage === 'rejected');
  const processing = count((e) => e.status === 'processing');
  const unknown = count((e) => e.status === 'unknown');
  const busy = sent < entries.length;

  return (
    <Stack gap="md">
      <Title order={2}>Upload</Title>
      <Text size="sm" c="dimmed">
        Into {endUser ? `the library of end user ${endUser}` : 'the shared library'}.
      </Text>
      <UploadDropzone onFiles={(files) => queue.add(files, endUser)} />
      <ErrorNotice error={error} onClose={() => queue.dismissError()} />
      {entries.length > 0 && (
        <>
          <Stack gap={4}>
            <Progress
              value={(100 * sent) / entries.length}
              aria-label={`${sent} of ${entries.length} files sent`}
              animated={busy}
            />
            <Group justify="space-between" gap="xs">
              <Text size="sm" role="status" aria-live="polite">
                {sent} of {entries.length} sent; {ready} ready, {processing} processing, {failed} failed, {rejected}{' '}
                rejected{unknown ? `, ${unknown} status unknown` : ''}
              </Text>
              <Button variant="default" size="xs" onClick={() => queue.clear(endUser)} disabled={busy}>
                Clear the list
              </Button>
            </Group>
          </Stack>
          <UploadList entries={entries} />
        </>
      )}
      {elsewhere > 0 && (
        <Text size="sm" c="dimmed">
          {elsewhere} file{elsewhere === 1 ? '' : 's'} sent to another library: listed when that library is shown.
        </Text>
      )}
    </Stack>
  );
}
