import * as http from 'node:http';
import * as path from 'node:path';
import nunjucks from 'nunjucks';
import { LOCAL_IDP_CLIENT_ID, LocalIdp } from '../../src/web/sign-in/local-idp';
import { freePort } from './browser';

export interface OidcIssuer {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on its own loopback port, standing in for an outside issuer:
 * its sign-in page takes an e-mail and vouches for it.
 */
export async function startOidcIssuer(redirectUri: string): Promise<OidcIssuer> {
  const port = await freePort();
  const views = nunjucks.configure(path.join(__dirname, '..', '..', 'src', 'web', 'views'), { autoescape: true });
  const idp = new LocalIdp(`http://127.0.0.1:${port}`, redirectUri, views);
  const server = http.createServer((req, res) => {
    void idp.handle(req, res).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuerUrl: idp.issuer,
    clientId: LOCAL_IDP_CLIENT_ID,
    clientSecret: idp.clientSecret,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
