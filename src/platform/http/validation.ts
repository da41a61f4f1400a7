import { ValidationError, ValidationPipe } from '@nestjs/common';
import { buildMessage, IsOptional, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { codePointLength, isMultiLineText, isSingleLineText } from '../text/text-rules';
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

/** A one-line name: no control characters (tab aside) and no line breaks. */
export const SingleLine = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'singleLine',
      validator: {
        validate: (value) => typeof value !== 'string' || isSingleLineText(value),
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be one line without control characters`, options),
      },
    },
    options,
  );

/** Multi-line text: tabs and line breaks are kept, other control characters refused. */
export const MultiLine = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'multiLine',
      validator: {
        validate: (value) => typeof value !== 'string' || isMultiLineText(value),
        defaultMessage: buildMessage((prefix) => `${prefix}$property must not contain control characters`, options),
      },
    },
    options,
  );

/** Length bounds counted in Unicode code points (an emoji counts once), the unit every limit of the API uses. */
export const CodePoints = (min: number, max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'codePoints',
      constraints: [min, max],
      validator: {
        validate: (value) => typeof value === 'string' && codePointLength(value) >= min && codePointLength(value) <= max,
        defaultMessage: buildMessage(
          (prefix) =>
            min > 0
              ? `${prefix}$property must be ${min}-${max} characters long`
              : `${prefix}$property must be at most ${max} characters long`,
          options,
        ),
      },
    },
    options,
  );

/**
 * A PATCH field that may be left out but not set to null: null is a 400
 * naming the field (what null means is defined once, here and in `Clearable`).
 */
export const Optional = (options?: ValidationOptions) => ValidateIf((_object, value) => value !== undefined, options);

/** A PATCH field that may be left out (kept as is) or set to null (cleared). */
export const Clearable = (options?: ValidationOptions) => IsOptional(options);
