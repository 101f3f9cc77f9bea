import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** What an action did, announced politely (role=status, not an alert) and dismissible. */
export function Done({ title, children, onClose }: { title?: string; children: ReactNode; onClose: () => void }) {
  return (
    <Alert
      color="teal"
      // Mantine's teal title (even teal.9) is below AA contrast on the light teal background.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      title={title}
      role="status"
      withCloseButton
      onClose={onClose}
      closeButtonLabel="Dismiss"
    >
      {children}
    </Alert>
  );
}
