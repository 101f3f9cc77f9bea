import { Button, Input, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { BucketRegistration, BucketRequest } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';
import { ErrorNotice } from '../ErrorNotice';

type Access = 'keys' | 'role';

interface Fields {
  provider: 's3' | 'r2';
  bucket: string;
  region: string;
  endpoint: string;
  prefix: string;
  accessKeyId: string;
  secret: string;
  roleArn: string;
}

const EMPTY: Fields = {
  provider: 's3',
  bucket: '',
  region: '',
  endpoint: '',
  prefix: '',
  accessKeyId: '',
  secret: '',
  roleArn: '',
};

/** The PUT /v1/bucket body: empty optional fields are left out so the service's defaults apply. */
function requestOf(access: Access, fields: Fields): BucketRequest {
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  const common = {
    provider: access === 'role' ? ('s3' as const) : fields.provider,
    bucket: fields.bucket.trim(),
    region: optional(fields.region),
    prefix: optional(fields.prefix),
  };
  const request: BucketRequest =
    access === 'role'
      ? { ...common, role_arn: fields.roleArn.trim() }
      : {
          ...common,
          endpoint: optional(fields.endpoint),
          access_key_id: fields.accessKeyId.trim(),
          secret_access_key: fields.secret,
        };
  return Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)) as BucketRequest;
}

/**
 * Registers (or replaces) the tenant's bucket, with an access key pair or with a
 * role the service assumes using the tenant's external id. The service proves
 * access before it answers; its refusal says which step failed.
 */
export function BucketForm({
  externalId,
  onRegistered,
}: {
  externalId: string | undefined;
  onRegistered: (registration: BucketRegistration) => void;
}) {
  const { library } = useConsole();
  const [access, setAccess] = useState<Access>('keys');
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const field = (name: keyof Fields) => ({
    value: fields[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      // Read now: React empties currentTarget before a state updater runs.
      const value = event.currentTarget.value;
      setFields((current) => ({ ...current, [name]: value }));
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const registration = await library.bucket.register(requestOf(access, fields));
      // The secret is the service's to keep now: the page forgets it.
      setFields((current) => ({ ...current, secret: '' }));
      onRegistered(registration);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        <Input.Wrapper label="Access with" id="bucket-access" labelElement="div">
          <SegmentedControl
            aria-labelledby="bucket-access-label"
            value={access}
            onChange={(next) => setAccess(next as Access)}
            data={[
              { label: 'Keys', value: 'keys' },
              { label: 'Role', value: 'role' },
            ]}
            display="flex"
            maw={240}
          />
        </Input.Wrapper>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {access === 'keys' && (
            <Select
              label="Provider"
              data={[
                { value: 's3', label: 'S3 (AWS or S3-compatible)' },
                { value: 'r2', label: 'Cloudflare R2' },
              ]}
              value={fields.provider}
              onChange={(next) =>
                next && setFields((current) => ({ ...current, provider: next as Fields['provider'] }))
              }
              allowDeselect={false}
            />
          )}
          <TextInput label="Bucket name" required autoComplete="off" spellCheck={false} {...field('bucket')} />
          <TextInput
            label="Region"
            description={access === 'keys' && fields.provider === 'r2' ? 'R2: auto (the default)' : 'Default us-east-1'}
            autoComplete="off"
            {...field('region')}
          />
          <TextInput
            label="Prefix"
            description="Every object goes under it; default library/"
            autoComplete="off"
            spellCheck={false}
            {...field('prefix')}
          />
          {access === 'keys' && (
            <TextInput
              label="Endpoint"
              description="https origin of R2 or another S3-compatible store; empty for AWS S3"
              required={fields.provider === 'r2'}
              autoComplete="off"
              spellCheck={false}
              {...field('endpoint')}
            />
          )}
          {access === 'keys' ? (
            <>
              <TextInput
                label="Access key id"
                required
                autoComplete="off"
                spellCheck={false}
                {...field('accessKeyId')}
              />
              <PasswordInput label="Secret access key" required autoComplete="off" {...field('secret')} />
            </>
          ) : (
            <>
              <TextInput
                label="Role ARN"
                description="The role in your account that trusts the policy above"
                placeholder="arn:aws:iam::123456789012:role/library"
                required
                autoComplete="off"
                spellCheck={false}
                {...field('roleArn')}
              />
              <TextInput
                label="External id"
                description="Your tenant's; the service sends it when it assumes the role"
                value={externalId ?? ''}
                readOnly
              />
            </>
          )}
        </SimpleGrid>
        <ErrorNotice error={error} onClose={() => setError(null)} />
        <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }}>
          Register bucket
        </Button>
      </Stack>
    </form>
  );
}
