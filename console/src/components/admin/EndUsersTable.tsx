import { Badge, Button, Flex, Group, Table, Text } from '@mantine/core';
import type { EndUser } from '../../../../client/src/index.js';
import { formatMoment } from './format';
import { ScrollTable } from './ScrollTable';

/** One page of end users: each with its document count, dates, and buttons to open its library or erase it. */
export function EndUsersTable({
  users,
  shown,
  onOpen,
  onErase,
}: {
  users: EndUser[];
  /** The end user whose library the console shows now (marked in its row). */
  shown: string | undefined;
  onOpen: (id: string) => void;
  onErase: (user: EndUser) => void;
}) {
  // On a phone the dates step aside so the id, its count and its buttons fit the width.
  return (
    <ScrollTable minWidth={340} label="End users">
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">End user</Table.Th>
            <Table.Th scope="col">Documents</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Created
            </Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Last active
            </Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-end-user={user.id}>
              <Table.Th scope="row" fw="normal">
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" miw={96} maw={280} style={{ overflowWrap: 'anywhere' }}>
                    {user.id}
                  </Text>
                  {user.id === shown && (
                    <Badge size="sm" variant="light">
                      shown
                    </Badge>
                  )}
                </Group>
              </Table.Th>
              <Table.Td>{user.document_count.toLocaleString('en-US')}</Table.Td>
              <Table.Td visibleFrom="sm">{formatMoment(user.created_at)}</Table.Td>
              <Table.Td visibleFrom="sm">{formatMoment(user.last_active_at)}</Table.Td>
              <Table.Td>
                {/* Side by side from the sm breakpoint; stacked on a phone so both fit. */}
                <Flex gap="xs" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'center' }}>
                  {/* The names carry the id: a screen reader's list of buttons says whose. */}
                  <Button
                    size="xs"
                    variant="light"
                    aria-label={`Open library of ${user.id}`}
                    onClick={() => onOpen(user.id)}
                  >
                    Open library
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={`Erase ${user.id}`}
                    onClick={() => onErase(user)}
                  >
                    Erase
                  </Button>
                </Flex>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
