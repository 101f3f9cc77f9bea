import { Button, Group, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useRef } from 'react';

/**
 * Where files come in: dropped on the zone (files and whole folders: the
 * dropzone reads a folder's entries, `webkitGetAsEntry`, recursively and
 * keeps each file's path), or chosen with "Upload files" (the dropzone's own
 * input, labelled so) or "Upload a folder" (an input that picks a directory).
 */
export function UploadDropzone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const openFiles = useRef<() => void>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  return (
    <Dropzone
      onDrop={onFiles}
      openRef={openFiles}
      multiple
      // The buttons below open the pickers; the zone itself only takes drops, so it is not a second tab stop.
      activateOnClick={false}
      activateOnKeyboard={false}
      inputProps={{ 'aria-label': 'Upload files' }}
      enablePointerEvents
      p="xl"
    >
      <Stack align="center" gap="sm">
        <Text size="lg" fw={500} ta="center">
          Drop files or folders here
        </Text>
        <Text size="sm" c="dimmed" ta="center">
          Text, Markdown, HTML, CSV, JSON, PDF, DOCX and images; at most 4 MiB a file. A folder's files keep their path
          as their source ref.
        </Text>
        <Group gap="xs" justify="center">
          <Button onClick={() => openFiles.current?.()}>Upload files</Button>
          <Button variant="default" onClick={() => folderInput.current?.click()}>
            Upload a folder
          </Button>
        </Group>
        <input
          ref={(element) => {
            folderInput.current = element;
            // React has no prop for it: the attribute makes the picker choose a directory.
            element?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          multiple
          hidden
          aria-label="Folder to upload"
          onChange={(event) => {
            const files = Array.from(event.currentTarget.files ?? []);
            event.currentTarget.value = '';
            if (files.length) onFiles(files);
          }}
        />
      </Stack>
    </Dropzone>
  );
}
