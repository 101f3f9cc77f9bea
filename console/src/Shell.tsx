import { AppShell, Autocomplete, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, Route, NavLink as RouterLink, Routes, useLocation } from 'react-router';
import type { RetryInfo } from '../../client/src/index.js';
import { connect } from './api';
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
  const endUser = session.endUser;
  const context = useMemo(
    () => ({
      library,
      endUser,
      scope: endUser ? { end_user_id: endUser } : {},
      setEndUser: (next: string | undefined) => onChange({ apiKey: session.apiKey, endUser: next }),
    }),
    [library, endUser, onChange, session.apiKey],
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
          <div>
            <Routes>
              {PAGES.map((page) => (
                <Route key={page.path} path={page.path} element={page.element} />
              ))}
              {INNER_PAGES.map((page) => (
                <Route key={page.path} path={page.path} element={page.element} />
              ))}
              <Route path="*" element={<Navigate to="/documents" replace />} />
            </Routes>
          </div>
        </AppShell.Main>
      </AppShell>
    </ConsoleContext.Provider>
  );
}

/**
 * "End user": whose library the pages show. Empty is the shared library; the list
 * offers the end users the service knows (GET /v1/end-users), and any other id can be typed.
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
  useEffect(() => setText(value ?? ''), [value]);
  const load = async () => {
    try {
      const ids: string[] = [];
      for await (const user of library.endUsers.iterate()) {
        ids.push(user.id);
        if (ids.length >= 200) break;
      }
      setKnown(ids);
    } catch {
      // The list is a convenience: typing an id still works.
    }
  };
  const commit = (next: string) => onChange(next.trim() || undefined);
  return (
    <Autocomplete
      label="End user"
      placeholder="shared library"
      data={known}
      value={text}
      onChange={setText}
      onFocus={load}
      onOptionSubmit={commit}
      onBlur={() => commit(text)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit(text);
      }}
      size="xs"
      w={180}
    />
  );
}
