export * from './access.decorators';
export * from './principal';
export { TokenGuard } from './token.guard';
