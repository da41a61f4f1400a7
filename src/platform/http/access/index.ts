export * from './access.decorators';
export * from './principal';
export { TokenGuard } from './token.guard';
export * from './policy-bound-tokens';
