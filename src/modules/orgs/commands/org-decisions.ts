import { Injectable } from '@nestjs/common';
import { EventStore } from '../../../event-store/event-store';
import { decideOnStream, foldStream } from '../../../event-store/fold-stream';
import { OrgCommand, orgDecider, OrgEvent, OrgState, orgStreamId } from '../domain/org.decider';

/** Fold, decide and append on one org's stream, deciding again after a lost race. */
@Injectable()
export class OrgDecisions {
  constructor(private readonly store: EventStore) {}

  decide(orgId: string, command: OrgCommand): Promise<{ events: OrgEvent[]; state: OrgState }> {
    return decideOnStream(this.store, orgStreamId(orgId), orgDecider, command);
  }

  async fold(orgId: string): Promise<OrgState> {
    return (await foldStream<OrgState, OrgEvent>(this.store, orgStreamId(orgId), orgDecider.evolve, orgDecider.initialState))
      .state;
  }
}
