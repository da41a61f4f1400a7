import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PersonalDataVault } from '../../../../event-store/personal-data/personal-data-vault';
import { ShredPersonalDataCommand } from './shred-personal-data.command';

@CommandHandler(ShredPersonalDataCommand)
export class ShredPersonalDataHandler implements ICommandHandler<ShredPersonalDataCommand, void> {
  constructor(private readonly vault: PersonalDataVault) {}

  async execute({ userId }: ShredPersonalDataCommand): Promise<void> {
    await this.vault.shred(userId);
  }
}
