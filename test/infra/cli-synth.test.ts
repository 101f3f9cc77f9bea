import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/functions.js';

const run = promisify(execFile);

/**
 * `cdk synth` through the pinned CLI, offline: proves the CLI reads the cloud
 * assembly of the pinned aws-cdk-lib and that cdk-nag (run by bin/cdk.ts as a
 * policy validation plugin) passes, since any unacknowledged finding fails
 * the synth. Only the data stack is selected, so the functions are not bundled
 * here (`npm run bench:bundles` and a plain `npx cdk synth` bundle them).
 */
describe('npx cdk synth with the pinned CLI', () => {
  it('synthesizes both stacks and passes cdk-nag', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      const cli = join(PROJECT_ROOT, 'node_modules', '.bin', 'cdk');
      const { stderr } = await run(
        cli,
        ['synth', 'Library-Data', '--exclusively', '--quiet', '--no-notices', '--no-version-reporting', '-o', out],
        {
          cwd: PROJECT_ROOT,
          env: {
            ...process.env,
            CDK_DISABLE_CLI_TELEMETRY: 'true',
            CDK_DEFAULT_ACCOUNT: '123456789012',
            CDK_DEFAULT_REGION: 'eu-west-1',
          },
          timeout: 170_000,
        },
      );
      expect(stderr).not.toMatch(/AwsSolutions-|Synthesis finished with errors/);
      for (const file of ['manifest.json', 'Library-Data.template.json', 'Library-Api.template.json'])
        expect(existsSync(join(out, file)), file).toBe(true);
      // Warnings (e.g. AwsSolutions-APIG3) do not fail a synth: the report must hold no finding at all.
      const report = JSON.parse(readFileSync(join(out, 'validation-report.json'), 'utf8')) as {
        pluginReports: Array<{ pluginName: string; conclusion: string; violations: Array<{ ruleName: string }> }>;
      };
      const findings = report.pluginReports.flatMap((r) => r.violations.map((v) => `${r.pluginName}: ${v.ruleName}`));
      expect(findings).toEqual([]);
      expect(report.pluginReports.filter((r) => r.conclusion !== 'success')).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
