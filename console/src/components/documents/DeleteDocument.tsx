import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import type { Document } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';
import { ErrorNotice } from '../ErrorNotice';

/**
 * "Delete", then a confirmation naming the document; `onDeleted` once the API
 * has removed it. While the delete is on its way the dialog stays open (no
 * close button, Escape or click outside), so its answer is always seen.
 */
export function DeleteDocument({ doc, onDeleted }: { doc: Document; onDeleted: () => void }) {
  const { library, scope } = useConsole();
  const [opened, { open, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await library.documents.delete(doc.id, scope);
      close();
      onDeleted();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button color="red.9" variant="outline" onClick={open}>
        Delete
      </Button>
      <Modal
        opened={opened}
        onClose={() => {
          if (!busy) close();
        }}
        title="Delete this document?"
        centered
        closeOnClickOutside={!busy}
        closeOnEscape={!busy}
        withCloseButton={!busy}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="sm">
          <Text size="sm">
            <strong>{doc.title}</strong> (<Code>{doc.id}</Code>) will be removed everywhere: its record, its text in the
            index and its original file. This cannot be undone.
          </Text>
          <ErrorNotice error={error} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button color="red.9" onClick={remove} loading={busy}>
              Delete document
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
