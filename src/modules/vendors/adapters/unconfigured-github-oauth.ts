import { DomainError } from '../../../platform/errors/domain-error';
import { GithubOAuth } from '../domain/ports';

const NOT_CONFIGURED = 'GitHub verification is not configured: set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET';

/** Without OAuth credentials every GitHub step is a 503 naming the variables to set; re-checks skip. */
export class UnconfiguredGithubOAuth extends GithubOAuth {
  authorizationUrl(): string {
    throw notConfigured();
  }

  exchangeCode(): Promise<string> {
    return Promise.reject(notConfigured());
  }

  login(): Promise<string> {
    return Promise.reject(notConfigured());
  }

  orgRole(): Promise<null> {
    return Promise.reject(notConfigured());
  }
}

const notConfigured = () => new DomainError('unavailable', NOT_CONFIGURED);
