import { AsyncLocalStorage } from 'node:async_hooks';
import { SandboxTestCard } from './sandbox-test-cards';

/**
 * The header by which a client of the sandbox says which test card its
 * customer typed: on a request that creates an intent the customer confirms
 * (a top-up's payment intent, a setup intent saving a card), the sandbox
 * settles that intent with this card, as the processor would once the
 * customer confirmed it with the card. Known before the intent exists, so the
 * sandbox's own settlement a moment later can never overtake it.
 */
export const SANDBOX_CARD_HEADER = 'pay-sandbox-card';

const typed = new AsyncLocalStorage<SandboxTestCard>();

export const SandboxCardEntry = {
  /** Runs `work` with `card` as the card the customer typed. */
  run<T>(card: SandboxTestCard, work: () => T): T {
    return typed.run(card, work);
  },

  /** The card the customer typed for the request being served, if it named one. */
  current(): SandboxTestCard | undefined {
    return typed.getStore();
  },
};
