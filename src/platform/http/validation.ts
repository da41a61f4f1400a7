import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';

/** Whitelisted, transformed DTOs; a failure is a 400 whose message names each offending field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new DomainError('invalid', describeErrors(errors).join('; ')),
  });
}

function describeErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) =>
      text.startsWith(error.property) ? `${field}${text.slice(error.property.length)}` : `${field}: ${text}`,
    );
    return [...own, ...describeErrors(error.children ?? [], field)];
  });
}
