import { describe, expect, it } from 'vitest';
import type { AuthClient } from 'google-auth-library';
import { checkToken, resolveGoogleAccess } from '../src/data/google-auth.js';
import { chunkTexts } from '../src/data/translation-client.js';
import { sameLanguage, translationPlan } from '../src/domain/translate.js';

const clientWhoseTokenFails = (err: unknown) => ({ getAccessToken: () => Promise.reject(err) }) as unknown as AuthClient;

describe('Google credentials', () => {
  it('turns Cloud AI off, naming the file, when the key file cannot be used', async () => {
    const access = await resolveGoogleAccess('/nowhere/frametext-key.json');
    expect(access.on).toBe(false);
    expect(!access.on && access.reason).toMatch(/GOOGLE_APPLICATION_CREDENTIALS \(\/nowhere\/frametext-key\.json\) cannot be used/);
  });

  it('turns Cloud AI off when Google refuses the key, but stays on (with a warning) when Google cannot be reached', async () => {
    const refused = await checkToken(clientWhoseTokenFails(Object.assign(new Error('invalid_grant: Invalid JWT Signature.'), { status: 400 })));
    expect(refused).toEqual({ on: false, reason: "Google refused this server's credentials: invalid_grant: Invalid JWT Signature." });
    const unreachable = await checkToken(clientWhoseTokenFails(Object.assign(new Error('getaddrinfo EAI_AGAIN oauth2.googleapis.com'), { code: 'EAI_AGAIN' })));
    expect(unreachable).toMatchObject({ on: true, warning: expect.stringMatching(/EAI_AGAIN/) });
  });
});

describe('translation plan', () => {
  const req = (mediaContent: 'captions' | 'numerical', originalLanguage: string | null, targetLanguage: string | null) => ({ mediaContent, originalLanguage, targetLanguage });
  it('translates captions only, to a target that is set and differs from the original (Auto detects)', () => {
    expect(translationPlan(req('captions', 'fr', 'en'))).toEqual({ target: 'en', source: 'fr' });
    expect(translationPlan(req('captions', null, 'en'))).toEqual({ target: 'en', source: null });
    expect(translationPlan(req('captions', 'fr', null))).toBeNull();
    expect(translationPlan(req('captions', 'en-GB', 'en'))).toBeNull();
    expect(translationPlan(req('captions', 'zh-CN', 'zh-TW'))).toEqual({ target: 'zh-TW', source: 'zh-CN' });
    expect(translationPlan(req('numerical', 'fr', 'en'))).toBeNull();
    expect(sameLanguage('zh', 'zh-CN')).toBe(true);
  });

  it('cuts texts into requests of at most 128 texts and 25 000 characters, in order', () => {
    const many = Array.from({ length: 300 }, (_, i) => `t${i}`);
    expect(chunkTexts(many).map((c) => c.length)).toEqual([128, 128, 44]);
    expect(chunkTexts(['a'.repeat(20_000), 'b'.repeat(10_000), 'c']).map((c) => c.map((t) => t[0]))).toEqual([['a'], ['b', 'c']]);
  });
});
