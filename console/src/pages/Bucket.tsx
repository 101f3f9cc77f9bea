import { Divider, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { type BucketStatus, LibraryError, type TrustPolicy as TrustPolicyAnswer } from '../../../client/src/index.js';
import { BucketForm } from '../components/admin/BucketForm';
import { BucketState } from '../components/admin/BucketState';
import { Done } from '../components/admin/Done';
import { Loading } from '../components/admin/Loading';
import { TrustPolicy } from '../components/admin/TrustPolicy';
import { UnregisterBucket } from '../components/admin/UnregisterBucket';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/** The tenant's own bucket for captured files: its registration and health, the trust policy, register, unregister. */
export function Bucket() {
  const { library } = useConsole();
  // undefined: not loaded yet; null: none registered (GET /v1/bucket answered 404).
  const [status, setStatus] = useState<BucketStatus | null | undefined>(undefined);
  const [policy, setPolicy] = useState<TrustPolicyAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setStatus(await library.bucket.get());
    } catch (caught) {
      if (caught instanceof LibraryError && caught.status === 404) setStatus(null);
      else setError(caught);
    }
  }, [library]);

  useEffect(() => {
    load();
    library.bucket.trustPolicy().then(setPolicy, setError);
  }, [library, load]);

  return (
    <Stack>
      <Title order={2}>Bucket</Title>
      <Text size="sm" c="dimmed">
        While a bucket of yours is registered, the files captured with your keys are written to it; their text and the
        index stay in the service.
      </Text>
      <ErrorNotice error={error} onClose={() => setError(null)} />
      {done && <Done onClose={() => setDone(null)}>{done}</Done>}

      <Title order={3}>Registration</Title>
      {status === undefined && !error ? <Loading what="the registration" /> : <BucketState status={status ?? null} />}
      {status && (
        <UnregisterBucket
          bucket={status.bucket}
          onUnregistered={() => {
            setDone(`Unregistered ${status.bucket}: new files are kept in the service's storage.`);
            load();
          }}
        />
      )}

      <Divider />
      <Title order={3}>{status ? 'Replace the bucket' : 'Register a bucket'}</Title>
      <Text size="sm">
        The service proves it can write, read back and delete a test object before it accepts the bucket. Secrets are
        encrypted at rest and never shown again.
      </Text>
      <BucketForm
        externalId={policy?.external_id}
        onRegistered={(registration) => {
          setDone(`Registered ${registration.bucket}: access proved.`);
          load();
        }}
      />

      <Divider />
      <Title order={3}>Trust policy for a role</Title>
      {policy ? <TrustPolicy policy={policy} /> : !error && <Loading what="the trust policy" />}
    </Stack>
  );
}
