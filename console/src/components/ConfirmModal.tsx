import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { ErrorNotice } from './ErrorNotice';

/**
 * A confirmation before something that cannot be undone: says what will go,
 * optionally asks the person to type a word (an end user id) first, and keeps
 * the API's error in the dialog so it can be read and tried again. While the
 * action is on its way the dialog stays open (no close button, Escape or click
 * outside), so its answer is always seen.
 */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  typeToConfirm,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  /** The confirming button's name: what it does ("Erase permanently"), never just "OK". */
  confirmLabel: string;
  /** When set, the button stays disabled until `text` is typed exactly in a field named `label`. */
  typeToConfirm?: { text: string; label: string };
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Each opening starts blank: text typed for one thing must not confirm another.
  useEffect(() => {
    if (opened) {
      setTyped('');
      setError(null);
    }
  }, [opened]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const ready = !typeToConfirm || typed === typeToConfirm.text;

  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={title}
      centered
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit}>
        <Stack>
          {children}
          {typeToConfirm && (
            <TextInput
              label={typeToConfirm.label}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
            />
          )}
          <ErrorNotice error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            {/* red.9: white on Mantine's lighter reds is below AA contrast. */}
            <Button type="submit" color="red.9" loading={busy} disabled={!ready}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
