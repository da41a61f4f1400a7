import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/app-config';
import { runLedgerCli } from './ledger-cli';

runLedgerCli(process.argv.slice(2), loadConfig({ LOG_LEVEL: 'warn', ...process.env }), {
  print: (text) => process.stdout.write(`${text}\n`),
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  });
