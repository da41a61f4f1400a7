import { NetworkEvents } from '../events';

export const probesStreamId = (listingId: string): string => `service-probes-${listingId}`;

export type ServiceProbed = {
  type: typeof NetworkEvents.ServiceProbed;
  data: {
    listingId: string;
    /** `ok` when the service answered its tool list; `error` otherwise. */
    status: 'ok' | 'error';
    responseMs: number;
    toolsCount: number;
    /** The tools the service itself listed (never the vendor's word). */
    toolNames: string[];
    error: string | null;
    checkedAt: string;
  };
};

export type ServiceStatus = 'active' | 'degraded' | 'inactive';

/**
 * From the latest probes, newest first: `inactive` after three failures in a
 * row, `degraded` when the last was slow or one of the last three failed,
 * `active` when the last succeeded; a service never probed counts as active.
 */
export function serviceStatusOf(latest: { ok: boolean; responseMs: number }[], degradedMs: number): ServiceStatus {
  const lastThree = latest.slice(0, 3);
  if (lastThree.length === 3 && lastThree.every((p) => !p.ok)) return 'inactive';
  if (lastThree.length === 0) return 'active';
  if (lastThree.some((p) => !p.ok) || lastThree[0].responseMs > degradedMs) return 'degraded';
  return 'active';
}
