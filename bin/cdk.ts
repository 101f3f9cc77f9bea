/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy --all`. Reads the typed
 * configuration once (cdk.json's `library` context, or `-c library='{...}'`),
 * builds the stateful and the API stack, and applies the cdk-nag AWS
 * Solutions checks (every suppression carries its reason, lib/nag.ts).
 */
import { readFileSync } from 'node:fs';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../lib/app.js';

const app = new App();
const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
buildApp(app, { config: app.node.tryGetContext('library'), version });
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
