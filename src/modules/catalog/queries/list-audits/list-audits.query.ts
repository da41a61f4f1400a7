import { Query } from '@nestjs/cqrs';
import { ScanOutcome, ScanStatus } from '../../domain/listing.decider';

export const AUDITS_MAX_OFFSET = 10_000;

export type PromptGuardReport = ScanOutcome['promptGuard'];

export interface AuditItem {
  rank: number;
  vendor: string;
  slug: string;
  title: string;
  type: string;
  vendorVerified: boolean;
  svcRating: number;
  installCount: number;
  scan: { status: ScanStatus; label: string; qualityScore: number; version: string; scannedAt: string | null };
  promptGuard: PromptGuardReport;
}

export interface AuditPage {
  audits: AuditItem[];
  total: number;
  generatedAt: string;
}

/** One page of the security audits; omitted fields take their defaults (every type and status, 20 from 0). */
export class ListAuditsQuery extends Query<AuditPage> {
  constructor(readonly params: { type?: string; status?: ScanStatus; limit?: number; offset?: number }) {
    super();
  }
}
