import { Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ChatTurn } from '../components/ask/ChatTurn';
import { useChat } from '../components/ask/useChat';

/** Questions to the library, answered from it with citations, in one conversation until "New conversation". */
export function Chat() {
  const { turns, asking, ask, newConversation } = useChat();
  const [question, setQuestion] = useState('');

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = question.trim();
    if (!text || asking) return;
    setQuestion('');
    ask(text);
  };

  return (
    <Stack gap="md">
      <Title order={2}>Chat</Title>
      {turns.length > 0 ? (
        <Stack component="ol" aria-label="Conversation" gap="lg" p={0} m={0} style={{ listStyle: 'none' }}>
          {turns.map((turn) => (
            <ChatTurn key={turn.key} turn={turn} />
          ))}
        </Stack>
      ) : (
        <Text c="dimmed" size="sm">
          Ask about what your library holds: the answer cites the lines it comes from. Ask for a table or a chart to
          have one made from the cited facts.
        </Text>
      )}
      <form onSubmit={submit} aria-label="Ask the library">
        <Stack gap="xs">
          <Textarea
            label="Question"
            description="Enter to ask, Shift+Enter for a new line"
            value={question}
            onChange={(event) => setQuestion(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                submit();
              }
            }}
            autosize
            minRows={2}
            maxRows={8}
            maxLength={4000}
          />
          <Group gap="xs">
            <Button type="submit" loading={asking}>
              Ask
            </Button>
            <Button variant="default" onClick={newConversation} disabled={turns.length === 0}>
              New conversation
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
