import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { Api } from '../api';
import { CliError, EXIT, usageError } from '../errors';
import { cents, colors, emit, note, OutputOptions } from '../output';
import { integer, parsePackageRef } from './catalog';

/** POST /v1/services/{vendor}/{slug}/call, as the spec's agent-network section gives it. */
interface CallResult {
  result: unknown;
  costCents: number;
  walletBalanceCents: number;
  usageRecordId: string;
  durationMs: number;
}

interface CallOptions extends OutputOptions {
  input?: string;
  maxCost?: number;
  session?: string;
}

export function callCommands(program: Command): void {
  program
    .command('call')
    .description('call a tool of a live service, metered against the wallet')
    .argument('<service>', '<vendor>/<slug>')
    .argument('<tool>', 'tool name')
    .option('--input <json>', 'tool input: a JSON object, or @file.json')
    .option('--max-cost <cents>', 'refuse the call if it would cost more', integer())
    .option('--session <id>', 'attach the call to an open session')
    .option('--json', 'machine output on stdout')
    .action(async (ref: string, tool: string, options: CallOptions) => {
      const { vendor, slug, version } = parsePackageRef(ref);
      if (version) throw usageError('call takes <vendor>/<slug>, without a version');
      const input = options.input === undefined ? undefined : await parseInput(options.input);
      const answer = await new Api().request<CallResult & { status?: string; message?: string }>(
        'POST',
        `/v1/services/${vendor}/${slug}/call`,
        {
          auth: true,
          accept: [402],
          moneyMove: true,
          body: { tool, input, maxCostCents: options.maxCost, sessionId: options.session },
        },
      );
      if (answer.status === 402) {
        const body = answer.body as unknown as Record<string, unknown>;
        throw new CliError(String(body.message ?? 'Payment required'), EXIT.paymentNeeded, { httpStatus: 402, ...body });
      }
      const call = answer.body;
      note(colors.dim(`cost ${cents(call.costCents)}, wallet ${cents(call.walletBalanceCents)}, ${call.durationMs} ms`));
      emit(options, call, () => (typeof call.result === 'string' ? call.result : JSON.stringify(call.result, null, 2)));
    });
}

async function parseInput(raw: string): Promise<Record<string, unknown>> {
  let text = raw;
  if (raw.startsWith('@')) {
    text = await readFile(raw.slice(1), 'utf8').catch((error: Error) => {
      throw usageError(`Cannot read ${raw.slice(1)}: ${error.message}`);
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--input is not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw usageError('--input must be a JSON object');
  return value as Record<string, unknown>;
}
