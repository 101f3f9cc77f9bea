import { Anchor, Box, Text } from '@mantine/core';
import type { GrepResult } from '../../../../client/src/index.js';
import { documentHref } from '../../links';
import { literalRanges, Marked } from './highlight';
import { grepLineText } from './lines';

/** One matching line: `file : line` (a link to the document at that line), then the line with the match marked. */
export function GrepRow({ hit, pattern, caseSensitive }: { hit: GrepResult; pattern: string; caseSensitive: boolean }) {
  const file = hit.source_ref || hit.title || hit.file_id;
  const text = grepLineText(hit.snippet);
  return (
    <Box component="li" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
      <Anchor href={documentHref(hit.file_id, hit.line)} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {file} : {hit.line}
      </Anchor>
      <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        <Marked text={text} ranges={literalRanges(text, pattern, caseSensitive)} />
      </Text>
    </Box>
  );
}
