import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { emit, jsonText, makeColors, note, table, terminalText, withoutTerminalControls } from '../../../cli/src/output';

/** Any control character a terminal could act on: C0 but tab and line feed, DEL, C1. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('the CLI output sanitizer', () => {
  it.each([
    ['CSI colours', 'plain \x1b[1;31mred\x1b[0m and \x1b[38;5;196mmore\x1b[m', 'plain red and more'],
    ['cursor movement, erasing and hiding the cursor', 'a\x1b[2Ab\x1b[10;20Hc\x1b[2J\x1b[Kd\x1b[?25le', 'abcde'],
    ['an OSC 8 hyperlink ended by ST', 'see \x1b]8;;https://evil.example/\x1b\\the docs\x1b]8;;\x1b\\ now', 'see the docs now'],
    ['an OSC 8 hyperlink ended by BEL', '\x1b]8;id=1;https://evil.example/\x07click\x1b]8;;\x07', 'click'],
    ['an OSC 52 clipboard write', 'x\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07y', 'xy'],
    ['a window title', 'x\x1b]0;pwned\x07y', 'xy'],
    ['BEL', 'ding\x07dong', 'dingdong'],
    ['a C1 CSI (U+009B)', 'x\x9b2Jy\x9b31mz', 'xyz'],
    ['a C1 OSC ended by C1 ST', 'x\x9d0;title\x9cy', 'xy'],
    ['a DCS string', 'x\x1bPq#0;2;0;0;0#0~~\x1b\\y', 'xy'],
    ['other ESC sequences (reset, cursor save, charset)', 'x\x1bcy\x1b7z\x1b(Bw', 'xyzw'],
    ['a carriage return that would rewrite the line', 'rm -rf ~\rls', 'rm -rf ~ls'],
    ['backspaces, DEL and C1 controls', 'a\x08\x08b\x7fc\x85d\x90e', 'abcde'],
    ['an unterminated OSC: its introducer goes', 'x\x1b]52;c;AAAA', 'x52;c;AAAA'],
    ['a lone ESC', 'x\x1b', 'x'],
  ])('removes %s', (_name, input, expected) => {
    expect(withoutTerminalControls(input)).toBe(expected);
    expect(terminalText(input)).toBe(expected);
  });

  it('keeps line feeds, tabs and every printable character; CRLF becomes LF', () => {
    expect(withoutTerminalControls('one\r\ntwo\n\tthree [31m émoji 🚀 中文\u00a0')).toBe(
      'one\ntwo\n\tthree [31m émoji 🚀 中文\u00a0',
    );
  });

  it('stays linear on hostile input (no backtracking blow-up)', () => {
    for (const hostile of [
      '\x9d'.repeat(200_000),
      '\x1b]'.repeat(200_000),
      `\x9b${'1'.repeat(400_000)}`,
      '\x9b1'.repeat(200_000),
    ])
      expect(CONTROL.test(withoutTerminalControls(hostile))).toBe(false);
  });

  it("keeps the CLI's own colours and nothing a vendor's text tries to style", () => {
    const colors = makeColors(true);
    const vendor = '\x1b[31mfake red\x1b[0m\x1b[8mhidden';
    expect(terminalText(`${colors.green('free')} ${vendor} ${colors.bold(vendor)}`)).toBe(
      '\x1b[32mfree\x1b[39m fake redhidden \x1b[1mfake redhidden\x1b[22m',
    );
    // A mark with another key (a guess) is just another escape sequence.
    expect(terminalText('\x1b[123456789;31mguess')).toBe('guess');
    expect(terminalText(makeColors(false).red('plain'))).toBe('plain');
  });

  it('cleans table cells before measuring them, so columns line up and nothing escapes', () => {
    const printed = terminalText(
      table(['title', 'price'], [['A\x1b]8;;https://evil.example\x07link\x1b]8;;\x07\x9b2J', 'free']]),
    );
    expect(CONTROL.test(printed)).toBe(false);
    expect(printed).toContain('│ Alink │ free  │');
  });

  it('--json stays valid JSON with the same values, with no control character left raw', () => {
    const value = { title: 'a\x1b[31mb\x07c\x7fd\x9b2Je\u2028f', n: 1, nested: [{ readmeMd: '# x\r\n\ty' }] };
    const text = jsonText(value);
    expect(CONTROL.test(text.replace(/\n/g, ''))).toBe(false);
    expect(JSON.parse(text)).toEqual(value);
    expect(terminalText(text)).toBe(text);
  });

  it('writes every human and JSON answer through the sanitizer', () => {
    const written: string[] = [];
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    try {
      emit({}, null, () => 'title \x1b]52;c;AAAA\x07 \x9b2J');
      emit({ json: true }, { title: '\x1b[31m\x9b' }, () => '');
      note('from the server: \x1b[2K\x07');
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(written).toHaveLength(3);
    for (const text of written) expect(CONTROL.test(text.replace(/\n/g, ''))).toBe(false);
    expect(JSON.parse(written[1])).toEqual({ title: '\x1b[31m\x9b' });
  });

  it('is the only way out: no other file of the CLI writes to stdout, stderr or the console', () => {
    const root = path.resolve(__dirname, '../../../cli/src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [],
      );
    const offenders = files(root)
      .filter((file) => path.relative(root, file) !== 'output.ts')
      .filter((file) => /process\.(stdout|stderr)\.write|console\.\w+\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(offenders).toEqual([]);
  });
});
