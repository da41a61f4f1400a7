import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { unpackSafely, UnsafeArchiveError } from '../../../cli/src/install/unpack';
import { buildZip, zeroBomb } from '../../support/zip-builder';

/** Every attack against the CLI's unpacking, on a real disk: each is refused and leaves nothing behind. */
describe('svc install: safe unpacking', () => {
  let root: string;
  let project: string;
  let destination: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-unpack-'));
    project = path.join(root, 'project');
    destination = path.join(project, '.claude', 'skills', 'pkg');
    await mkdir(project);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** Every path under `root`, so a test sees whatever an attack managed to write anywhere. */
  const tree = async (dir = root): Promise<string[]> => {
    const out: string[] = [];
    for (const name of await readdir(dir)) {
      const full = path.join(dir, name);
      out.push(path.relative(root, full));
      if ((await lstat(full)).isDirectory()) out.push(...(await tree(full)));
    }
    return out.sort();
  };

  const refused = async (archive: Buffer, reason: RegExp, limits?: Parameters<typeof unpackSafely>[2]) => {
    const before = await tree();
    const error = await unpackSafely(archive, destination, limits).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnsafeArchiveError);
    expect((error as Error).message).toMatch(reason);
    // Nothing written: no destination, no staging left over, nothing outside.
    expect((await tree()).filter((p) => !p.startsWith(path.join('project', '.claude')) || p === 'project')).toEqual(
      before.filter((p) => !p.startsWith(path.join('project', '.claude')) || p === 'project'),
    );
    await expect(lstat(destination)).rejects.toThrow(/ENOENT/);
    const parent = path.dirname(destination);
    const leftovers = await readdir(parent).catch(() => []);
    expect(leftovers).toEqual([]);
  };

  it('unpacks a good archive into the destination, keeping the tree and executable bits', async () => {
    const files = await unpackSafely(
      buildZip([
        { name: 'manifest.json', data: '{}' },
        { name: 'skills/', data: '', method: 'store', unixMode: 0o040755 },
        { name: 'skills/SKILL.md', data: '# skill' },
        { name: 'bin/run.sh', data: '#!/bin/sh\n', unixMode: 0o100755 },
      ]),
      destination,
    );
    expect(files.sort()).toEqual(['bin/run.sh', 'manifest.json', 'skills/SKILL.md']);
    expect(await readFile(path.join(destination, 'skills/SKILL.md'), 'utf8')).toBe('# skill');
    expect((await lstat(path.join(destination, 'bin/run.sh'))).mode & 0o777).toBe(0o755);
    expect((await lstat(path.join(destination, 'manifest.json'))).mode & 0o777).toBe(0o644);
  });

  it('replaces an earlier install whole: files the new version lacks are gone', async () => {
    await unpackSafely(buildZip([{ name: 'old.md', data: 'old' }]), destination);
    await unpackSafely(buildZip([{ name: 'new.md', data: 'new' }]), destination);
    expect(await readdir(destination)).toEqual(['new.md']);
    expect(await readdir(path.dirname(destination))).toEqual(['pkg']);
  });

  it('refuses zip-slip: a "../" path', async () => {
    await refused(
      buildZip([
        { name: 'ok.md', data: 'x' },
        { name: '../../../escaped.txt', data: 'pwned' },
      ]),
      /relative path|leaves/,
    );
  });

  it('refuses zip-slip hidden mid-path and with backslashes', async () => {
    await refused(buildZip([{ name: 'a/../../escaped.txt', data: 'pwned' }]), /relative path|leaves/);
    await refused(buildZip([{ name: '..\\..\\escaped.txt', data: 'pwned' }]), /relative path|backslash|leaves/);
  });

  it('refuses absolute paths, unix and Windows', async () => {
    await refused(buildZip([{ name: '/tmp/escaped.txt', data: 'pwned' }]), /absolute/);
    await refused(buildZip([{ name: 'C:/escaped.txt', data: 'pwned' }]), /absolute/);
  });

  it('refuses symbolic links, which could point a later write outside', async () => {
    await refused(
      buildZip([
        { name: 'link', data: '/etc', unixMode: 0o120777 },
        { name: 'link/passwd', data: 'pwned' },
      ]),
      /symbolic link/,
    );
  });

  it('refuses special files (a FIFO)', async () => {
    await refused(buildZip([{ name: 'pipe', data: '', unixMode: 0o010644 }]), /special file/);
  });

  it('does not follow a symlink already in the destination parent', async () => {
    // A planted link where the package will go: the install replaces the link, never writes through it.
    const outside = path.join(root, 'outside');
    await mkdir(outside);
    await mkdir(path.dirname(destination), { recursive: true });
    await symlink(outside, destination);
    await unpackSafely(buildZip([{ name: 'file.md', data: 'x' }]), destination);
    expect(await readdir(outside)).toEqual([]);
    expect((await lstat(destination)).isDirectory()).toBe(true);
  });

  it('refuses a size bomb by what it inflates to, even when the header lies', async () => {
    const limits = { maxEntries: 100, maxTotalBytes: 1024 * 1024, maxEntryBytes: 512 * 1024 };
    // Declared honestly: refused before inflating.
    await refused(buildZip([zeroBomb(4)]), /inflate/, limits);
    // Declared small: refused while inflating, at the limit (or by the size check).
    await refused(buildZip([{ ...zeroBomb(4), declaredUncompressedSize: 10 }]), /inflate|size|corrupt/, limits);
  });

  it('refuses too many entries and too much in total', async () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.md`, data: 'x' }));
    await refused(buildZip(many), /entries/, { maxEntries: 10, maxTotalBytes: 1024, maxEntryBytes: 1024 });
    const big = Array.from({ length: 3 }, (_, i) => ({ name: `f${i}.bin`, data: Buffer.alloc(600) }));
    await refused(buildZip(big), /inflate/, { maxEntries: 10, maxTotalBytes: 1024, maxEntryBytes: 1024 });
  });

  it('refuses duplicate names (also by case) and a file shadowing a directory', async () => {
    await refused(
      buildZip([
        { name: 'a.md', data: '1' },
        { name: 'A.md', data: '2' },
      ]),
      /more than once/,
    );
    await refused(
      buildZip([
        { name: 'a', data: '1' },
        { name: 'a/b.md', data: '2' },
      ]),
      /under the file/,
    );
  });

  it('refuses encrypted entries and what is not a zip at all', async () => {
    await refused(buildZip([{ name: 'secret.md', data: 'x', encrypted: true }]), /encrypted/);
    await refused(Buffer.from('not a zip'), /zip/);
  });

  it('leaves an earlier install in place when the new archive is refused', async () => {
    await unpackSafely(buildZip([{ name: 'good.md', data: 'good' }]), destination);
    await writeFile(path.join(root, 'marker'), '');
    const error = await unpackSafely(buildZip([{ name: '../evil', data: 'x' }]), destination).catch((e) => e);
    expect(error).toBeInstanceOf(UnsafeArchiveError);
    expect(await readdir(destination)).toEqual(['good.md']);
  });
});
