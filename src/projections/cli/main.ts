import 'reflect-metadata';
import { ConfigError, loadConfig } from '../../config/app-config';
import { runProjectionsCli } from './projections-cli';

runProjectionsCli(process.argv.slice(2), loadConfig({ LOG_LEVEL: 'warn', ...process.env }), (line) => console.log(line))
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
