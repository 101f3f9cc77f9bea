import { Alert, Code, Text } from '@mantine/core';
import { LibraryError } from '../../../client/src/index.js';

/** What the API answered, in words: its message, its code and the request id to quote when asking for help. */
export function describeError(error: unknown): { title: string; message: string; requestId: string | null } {
  if (error instanceof LibraryError) {
    const title =
      error.status === 0 ? 'The service could not be reached' : `The service answered ${error.status} (${error.code})`;
    return { title, message: error.message, requestId: error.requestId };
  }
  return {
    title: 'Something went wrong',
    message: error instanceof Error ? error.message : String(error),
    requestId: null,
  };
}

export function ErrorNotice({ error, onClose }: { error: unknown; onClose?: () => void }) {
  if (!error) return null;
  const { title, message, requestId } = describeError(error);
  return (
    <Alert
      color="red"
      title={title}
      role="alert"
      withCloseButton={Boolean(onClose)}
      onClose={onClose}
      closeButtonLabel="Dismiss"
    >
      <Text size="sm">{message}</Text>
      {requestId && (
        <Text size="xs" c="dimmed" mt={4}>
          Request id: <Code>{requestId}</Code>
        </Text>
      )}
    </Alert>
  );
}
