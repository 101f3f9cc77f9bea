import { Anchor, Text } from '@mantine/core';
import { Fragment } from 'react';
import type { ChatResponse } from '../../../../client/src/index.js';
import { documentHref } from '../../links';
import { markerLine, type ReplyPart, splitReply } from './citations';
import { citedSpan, spanLabel } from './lines';

type Source = ChatResponse['sources'][number];

/** The name a source goes by: its title, else its document id. */
export const sourceName = (source: Source) => source.title || source.file_id;

/** The link to a source's cited lines: at `line` (what a marker cites), else the first of them. */
export function sourceHref(source: Source, line?: number): string {
  return documentHref(source.file_id, line ?? citedSpan(source.snippet)?.first);
}

/** "Falcon status, line 3": what a citation link says to a screen reader after its number. */
export function sourceDescription(source: Source): string {
  const span = citedSpan(source.snippet);
  return span ? `${sourceName(source)}, ${spanLabel(span)}` : sourceName(source);
}

/**
 * A reply with its citations as links to the cited lines, numbered as the
 * source list below it (`which` maps a marker's passage number to a source;
 * while the reply streams there are no sources yet and markers stay text).
 */
export function CitedReply({
  reply,
  sources,
  which,
}: {
  reply: string;
  sources: readonly Source[];
  which: Map<number, number>;
}) {
  return (
    <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {splitReply(reply).map((part, i) => (
        // Parts are positional and never reorder.
        // biome-ignore lint/suspicious/noArrayIndexKey: a reply's parts are fixed by its text
        <Fragment key={i}>{renderPart(part, sources, which)}</Fragment>
      ))}
    </Text>
  );
}

function renderPart(part: ReplyPart, sources: readonly Source[], which: Map<number, number>) {
  if ('text' in part) return part.text;
  const cited = [...new Set(part.passages.map((n) => which.get(n)))];
  // A marker the sources cannot account for is shown as written.
  if (cited.some((index) => index === undefined || !sources[index])) return part.marker;
  return cited.map((index, k) => {
    const source = sources[index!]!;
    return (
      <Fragment key={index}>
        {k > 0 && ' '}
        <Anchor
          href={sourceHref(source, markerLine(source, part.passages))}
          aria-label={`[${index! + 1}] ${sourceDescription(source)}`}
          fw={600}
        >
          [{index! + 1}]
        </Anchor>
      </Fragment>
    );
  });
}
