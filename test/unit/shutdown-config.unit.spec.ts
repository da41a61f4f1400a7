import { ConfigError, loadConfig } from '../../src/config/app-config';

describe('SHUTDOWN_TIMEOUT_MS', () => {
  it('defaults to 10 s and reads a value in milliseconds', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '25000' }).shutdownTimeoutMs).toBe(25_000);
  });

  it.each([
    ['soon', 'must be a non-negative integer, got "soon"'],
    ['-1', 'must be a non-negative integer, got "-1"'],
    ['99', 'must be at least 100'],
    ['3600001', 'must be at most 3600000'],
  ])('refuses %s, naming the variable', (value, problem) => {
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: value })).toThrow(new ConfigError('SHUTDOWN_TIMEOUT_MS', problem));
  });
});
