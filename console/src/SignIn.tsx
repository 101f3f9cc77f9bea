import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { connect } from './api';
import { ErrorNotice } from './components/ErrorNotice';

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** Asks for an API key and checks it against the service (health with a key answers 401 to a wrong one). */
export function SignIn({ onSignedIn }: { onSignedIn: (apiKey: string) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The page has one thing to do: the key field takes the focus, so typing and Enter sign in.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    // A header carries printable ASCII only: the browser would refuse to send another key, which reads as "unreachable".
    if (!PRINTABLE_ASCII.test(apiKey.trim())) {
      setError(new Error('An API key holds printable ASCII characters only: check what was pasted.'));
      return;
    }
    setBusy(true);
    try {
      await connect(apiKey.trim()).usage({});
      onSignedIn(apiKey.trim());
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper component="main" withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <form onSubmit={submit}>
          <Stack>
            <Title order={1} size="h2">
              Library console
            </Title>
            <Text size="sm" c="dimmed">
              The key stays in this tab only and is sent to this service alone.
            </Text>
            <PasswordInput
              label="API key"
              value={apiKey}
              onChange={(event) => setApiKey(event.currentTarget.value)}
              autoComplete="off"
              required
              ref={field}
            />
            <ErrorNotice error={error} />
            <Button type="submit" loading={busy} disabled={!apiKey.trim()}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
