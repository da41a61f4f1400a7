import { DomainError } from '../../../platform/errors/domain-error';

/** A card error as the processor reports it in `last_payment_error` / `last_setup_error`. */
export interface CardDecline {
  code: 'card_declined';
  declineCode: 'generic_decline' | 'insufficient_funds';
  message: string;
}

const GENERIC_DECLINE: CardDecline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};
const INSUFFICIENT_FUNDS: CardDecline = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};

/**
 * One of the processor's documented test cards, as the sandbox plays it.
 * `setup` is what saving it does (a setup intent), `charge` what paying with
 * it does (a top-up confirmed with it, an off-session charge of it saved).
 */
export interface SandboxTestCard {
  number: string;
  brand: 'visa';
  last4: string;
  /** What it does, in a few words, for the web's sandbox notes. */
  effect: string;
  setup: 'saved' | CardDecline;
  charge: 'succeeds' | CardDecline;
}

const card = (number: string, effect: string, setup: SandboxTestCard['setup'], charge: SandboxTestCard['charge']) =>
  ({ number, brand: 'visa', last4: number.slice(-4), effect, setup, charge }) as const satisfies SandboxTestCard;

/**
 * The test cards the sandbox takes, as Stripe's test mode treats them: a
 * card that declines is refused when saved as well as when charged, except
 * 0341, which saves fine and is declined on every charge.
 */
export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = [
  card('4242424242424242', 'succeeds', 'saved', 'succeeds'),
  card('4000000000000002', 'is declined (card_declined)', GENERIC_DECLINE, GENERIC_DECLINE),
  card('4000000000009995', 'is declined for insufficient funds (insufficient_funds)', INSUFFICIENT_FUNDS, INSUFFICIENT_FUNDS),
  card('4000000000000341', 'saves fine, then every charge of it is declined (card_declined)', 'saved', GENERIC_DECLINE),
];

/** What a client that confirms with no card of its own pays with: the card a customer of the sandbox types by default. */
export const DEFAULT_SANDBOX_CARD: SandboxTestCard = SANDBOX_TEST_CARDS[0];

/** `4242 4242 4242 4242` for `4242424242424242`. */
export const spacedCardNumber = (number: string): string => number.replace(/(\d{4})(?=\d)/g, '$1 ');

const LIST = SANDBOX_TEST_CARDS.map((c) => `${spacedCardNumber(c.number)} ${c.effect}`).join('; ');

/**
 * The test card a customer typed (spaces and dashes allowed), or a 400 that
 * says why not: what is no card number at all is "incorrect", as the
 * processor says; a real card, or another processor test card, is not taken,
 * as the processor's test mode refuses real cards, and the message lists the
 * cards that are.
 */
export function sandboxTestCard(typed: string): SandboxTestCard {
  const number = typed.replace(/[\s-]/g, '');
  const known = SANDBOX_TEST_CARDS.find((c) => c.number === number);
  if (known) return known;
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number))
    throw new DomainError('invalid', `Your card number is incorrect. The payment sandbox takes these test cards: ${LIST}.`);
  throw new DomainError(
    'invalid',
    `The payment sandbox takes only test cards, and this is not one: no real money can move here. Use ${LIST}.`,
  );
}

/** The sandbox's own test card for a stored number; a row stored before cards had numbers was the default. */
export function storedSandboxCard(number: string | null): SandboxTestCard {
  return SANDBOX_TEST_CARDS.find((c) => c.number === number) ?? DEFAULT_SANDBOX_CARD;
}

function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
