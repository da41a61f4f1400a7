import { createServer } from 'node:net';
import { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Caller, eventually, newCaller } from '../support/accounts';
import { startTestApp } from '../support/app';
import { createTestDatabase } from '../support/database';
import { invitationTokenIn, startFakeSmtp } from '../support/fake-smtp';
import { json } from '../support/http';
import { FileMailer } from '../../src/platform/mail/mailer';

/** A port nothing listens on: SMTP is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the invitation mail process, killed halfway', () => {
  it('sends the invitation once the server that stored it died before mailing and another one runs', async () => {
    const db = await createTestDatabase();
    const smtp = await startFakeSmtp();
    try {
      // The first server stores the invitation while mail is down, then dies with the e-mail unsent.
      const first = await startTestApp({ db, env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
      let owner: Caller;
      let slug: string;
      const email = `halfway-${randomUUID()}@example.com`;
      try {
        owner = await newCaller(first);
        slug = `team-${randomUUID().slice(0, 8)}`;
        expect((await owner.call('POST', '/v1/orgs', { slug, name: 'Halfway' })).status).toBe(201);
        expect((await owner.call('POST', `/v1/orgs/${slug}/members`, { email, role: 'member' })).status).toBe(201);
      } finally {
        await first.close();
      }
      expect(smtp.received).toHaveLength(0);

      // A new server on the same database and a working SMTP server finishes the job: one e-mail.
      const second = await startTestApp({ db, env: { SMTP_URL: smtp.url } });
      try {
        const mail = await eventually(() => smtp.received[0] ?? false, { timeoutMs: 30_000 });
        expect(JSON.stringify(mail.to)).toContain(email);
        expect(invitationTokenIn(mail)).toMatch(/^[A-Za-z0-9_-]{43}$/);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(smtp.received).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await smtp.close();
      await db.drop();
    }
  });

  it('writes each message as an .eml file when no SMTP server is configured', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'svc-mail-'));
    try {
      const mailer = new FileMailer(dir, 'svc <no-reply@localhost>');
      await mailer.send({ to: 'a@example.com', subject: 'Hello', text: 'Body text', messageId: '<m-1@localhost>' });
      mailer.close();
      const files = await readdir(dir);
      expect(files).toEqual(['m-1@localhost.eml']);
      const eml = await readFile(path.join(dir, files[0]), 'utf8');
      expect(eml).toMatch(/^To: a@example.com$/m);
      expect(eml).toMatch(/^Subject: Hello$/m);
      expect(eml).toContain('Body text');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
