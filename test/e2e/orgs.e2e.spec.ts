import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '../../src/event-store/event-store';
import { ProjectionWaiter } from '../../src/projections/read-your-writes';
import { IssueTokenCommand } from '../../src/modules/auth/commands/issue-token/issue-token.command';
import { SCOPES } from '../../src/modules/auth/domain/api-token';
import { ManualClock } from '../../src/platform/clock/clock';
import { Caller, callerFor, eventually, newCaller, registerUser } from '../support/accounts';
import { startTestApp, TestApp } from '../support/app';
import { FakeSmtp, invitationTokenIn, startFakeSmtp } from '../support/fake-smtp';
import { json } from '../support/http';

const WEB_URL = 'https://web.example.com';

describe('organizations: membership, roles and e-mailed invitations', () => {
  let app: TestApp;
  let smtp: FakeSmtp;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    app = await startTestApp({ clock, env: { WEB_URL, SMTP_URL: smtp.url, MAIL_FROM: 'svc <no-reply@example.com>' } });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const mailsTo = (email: string) =>
    smtp.received.filter((m) =>
      JSON.stringify(m.to ?? '')
        .toLowerCase()
        .includes(email.toLowerCase()),
    );

  /** A caller whose account has this e-mail, so it can accept invitations sent there. */
  async function callerWithEmail(email: string): Promise<Caller> {
    const userId = await registerUser(app, email, `Name of ${email}`);
    const { token } = await app.server.app.get(CommandBus).execute(new IssueTokenCommand(userId, 'test', [...SCOPES], 'admin'));
    const caller = callerFor(app, userId, token);
    await eventually(async () => (await caller.call('GET', '/v1/orgs')).status === 200);
    return caller;
  }

  async function createOrg(owner: Caller, slug = `team-${randomUUID().slice(0, 8)}`) {
    const response = await owner.call('POST', '/v1/orgs', { slug, name: 'The Team' });
    expect(response.status).toBe(201);
    return (await json(response)).org as { id: string; slug: string; name: string };
  }

  /** Invites by e-mail, reads the link out of the delivered message and accepts it. */
  async function invite(owner: Caller, slug: string, role: 'admin' | 'member'): Promise<Caller> {
    const email = `invitee-${randomUUID()}@example.com`;
    const invitee = await callerWithEmail(email);
    const response = await owner.call('POST', `/v1/orgs/${slug}/members`, { email, role });
    expect(response.status).toBe(201);
    const mail = await eventually(() => mailsTo(email)[0] ?? false);
    const accepted = await invitee.call('POST', '/v1/orgs/accept-invite', { token: invitationTokenIn(mail) });
    expect(accepted.status).toBe(200);
    return invitee;
  }

  it('creates an org whose creator is owner; slugs are unique, validated and reserved words refused', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    expect(org).toEqual({ id: expect.any(String), slug: org.slug, name: 'The Team' });

    expect((await owner.call('POST', '/v1/orgs', { slug: org.slug, name: 'Again' })).status).toBe(409);
    expect((await owner.call('POST', '/v1/orgs', { slug: 'Bad Slug', name: 'x' })).status).toBe(400);
    expect((await owner.call('POST', '/v1/orgs', { slug: 'admin', name: 'x' })).status).toBe(400);
    expect((await owner.call('POST', '/v1/orgs', { slug: 'fine-slug-x', name: '' })).status).toBe(400);

    const list = await json(await owner.call('GET', '/v1/orgs'));
    expect(list.orgs).toEqual([expect.objectContaining({ id: org.id, slug: org.slug, name: 'The Team', role: 'owner' })]);
    const detail = await json(await owner.call('GET', `/v1/orgs/${org.slug}`));
    expect(detail.org).toMatchObject({ id: org.id, myRole: 'owner' });
    expect(detail.members).toEqual([{ userId: owner.userId, role: 'owner', name: null, email: expect.any(String) }]);
  });

  it('hides an org from non-members behind 404 on every route', async () => {
    const owner = await newCaller(app);
    const outsider = await newCaller(app);
    const org = await createOrg(owner);
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/orgs/${org.slug}`],
      ['PATCH', `/v1/orgs/${org.slug}`, { name: 'Mine' }],
      ['DELETE', `/v1/orgs/${org.slug}`],
      ['POST', `/v1/orgs/${org.slug}/members`, { email: 'x@example.com', role: 'member' }],
      ['PATCH', `/v1/orgs/${org.slug}/members/${owner.userId}`, { role: 'member' }],
      ['DELETE', `/v1/orgs/${org.slug}/members/${owner.userId}`],
    ];
    for (const [method, path, body] of routes) {
      const response = await outsider.call(method, path, body);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    }
    expect((await owner.call('GET', '/v1/orgs/no-such-org')).status).toBe(404);
  });

  it('sends the invitation by SMTP with a single-use link; the invitee joins with the invited role', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const email = `Invitee-${randomUUID()}@Example.com`;
    const invitee = await callerWithEmail(email.toLowerCase());

    const response = await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'admin' });
    expect(response.status).toBe(201);
    const { invitation } = await json(response);
    expect(invitation).toEqual({ id: expect.any(String), email, role: 'admin', expiresAt: expect.any(String) });
    expect(Date.parse(invitation.expiresAt) - clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);

    const mail = await eventually(() => mailsTo(email)[0] ?? false);
    expect(mail.subject).toContain('The Team');
    expect(mail.from?.text).toContain('no-reply@example.com');
    const token = invitationTokenIn(mail);
    expect(mail.text).toContain(`${WEB_URL}/invitations/${token}`);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    // Someone else's account cannot use it.
    const stranger = await newCaller(app);
    expect((await stranger.call('POST', '/v1/orgs/accept-invite', { token })).status).toBe(403);

    expect(await json(await invitee.call('POST', '/v1/orgs/accept-invite', { token }))).toEqual({ accepted: true });
    expect((await invitee.call('POST', '/v1/orgs/accept-invite', { token })).status).toBe(404);
    expect((await invitee.call('POST', '/v1/orgs/accept-invite', { token: 'not-a-token' })).status).toBe(404);
    // Inviting a member's address again is a conflict.
    expect((await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'member' })).status).toBe(409);

    const detail = await json(await invitee.call('GET', `/v1/orgs/${org.slug}`));
    expect(detail.org.myRole).toBe('admin');
    expect(detail.members).toContainEqual({
      userId: invitee.userId,
      role: 'admin',
      name: `Name of ${email.toLowerCase()}`,
      email: email.toLowerCase(),
    });
  });

  it('refuses an expired invitation, and a re-invitation replaces the earlier one', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const email = `late-${randomUUID()}@example.com`;
    const invitee = await callerWithEmail(email);

    await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'member' });
    const first = await eventually(() => mailsTo(email)[0] ?? false);
    const firstToken = invitationTokenIn(first);
    clock.advance(7 * 24 * 3600 * 1000 + 1000);
    expect((await invitee.call('POST', '/v1/orgs/accept-invite', { token: firstToken })).status).toBe(404);

    await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'member' });
    const second = await eventually(() => mailsTo(email).length === 2 && mailsTo(email)[1]);
    const secondToken = invitationTokenIn(second);
    expect(secondToken).not.toBe(firstToken);
    await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'admin' });
    // The second one was replaced by the third.
    expect((await invitee.call('POST', '/v1/orgs/accept-invite', { token: secondToken })).status).toBe(404);
    const third = await eventually(() => mailsTo(email).length === 3 && mailsTo(email)[2]);
    expect((await invitee.call('POST', '/v1/orgs/accept-invite', { token: invitationTokenIn(third) })).status).toBe(200);
    expect((await json(await invitee.call('GET', `/v1/orgs/${org.slug}`))).org.myRole).toBe('admin');
  });

  it('keeps the invitation through a mail outage: the request succeeds and the e-mail goes out on a retry', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const email = `outage-${randomUUID()}@example.com`;
    smtp.refuseNext(1);
    expect((await owner.call('POST', `/v1/orgs/${org.slug}/members`, { email, role: 'member' })).status).toBe(201);
    const mails = await eventually(() => {
      const found = mailsTo(email);
      return found.length > 0 && found;
    });
    expect(mails).toHaveLength(1);
  });

  it('applies the role rules: owner > admin > member, and the last owner stays', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const admin = await invite(owner, org.slug, 'admin');
    const member = await invite(owner, org.slug, 'member');
    const other = await invite(owner, org.slug, 'member');
    const path = (userId: string) => `/v1/orgs/${org.slug}/members/${userId}`;

    // Members cannot manage.
    expect((await member.call('PATCH', `/v1/orgs/${org.slug}`, { name: 'x' })).status).toBe(403);
    expect((await member.call('POST', `/v1/orgs/${org.slug}/members`, { email: 'a@example.com', role: 'member' })).status).toBe(
      403,
    );
    expect((await member.call('PATCH', path(other.userId), { role: 'admin' })).status).toBe(403);
    expect((await member.call('DELETE', path(other.userId))).status).toBe(403);
    expect((await member.call('DELETE', `/v1/orgs/${org.slug}`)).status).toBe(403);

    // Admins manage members but never owners, nor their own role, nor make owners.
    const promoteToOwner = await admin.call('PATCH', path(member.userId), { role: 'owner' });
    expect(promoteToOwner.status).toBe(403);
    expect((await json(promoteToOwner)).message).toMatch(/owner/);
    expect((await admin.call('PATCH', path(owner.userId), { role: 'member' })).status).toBe(403);
    expect((await admin.call('DELETE', path(owner.userId))).status).toBe(403);
    expect((await admin.call('PATCH', path(admin.userId), { role: 'member' })).status).toBe(403);
    expect((await admin.call('DELETE', `/v1/orgs/${org.slug}`)).status).toBe(403);
    const promoted = await admin.call('PATCH', path(member.userId), { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect((await json(promoted)).member).toMatchObject({ userId: member.userId, role: 'admin' });
    expect((await admin.call('PATCH', `/v1/orgs/${org.slug}`, { name: 'Renamed' })).status).toBe(200);

    // The last owner can be neither demoted nor removed, not even by itself.
    expect((await owner.call('PATCH', path(owner.userId), { role: 'admin' })).status).toBe(403);
    expect((await owner.call('DELETE', path(owner.userId))).status).toBe(403);
    expect((await owner.call('PATCH', path(admin.userId), { role: 'owner' })).status).toBe(200);
    expect((await owner.call('PATCH', path(owner.userId), { role: 'admin' })).status).toBe(200);
    expect((await json(await owner.call('GET', `/v1/orgs/${org.slug}`))).org.myRole).toBe('admin');

    // Anyone may leave; a removed member no longer sees the org.
    expect(await json(await other.call('DELETE', path(other.userId)))).toEqual({ removed: true });
    expect((await other.call('GET', `/v1/orgs/${org.slug}`)).status).toBe(404);
    expect((await admin.call('DELETE', path(member.userId))).status).toBe(200);
    expect((await member.call('GET', `/v1/orgs/${org.slug}`)).status).toBe(404);
    expect((await owner.call('PATCH', path(randomUUID()), { role: 'member' })).status).toBe(404);
    expect((await owner.call('PATCH', path('not-a-uuid'), { role: 'member' })).status).toBe(404);
    expect((await owner.call('PATCH', path(admin.userId), { role: 'boss' })).status).toBe(400);
  });

  it('lets an owner change the profile and delete the org; the slug stays taken', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const changed = await owner.call('PATCH', `/v1/orgs/${org.slug}`, {
      name: 'New Name',
      avatarUrl: 'https://img.example.com/a.png',
    });
    expect(changed.status).toBe(200);
    expect((await json(changed)).org).toMatchObject({ name: 'New Name', avatarUrl: 'https://img.example.com/a.png' });
    expect((await owner.call('PATCH', `/v1/orgs/${org.slug}`, { avatarUrl: 'javascript:alert(1)' })).status).toBe(400);

    expect(await json(await owner.call('DELETE', `/v1/orgs/${org.slug}`))).toEqual({ deleted: true });
    expect((await owner.call('GET', `/v1/orgs/${org.slug}`)).status).toBe(404);
    expect((await json(await owner.call('GET', '/v1/orgs'))).orgs).toEqual([]);
    expect((await owner.call('POST', '/v1/orgs', { slug: org.slug, name: 'Again' })).status).toBe(409);
  });

  it('lets a deleted account leave its orgs, except as the last owner', async () => {
    const owner = await newCaller(app);
    const org = await createOrg(owner);
    const member = await invite(owner, org.slug, 'member');
    expect((await member.call('DELETE', '/v1/users/me')).status).toBe(200);
    await eventually(async () => {
      const { members } = await json(await owner.call('GET', `/v1/orgs/${org.slug}`));
      return members.every((m: { userId: string }) => m.userId !== member.userId);
    });
    expect((await owner.call('DELETE', '/v1/users/me')).status).toBe(200);
    // Once the process manager has passed the owner's deletion, the last owner is still there.
    const head = await app.server.app.get(EventStore).headPosition();
    expect(
      await app.server.app.get(ProjectionWaiter).waitForProcessors(['org-membership-on-account-deletion'], head!, 20_000),
    ).toBe(true);
    const rows = await app.server.app
      .get(DataSource)
      .query('SELECT role FROM org_members WHERE org_id = $1 AND user_id = $2', [org.id, owner.userId]);
    expect(rows).toEqual([{ role: 'owner' }]);
  });
});
