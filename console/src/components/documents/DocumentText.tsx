import { Box, Button, Group, Loader, NumberInput, Paper, Text } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { type DocumentContent, LibraryAbortError } from '../../../../client/src/index.js';
import { useConsole } from '../../console-context';
import { ErrorNotice } from '../ErrorNotice';

/** Lines read at a time: a long text is paged through, never read whole. */
export const LINES_PER_PAGE = 500;

/** The first line of the page that holds `line`. */
export const pageStart = (line: number) => Math.floor((Math.max(1, line) - 1) / LINES_PER_PAGE) * LINES_PER_PAGE + 1;

/** Lines to mark, first to last (one line: both the same). */
export interface LineRange {
  from: number;
  to: number;
}

/**
 * The document's text as grep and chat number it (`/content`), a page of
 * lines at a time. `highlight` (the page's `?line=` and `&to=`) is marked and
 * its first line scrolled into view; "Go to line" changes it.
 */

export function DocumentText({
  id,
  lineCount,
  highlight,
  onGoTo,
}: {
  id: string;
  lineCount: number;
  highlight: LineRange | null;
  onGoTo: (line: number) => void;
}) {
  const { library, scope } = useConsole();
  const first = highlight?.from ?? null;
  const [from, setFrom] = useState(() => pageStart(first ?? 1));
  const [content, setContent] = useState<DocumentContent | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [goTo, setGoTo] = useState<string | number>(first ?? '');

  // A new line asked for: read the page that holds it.
  useEffect(() => {
    if (first) setFrom(pageStart(first));
    setGoTo(first ?? '');
  }, [first]);

  const endUser = scope.end_user_id;
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    library.documents
      .content(id, { fromLine: from, lines: LINES_PER_PAGE, end_user_id: endUser, signal: controller.signal })
      .then(setContent)
      .catch((caught) => {
        if (!(caught instanceof LibraryAbortError) && !controller.signal.aborted) setError(caught);
      });
    return () => controller.abort();
  }, [library, id, from, endUser]);

  // Once the highlighted line is on the page, bring it into view.
  useEffect(() => {
    if (!first || !content) return;
    document.getElementById(`line-${first}`)?.scrollIntoView({ block: 'center' });
  }, [first, content]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const line = Number(goTo);
    if (Number.isInteger(line) && line >= 1 && line <= Math.max(1, lineCount)) onGoTo(line);
  };

  const shown = content?.from_line === from ? content : null;
  const last = shown ? shown.from_line + shown.lines.length - 1 : 0;
  return (
    <Box>
      <Group justify="space-between" align="flex-end" mb="xs" gap="xs">
        <Text size="sm" role="status">
          {shown
            ? shown.lines.length
              ? `Lines ${shown.from_line} to ${last} of ${shown.line_count}`
              : `No lines here (the text has ${shown.line_count})`
            : 'Reading the text...'}
        </Text>
        <form onSubmit={submit}>
          <Group gap="xs" align="flex-end">
            <NumberInput
              label="Go to line"
              size="xs"
              w={120}
              min={1}
              max={Math.max(1, lineCount)}
              allowDecimal={false}
              allowNegative={false}
              value={goTo}
              onChange={setGoTo}
            />
            <Button type="submit" size="xs" variant="default">
              Go
            </Button>
          </Group>
        </form>
      </Group>
      <ErrorNotice error={error} />
      {!shown && !error && <Loader size="sm" aria-label="Reading the text" />}
      {shown && <Lines content={shown} highlight={highlight} />}
      {shown && (
        <Group gap="xs" mt="xs">
          <Button
            variant="default"
            size="xs"
            disabled={shown.from_line <= 1}
            onClick={() => setFrom(Math.max(1, shown.from_line - LINES_PER_PAGE))}
          >
            Earlier lines
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={shown.next_from_line === null}
            onClick={() => shown.next_from_line && setFrom(shown.next_from_line)}
          >
            Later lines
          </Button>
        </Group>
      )}
    </Box>
  );
}

/** The lines with their numbers; the numbers are not selected with the text, so a copy is the text alone. */
function Lines({ content, highlight }: { content: DocumentContent; highlight: LineRange | null }) {
  const width = `${String(content.from_line + content.lines.length).length + 1}ch`;
  return (
    <Paper withBorder p={0} ff="monospace" fz="sm" aria-label="Text" role="region">
      {content.lines.map((text, k) => {
        const line = content.from_line + k;
        const current = highlight !== null && line >= highlight.from && line <= highlight.to;
        return (
          <div
            key={line}
            id={`line-${line}`}
            data-line={line}
            aria-current={current ? 'true' : undefined}
            style={{
              display: 'flex',
              background: current ? 'var(--mantine-color-yellow-2)' : undefined,
              scrollMarginTop: 80,
            }}
          >
            <span
              style={{
                flex: `0 0 ${width}`,
                textAlign: 'right',
                paddingRight: 8,
                color: 'var(--mantine-color-gray-7)',
                userSelect: 'none',
                borderRight: '1px solid var(--mantine-color-gray-3)',
              }}
            >
              {line}
            </span>
            <span style={{ paddingLeft: 8, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', minWidth: 0 }}>
              {text || '\u00a0'}
            </span>
          </div>
        );
      })}
    </Paper>
  );
}
