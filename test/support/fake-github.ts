import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';

export type FakeGithubRole = 'admin' | 'member';

/** GitHub's OAuth web flow and the two REST endpoints verification uses, served on loopback. */
export interface FakeGithub {
  /** Base URL for both GITHUB_OAUTH_URL and GITHUB_API_URL. */
  url: string;
  /** Plays the user approving the authorize page; returns the one-time code GitHub would redirect with. */
  authorize(login: string, memberships: Record<string, FakeGithubRole>): string;
  setMemberships(login: string, memberships: Record<string, FakeGithubRole>): void;
  /** As if the user revoked the app: every token issued to them stops working. */
  revokeTokensOf(login: string): void;
  /**
   * Plays a browser signed in to GitHub as `login` who approves any authorize page: it redirects to
   * `redirect_uri` with a code and the `state`. `emails` is what `GET /user/emails` answers.
   */
  signInBrowserAs(login: string, emails: { email: string; primary: boolean; verified: boolean }[]): void;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

interface FakeUser {
  id: number;
  login: string;
  memberships: Record<string, FakeGithubRole>;
  emails?: { email: string; primary: boolean; verified: boolean }[];
}

export async function startFakeGithub(options: { clientId: string; clientSecret: string }): Promise<FakeGithub> {
  const users = new Map<string, FakeUser>();
  const codes = new Map<string, string>(); // code -> login
  const tokens = new Map<string, string>(); // token -> login
  const requests: { method: string; path: string }[] = [];
  let browserLogin: string | undefined;

  const userFor = (login: string, memberships?: Record<string, FakeGithubRole>): FakeUser => {
    let user = users.get(login);
    if (!user) {
      user = { id: users.size + 1000, login, memberships: {} };
      users.set(login, user);
    }
    if (memberships) user.memberships = { ...memberships };
    return user;
  };

  const bearer = (req: http.IncomingMessage): FakeUser | undefined => {
    const match = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? '');
    const login = match ? tokens.get(match[1]) : undefined;
    return login ? users.get(login) : undefined;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-github');
    requests.push({ method: req.method ?? '', path: url.pathname });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };

    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirect = url.searchParams.get('redirect_uri');
      if (browserLogin && redirect) {
        const code = randomBytes(10).toString('hex');
        codes.set(code, browserLogin);
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(302, { Location: back.toString() });
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Authorize application</title><button>Authorize</button>');
      return;
    }

    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      void readBody(req).then((raw) => {
        const params = { ...Object.fromEntries(url.searchParams), ...parseBody(raw, req.headers['content-type']) };
        // Like GitHub: 200 in every case, errors in the body, JSON only when asked for.
        const reply = (body: Record<string, string>) => {
          if (/json/.test(req.headers.accept ?? '')) return send(200, body);
          res.writeHead(200, { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' });
          res.end(new URLSearchParams(body).toString());
        };
        if (params.client_id !== options.clientId || params.client_secret !== options.clientSecret) {
          return reply({
            error: 'incorrect_client_credentials',
            error_description: 'The client_id and/or client_secret passed are incorrect.',
          });
        }
        const login = codes.get(params.code ?? '');
        if (!login) {
          return reply({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        }
        codes.delete(params.code);
        const token = `gho_${randomBytes(18).toString('hex')}`;
        tokens.set(token, login);
        return reply({ access_token: token, token_type: 'bearer', scope: 'read:org' });
      });
      return;
    }

    if (req.method === 'GET' && url.pathname === '/user') {
      const user = bearer(req);
      if (!user) return send(401, { message: 'Bad credentials' });
      return send(200, { login: user.login, id: user.id });
    }

    if (req.method === 'GET' && url.pathname === '/user/emails') {
      const user = bearer(req);
      if (!user) return send(401, { message: 'Bad credentials' });
      return send(200, user.emails ?? []);
    }

    const membership = /^\/user\/memberships\/orgs\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && membership) {
      const user = bearer(req);
      if (!user) return send(401, { message: 'Bad credentials' });
      const org = decodeURIComponent(membership[1]);
      // Org logins are case-insensitive on GitHub.
      const entry = Object.entries(user.memberships).find(([name]) => name.toLowerCase() === org.toLowerCase());
      if (!entry) return send(404, { message: 'Not Found' });
      return send(200, { state: 'active', role: entry[1], organization: { login: entry[0] }, user: { login: user.login } });
    }

    send(404, { message: 'Not Found' });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    authorize: (login, memberships) => {
      userFor(login, memberships);
      const code = randomBytes(10).toString('hex');
      codes.set(code, login);
      return code;
    },
    setMemberships: (login, memberships) => void userFor(login, memberships),
    signInBrowserAs: (login, emails) => {
      userFor(login).emails = emails;
      browserLogin = login;
    },
    revokeTokensOf: (login) => {
      for (const [token, owner] of tokens) if (owner === login) tokens.delete(token);
    },
    requests,
    close: async () => {
      server.closeAllConnections(); // fetch keeps connections alive
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string, contentType: string | undefined): Record<string, string> {
  if (!raw) return {};
  if (/json/.test(contentType ?? '')) {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}
