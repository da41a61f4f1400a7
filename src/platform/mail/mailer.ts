import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * A stable Message-ID (`<id@host>`): a message sent twice after a crash carries the same one,
   * so a receiving system can drop the copy.
   */
  messageId: string;
}

/** Outbound e-mail: the port. */
export abstract class Mailer {
  /** Resolves once the message was handed over; rejects when it was not (the caller retries). */
  abstract send(message: MailMessage): Promise<void>;
  abstract close(): void;
}

/** SMTP through nodemailer (`SMTP_URL`). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    this.transport = createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * The zero-configuration default: each message is composed as SMTP would send
 * it and written to `<dir>/<message id>.eml`, and where is logged (never the
 * body: an invitation link is a secret).
 */
export class FileMailer extends Mailer {
  private readonly logger = new Logger('Mail');
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.composer.sendMail({ from: this.from, ...message });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${message.messageId.replace(/[^A-Za-z0-9.@-]/g, '')}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    this.logger.log(`no SMTP_URL: wrote the message "${message.subject}" to ${file}`);
  }

  close(): void {
    this.composer.close();
  }
}
