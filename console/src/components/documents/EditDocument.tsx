import { Button, Group, JsonInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { Document, DocumentUpdate } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';
import { ErrorNotice } from '../ErrorNotice';
import { metadataPatch, parseMetadata } from './metadata';

const MAX_TITLE = 512;

/**
 * Edits the title, source_ref and metadata (`PATCH`): only what changed is
 * sent, the metadata as a merge patch (a removed key goes as null).
 */
export function EditDocument({
  doc,
  onSaved,
  onCancel,
}: {
  doc: Document;
  onSaved: (updated: Document) => void;
  onCancel: () => void;
}) {
  const { library, scope } = useConsole();
  const [title, setTitle] = useState(doc.title);
  const [sourceRef, setSourceRef] = useState(doc.source_ref ?? '');
  const [metadataText, setMetadataText] = useState(JSON.stringify(doc.metadata, null, 2));
  const [metadataError, setMetadataError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleError = !title.trim()
    ? 'A title is 1 to 512 characters'
    : title.length > MAX_TITLE
      ? 'At most 512 characters'
      : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setNote(null);
    const parsed = parseMetadata(metadataText);
    setMetadataError('error' in parsed ? parsed.error : null);
    if ('error' in parsed || titleError) return;
    const patch: DocumentUpdate = {};
    if (title !== doc.title) patch.title = title;
    if (sourceRef !== (doc.source_ref ?? '')) patch.source_ref = sourceRef || null;
    const metadata = metadataPatch(doc.metadata, parsed.metadata);
    if (Object.keys(metadata).length) patch.metadata = metadata;
    if (!Object.keys(patch).length) {
      setNote('Nothing changed.');
      return;
    }
    setBusy(true);
    try {
      onSaved(await library.documents.update(doc.id, patch, scope));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save} aria-label="Edit document">
      <Stack gap="sm">
        <TextInput label="Title" value={title} error={titleError} onChange={(e) => setTitle(e.currentTarget.value)} />
        <TextInput
          label="Source ref"
          description="Empty removes it"
          value={sourceRef}
          onChange={(e) => setSourceRef(e.currentTarget.value)}
        />
        <JsonInput
          label="Metadata"
          description='A JSON object: {"project": "apollo", "year": 2024, "tags": ["a", "b"]}; remove a key to delete it'
          value={metadataText}
          onChange={(value) => {
            setMetadataText(value);
            setMetadataError(null);
          }}
          error={metadataError}
          validationError="Not valid JSON: a JSON object is expected"
          autosize
          minRows={4}
          maxRows={16}
        />
        <ErrorNotice error={error} />
        {note && (
          <Text size="sm" role="status">
            {note}
          </Text>
        )}
        <Group gap="xs">
          <Button type="submit" loading={busy}>
            Save changes
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
