import { givenAppCredentials, readSettings, requireSettings } from '../../../src/config/env.js';

const PEM =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\n';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('givenAppCredentials', () => {
  it('is empty only when no app credential at all is set (setup mode)', () => {
    expect(givenAppCredentials(readSettings({}))).toEqual([]);
    expect(givenAppCredentials(readSettings({ APP_ID: '' }))).toEqual([]);
  });

  it('names each credential that is set', () => {
    expect(givenAppCredentials(readSettings({ APP_ID: '1' }))).toEqual(['APP_ID']);
    expect(givenAppCredentials(readSettings({ WEBHOOK_SECRET: 's' }))).toEqual(['WEBHOOK_SECRET']);
    expect(givenAppCredentials(readSettings({ APP_ID: '1', PRIVATE_KEY: PEM }))).toEqual([
      'APP_ID',
      'PRIVATE_KEY',
    ]);
  });
});

describe('requireSettings messages', () => {
  it('a missing WEBHOOK_SECRET names WEBHOOK_SECRET and says nothing of OPENAI_API_KEY', () => {
    const settings = readSettings({ APP_ID: '1', PRIVATE_KEY: PEM });
    const message = messageOf(() => requireSettings(settings, 'github'));
    expect(message).toBe('Missing environment: set WEBHOOK_SECRET.');
  });

  it('a missing LLM key still explains the local-server exception', () => {
    const message = messageOf(() => requireSettings(readSettings({}), 'llm'));
    expect(message).toContain('set OPENAI_API_KEY');
    expect(message).toContain('OPENAI_BASE_URL');
  });
});
