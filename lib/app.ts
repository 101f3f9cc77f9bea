import type { App } from 'aws-cdk-lib';
import { ApiStack } from './api-stack.js';
import { type LibraryConfig, resolveConfig } from './config.js';
import { applyNagSuppressions } from './nag.js';
import { StatefulStack } from './stateful-stack.js';

/** Both stacks of one deployment; shared by bin/cdk.ts and the infrastructure tests. */
export function buildApp(
  app: App,
  options: { config?: unknown; version: string },
): { config: LibraryConfig; data: StatefulStack; api: ApiStack } {
  const config = resolveConfig(options.config ?? {});
  const env = {
    account: config.account ?? process.env.CDK_DEFAULT_ACCOUNT,
    region: config.region ?? process.env.CDK_DEFAULT_REGION,
  };
  const data = new StatefulStack(app, `${config.stackPrefix}-Data`, {
    env,
    config,
    description: 'Library: tables, blob bucket, search domain, secrets key',
  });
  const api = new ApiStack(app, `${config.stackPrefix}-Api`, {
    env,
    config,
    data: data.refs,
    version: options.version,
    description: 'Library: REST API, functions, ingest queue',
  });
  api.addStackDependency(data, 'imports the data exports');
  applyNagSuppressions(config, data, api);
  return { config, data, api };
}
