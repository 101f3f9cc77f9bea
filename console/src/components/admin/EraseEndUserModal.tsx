import { Code, Text } from '@mantine/core';
import type { EndUser, Erasure } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';
import { ConfirmModal } from '../ConfirmModal';
import { plural } from './format';

/**
 * Erasing an end user (DELETE /v1/end-users/{id}): names what goes (its
 * documents, memories and conversations, and the files in a registered bucket),
 * and asks for the id to be typed, as the erasure cannot be undone.
 */
export function EraseEndUserModal({
  user,
  onClose,
  onErased,
}: {
  user: EndUser | null;
  onClose: () => void;
  onErased: (erasure: Erasure) => void;
}) {
  const { library } = useConsole();
  return (
    <ConfirmModal
      opened={user !== null}
      title="Erase end user"
      confirmLabel="Erase permanently"
      typeToConfirm={user ? { text: user.id, label: 'Type the end user id to confirm' } : undefined}
      onClose={onClose}
      onConfirm={async () => {
        if (user) onErased(await library.endUsers.erase(user.id));
      }}
    >
      {user && (
        <>
          <Text size="sm">
            This permanently deletes every document ({plural(user.document_count, 'document')}), memory and conversation
            of <Code>{user.id}</Code>, with its files, in the service's storage and in your registered bucket. It cannot
            be undone.
          </Text>
          <Text size="sm">
            A later capture for <Code>{user.id}</Code> starts an empty library.
          </Text>
        </>
      )}
    </ConfirmModal>
  );
}
