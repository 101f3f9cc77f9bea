import { Alert, AppShell, Autocomplete, Burger, Button, CloseButton, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { Navigate, Route, NavLink as RouterLink, Routes, useLocation } from 'react-router';
import type { RetryInfo } from '../../client/src/index.js';
import { connect } from './api';
import { stopUploads } from './components/documents/upload/uploads';
import { ConsoleContext, useConsole } from './console-context';
import { INNER_PAGES, PAGES } from './pages';
import type { Session } from './session';

/** The signed-in console: header (end user, sign out), navigation, the page, and a notice while a 429 is waited out. */
export function Shell({ session, onChange }: { session: Session; onChange: (next: Session | null) => void }) {
  const [opened, { toggle, close }] = useDisclosure();
  const [retry, setRetry] = useState<RetryInfo | null>(null);
  const library = useMemo(
    () =>
      connect(session.apiKey, (info) => {
        setRetry(info);
        setTimeout(() => setRetry((current) => (current === info ? null : current)), info.delayMs + 500);
      }),
    [session.apiKey],
  );
  // Signing out (the shell goes) or another key (another client) stops the old client's upload status reads.
  useEffect(() => () => stopUploads(library), [library]);
  const endUser = session.endUser;
  const setEndUser = useCallback(
    (next: string | undefined) => onChange({ apiKey: session.apiKey, endUser: next }),
    [onChange, session.apiKey],
  );
  // Pages key their requests on `scope`: it changes only when the end user does.
  const context = useMemo(
    () => ({ library, endUser, scope: endUser ? { end_user_id: endUser } : {}, setEndUser }),
    [library, endUser, setEndUser],
  );
  const location = useLocation();

  return (
    <ConsoleContext.Provider value={context}>
      <AppShell
        header={{ height: { base: 112, sm: 64 } }}
        navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header px="md">
          <Group h="100%" justify="space-between" wrap="wrap" gap="xs" py={6}>
            <Group gap="xs">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
              <Title order={1} size="h4">
                Library console
              </Title>
            </Group>
            <Group gap="xs" wrap="nowrap">
              <EndUserField value={endUser} onChange={context.setEndUser} />
              <Button variant="default" onClick={() => onChange(null)}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" component="nav" aria-label="Pages">
          {PAGES.map((page) => (
            <NavLink
              key={page.path}
              component={RouterLink}
              to={page.path}
              label={page.label}
              variant="filled"
              // On a phone the navigation closes once a page is chosen.
              onClick={close}
              active={location.pathname === page.path || location.pathname.startsWith(`${page.path}/`)}
            />
          ))}
        </AppShell.Navbar>
        <AppShell.Main>
          {retry && (
            <Text role="status" size="sm" c="orange.9" mb="sm">
              The service asked to slow down ({retry.reason}); retrying in {Math.ceil(retry.delayMs / 1000)} s...
            </Text>
          )}
          {/* A page that fails to draw shows why, and the header and navigation stay; another address tries again. */}
          <ErrorBoundary FallbackComponent={PageFailed} resetKeys={[location.pathname, location.search]}>
            <Routes>
              {PAGES.map((page) => (
                <Route key={page.path} path={page.path} element={page.element} />
              ))}
              {INNER_PAGES.map((page) => (
                <Route key={page.path} path={page.path} element={page.element} />
              ))}
              <Route path="*" element={<Navigate to="/documents" replace />} />
            </Routes>
          </ErrorBoundary>
        </AppShell.Main>
      </AppShell>
    </ConsoleContext.Provider>
  );
}

/** What a page that threw while drawing shows instead of itself. */
function PageFailed({ error }: FallbackProps) {
  return (
    <Alert role="alert" color="red" title="This page could not be shown">
      {error instanceof Error ? error.message : String(error)}
    </Alert>
  );
}

/**
 * "End user": whose library the pages show. Empty is the shared library (the
 * clear button goes back to it); the list offers the end users the service
 * knows (GET /v1/end-users, read at most every 30 s), and any other id can be
 * typed. Enter or leaving the field shows the typed id; Enter on a highlighted
 * option shows that one (the combobox takes that Enter, so the form does not
 * submit the half-typed text).
 */
function EndUserField({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (next: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const [known, setKnown] = useState<string[]>([]);
  const { library } = useConsole();
  const loaded = useRef<{ library: unknown; at: number; loading: boolean }>({ library: null, at: 0, loading: false });
  useEffect(() => setText(value ?? ''), [value]);
  const load = async () => {
    const state = loaded.current;
    if (state.loading || (state.library === library && Date.now() - state.at < 30_000)) return;
    state.loading = true;
    try {
      const ids: string[] = [];
      for await (const user of library.endUsers.iterate({ limit: 100 })) {
        ids.push(user.id);
        if (ids.length >= 500) break;
      }
      setKnown(ids);
      loaded.current = { library, at: Date.now(), loading: false };
    } catch {
      // The list is a convenience: typing an id still works.
    } finally {
      loaded.current.loading = false;
    }
  };
  const commit = (next: string) => onChange(next.trim() || undefined);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        commit(text);
      }}
    >
      <Autocomplete
        label="End user"
        placeholder="shared library"
        data={known}
        value={text}
        onChange={setText}
        onFocus={load}
        onOptionSubmit={commit}
        onBlur={() => commit(text)}
        rightSection={
          value ? (
            <CloseButton
              size="sm"
              aria-label="Show the shared library"
              onClick={() => {
                setText('');
                onChange(undefined);
              }}
            />
          ) : null
        }
        size="xs"
        w={180}
      />
    </form>
  );
}
