import { Module } from '@nestjs/common';
import { AutoTopUpProcess } from './auto-top-up/auto-top-up.process';
import { AutoTopUpSaga } from './auto-top-up/auto-top-up.saga';
import { CardPurchaseSaga } from './card-purchase/card-purchase.saga';
import { ConnectedAccountSaga } from './connected-account/connected-account.saga';
import { EventBusRelay } from './event-bus-relay.saga';
import { OrgsModule } from '../modules/orgs/orgs.module';
import { MailModule } from '../platform/mail/mail.module';
import { OrgInvitationMailProcess } from './org-invitation-mail/org-invitation-mail.process';
import { OrgInvitationMailSaga } from './org-invitation-mail/org-invitation-mail.saga';
import { ServiceCallSaga } from './service-call/service-call.saga';
import { ServiceProbeSaga } from './service-probe/service-probe.saga';
import { OrgMembershipOnAccountDeletion } from './org-membership-on-account-deletion/org-membership-on-account-deletion.saga';
import { ReleaseScanSaga } from './release-scan/release-scan.saga';
import { SavedPaymentMethodSaga } from './saved-payment-method/saved-payment-method.saga';
import { TopUpSaga } from './top-up/top-up.saga';
import { UserDeletionSaga } from './user-deletion/user-deletion.saga';

const sagas = [
  EventBusRelay,
  UserDeletionSaga,
  ReleaseScanSaga,
  TopUpSaga,
  SavedPaymentMethodSaga,
  AutoTopUpSaga,
  CardPurchaseSaga,
  ConnectedAccountSaga,
  OrgInvitationMailSaga,
  ServiceCallSaga,
  ServiceProbeSaga,
  OrgMembershipOnAccountDeletion,
];
/** The jobs some sagas queue, run step by step. */
const processes = [AutoTopUpProcess, OrgInvitationMailProcess];

/**
 * Process managers that drive multi-step work from the log: each reacts to
 * events with idempotent commands and jobs. CommandBus and Queues come from global modules.
 */
@Module({ imports: [OrgsModule, MailModule], providers: [...sagas, ...processes] })
export class SagasModule {}
