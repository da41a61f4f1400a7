import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import ignore from 'ignore';
import { ZipFile } from 'yazl';
import { CliError } from '../errors';

export const IGNORE_FILE = '.svcignore';
/** Never shipped, whatever .svcignore says. */
const ALWAYS_IGNORED = ['.git/', 'node_modules/', '.DS_Store', IGNORE_FILE, 'svc-lock.json', '*.pem'];
// A fixed timestamp, so the same files always make the same bytes (and the same SHA-256).
const FIXED_MTIME = new Date('2000-01-01T00:00:00Z');

export interface PackedArchive {
  archive: Buffer;
  files: string[];
}

/**
 * Zips a package folder (it must hold manifest.json), leaving out what
 * `.svcignore` (gitignore syntax) names. Symbolic links are refused: the
 * server would refuse them and they could pull files from outside the folder.
 */
export async function packDirectory(dir: string): Promise<PackedArchive> {
  const root = path.resolve(dir);
  const rules = ignore().add(ALWAYS_IGNORED);
  rules.add(await readFile(path.join(root, IGNORE_FILE), 'utf8').catch(() => ''));
  const files: string[] = [];
  const walk = async (relative: string) => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!rules.ignores(`${name}/`)) await walk(name);
      } else if (rules.ignores(name)) {
        continue;
      } else if (entry.isSymbolicLink()) {
        throw new CliError(`${name} is a symbolic link: copy the file in, or list it in ${IGNORE_FILE}`);
      } else if (entry.isFile()) {
        files.push(name);
      }
    }
  };
  await walk('');
  if (!files.includes('manifest.json')) throw new CliError(`${root} has no manifest.json: a package folder needs one at its top`);
  const zip = new ZipFile();
  for (const file of files) {
    zip.addBuffer(await readFile(path.join(root, file)), file, { mtime: FIXED_MTIME, mode: 0o100644 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return { archive: Buffer.concat(chunks), files };
}
