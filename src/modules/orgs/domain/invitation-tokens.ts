import { createHash, createHmac, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { secretUnder } from '../../../platform/secrets/generated-secret';

/**
 * Invitation tokens: 256 bits, HMAC-SHA256(INVITATION_SECRET, invitationId).
 * The invitation id is random, so the token is as unguessable as 256 random
 * bits to anyone without the secret. Deriving it, rather than drawing it and
 * storing it, keeps the raw token out of the log, the read models and the job
 * queue: only its hash is stored, and the mail process derives it again when
 * it sends (or re-sends after a crash) the e-mail, its one appearance.
 */
@Injectable()
export class InvitationTokens {
  private readonly secret: string;

  constructor(@InjectConfig() config: AppConfig) {
    this.secret =
      config.mail.invitationSecret ??
      secretUnder(path.resolve(config.dataDir), 'invitation-token.key', () => randomBytes(32).toString('base64url'));
  }

  tokenFor(invitationId: string): string {
    return createHmac('sha256', this.secret).update(invitationId).digest('base64url');
  }
}

/** What is stored and looked up: the token's SHA-256, hex. */
export const invitationTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
