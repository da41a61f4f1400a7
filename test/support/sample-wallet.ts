import { Decider } from '../../src/event-store/fold-stream';
import { DomainError } from '../../src/platform/errors/domain-error';

/**
 * A wallet-shaped decider for the snapshot tests: a balance that may not go
 * below zero, holds that reserve part of it, and a count of transactions. Its
 * state is plain JSON with a nested object, so a snapshot round trip matters.
 */
export type WalletCommand =
  | { type: 'Deposit'; amount: number }
  | { type: 'Debit'; amount: number }
  | { type: 'Hold'; holdId: string; amount: number }
  | { type: 'Release'; holdId: string };

export type WalletEvent =
  | { type: 'Deposited'; data: { amount: number; balance: number } }
  | { type: 'Debited'; data: { amount: number; balance: number } }
  | { type: 'Held'; data: { holdId: string; amount: number } }
  | { type: 'Released'; data: { holdId: string } };

export interface WalletState {
  balance: number;
  transactions: number;
  holds: Record<string, number>;
}

const available = (state: WalletState) => state.balance - Object.values(state.holds).reduce((sum, amount) => sum + amount, 0);

export function walletDecider(snapshot?: Decider<WalletCommand, WalletState, WalletEvent>['snapshot']) {
  const decider: Decider<WalletCommand, WalletState, WalletEvent> = {
    decide(command, state) {
      switch (command.type) {
        case 'Deposit':
          return [{ type: 'Deposited', data: { amount: command.amount, balance: state.balance + command.amount } }];
        case 'Debit':
          if (command.amount > available(state)) throw new DomainError('unprocessable', 'insufficient funds');
          return [{ type: 'Debited', data: { amount: command.amount, balance: state.balance - command.amount } }];
        case 'Hold':
          if (command.holdId in state.holds) return [];
          if (command.amount > available(state)) throw new DomainError('unprocessable', 'insufficient funds');
          return [{ type: 'Held', data: { holdId: command.holdId, amount: command.amount } }];
        case 'Release':
          return command.holdId in state.holds ? [{ type: 'Released', data: { holdId: command.holdId } }] : [];
      }
    },
    evolve(state, event) {
      switch (event.type) {
        case 'Deposited':
        case 'Debited':
          return { ...state, balance: event.data.balance, transactions: state.transactions + 1 };
        case 'Held':
          return { ...state, holds: { ...state.holds, [event.data.holdId]: event.data.amount } };
        case 'Released': {
          const { [event.data.holdId]: _released, ...holds } = state.holds;
          return { ...state, holds };
        }
      }
    },
    initialState: { balance: 0, transactions: 0, holds: {} },
    snapshot,
  };
  return decider;
}
