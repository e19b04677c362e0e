import { generateKeyPairSync } from 'node:crypto';
import { createRedactor } from '../../../src/artifacts/redact.js';
import { findCredentials } from '../../../src/secrets/find-credentials.js';
import {
  highEntropyAssignments,
  looksRandom,
} from '../../../src/secrets/high-entropy-assignments.js';

const RUN_KEY = 'sk-run-own-key-0123456789abcdefQZ';
const known = createRedactor([RUN_KEY]);
const find = (text: string) => known.find(text);
const scan = async (after: string, before?: string) =>
  (await findCredentials([{ path: 'src/config.js', before, after }], find)).findings;

/** Made up here, in the formats the rules know (none of them is a real credential). */
const GITHUB_TOKEN = `ghp_${'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO'}0pINUx`;
const AWS_ID = `AKIA${'QYLPMN5HHHFPZAM2'}`;
const AWS_SECRET = `1tUm636uS1yOEcfP5pvfqJ/ml36mF7${'AkyHsEU0IU'}`;
const PEM = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();

describe('findCredentials', () => {
  it.each([
    ['the run’s own key', `const key = "${RUN_KEY}";`, "this run's secret (a secret)"],
    [
      'its base64',
      `const blob = "${Buffer.from(RUN_KEY).toString('base64')}";`,
      "this run's secret (base64 of a secret)",
    ],
    ['a GitHub token', `const t = "${GITHUB_TOKEN}";`, 'github: GITHUB_TOKEN'],
    ['an AWS access key id', `aws_access_key_id = ${AWS_ID}`, 'aws: AWSAccessKeyID'],
    [
      'an AWS secret access key',
      `aws_secret_access_key = "${AWS_SECRET}"`,
      'aws: AWSSecretAccessKey',
    ],
    ['a private key block', `const pem = \`${PEM}\`;`, 'privatekey: PrivateKey'],
    [
      'a random value assigned to a *_TOKEN name',
      'SERVICE_TOKEN = "q8Zt2vN4xL0pR7mK3sW9bY6c"',
      'high-entropy value assigned to SERVICE_TOKEN',
    ],
  ])('finds %s, by file, line and rule, never the value', async (_what, line, rule) => {
    const findings = await scan(`// config\n${line}\n`);
    expect(findings).toEqual([{ path: 'src/config.js', line: 2, rule }]);
    expect(JSON.stringify(findings)).not.toContain(line.slice(12, 30));
  });

  it('counts only what the change adds: a credential already in the file is not the change’s', async () => {
    const before = `const t = "${GITHUB_TOKEN}";\n`;
    expect(await scan(`${before}const x = 1;\n`, before)).toEqual([]);
    expect(await scan(`const x = 1;\n${before}`, 'const x = 1;\n')).toEqual([
      { path: 'src/config.js', line: 2, rule: 'github: GITHUB_TOKEN' },
    ]);
  });

  it('is not switched off by a secretlint-disable comment the model wrote', async () => {
    const findings = await scan(`// secretlint-disable\nconst t = "${GITHUB_TOKEN}";\n`);
    expect(findings.map((f) => f.rule)).toEqual(['github: GITHUB_TOKEN']);
  });

  it.each([
    'API_KEY = process.env.API_KEY',
    'const apiKey = process.env.OPENAI_API_KEY ?? "";',
    'OPENAI_API_KEY=<your-key-here>',
    'api_key: ${API_KEY}',
    'token: "xxxxxxxxxxxxxxxxxxxxxxxx"',
    'password = "changeme-please-1234"',
    'SECRET_KEY = "your-secret-key-goes-here-123"',
    'const cacheKey = `user-profile-${id}`;',
    'const tokenKey = "auth_access_token_v2";',
    'primaryKey: "user_id_and_tenant_id_2"',
    'const publicKey = fs.readFileSync(keyPath);',
    'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
    'authToken: config.github.installationToken1',
    'const sortKey = "createdAtDescending2024";',
  ])('leaves a realistic non-credential alone: %s', async (line) => {
    expect(await scan(`${line}\n`)).toEqual([]);
  });
});

describe('highEntropyAssignments', () => {
  it('names the assignment, and points at the value only', () => {
    const text = 'const config = { client_secret: "Zq3vN8xL2pR7mK4sW9bY6c0T" };';
    const [hit] = highEntropyAssignments(text);
    expect(hit?.name).toBe('client_secret');
    expect(text.slice(hit!.start, hit!.end)).toBe('Zq3vN8xL2pR7mK4sW9bY6c0T');
  });

  it('wants length, letters and digits, and entropy', () => {
    expect(looksRandom('a1b2c3d4')).toBe(false); // short
    expect(looksRandom('abcdefghijklmnopqrst')).toBe(false); // no digit
    expect(looksRandom('aaaaaaaaaaaaaaaa1111')).toBe(false); // low entropy
    expect(looksRandom('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b')).toBe(true); // hex key
  });
});
