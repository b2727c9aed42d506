import {
  bearerCredentials,
  issueServiceToken,
  SERVICE_TOKEN,
  tokenDigest,
} from './service-token.js';

describe('service tokens', () => {
  it('Given a new token, Then it has its id in it, the shape the API checks, and a digest of the whole token', () => {
    const issued = issueServiceToken();
    expect(issued.token).toMatch(SERVICE_TOKEN);
    expect(SERVICE_TOKEN.exec(issued.token)![1]).toBe(issued.tokenId);
    expect(issued.digest.equals(tokenDigest(issued.token))).toBe(true);
    expect(issueServiceToken().token).not.toBe(issued.token);
  });

  it('Given Authorization headers, Then only a Bearer service token is taken, whatever the scheme’s case', () => {
    const { token } = issueServiceToken();
    expect(bearerCredentials(`Bearer ${token}`)).toEqual({ ok: true, token });
    expect(bearerCredentials(`bearer  ${token}`)).toEqual({ ok: true, token });
    for (const header of [
      undefined,
      '',
      `Basic ${token}`,
      'Bearer',
      `Bearer ${token}x`,
      `Bearer ${token} extra`,
    ])
      expect(bearerCredentials(header).ok).toBe(false);
  });
});
