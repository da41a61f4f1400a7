import { parseManifest, PackageManifest } from '../../../src/modules/catalog/archive/package-manifest';

const valid = {
  slug: 'tidy-commits',
  version: '1.2.0',
  type: 'skill',
  title: 'Tidy commits',
  description: 'Writes conventional commit messages.',
  targets: ['claude-code', 'cursor'],
  tags: ['git', 'commits'],
  tools: ['Bash', 'git.diff'],
};

function problemsOf(raw: unknown): string[] {
  const result = parseManifest(raw);
  if (!('problems' in result)) throw new Error(`expected problems, got ${JSON.stringify(result.manifest)}`);
  return result.problems;
}

function manifestOf(raw: unknown): PackageManifest {
  const result = parseManifest(raw);
  if (!('manifest' in result)) throw new Error(`expected a manifest, got ${result.problems.join('; ')}`);
  return result.manifest;
}

describe('parseManifest', () => {
  it('accepts a valid manifest and ignores unknown fields', () => {
    expect(manifestOf({ ...valid, homepage: 'https://example.com' })).toEqual({
      slug: 'tidy-commits',
      version: '1.2.0',
      type: 'skill',
      title: 'Tidy commits',
      description: 'Writes conventional commit messages.',
      targets: ['claude-code', 'cursor'],
      tags: ['git', 'commits'],
      tools: ['Bash', 'git.diff'],
    });
  });

  it.each([null, [], 'x', 3])('rejects a manifest that is not an object (%p)', (raw) => {
    expect(problemsOf(raw)).toEqual(['manifest.json: must be a JSON object']);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['slug missing', { slug: undefined }, '"slug" is required'],
    ['slug not a string', { slug: 7 }, '"slug" must be a string'],
    ['slug too short', { slug: 'a' }, '"slug" must be 2-64 characters'],
    ['slug too long', { slug: 'a'.repeat(65) }, '"slug" must be 2-64 characters'],
    ['slug upper case', { slug: 'Tidy' }, '"slug" must be 2-64 characters'],
    ['slug trailing hyphen', { slug: 'tidy-' }, '"slug" must be 2-64 characters'],
    ['version missing', { version: undefined }, '"version" is required'],
    ['version not semver', { version: '1.2' }, '"version" must be a semantic version such as 1.2.0'],
    ['type unknown', { type: 'plugin' }, '"type" must be one of skill, rule, bundle, template, mcp (got "plugin")'],
    ['title blank', { title: '   ' }, '"title" must be 1-120 characters'],
    ['title too long', { title: 'x'.repeat(121) }, '"title" must be 1-120 characters'],
    ['description empty', { description: '' }, '"description" must be 1-1024 characters'],
    ['description too long', { description: 'x'.repeat(1025) }, '"description" must be 1-1024 characters'],
    ['targets missing', { targets: undefined }, '"targets" is required'],
    ['targets not an array', { targets: 'cursor' }, '"targets" must be an array'],
    ['targets empty', { targets: [] }, '"targets" must list at least one of'],
    ['target unknown', { targets: ['cursor', 'vim'] }, '"targets[1]" must be one of'],
    ['target repeated', { targets: ['cursor', 'cursor'] }, '"targets[1]" repeats "cursor"'],
    ['tags not an array', { tags: 'git' }, '"tags" must be an array'],
    ['too many tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, '"tags" must have at most 10 entries'],
    ['tag with a space', { tags: ['two words'] }, '"tags[0]" must be 1-32 characters'],
    ['tag too long', { tags: ['x'.repeat(33)] }, '"tags[0]" must be 1-32 characters'],
    ['tag empty', { tags: [''] }, '"tags[0]" must be 1-32 characters'],
    ['tools not an array', { tools: {} }, '"tools" must be an array'],
    ['too many tools', { tools: Array.from({ length: 101 }, (_, i) => `t${i}`) }, '"tools" must have at most 100 entries'],
    ['tool with a slash', { tools: ['a/b'] }, '"tools[0]" must be 1-64 characters'],
    ['tool too long', { tools: ['x'.repeat(65)] }, '"tools[0]" must be 1-64 characters'],
  ])('reports %s', (_, change, expected) => {
    const problems = problemsOf({ ...valid, ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`manifest.json: ${expected}`);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['title with NUL', { title: 'Tidy\u0000commits' }, '"title" must not contain control characters (got "Tidy\\u0000commits")'],
    ['title with a tab', { title: 'Tidy\tcommits' }, '"title" must not contain control characters'],
    ['title with a line break', { title: 'Tidy\ncommits' }, '"title" must not contain control characters'],
    ['title with DEL', { title: 'Tidy\u007f' }, '"title" must not contain control characters (got "Tidy\\u007f")'],
    ['description with NUL', { description: 'Writes\u0000' }, '"description" must not contain control characters other than'],
    ['description with ESC', { description: '\u001b[31mred' }, '"description" must not contain control characters other than'],
    ['slug with NUL', { slug: 'tidy\u0000' }, '"slug" must not contain control characters'],
    ['tag with NUL', { tags: ['git\u0000'] }, '"tags[0]" must not contain control characters'],
    ['tag ending in a line break', { tags: ['git\n'] }, '"tags[0]" must not contain control characters'],
    ['tool with BEL', { tools: ['Bash\u0007'] }, '"tools[0]" must not contain control characters'],
    ['unknown field with NUL', { homepage: 'https://x\u0000' }, '"homepage" must not contain control characters other than'],
    ['nested unknown field', { links: { docs: ['ok', 'a\u0001'] } }, '"links.docs[1]" must not contain control characters'],
    ['unknown key with NUL', { 'bad\u0000key': 'x' }, '"bad\\x00key" must not contain control characters in its name'],
  ])('reports a %s', (_, change, expected) => {
    const problems = problemsOf({ ...valid, ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`manifest.json: ${expected}`);
    expect(problems[0]).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it('allows tabs and line breaks in the description and in unknown fields', () => {
    const manifest = manifestOf({ ...valid, description: 'Line one.\r\n\tLine two.', notes: 'a\tb\nc' });
    expect(manifest.description).toBe('Line one.\r\n\tLine two.');
  });

  it('reports at most ten unknown fields with control characters, then sums up', () => {
    const extra = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`x${i}`, '\u0000']));
    const problems = problemsOf({ ...valid, ...extra });
    expect(problems).toHaveLength(11);
    expect(problems[10]).toBe('manifest.json: 5 more fields contain control characters');
  });

  it('walks deeply nested unknown fields without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(problemsOf({ ...valid, deep })).toEqual([expect.stringMatching(/^manifest\.json: "deep\[0\].*must not contain/)]);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf({ slug: 'X', version: 'latest', type: 'skill', title: '', targets: [], tags: [1] });
    expect(problems).toEqual([
      expect.stringContaining('"slug"'),
      'manifest.json: "version" must be a semantic version such as 1.2.0 (got "latest")',
      expect.stringContaining('"title"'),
      'manifest.json: "description" is required',
      expect.stringContaining('"targets"'),
      expect.stringContaining('"tags[0]"'),
    ]);
  });

  it.each([
    ['v1.2.0', '1.2.0'],
    ['1.2.0+build.5', '1.2.0'],
    [' 1.2.0 ', '1.2.0'],
    ['1.2.0-beta.1', '1.2.0-beta.1'],
  ])('normalises version %p to %p', (version, expected) => {
    expect(manifestOf({ ...valid, version }).version).toBe(expected);
  });

  it('rejects loose versions', () => {
    expect(problemsOf({ ...valid, version: '01.2.3' })[0]).toContain('"version"');
  });

  it('lower-cases and de-duplicates tags, and trims the title and description', () => {
    const manifest = manifestOf({ ...valid, tags: ['Git', 'git', 'AI-Tools'], title: '  Tidy  ', description: ' Short. ' });
    expect(manifest.tags).toEqual(['git', 'ai-tools']);
    expect(manifest.title).toBe('Tidy');
    expect(manifest.description).toBe('Short.');
  });

  it('defaults tools and tags to empty', () => {
    const { tools: _tools, tags: _tags, ...rest } = valid;
    const manifest = manifestOf(rest);
    expect(manifest.tools).toEqual([]);
    expect(manifest.tags).toEqual([]);
  });
});
