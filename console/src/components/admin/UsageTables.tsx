import { Table } from '@mantine/core';
import type { UsageResponse } from '../../../../client/src/index.js';
import { ScrollTable } from './ScrollTable';
import { METRICS } from './usage';

const figure = (value: number) => value.toLocaleString('en-US');

/** The month's totals: the chart's figures in words, for anyone who cannot read the chart. */
export function UsageTotals({ usage, caption }: { usage: UsageResponse; caption: string }) {
  return (
    <Table maw={420} withTableBorder captionSide="top">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Tbody>
        {METRICS.map(({ key, label }) => (
          <Table.Tr key={key}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td ta="right">{figure(usage[key])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The days with any spend, one row each: the chart's bars as numbers. */
export function UsageDays({ usage, caption }: { usage: UsageResponse; caption: string }) {
  return (
    <ScrollTable minWidth={480} label={caption}>
      <Table striped withTableBorder captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            {METRICS.map(({ key, label }) => (
              <Table.Th key={key} scope="col" ta="right">
                {label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {usage.days.map((day) => (
            <Table.Tr key={day.date}>
              <Table.Th scope="row" fw="normal">
                {day.date}
              </Table.Th>
              {METRICS.map(({ key }) => (
                <Table.Td key={key} ta="right">
                  {figure(day[key])}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
