// Tests are transpiled file by file (ts-jest `isolatedModules`), which leaves no type checker for the
// @nestjs/swagger compiler plugin that `nest build` runs. So, once per run, the plugin reads the whole
// program here (as `nest build` would) and prints its metadata to a file; test apps load it before they
// start (test/support/app.ts), and the OpenAPI document in tests is the one the built server serves.
const { mkdirSync, readdirSync, rmSync } = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { PluginMetadataGenerator } = require('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator');
const { ReadonlyVisitor } = require('@nestjs/swagger/plugin');

const root = path.resolve(__dirname, '../..');
const FILENAME = 'swagger-metadata.ts';

/**
 * Writes the plugin's metadata for `src/` and the test features' DTOs (test/support) under
 * `.scratch/<runId>/`, and answers the file's path.
 */
function generateSwaggerMetadata(runId) {
  const outputDir = path.join(root, '.scratch', runId);
  mkdirSync(outputDir, { recursive: true });
  // The same options as the plugin in nest-cli.json. Imports are printed relative to outputDir, to the sources.
  const plugin = { classValidatorShim: true, introspectComments: true };
  const visitor = new ReadonlyVisitor({ ...plugin, pathToSource: outputDir, outDir: root, rootDir: root });
  new PluginMetadataGenerator().generate({ visitors: [visitor], outputDir, filename: FILENAME, tsProgramRef: program() });
  return path.join(outputDir, FILENAME);
}

/** The build's program (tsconfig.build.json), with the test features' DTOs beside `src/`. */
function program() {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  const support = path.join(root, 'test', 'support');
  const testDtos = readdirSync(support, { recursive: true })
    .filter((file) => String(file).endsWith('.dto.ts'))
    .map((file) => path.join(support, String(file)));
  return ts.createProgram({ options: { ...config.options, rootDir: root }, rootNames: [...config.fileNames, ...testDtos] });
}

function removeSwaggerMetadata(runId) {
  rmSync(path.join(root, '.scratch', runId), { recursive: true, force: true });
}

module.exports = { generateSwaggerMetadata, removeSwaggerMetadata };
