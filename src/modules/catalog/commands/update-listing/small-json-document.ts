import { ValidationOptions, registerDecorator } from 'class-validator';

/** A JSON object whose serialized form fits in `maxBytes`. */
export function IsSmallJsonDocument(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isSmallJsonDocument',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must serialize to at most ${maxBytes} bytes of JSON`, ...options },
      validator: {
        validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '') <= maxBytes,
      },
    });
}
