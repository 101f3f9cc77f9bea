import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  ServiceUnavailableException,
  ThrottlingException,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockChat } from '../../../lambdas/adapters/aws/bedrock-chat.js';
import { NOT_IN_LIBRARY } from '../../../lambdas/core/chat/prompt.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';
import type { ChatModelRequest } from '../../../lambdas/ports.js';

const bedrock = mockClient(BedrockRuntimeClient);
beforeEach(() => bedrock.reset());

const request: ChatModelRequest = {
  question: 'Make a list of the Falcon risks',
  itemize: true,
  passages: [{ number: 1, title: 'Falcon status', lineStart: 8, lines: ['The main risk is the battery supplier.', 'A second risk is certification.'] }],
};

const model = () => new BedrockChat(new BedrockRuntimeClient({ region: 'eu-west-1' }), { modelId: 'anthropic.claude-test', maxTokens: 500 });

describe('BedrockChat', () => {
  it('calls Converse with a system prompt that forbids answering beyond the passages, and reads citations and usage', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: { message: { role: 'assistant', content: [{ text: '- Battery supplier [1]\n- Certification [1]' }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 210, outputTokens: 14, totalTokens: 224 },
      metrics: { latencyMs: 300 },
    });
    const answer = await model().answer(request);

    const calls = bedrock.commandCalls(ConverseCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.modelId).toBe('anthropic.claude-test');
    expect(input.inferenceConfig).toEqual({ maxTokens: 500, temperature: 0 });
    const system = input.system![0]!;
    expect('text' in system && system.text).toMatch(/ONLY the numbered passages/);
    expect('text' in system && system.text).toMatch(/Never add outside knowledge/);
    expect('text' in system && system.text).toMatch(/Cite every claim/);
    expect('text' in system && system.text).toMatch(/list of facts/);
    const user = input.messages![0]!.content![0]!;
    expect('text' in user && user.text).toContain('8: The main risk is the battery supplier.\n9: A second risk is certification.');

    expect(answer.reply).toBe('- Battery supplier [1]\n- Certification [1]');
    expect(answer.citations).toEqual([{ passage: 1 }]);
    expect(answer.usage).toEqual({ promptTokens: 210, completionTokens: 14 });
  });

  it('reads NOT_IN_LIBRARY and a guardrail stop as no answer', async () => {
    bedrock.on(ConverseCommand).resolvesOnce({
      output: { message: { role: 'assistant', content: [{ text: NOT_IN_LIBRARY }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 100, outputTokens: 3, totalTokens: 103 },
      metrics: { latencyMs: 1 },
    }).resolvesOnce({
      output: { message: { role: 'assistant', content: [{ text: 'Sorry [1]' }] } },
      stopReason: 'guardrail_intervened',
      usage: { inputTokens: 100, outputTokens: 2, totalTokens: 102 },
      metrics: { latencyMs: 1 },
    });
    expect((await model().answer(request)).reply).toBeNull();
    const blocked = await model().answer(request);
    expect(blocked.reply).toBeNull();
    expect(blocked.citations).toEqual([]);
  });

  it('maps throttling to BackendUnavailableError with a longer Retry-After, and every other failure too', async () => {
    bedrock.on(ConverseCommand).rejects(new ThrottlingException({ message: 'slow down', $metadata: { httpStatusCode: 429 } }));
    const throttled = await model().answer(request).catch((e) => e);
    expect(throttled).toBeInstanceOf(BackendUnavailableError);
    expect(throttled.retryAfterSeconds).toBe(5);

    bedrock.reset();
    bedrock.on(ConverseCommand).rejects(new ServiceUnavailableException({ message: 'down', $metadata: { httpStatusCode: 503 } }));
    const down = await model().answer(request).catch((e) => e);
    expect(down).toBeInstanceOf(BackendUnavailableError);
    expect(down.retryAfterSeconds).toBe(1);

    bedrock.reset();
    bedrock.on(ConverseCommand).rejects(new AccessDeniedException({ message: 'model not enabled', $metadata: { httpStatusCode: 403 } }));
    const denied = await model().answer(request).catch((e) => e);
    expect(denied).toBeInstanceOf(BackendUnavailableError);
    expect(denied.message).not.toMatch(/arn:|account/i);
  });
});
