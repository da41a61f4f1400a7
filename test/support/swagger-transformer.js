// Runs the @nestjs/swagger compiler plugin inside ts-jest, as `nest build` does, so
// the OpenAPI document in tests is generated from the same DTO metadata.
const plugin = require('@nestjs/swagger/plugin');

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (compiler) => plugin.before({ classValidatorShim: true, introspectComments: true }, compiler.program);
