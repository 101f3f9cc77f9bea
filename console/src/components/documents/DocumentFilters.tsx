import { Button, Group, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type ListQuery, PAGE_SIZES, paramsFromQuery } from './filters';

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  { value: 'processing', label: 'processing' },
  { value: 'ready', label: 'ready' },
  { value: 'failed', label: 'failed' },
];
const KIND_OPTIONS = [
  { value: '', label: 'Any kind' },
  { value: 'text', label: 'text' },
  { value: 'file', label: 'file' },
  { value: 'image', label: 'image' },
];
const META_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

function metadataKeyError(key: string): string | null {
  return key.trim() && !META_KEY.test(key.trim())
    ? 'A key starts with a letter or _, then letters, digits, _ . or - (at most 64)'
    : null;
}

/**
 * The list's filters. A choice in a list applies at once; typed fields apply
 * on Enter or "Apply filters", so the list is not read again at every key.
 */
export function DocumentFilters({ value, onChange }: { value: ListQuery; onChange: (next: ListQuery) => void }) {
  const [draft, setDraft] = useState(value);
  // The fields follow the applied filters when they change from elsewhere (the address, back, a link), not at every
  // render, and not when the change is this form's own coming back: the address updates in a transition, and a field
  // typed into meanwhile (a prefix typed right after choosing a kind) must keep what was typed.
  const applied = paramsFromQuery(value).toString();
  // The filters this form applied that have not come back yet, oldest first (one that comes back makes those before it moot).
  const sent = useRef<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `applied` is `value` compared by content.
  useEffect(() => {
    const own = sent.current.indexOf(applied);
    if (own >= 0) {
      sent.current.splice(0, own + 1);
    } else {
      sent.current = [];
      setDraft(value);
    }
  }, [applied]);
  const keyError = metadataKeyError(draft.metadataKey);

  const apply = (next: ListQuery) => {
    const query = { ...next, metadataKey: next.metadataKey.trim() };
    const params = paramsFromQuery(query).toString();
    if (params !== applied) sent.current.push(params);
    onChange(query);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!keyError) apply(draft);
  };
  // A list's choice applies with what is typed so far, as "Apply filters" would.
  const choose = (patch: Partial<ListQuery>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (!metadataKeyError(next.metadataKey)) apply(next);
  };

  return (
    <form onSubmit={submit} aria-label="Filters">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
        <NativeSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={draft.status}
          onChange={(event) => choose({ status: event.currentTarget.value as ListQuery['status'] })}
        />
        <NativeSelect
          label="Kind"
          data={KIND_OPTIONS}
          value={draft.kind}
          onChange={(event) => choose({ kind: event.currentTarget.value as ListQuery['kind'] })}
        />
        <TextInput
          label="Source ref prefix"
          placeholder="notes/"
          value={draft.sourceRefPrefix}
          onChange={(event) => setDraft({ ...draft, sourceRefPrefix: event.currentTarget.value })}
        />
        <TextInput
          label="Metadata key"
          placeholder="project"
          value={draft.metadataKey}
          error={keyError}
          onChange={(event) => setDraft({ ...draft, metadataKey: event.currentTarget.value })}
        />
        <TextInput
          label="Metadata value"
          description="Empty: every document that has the key"
          placeholder="apollo"
          value={draft.metadataValue}
          disabled={!draft.metadataKey}
          onChange={(event) => setDraft({ ...draft, metadataValue: event.currentTarget.value })}
        />
        <NativeSelect
          label="Per page"
          data={PAGE_SIZES.map(String)}
          value={String(draft.limit)}
          onChange={(event) => choose({ limit: Number(event.currentTarget.value) })}
        />
      </SimpleGrid>
      <Group gap="xs" mt="sm">
        <Button type="submit">Apply filters</Button>
        <Button
          variant="default"
          onClick={() => choose({ status: '', kind: '', sourceRefPrefix: '', metadataKey: '', metadataValue: '' })}
        >
          Clear filters
        </Button>
      </Group>
    </form>
  );
}
