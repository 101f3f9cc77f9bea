import { MantineProvider } from '@mantine/core';
import { useCallback, useState } from 'react';
import { HashRouter } from 'react-router';
import { Shell } from './Shell';
import { SignIn } from './SignIn';
import { clearSession, loadSession, type Session, saveSession } from './session';
import { theme } from './theme';

/** The console: the sign-in form until a key is given, then the pages over that key. */
export function App() {
  const [session, setSession] = useState<Session | null>(() => loadSession());

  // Stable, and a no-op when nothing changes: every page's data depends on the session.
  const change = useCallback((next: Session | null) => {
    setSession((current) => {
      if (next && current && next.apiKey === current.apiKey && next.endUser === current.endUser) return current;
      if (next) saveSession(next);
      else clearSession();
      return next;
    });
  }, []);

  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {session ? (
        <HashRouter>
          <Shell session={session} onChange={change} />
        </HashRouter>
      ) : (
        <SignIn onSignedIn={(apiKey) => change({ apiKey })} />
      )}
    </MantineProvider>
  );
}
