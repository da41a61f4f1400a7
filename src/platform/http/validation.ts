import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { buildMessage, getMetadataStorage, IsOptional, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import { codePointLength, isMultiLineText, isSingleLineText } from '../text/text-rules';
import { DomainError } from '../errors/domain-error';

/**
 * Whitelisted, transformed DTOs; a failure is a 400 whose message names each offending field. A body field
 * set to null is a 400 too unless it is `Clearable`, whatever else it is declared with: class-validator's
 * `IsOptional` takes null for "left out", which let `{"body": null}` through as an empty review.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new DomainError('invalid', describeErrors(errors).join('; ')),
  });
}

class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const nulls = metadata.type === 'body' && metadata.metatype ? nullsRefused(value, metadata.metatype) : [];
    if (nulls.length > 0) throw new DomainError('invalid', nulls.map((field) => `${field} must not be null`).join('; '));
    return super.transform(value, metadata);
  }
}

/**
 * The DTO's declared fields that are null in the body without being `Clearable` (unknown fields are the
 * whitelist's). Top-level fields: no body DTO nests another; one that does must check its nested DTOs too.
 */
export function nullsRefused(body: unknown, dto: Type): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const declared = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );
  return Object.entries(body)
    .filter(([field, value]) => value === null && declared.has(field) && !isClearable(dto, field))
    .map(([field]) => field);
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
 * A field that may be left out but not set to null: null is a 400 naming the
 * field (what null means is defined once, here, in `Clearable` and in the pipe,
 * which refuses null in a body for every field that is not `Clearable`).
 */
export const Optional = (options?: ValidationOptions) => ValidateIf((_object, value) => value !== undefined, options);

const CLEARABLE = Symbol('clearable');

/**
 * A field that may be left out or set to null, meaning no value: on a PATCH null clears it (an omitted
 * field is kept as is), on a create it sets none. The only way a body field takes null.
 */
export const Clearable =
  (options?: ValidationOptions): PropertyDecorator =>
  (target, field) => {
    IsOptional(options)(target, field);
    Reflect.defineMetadata(CLEARABLE, true, target, field);
  };

function isClearable(dto: Type, field: string): boolean {
  return Reflect.getMetadata(CLEARABLE, dto.prototype as object, field) === true;
}
