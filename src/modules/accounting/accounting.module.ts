import { Module } from '@nestjs/common';
import { JournalProjection } from './read-models/journal.projection';

const projections = [JournalProjection];

/** The books: the chart of accounts and the double-entry journal posted from the log. */
@Module({ providers: [...projections] })
export class AccountingModule {}
