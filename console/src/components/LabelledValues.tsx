import { DataList, type DataListProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A record's fields as label and value rows; a long value (an id, an ARN) wraps anywhere rather than widen the page. */
export function LabelledValues({ rows, ...props }: { rows: ReadonlyArray<[string, ReactNode]> } & DataListProps) {
  return (
    <DataList {...props}>
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue style={{ overflowWrap: 'anywhere' }}>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}
