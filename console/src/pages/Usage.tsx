import { Select, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { UsageResponse } from '../../../client/src/index.js';
import { Loading } from '../components/admin/Loading';
import { UsageChart } from '../components/admin/UsageChart';
import { UsageDays, UsageTotals } from '../components/admin/UsageTables';
import { monthLabel, monthRange, recentMonths } from '../components/admin/usage';
import { ErrorNotice } from '../components/ErrorNotice';
import { useConsole } from '../console-context';

/** The tenant's spend for a chosen month (GET /v1/usage): per day as a chart, and the totals as a table. */
export function Usage() {
  const { library } = useConsole();
  const months = useMemo(() => recentMonths(new Date()), []);
  const [month, setMonth] = useState(months[0]!.value);
  const [usage, setUsage] = useState<UsageResponse | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    setUsage(null);
    setError(null);
    library.usage(monthRange(month)).then(
      (answer) => current && setUsage(answer),
      (caught) => current && setError(caught),
    );
    // A month picked while another loads must not be overwritten by the slower answer.
    return () => {
      current = false;
    };
  }, [library, month]);

  const name = monthLabel(month);
  return (
    <Stack>
      <Title order={2}>Usage</Title>
      <Text size="sm" c="dimmed">
        Spend is the tenant's, whichever library (shared or an end user's) it was for. Days are UTC.
      </Text>
      <Select
        label="Month"
        data={months}
        value={month}
        onChange={(next) => next && setMonth(next)}
        allowDeselect={false}
        maw={240}
      />
      <ErrorNotice error={error} />
      {!usage && !error && <Loading what={`usage for ${name}`} />}
      {usage && (
        <>
          <UsageTotals usage={usage} caption={`Totals for ${name}`} />
          <UsageChart usage={usage} label={`Tokens, chat calls, OCR pages and captures per day in ${name}`} />
          {usage.days.length > 0 ? (
            <UsageDays usage={usage} caption={`Days with use in ${name}`} />
          ) : (
            <Text size="sm">Nothing was used in {name}.</Text>
          )}
        </>
      )}
    </Stack>
  );
}
