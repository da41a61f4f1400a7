import { createHash } from 'node:crypto';
import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { DomainError } from '../../../platform/errors/domain-error';
import { DeviceCodesReader } from '../read-models/device-codes.reader';
import {
  DeviceCodeEvent,
  DeviceCodeState,
  evolveDeviceCode,
  initialDeviceCodeState,
  normalizeUserCode,
} from './device-code.decider';

/** The device code is a bearer secret: its stream is named by its hash. */
export function deviceStreamId(deviceCode: string): string {
  return `device-${createHash('sha256').update(deviceCode).digest('hex')}`;
}

export function loadDeviceCode(store: EventStore, streamId: string): Promise<{ state: DeviceCodeState; revision: number }> {
  return foldStream<DeviceCodeState, DeviceCodeEvent>(store, streamId, evolveDeviceCode, initialDeviceCodeState);
}

/** The device stream a typed user code names (case and dashes do not matter): 400 when malformed, 404 when unknown. */
export async function streamForTypedUserCode(deviceCodes: DeviceCodesReader, typed: string): Promise<string> {
  const userCode = normalizeUserCode(typed);
  if (!userCode) throw new DomainError('invalid', 'userCode must be 8 letters and digits, as shown by the CLI (e.g. BCDF-GHJK)');
  const streamId = await deviceCodes.streamForUserCode(userCode);
  if (!streamId) throw new DomainError('not_found', 'Unknown user code');
  return streamId;
}
