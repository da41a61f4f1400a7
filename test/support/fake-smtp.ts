import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface FakeSmtp {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  received: ParsedMail[];
  /** The next `n` messages are refused with a temporary failure (451), as during an outage. */
  refuseNext(n: number): void;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (the `smtp-server` package); messages are parsed with `mailparser`. */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusals > 0) {
        refusals--;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext(n) {
      refusals = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The invitation token in a delivered message's link `{web_url}/invitations/<token>`. */
export function invitationTokenIn(mail: ParsedMail): string {
  const match = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  if (!match) throw new Error(`no invitation link in: ${mail.text}`);
  return match[1];
}
