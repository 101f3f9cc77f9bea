import { Code, List, Paper, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { ChatResponse } from '../../../../client/src/index.js';
import { VegaChart } from '../VegaChart';
import { parseMarkdownBlocks, parseMarkdownTable } from './markdown';

type Artifact = ChatResponse['artifacts'][number];

/** A creation an answer made: a table as a table, a chart drawn from its Vega-Lite spec, a list as a list; anything else as its text. */
export function ArtifactView({ artifact }: { artifact: Artifact }) {
  return (
    <Paper withBorder p="sm" radius="sm" data-artifact={artifact.type}>
      {artifact.type === 'table' ? (
        <ArtifactTable artifact={artifact} />
      ) : artifact.type === 'chart' ? (
        <ArtifactChart artifact={artifact} />
      ) : artifact.type === 'document' ? (
        <ArtifactDocument artifact={artifact} />
      ) : (
        <ArtifactText artifact={artifact} />
      )}
    </Paper>
  );
}

function ArtifactTable({ artifact }: { artifact: Artifact }) {
  const table = useMemo(() => parseMarkdownTable(artifact.content), [artifact.content]);
  if (!table) return <ArtifactText artifact={artifact} />;
  return (
    // On a phone the table scrolls sideways: its viewport takes the focus, so the keyboard can scroll it too.
    <Table.ScrollContainer minWidth={480} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
      <Table striped withTableBorder captionSide="top">
        <Table.Caption>{artifact.title}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {table.header.map((cell, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
              <Table.Th key={i}>{cell}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional and never reorder
            <Table.Tr key={r}>
              {row.map((cell, c) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                <Table.Td key={c}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ArtifactChart({ artifact }: { artifact: Artifact }) {
  const label = `Chart: ${artifact.title}`;
  // One parse per creation: VegaChart draws again when its spec object changes.
  const spec = useMemo(() => {
    try {
      return JSON.parse(artifact.content) as object;
    } catch {
      return null;
    }
  }, [artifact.content]);
  // The chart draws its title itself.
  return spec ? <VegaChart spec={spec} label={label} /> : <ArtifactText artifact={artifact} />;
}

function ArtifactDocument({ artifact }: { artifact: Artifact }) {
  const blocks = useMemo(() => parseMarkdownBlocks(artifact.content), [artifact.content]);
  return (
    <>
      {blocks.map((block, i) =>
        'heading' in block ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
          <Text key={i} size="sm" fw={600} mb={4}>
            {block.heading}
          </Text>
        ) : 'items' in block ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
          <List key={i} size="sm" spacing={2}>
            {block.items.map((item, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: items are positional
              <List.Item key={k}>{item}</List.Item>
            ))}
          </List>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
          <Text key={i} size="sm">
            {block.text}
          </Text>
        ),
      )}
    </>
  );
}

/** What the console does not render (an app, say) is shown as its text, never run. */
function ArtifactText({ artifact }: { artifact: Artifact }) {
  return (
    <>
      <Text size="sm" fw={600} mb={4}>
        {artifact.title}{' '}
        <Text span size="xs" c="dimmed">
          ({artifact.content_type})
        </Text>
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 320, overflow: 'auto' }}>
        {artifact.content}
      </Code>
    </>
  );
}
