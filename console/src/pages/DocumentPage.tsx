import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Document, LibraryAbortError } from '../../../client/src/index.js';
import { GREEN } from '../components/documents/colors';
import { DeleteDocument } from '../components/documents/DeleteDocument';
import { DocumentRecord } from '../components/documents/DocumentRecord';
import { DocumentText } from '../components/documents/DocumentText';
import { DownloadButton } from '../components/documents/DownloadButton';
import { EditDocument } from '../components/documents/EditDocument';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/** How often a document still processing is read again, until its text can be shown. */
const POLL_MS = 2000;

/** One document (`#/documents/<id>?line=12`): its record, its numbered text, download, edit and delete. */
export function DocumentPage() {
  const { id = '' } = useParams();
  const { endUser } = useConsole();
  // Another document, or another end user's library, starts afresh (nothing left over from the last one).
  return <DocumentView key={JSON.stringify([endUser ?? null, id])} id={id} />;
}

function DocumentView({ id }: { id: string }) {
  const [params, setParams] = useSearchParams();
  const line = Number(params.get('line'));
  const highlight = Number.isInteger(line) && line >= 1 ? line : null;
  const { library, scope } = useConsole();
  const navigate = useNavigate();
  const [doc, setDoc] = useState<Document | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [reads, setReads] = useState(0);

  const endUser = scope.end_user_id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` asks for the record again while it is processing.
  useEffect(() => {
    const controller = new AbortController();
    library.documents
      .get(id, endUser ? { end_user_id: endUser } : {}, { signal: controller.signal })
      .then((loaded) => {
        setDoc(loaded);
        setError(null);
      })
      .catch((caught) => {
        if (!(caught instanceof LibraryAbortError) && !controller.signal.aborted) setError(caught);
      });
    return () => controller.abort();
  }, [library, id, endUser, reads]);

  const processing = doc?.status === 'processing';
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => setReads((n) => n + 1), POLL_MS);
    return () => clearInterval(timer);
  }, [processing]);

  const back = (
    <Anchor component={Link} to="/documents" size="sm">
      Back to documents
    </Anchor>
  );
  if (!doc)
    return (
      <Stack gap="md">
        {back}
        <Title order={2}>Document</Title>
        {error ? <ErrorNotice error={error} /> : <Loader size="sm" aria-label="Reading the document" />}
      </Stack>
    );

  return (
    <Stack gap="md">
      {back}
      <Title order={2} style={{ overflowWrap: 'anywhere' }}>
        {doc.title}
      </Title>
      <Group gap="xs">
        <DownloadButton doc={doc} onError={setActionError} />
        <Button
          variant="default"
          onClick={() => {
            setEditing(true);
            setSaved(false);
          }}
          disabled={editing}
        >
          Edit
        </Button>
        <DeleteDocument doc={doc} onDeleted={() => navigate('/documents')} />
      </Group>
      <ErrorNotice error={error} />
      <ErrorNotice error={actionError} onClose={() => setActionError(null)} />
      {saved && (
        <Text size="sm" role="status" c={GREEN}>
          Changes saved.
        </Text>
      )}
      {editing && (
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            Edit
          </Title>
          <EditDocument
            doc={doc}
            onCancel={() => setEditing(false)}
            onSaved={(updated) => {
              setDoc(updated);
              setEditing(false);
              setSaved(true);
            }}
          />
        </Paper>
      )}
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="sm">
          Record
        </Title>
        <DocumentRecord doc={doc} />
      </Paper>
      <Stack gap="xs">
        <Title order={3} size="h4">
          Text
        </Title>
        <TextOf doc={doc} highlight={highlight} onGoTo={(to) => setParams({ line: String(to) }, { replace: true })} />
      </Stack>
    </Stack>
  );
}

/** The text once it is known; until then, or when it never will be, says why. */
function TextOf({
  doc,
  highlight,
  onGoTo,
}: {
  doc: Document;
  highlight: number | null;
  onGoTo: (line: number) => void;
}) {
  if (doc.status === 'failed')
    return (
      <Alert color="red" title="This document has no text" role="alert">
        It failed: {doc.failure_reason ?? 'no reason was given'}. Capture it again to retry.
      </Alert>
    );
  // 409 until the text is known (a queued file): wait for it rather than show the error.
  if (doc.passages === null && !doc.findable_by_words)
    return (
      <Text size="sm" role="status">
        <Loader size="xs" mr="xs" aria-hidden="true" />
        The text is being extracted; it shows here once it is known.
      </Text>
    );
  return <DocumentText id={doc.id} lineCount={doc.line_count} highlight={highlight} onGoTo={onGoTo} />;
}
