import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config/app-config';
import { createRootLogger } from '../../src/platform/http/logger';

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

describe('structured logs', () => {
  it('never writes credentials: no headers, secret query values masked, secret fields redacted', () => {
    const { lines, stream } = capture();
    const logger = createRootLogger(loadConfig({ LOG_LEVEL: 'info' }), stream);
    const request = {
      method: 'GET',
      url: '/v1/downloads/file?token=svc_abc123&page=2',
      ip: '127.0.0.1',
      headers: { authorization: 'Bearer svc_live_secret', cookie: 'session=s3cr3t' },
    };
    logger.info({ req: request }, 'incoming request');
    logger.info({ input: { token: 'svc_plain', password: 'hunter2', secret: 'x' } }, 'payload');
    const output = lines.join('');
    expect(output).toContain('/v1/downloads/file?token=[redacted]&page=2');
    for (const secret of ['svc_abc123', 'svc_live_secret', 's3cr3t', 'svc_plain', 'hunter2'])
      expect(output).not.toContain(secret);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: 'incoming request', req: { method: 'GET' } });
  });
});
