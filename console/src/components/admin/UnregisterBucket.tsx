import { Button, Code, Text } from '@mantine/core';
import { useState } from 'react';
import { useConsole } from '../../console-context';
import { ConfirmModal } from '../ConfirmModal';

/** "Unregister bucket", after a confirmation that says what happens to the files already in it. */
export function UnregisterBucket({ bucket, onUnregistered }: { bucket: string; onUnregistered: () => void }) {
  const { library } = useConsole();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="light" color="red" onClick={() => setOpened(true)} style={{ alignSelf: 'flex-start' }}>
        Unregister bucket
      </Button>
      <ConfirmModal
        opened={opened}
        title="Unregister bucket"
        confirmLabel="Unregister"
        onClose={() => setOpened(false)}
        onConfirm={async () => {
          await library.bucket.unregister();
          setOpened(false);
          onUnregistered();
        }}
      >
        <Text size="sm">
          Files captured from now on are kept in the service's storage instead of <Code>{bucket}</Code>.
        </Text>
        <Text size="sm">
          Objects already in <Code>{bucket}</Code> stay there: they are yours, and the service no longer reads or
          deletes them. Their documents' text stays searchable.
        </Text>
      </ConfirmModal>
    </>
  );
}
