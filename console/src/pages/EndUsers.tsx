import { Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { EndUser, Erasure } from '../../../client/src/index.js';
import { EndUsersTable } from '../components/admin/EndUsersTable';
import { EraseEndUserModal } from '../components/admin/EraseEndUserModal';
import { ErasureSummary } from '../components/admin/ErasureSummary';
import { Loading } from '../components/admin/Loading';
import { Pager } from '../components/admin/Pager';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

const PAGE_SIZE = 20;

/** The tenant's end users (GET /v1/end-users, paged by cursor): open one's library, or erase it. */
export function EndUsers() {
  const { library, endUser, setEndUser } = useConsole();
  const navigate = useNavigate();
  // The cursors of the pages walked so far: the last is the page shown (undefined: the first).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [users, setUsers] = useState<EndUser[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [erasing, setErasing] = useState<EndUser | null>(null);
  const [erasure, setErasure] = useState<Erasure | null>(null);
  const cursor = cursors[cursors.length - 1];

  // Only the latest load's answer is shown: an earlier one that answers late is dropped.
  const latest = useRef(0);
  const load = useCallback(async () => {
    const run = ++latest.current;
    setBusy(true);
    setError(null);
    try {
      const page = await library.endUsers.list({ limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
      if (run !== latest.current) return;
      // An erasure can empty the last page: step back rather than show nothing.
      if (page.items.length === 0 && cursors.length > 1) {
        setCursors((walked) => walked.slice(0, -1));
        return;
      }
      setUsers(page.items);
      setNextCursor(page.hasMore ? page.nextCursor : null);
    } catch (caught) {
      if (run === latest.current) setError(caught);
    } finally {
      if (run === latest.current) setBusy(false);
    }
  }, [library, cursor, cursors.length]);

  useEffect(() => {
    load();
  }, [load]);

  const open = (id: string) => {
    setEndUser(id);
    navigate('/documents');
  };

  const erased = (answer: Erasure) => {
    setErasing(null);
    setErasure(answer);
    // Its library is gone: the console goes back to the shared one rather than show an emptied library.
    if (answer.id === endUser) setEndUser(undefined);
    load();
  };

  return (
    <Stack>
      <Title order={2}>End users</Title>
      <Text size="sm" c="dimmed">
        Each end user has a library of its own, apart from the shared library and from each other. Open one to see its
        documents, or erase it with everything it holds.
      </Text>
      {erasure && <ErasureSummary erasure={erasure} onClose={() => setErasure(null)} />}
      <ErrorNotice error={error} />
      {users === null && busy && <Loading what="end users" />}
      {users && users.length === 0 && (
        <Text>No end users yet: an end user exists from its first capture or chat with its id.</Text>
      )}
      {users && users.length > 0 && <EndUsersTable users={users} shown={endUser} onOpen={open} onErase={setErasing} />}
      <Pager
        label="Paging through end users"
        page={cursors.length}
        hasPrevious={cursors.length > 1}
        hasNext={nextCursor !== null}
        busy={busy}
        onPrevious={() => setCursors((walked) => walked.slice(0, -1))}
        onNext={() => nextCursor && setCursors((walked) => [...walked, nextCursor])}
      />
      <EraseEndUserModal user={erasing} onClose={() => setErasing(null)} onErased={erased} />
    </Stack>
  );
}
