import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Document, LibraryAbortError, LibraryError } from '../../../client/src/index.js';
import { GREEN } from '../components/documents/colors';
import { DeleteDocument } from '../components/documents/DeleteDocument';
import { DocumentRecord } from '../components/documents/DocumentRecord';
import { DocumentText, type LineRange } from '../components/documents/DocumentText';
import { DownloadButton } from '../components/documents/DownloadButton';
import { EditDocument } from '../components/documents/EditDocument';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/** A document still processing is read again this long after the last read answered... */
const POLL_MS = 2000;
/** ...half as long again at each round (twice as long after a failed read), at most this long... */
const MAX_POLL_MS = 30_000;
/** ...and no more on its own after this long ("Read again" still reads it). */
const POLL_FOR_MS = 10 * 60_000;

/** One document (`#/documents/<id>?line=12`, or `?line=12&to=18` for a range): its record, its numbered text, download, edit and delete. */
export function DocumentPage() {
  const { id = '' } = useParams();
  const { endUser } = useConsole();
  // Another document, or another end user's library, starts afresh (nothing left over from the last one).
  return <DocumentView key={JSON.stringify([endUser ?? null, id])} id={id} />;
}

/** The lines the address asks to mark: `line`, through `to` when it is a later line. */
function highlightOf(params: URLSearchParams): LineRange | null {
  const from = Number(params.get('line'));
  if (!Number.isInteger(from) || from < 1) return null;
  const to = Number(params.get('to'));
  return { from, to: Number.isInteger(to) && to > from ? to : from };
}

function DocumentView({ id }: { id: string }) {
  const [params, setParams] = useSearchParams();
  const highlight = highlightOf(params);
  const { library, scope } = useConsole();
  const navigate = useNavigate();
  const [doc, setDoc] = useState<Document | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [reads, setReads] = useState(0);
  /** Reads that have answered (or failed): the next one is scheduled after each. */
  const [answered, setAnswered] = useState(0);
  /** Saves made: a read that started before the last one answers the record as it was before it. */
  const saves = useRef(0);
  const auto = useRef({ since: Date.now(), rounds: 0 });
  const [pollStopped, setPollStopped] = useState(false);

  const endUser = scope.end_user_id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reads` asks for the record again while it is processing.
  useEffect(() => {
    const controller = new AbortController();
    const savesBefore = saves.current;
    library.documents
      .get(id, endUser ? { end_user_id: endUser } : {}, { signal: controller.signal })
      .then((loaded) => {
        // Older than the last save: the saved record stays.
        if (saves.current !== savesBefore) return;
        setDoc(loaded);
        setError(null);
      })
      .catch((caught) => {
        if (!(caught instanceof LibraryAbortError) && !controller.signal.aborted) setError(caught);
      })
      .finally(() => {
        if (!controller.signal.aborted) setAnswered((n) => n + 1);
      });
    return () => controller.abort();
  }, [library, id, endUser, reads]);

  // Still processing: read again once the last read has answered, less often as time goes, for a while.
  const processing = doc?.status === 'processing';
  // biome-ignore lint/correctness/useExhaustiveDependencies: `answered` schedules the next read after each answer.
  useEffect(() => {
    if (!processing) return;
    // A refusal (the document gone, the key refused) will not change by asking again.
    if (error instanceof LibraryError && error.status >= 400 && error.status < 500 && error.status !== 429) return;
    const { since, rounds } = auto.current;
    if (Date.now() - since >= POLL_FOR_MS) {
      setPollStopped(true);
      return;
    }
    const delay = Math.min(POLL_MS * 1.5 ** rounds, MAX_POLL_MS) * (error ? 2 : 1);
    const timer = setTimeout(() => {
      auto.current.rounds += 1;
      setReads((n) => n + 1);
    }, delay);
    return () => clearTimeout(timer);
  }, [processing, answered, error]);
  const readAgain = () => {
    auto.current = { since: Date.now(), rounds: 0 };
    setPollStopped(false);
    setReads((n) => n + 1);
  };

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
      {processing && pollStopped && (
        <Group gap="xs">
          <Text size="sm" role="status">
            Still processing; no longer read again on its own.
          </Text>
          <Button variant="subtle" size="xs" onClick={readAgain}>
            Read again
          </Button>
        </Group>
      )}
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
              saves.current += 1;
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
  highlight: LineRange | null;
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
