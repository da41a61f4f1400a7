import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { defineEventCatalogue } from '../../src/event-store/event-catalogue';
import { EventStore } from '../../src/event-store/event-store';
import { AnyToken } from '../../src/platform/http/access';
import { Idempotent, IdempotentRequest } from '../../src/platform/http/idempotency';
import { DomainError } from '../../src/platform/errors/domain-error';

/**
 * A money-like route used only by tests of `Idempotency-Key`: each execution
 * appends one `TestCharged` event (the tests count them) with its answer.
 */
defineEventCatalogue('test-charges', { TestCharged: { schemaVersion: 1 } });

export class ChargeDto {
  @IsInt()
  @Min(1)
  amountCents: number;

  /** `insufficient`: answers 402 and appends nothing (unless funds were added); `crash`: fails after the append. */
  @IsOptional()
  @IsIn(['insufficient', 'crash'])
  fail?: 'insufficient' | 'crash';

  /** Holds the request this long before it appends, so others can arrive meanwhile. */
  @IsOptional()
  @IsInt()
  delayMs?: number;
}

/** Flip to let `fail: 'insufficient'` requests succeed, as a top-up would. */
export const chargeFunds = { available: false };

class Charge extends Command<{ chargeId: string; amountCents: number }> {
  constructor(readonly dto: ChargeDto) {
    super();
  }
}

@CommandHandler(Charge)
class ChargeHandler implements ICommandHandler<Charge> {
  constructor(private readonly store: EventStore) {}

  async execute({ dto }: Charge): Promise<{ chargeId: string; amountCents: number }> {
    if (dto.delayMs) await new Promise((resolve) => setTimeout(resolve, dto.delayMs));
    if (dto.fail === 'insufficient' && !chargeFunds.available)
      throw new DomainError('payment_required', 'Insufficient wallet balance', { status: 'insufficient_balance' });
    const chargeId = IdempotentRequest.derivedId('TestCharge') ?? randomUUID();
    const answer = { chargeId, amountCents: dto.amountCents };
    await this.store.appendAtomically([
      {
        streamId: 'test-charges',
        events: [{ type: 'TestCharged', data: { chargeId, amountCents: dto.amountCents } }],
        expected: 'any',
      },
      ...(await IdempotentRequest.recordAnswer(answer)),
    ]);
    if (dto.fail === 'crash') throw new Error('the process died after the append');
    return answer;
  }
}

@AnyToken()
@Controller('test/charges')
class ChargesController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  charge(@Body() body: ChargeDto): Promise<{ chargeId: string; amountCents: number }> {
    return this.commands.execute(new Charge(body));
  }
}

@Module({ controllers: [ChargesController], providers: [ChargeHandler] })
export class ChargesFeatureModule {}
