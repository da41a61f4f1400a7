import { generateApiToken, hashApiToken, isWellFormedApiToken } from '../../../src/modules/auth/domain/api-token';

describe('API token format', () => {
  it('is svc_ plus 160 random bits and a checksum, and recognises itself', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^svc_[0-9A-Za-z]{34}$/);
    expect(isWellFormedApiToken(token)).toBe(true);
    expect(generateApiToken()).not.toBe(token);
  });

  it('keeps its length when the random part starts with zero bits', () => {
    const token = generateApiToken((size) => Buffer.alloc(size, 0));
    expect(token).toMatch(/^svc_0{28}[0-9A-Za-z]{6}$/);
    expect(isWellFormedApiToken(token)).toBe(true);
  });

  it('refuses a mistyped token by its checksum alone', () => {
    const token = generateApiToken();
    const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedApiToken(typo)).toBe(false);
    expect(isWellFormedApiToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedApiToken(`xyz_${token.slice(4)}`)).toBe(false);
    expect(isWellFormedApiToken('')).toBe(false);
  });

  it('is stored only as a SHA-256 hash', () => {
    const token = generateApiToken();
    expect(hashApiToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken(token)).toBe(hashApiToken(token));
    expect(hashApiToken(token)).not.toContain(token.slice(4));
  });
});
