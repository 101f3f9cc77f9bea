import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways when the page is narrower than `minWidth`.
 * Its scrolling area takes keyboard focus (and a name), so it can be scrolled
 * without a mouse.
 */
export function ScrollTable({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'group', 'aria-label': label } }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
