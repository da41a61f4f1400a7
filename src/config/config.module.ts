import { DynamicModule, Global, Inject, Module } from '@nestjs/common';
import { Clock, SystemClock } from '../platform/clock/clock';
import { AppConfig } from './app-config';

export const APP_CONFIG = Symbol('APP_CONFIG');
export const InjectConfig = () => Inject(APP_CONFIG);

@Global()
@Module({})
export class ConfigModule {
  /** The configuration and the clock: both fixed at start, both replaceable by tests. */
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
      ],
      exports: [APP_CONFIG, Clock],
    };
  }
}
