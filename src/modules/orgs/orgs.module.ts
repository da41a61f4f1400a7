import { Module } from '@nestjs/common';
import { WalletModule } from '../wallet/wallet.module';
import { AcceptInvitationHandler } from './commands/accept-invitation/accept-invitation.handler';
import { ChangeMemberRoleHandler } from './commands/change-member-role/change-member-role.handler';
import { ChangeOrgProfileHandler } from './commands/change-org-profile/change-org-profile.handler';
import { CreateOrgHandler } from './commands/create-org/create-org.handler';
import { DeleteOrgHandler } from './commands/delete-org/delete-org.handler';
import { InviteMemberHandler } from './commands/invite-member/invite-member.handler';
import { OrgDecisions } from './commands/org-decisions';
import { RemoveMemberHandler } from './commands/remove-member/remove-member.handler';
import { InvitationTokens } from './domain/invitation-tokens';
import { OrgPoliciesController } from './http/org-policies.controller';
import { OrgBillingController } from './http/org-billing.controller';
import { OrgWalletController } from './http/org-wallet.controller';
import { OrgsController } from './http/orgs.controller';
import { OrgsProjection } from './read-models/orgs.projection';
import { OrgsReader } from './read-models/orgs.reader';
import './events'; // declares the module's event types before anything appends them

const controllers = [OrgsController, OrgWalletController, OrgPoliciesController, OrgBillingController];
const commandHandlers = [
  CreateOrgHandler,
  ChangeOrgProfileHandler,
  DeleteOrgHandler,
  InviteMemberHandler,
  AcceptInvitationHandler,
  ChangeMemberRoleHandler,
  RemoveMemberHandler,
];
const projections = [OrgsProjection];
/** Exported: the mail process derives tokens and folds orgs; org wallets, purchases and packages check membership. */
const services = [OrgDecisions, OrgsReader, InvitationTokens];

/** Organizations: members and roles, e-mailed invitations, the org wallet and policies. */
@Module({
  imports: [WalletModule],
  controllers,
  providers: [...commandHandlers, ...projections, ...services],
  exports: services,
})
export class OrgsModule {}
