import * as path from 'node:path';
import { Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { FileMailer, Mailer, SmtpMailer } from './mailer';

/** The mailer chosen by configuration: SMTP when SMTP_URL is set, otherwise .eml files under DATA_DIR/mail. */
@Module({
  providers: [
    {
      provide: Mailer,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Mailer =>
        config.mail.smtpUrl
          ? new SmtpMailer(config.mail.smtpUrl, config.mail.from)
          : new FileMailer(path.join(config.dataDir, 'mail'), config.mail.from),
    },
  ],
  exports: [Mailer],
})
export class MailModule implements OnApplicationShutdown {
  constructor(private readonly mailer: Mailer) {}

  onApplicationShutdown(): void {
    this.mailer.close();
  }
}
