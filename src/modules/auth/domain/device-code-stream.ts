import { createHash } from 'node:crypto';
import { EventStore } from '../../../event-store/event-store';
import { DeviceCodeEvent, DeviceCodeState, evolveDeviceCode, initialDeviceCodeState } from './device-code.decider';

/** The device code is a bearer secret: its stream is named by its hash. */
export function deviceStreamId(deviceCode: string): string {
  return `device-${createHash('sha256').update(deviceCode).digest('hex')}`;
}

export async function loadDeviceCode(store: EventStore, streamId: string): Promise<{ state: DeviceCodeState; revision: number }> {
  const history = await store.readStream(streamId);
  return {
    state: history.map((e) => e as unknown as DeviceCodeEvent).reduce(evolveDeviceCode, initialDeviceCodeState),
    revision: history.length - 1,
  };
}
