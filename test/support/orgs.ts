import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AcceptInvitationCommand } from '../../src/modules/orgs/commands/accept-invitation/accept-invitation.command';
import { InvitationTokens } from '../../src/modules/orgs/domain/invitation-tokens';
import { Caller, eventually } from './accounts';
import { TestApp } from './app';
import { json } from './http';
import { settleSandboxIntent } from './wallet';

/** Creates an org owned by `owner`; answers its slug and id. */
export async function createOrg(owner: Caller, slug = `team-${randomUUID().slice(0, 8)}`): Promise<{ id: string; slug: string }> {
  const response = await owner.call('POST', '/v1/orgs', { slug, name: 'The Team' });
  if (response.status !== 201) throw new Error(`creating the org answered ${response.status}`);
  return (await json(response)).org;
}

/**
 * Adds `member` with `role` the way an invitee joins, without reading the e-mail
 * (the invitation e-mail itself is tested in orgs.e2e): the token is derived as
 * the mail process derives it.
 */
export async function addMember(
  app: TestApp,
  owner: Caller,
  slug: string,
  member: Caller,
  role: 'admin' | 'member',
): Promise<void> {
  const [{ email }] = await app.server.app.get(DataSource).query('SELECT email FROM users WHERE id = $1', [member.userId]);
  const response = await owner.call('POST', `/v1/orgs/${slug}/members`, { email, role });
  if (response.status !== 201) throw new Error(`inviting answered ${response.status}`);
  const { invitation } = await json(response);
  const token = app.server.app.get(InvitationTokens).tokenFor(invitation.id);
  await app.server.app.get(CommandBus).execute(new AcceptInvitationCommand(member.userId, token));
  await eventually(async () => (await member.call('GET', `/v1/orgs/${slug}`)).status === 200);
}

/** Tops the org wallet up through the sandbox (as its admin or owner) and waits until the balance shows it. */
export async function fundOrgWallet(app: TestApp, admin: Caller, slug: string, amountCents: number): Promise<void> {
  const before = (await json(await admin.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents as number;
  const answer = await admin.call('POST', `/v1/orgs/${slug}/wallet/top-up`, { amountCents });
  if (answer.status !== 200) throw new Error(`org top-up answered ${answer.status}`);
  await settleSandboxIntent(app, (await json(answer)).clientSecret.split('_secret_')[0]);
  await eventually(
    async () => (await json(await admin.call('GET', `/v1/orgs/${slug}/wallet`))).balanceCents === before + amountCents,
    { description: `an org top-up of ${amountCents} cents to be credited` },
  );
}
