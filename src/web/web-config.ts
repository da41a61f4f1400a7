import { ConfigError, EnvReader } from '../config/app-config';

export interface OidcProviderConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface WebConfig {
  /** A web session unused this long is over. */
  sessionIdleMinutes: number;
  /** Sign-in through any OpenID Connect issuer; unset: not offered. */
  oidc: OidcProviderConfig | undefined;
  /** Sign-in through GitHub, with the OAuth app vendor verification uses (`GITHUB_CLIENT_ID`/`SECRET`). */
  githubSignIn: boolean;
  /**
   * A real OpenID provider served by this process at `/local-idp`, whose sign-in form takes an e-mail:
   * on by default when no other provider is configured, and refused in production.
   */
  localIdp: boolean;
}

export function loadWebConfig(
  read: EnvReader,
  nodeEnv: 'development' | 'production' | 'test',
  github: { clientId: string | undefined },
): WebConfig {
  const issuerUrl = read.optionalUrl('OIDC_ISSUER_URL', ['http:', 'https:']);
  const clientId = read.optional('OIDC_CLIENT_ID');
  const clientSecret = read.optional('OIDC_CLIENT_SECRET');
  if (issuerUrl && !clientId) throw new ConfigError('OIDC_CLIENT_ID', 'is required when OIDC_ISSUER_URL is set');
  if (issuerUrl && !clientSecret) throw new ConfigError('OIDC_CLIENT_SECRET', 'is required when OIDC_ISSUER_URL is set');
  if (!issuerUrl && clientId) throw new ConfigError('OIDC_ISSUER_URL', 'is required when OIDC_CLIENT_ID is set');
  const oidc = issuerUrl && clientId && clientSecret ? { issuerUrl, clientId, clientSecret } : undefined;
  const githubSignIn = Boolean(github.clientId);
  const localIdp = read.boolean('WEB_LOCAL_IDP', !oidc && !githubSignIn && nodeEnv !== 'production');
  if (localIdp && nodeEnv === 'production') {
    throw new ConfigError(
      'WEB_LOCAL_IDP',
      'must be false when NODE_ENV=production (its sign-in form trusts any e-mail typed in)',
    );
  }
  return {
    sessionIdleMinutes: read.integer('WEB_SESSION_IDLE_MINUTES', 120, { min: 1, max: 60 * 24 * 30 }),
    oidc,
    githubSignIn,
    localIdp,
  };
}
