import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { TrustPolicy as TrustPolicyAnswer } from '../../../../client/src/index.js';

/** The IAM trust policy (GET /v1/bucket/trust-policy) to attach to a role in the caller's account, to copy as is. */
export function TrustPolicy({ policy }: { policy: TrustPolicyAnswer }) {
  const text = JSON.stringify(policy.trust_policy, null, 2);
  return (
    <Stack gap="xs">
      <Text size="sm">
        To let the service use a role in your AWS account, attach this trust policy to the role: it lets{' '}
        <Code>{policy.service_principal_arn}</Code> assume it with your external id <Code>{policy.external_id}</Code>.
      </Text>
      {/* Focusable: on a phone the policy scrolls sideways, and a keyboard must reach it. */}
      <Code block tabIndex={0} style={{ maxWidth: '100%', overflowX: 'auto' }}>
        {text}
      </Code>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? 'Trust policy copied' : 'Copy trust policy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
