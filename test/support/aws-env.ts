import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every variable the SDK's default credential chain reads to find credentials, a profile or a metadata endpoint. */
const CREDENTIAL_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CREDENTIAL_EXPIRATION',
  'AWS_ACCOUNT_ID',
  'AWS_PROFILE',
  'AWS_DEFAULT_PROFILE',
  'AWS_SDK_LOAD_CONFIG',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_ROLE_ARN',
  'AWS_ROLE_SESSION_NAME',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
];

/**
 * Makes this test process a machine without AWS credentials, whatever the
 * developer's shell has (CI has none): no credential variables, no profile,
 * `~/.aws` files replaced by paths that do not exist, the instance metadata
 * service off. `credentials` then puts a key pair in the environment (the
 * chain's first source). Returns the function that puts everything back.
 */
export function isolateAwsEnvironment(credentials?: { accessKeyId: string; secretAccessKey: string }): () => void {
  const saved = Object.fromEntries(CREDENTIAL_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of CREDENTIAL_VARIABLES) delete process.env[name];
  const missing = join(tmpdir(), `library-no-aws-${process.pid}`, 'missing');
  process.env.AWS_SHARED_CREDENTIALS_FILE = missing;
  process.env.AWS_CONFIG_FILE = missing;
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  if (credentials) {
    process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
  }
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
