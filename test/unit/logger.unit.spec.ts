import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/app-config';
import { chooseLogFormat, createRootLogger } from '../../src/platform/http/logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

const request = {
  method: 'GET',
  url: '/v1/downloads/file?token=svc_abc123&page=2',
  ip: '127.0.0.1',
  headers: { authorization: 'Bearer svc_live_secret', cookie: 'session=s3cr3t' },
};
const SECRETS = ['svc_abc123', 'svc_live_secret', 's3cr3t', 'svc_plain', 'hunter2'];

describe('structured logs', () => {
  it('never writes credentials: no headers, secret query values masked, secret fields redacted', () => {
    const { lines, stream } = capture();
    const logger = createRootLogger(loadConfig({ LOG_LEVEL: 'info' }), stream);
    logger.info({ req: request }, 'incoming request');
    logger.info({ input: { token: 'svc_plain', password: 'hunter2', secret: 'x' } }, 'payload');
    const output = lines.join('');
    expect(output).toContain('/v1/downloads/file?token=[redacted]&page=2');
    for (const secret of SECRETS) expect(output).not.toContain(secret);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: 'incoming request', req: { method: 'GET' } });
  });

  it('writes human-readable lines when pretty, with the same redaction', async () => {
    const { lines, stream } = capture();
    const logger = createRootLogger(loadConfig({ LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' }), stream);
    logger.info({ req: request }, 'incoming request');
    logger.info({ input: { token: 'svc_plain', password: 'hunter2', secret: 'x' } }, 'payload');
    // pino-pretty formats on a stream pipeline, a few ticks later.
    for (let tick = 0; tick < 100 && !lines.join('').includes('payload'); tick++) await new Promise(setImmediate);
    const output = lines.join('');
    expect(output).toMatch(/INFO.*incoming request/);
    expect(output).toContain('/v1/downloads/file?token=[redacted]&page=2');
    expect(() => JSON.parse(lines[0])).toThrow();
    for (const secret of SECRETS) expect(output).not.toContain(secret);
  });
});

describe('log format', () => {
  it.each([
    ['development', true, 'auto', 'pretty'],
    ['development', false, 'auto', 'json'],
    ['production', true, 'auto', 'json'],
    ['production', false, 'auto', 'json'],
    ['test', true, 'auto', 'json'],
    ['development', true, 'json', 'json'],
    ['production', false, 'pretty', 'pretty'],
  ] as const)('NODE_ENV=%s, stdout a terminal: %s, LOG_FORMAT=%s -> %s', (nodeEnv, isTTY, override, format) => {
    expect(chooseLogFormat(nodeEnv, isTTY, override)).toBe(format);
  });
});
