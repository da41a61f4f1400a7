import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { resolveInfrastructure } from '../bootstrap';
import { AppConfig } from '../config/app-config';
import { EventStore } from '../event-store/event-store';
import { PaymentGateway } from '../modules/billing/domain/payment-gateway';
import { LedgerUsageError, resolveOrgId, resolveUser } from './owners';
import { Format, money, toCsv, toJson } from './output';
import { Progress } from './progress';
import { purchaseHistory } from './purchase-history';
import { reconcile } from './reconcile';
import { verifyMoneyStreams } from './verify';
import { walletStatement } from './wallet-statement';

export const USAGE = `usage: npm run --silent ledger -- wallet --user <email|id> | --org <slug|id> [--as-of <ISO time>] [--json|--csv]
       npm run --silent ledger -- purchases --user <email|id> [--listing <id>] [--from <ISO>] [--to <ISO>] [--json|--csv]
       npm run --silent ledger -- reconcile [--from <ISO>] [--to <ISO>] [--json]
       npm run --silent ledger -- verify [--json]
Exit status: 0 when everything agrees, 1 when something does not (or is unexplained), 2 for a usage error.`;

export interface LedgerIo {
  /** A line of the report (stdout). */
  print(text: string): void;
  /** Where the progress bar goes: drawn only when it is a terminal. */
  stderr?: NodeJS.WriteStream;
}

interface Context {
  store: EventStore;
  db: DataSource;
  gateway: PaymentGateway;
}

/**
 * The auditors' and finance's command. It reads the log itself (through the
 * event store port, with personal data opened or erased as the API sees it),
 * and reads read models only to compare them with the log.
 */
export async function runLedgerCli(args: string[], config: AppConfig, io: LedgerIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        user: { type: 'string' },
        org: { type: 'string' },
        'as-of': { type: 'string' },
        listing: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        json: { type: 'boolean' },
        csv: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    io.print(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || !['wallet', 'purchases', 'reconcile', 'verify'].includes(command) || positionals.length > 1) {
    io.print(USAGE);
    return values.help ? 0 : 2;
  }
  const format: Format = values.json ? 'json' : values.csv ? 'csv' : 'text';
  try {
    const window = { from: time(values.from, '--from'), to: time(values.to, '--to') };
    const asOf = time(values['as-of'], '--as-of');
    if (command === 'wallet' && Boolean(values.user) === Boolean(values.org))
      throw new LedgerUsageError('wallet takes one of --user or --org');
    if (command === 'purchases' && !values.user) throw new LedgerUsageError('purchases takes --user');
    if (format === 'csv' && (command === 'reconcile' || command === 'verify'))
      throw new LedgerUsageError(`${command} prints text or --json`);
    return await withContext(config, async (context) => {
      // PostgreSQL numbers events in order, so the head's number is about the log's length.
      const head = config.eventStore === 'postgres' ? await context.store.headPosition() : null;
      const progress = (label: string) => new Progress(label, head ? Number(head.prepare) : null, io.stderr ?? process.stderr);
      switch (command) {
        case 'wallet':
          return walletCommand(context, io, format, values.user, values.org, asOf);
        case 'purchases': {
          const user = await resolveUser(context.store, values.user!);
          const records = await purchaseHistory(
            context.store,
            { userId: user.id, listingId: values.listing, from: window.from, to: window.to },
            progress('reading the log'),
          );
          if (format === 'json') io.print(toJson({ user, records }));
          else if (format === 'csv')
            io.print(toCsv(records, ['at', 'type', 'orderId', 'listingId', 'amountCents', 'streamId', 'revision', 'eventId']));
          else {
            io.print(
              `purchases of user ${user.id} (email ${user.email ?? 'null'}, name ${user.name ?? 'null'}${user.deleted ? ', deleted' : ''})`,
            );
            for (const r of records)
              io.print(
                `${r.at}  ${r.type.padEnd(26)} order ${r.orderId ?? '-'}  listing ${r.listingId ?? '-'}${r.amountCents === null ? '' : `  ${money(r.amountCents)}`}`,
              );
            io.print(`${records.length} record(s)`);
          }
          return 0;
        }
        case 'reconcile': {
          const report = await reconcile(context.store, context.db, context.gateway, window, progress('reconciling'));
          if (format === 'json') io.print(toJson(report));
          else {
            io.print(`reconciled ${report.eventsRead} events; trial balance ${report.trialBalanceCents} cents`);
            for (const [check, count] of Object.entries(report.checked)) io.print(`  ${check.padEnd(16)} ${count} checked`);
            for (const f of report.findings)
              io.print(`${f.explained ? 'EXPLAINED  ' : 'UNEXPLAINED'} ${f.check}/${f.kind} ${f.subject}: ${f.detail}`);
            io.print(report.unexplained === 0 ? 'nothing unexplained' : `${report.unexplained} unexplained difference(s)`);
          }
          return report.unexplained === 0 ? 0 : 1;
        }
        default: {
          if (config.eventStore !== 'postgres') throw new LedgerUsageError('verify checks the PostgreSQL event store only');
          const report = await verifyMoneyStreams(context.db, progress('verifying'));
          if (format === 'json') io.print(toJson(report));
          else {
            for (const b of report.broken) io.print(`BROKEN ${b.streamId} revision ${b.revision} (${b.kind}): ${b.detail}`);
            io.print(
              `${report.streams} money streams, ${report.events} events: ${report.broken.length === 0 ? 'every link holds' : `${report.broken.length} broken`}`,
            );
          }
          return report.broken.length === 0 ? 0 : 1;
        }
      }
    });
  } catch (error) {
    if (error instanceof LedgerUsageError) {
      io.print(error.message);
      return 2;
    }
    throw error;
  }
}

async function walletCommand(
  { store, db }: Context,
  io: LedgerIo,
  format: Format,
  userArg: string | undefined,
  orgArg: string | undefined,
  asOf: Date | undefined,
): Promise<number> {
  const owner = userArg
    ? await resolveUser(store, userArg).then((u) => ({
        kind: 'user' as const,
        id: u.id,
        email: u.email,
        name: u.name,
        deleted: u.deleted,
      }))
    : { kind: 'org' as const, id: await resolveOrgId(store, orgArg!) };
  const statement = await walletStatement(store, db, owner, asOf ?? null);
  const consistent = statement.brokenBalances.length === 0 && statement.readModel.agrees;
  if (format === 'json') io.print(toJson({ ...statement, consistent }));
  else if (format === 'csv')
    io.print(
      toCsv(statement.transactions, [
        'at',
        'type',
        'description',
        'amountCents',
        'balanceAfterCents',
        'replayedBalanceCents',
        'revision',
        'eventId',
      ]),
    );
  else {
    const who =
      owner.kind === 'user'
        ? `user ${owner.id} (email ${owner.email ?? 'null'}, name ${owner.name ?? 'null'}${owner.deleted ? ', deleted' : ''})`
        : `org ${owner.id}`;
    io.print(`wallet of ${who}`);
    for (const t of statement.transactions)
      io.print(
        `${t.at}  #${String(t.revision).padEnd(4)} ${t.type.padEnd(13)} ${money(t.amountCents).padStart(10)}  balance ${money(t.replayedBalanceCents).padStart(10)}  ${t.description}`,
      );
    for (const b of statement.brokenBalances)
      io.print(
        `BROKEN revision ${b.revision} (${b.eventId}): records balance ${b.recordedCents}, the amounts before it add up to ${b.replayedCents}`,
      );
    io.print(
      `balance${statement.asOf ? ` as of ${statement.asOf}` : ''}: ${money(statement.balanceCents)} (${statement.balanceCents} cents)`,
    );
    io.print(
      statement.readModel.agrees
        ? `the read model agrees (balance ${statement.readModel.balanceCents ?? 0} cents)`
        : `the read model DISAGREES: ${statement.readModel.differences.join('; ')}`,
    );
  }
  return consistent ? 0 : 1;
}

function time(value: string | undefined, flag: string): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw new LedgerUsageError(`${flag} takes an ISO 8601 time, not "${value}"`);
  return parsed;
}

async function withContext(config: AppConfig, run: (context: Context) => Promise<number>): Promise<number> {
  const { config: resolved, release } = await resolveInfrastructure({ ...config, runProcessors: false });
  try {
    const app = await NestFactory.createApplicationContext(AppModule.forRoot(resolved), { logger: ['error', 'warn'] });
    try {
      return await run({ store: app.get(EventStore), db: app.get(DataSource), gateway: app.get(PaymentGateway) });
    } finally {
      await app.close();
    }
  } finally {
    await release();
  }
}
