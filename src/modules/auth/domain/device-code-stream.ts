import { createHash } from 'node:crypto';
import { EventStore } from '../../../event-store/event-store';
import { foldStream } from '../../../event-store/fold-stream';
import { DeviceCodeEvent, DeviceCodeState, evolveDeviceCode, initialDeviceCodeState } from './device-code.decider';

/** The device code is a bearer secret: its stream is named by its hash. */
export function deviceStreamId(deviceCode: string): string {
  return `device-${createHash('sha256').update(deviceCode).digest('hex')}`;
}

export function loadDeviceCode(store: EventStore, streamId: string): Promise<{ state: DeviceCodeState; revision: number }> {
  return foldStream<DeviceCodeState, DeviceCodeEvent>(store, streamId, evolveDeviceCode, initialDeviceCodeState);
}
