import { Button, Code, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Document } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';
import { ConfirmModal } from '../ConfirmModal';

/** "Delete", then a confirmation naming the document; `onDeleted` once the API has removed it. */
export function DeleteDocument({ doc, onDeleted }: { doc: Document; onDeleted: () => void }) {
  const { library, scope } = useConsole();
  const [opened, { open, close }] = useDisclosure(false);
  const remove = async () => {
    await library.documents.delete(doc.id, scope);
    close();
    onDeleted();
  };
  return (
    <>
      <Button color="red.9" variant="outline" onClick={open}>
        Delete
      </Button>
      <ConfirmModal
        opened={opened}
        title="Delete this document?"
        confirmLabel="Delete document"
        onConfirm={remove}
        onClose={close}
      >
        <Text size="sm">
          <strong>{doc.title}</strong> (<Code>{doc.id}</Code>) will be removed everywhere: its record, its text in the
          index and its original file. This cannot be undone.
        </Text>
      </ConfirmModal>
    </>
  );
}
