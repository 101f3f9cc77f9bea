import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleHarness,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startConsoleHarness,
} from '../support/console-browser.js';
import { type CustomerBucket, startCustomerBucket } from '../support/customer-bucket.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/**
 * The Bucket page against a customer's bucket of its own: s3rver on loopback
 * (the server allows private endpoints for it, as test/e2e/bucket.test.ts does).
 */
describe('the caller-owned bucket in the web console', () => {
  let harness: ConsoleHarness;
  let bucket: CustomerBucket;
  let key: string;
  const SECRET = `console-secret-${crypto.randomUUID()}`;

  beforeAll(async () => {
    bucket = await startCustomerBucket(['customer-console']);
    bucket.addKey('AKIACONSOLE', SECRET);
    harness = await startConsoleHarness({
      embedder: new HashingEmbedder(),
      buckets: { allowPrivateEndpoints: true, retryIntervalMs: 3_600_000 },
    });
    key = await harness.server.newKey('console-bucket');
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await bucket?.close();
  });

  const openBucket = async (options: { phone?: boolean } = {}): Promise<{ page: Page; context: BrowserContext }> => {
    const { page, context } = await harness.newPage(options);
    await signIn(page, harness.server, key);
    if (options.phone) await page.getByRole('button', { name: 'Navigation' }).click();
    await openPage(page, 'Bucket');
    await page.getByRole('heading', { name: 'Bucket', level: 2 }).waitFor();
    return { page, context };
  };

  it('shows the trust policy to copy, registers with keys (a refusal shown in words first), shows the state, unregisters', async () => {
    const { page, context } = await openBucket();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByText('No bucket is registered').waitFor();

    // The trust policy, as the API gives it, copied as is.
    const policy = (await harness.server.api('/v1/bucket/trust-policy', { key })).body;
    const text = JSON.stringify(policy.trust_policy, null, 2);
    await page.getByText(policy.external_id).first().waitFor();
    expect(await page.locator('pre').filter({ hasText: 'sts:AssumeRole' }).textContent()).toBe(text);
    await page.getByRole('button', { name: 'Copy trust policy' }).click();
    await page.getByRole('button', { name: 'Trust policy copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(text);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-none');

    // A key pair the bucket does not know: the probe's refusal, in words, with the request id.
    await page.getByLabel('Bucket name').fill('customer-console');
    await page.getByLabel('Endpoint').fill(bucket.endpoint);
    await page.getByLabel('Prefix').fill('console-tenant');
    await page.getByLabel('Access key id').fill('AKIAUNKNOWN');
    await page.getByLabel('Secret access key').fill(SECRET);
    await page.getByRole('button', { name: 'Register bucket', exact: true }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/422 \(bucket_access_denied\)/);
    expect(await refusal.textContent()).toMatch(/Request id: \S+/);
    expect((await harness.server.api('/v1/bucket', { key })).status).toBe(404);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-refused');

    await page.getByLabel('Access key id').fill('AKIACONSOLE');
    await page.getByRole('button', { name: 'Register bucket', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Registered customer-console' }).waitFor();
    const state = page.locator('dl[data-bucket-state="ok"]');
    await state.waitFor();
    const words = await state.textContent();
    expect(words).toContain('customer-console');
    expect(words).toContain('console-tenant/');
    expect(words).toContain('access keys');
    expect(words).toContain(bucket.endpoint);
    // The secret is not kept on the page once the service has it.
    expect(await page.getByLabel('Secret access key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    const registered = await harness.server.api('/v1/bucket', { key });
    expect(registered.body).toMatchObject({
      bucket: 'customer-console',
      prefix: 'console-tenant/',
      auth: 'keys',
      state: 'ok',
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-registered');

    // Files captured now go to the customer's bucket.
    const captured = await harness.server.api('/v1/capture', {
      key,
      body: {
        content_base64: Buffer.from('kept in the customer bucket').toString('base64'),
        filename: 'kept.txt',
        content_type: 'text/plain',
      },
    });
    expect(captured.status).toBe(201);
    expect((await bucket.list('customer-console', 'console-tenant/')).length).toBe(1);

    await page.getByRole('button', { name: 'Unregister bucket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unregister bucket' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Objects already in customer-console stay there/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-unregister-confirm');
    await dialog.getByRole('button', { name: 'Unregister', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Unregistered customer-console' }).waitFor();
    await page.getByText('No bucket is registered').waitFor();
    expect((await harness.server.api('/v1/bucket', { key })).status).toBe(404);
    // What was in the bucket stays there.
    expect((await bucket.list('customer-console', 'console-tenant/')).length).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-unregistered');
  });

  it("registers with a role: the role ARN with the tenant's external id (refused by a local stack without AWS, in words)", async () => {
    const { page } = await openBucket();
    // The segment is a named radio group; a person clicks the segment's label.
    await page.getByRole('radiogroup', { name: 'Access with' }).getByText('Role', { exact: true }).click();
    expect(await page.getByRole('radio', { name: 'Role' }).isChecked()).toBe(true);
    await page.getByLabel('Role ARN').waitFor();
    // A role reaches AWS S3 itself: no endpoint, no keys.
    expect(await page.getByLabel('Endpoint').count()).toBe(0);
    expect(await page.getByLabel('Access key id').count()).toBe(0);
    const { external_id } = (await harness.server.api('/v1/bucket/trust-policy', { key })).body;
    expect(await page.getByLabel('External id').inputValue()).toBe(external_id);
    await page.getByLabel('Bucket name').fill('customer-console');
    await page.getByLabel('Role ARN').fill('arn:aws:iam::123456789012:role/library');
    await page.getByRole('button', { name: 'Register bucket', exact: true }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/422 \(invalid_request\)/);
    expect(await refusal.textContent()).toMatch(/role_arn: .*register with access_key_id and secret_access_key/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-role');
  });

  it('works on a phone', async () => {
    const { page } = await openBucket({ phone: true });
    await page.getByText('No bucket is registered').waitFor();
    await page.getByLabel('Bucket name').waitFor();
    await page.getByRole('button', { name: 'Copy trust policy' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'bucket-phone');
  });
});
