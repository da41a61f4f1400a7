import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of a test archive; every field can lie, so tests can build malicious archives. */
export interface ZipBuilderEntry {
  name: string;
  data?: Buffer | string;
  method?: 'store' | 'deflate';
  /** Sets a unix host and this mode (e.g. 0o120777 for a symlink, 0o100755 for an executable). */
  unixMode?: number;
  /** Overrides the uncompressed size written in both headers. */
  declaredUncompressedSize?: number;
  /** Overrides the CRC-32 written in both headers. */
  declaredCrc?: number;
  /** Sets general-purpose bit 11 and encodes the name as UTF-8 (otherwise latin1). */
  utf8?: boolean;
  /** Sets the traditional-encryption bit without encrypting anything. */
  encrypted?: boolean;
  /** A different name for the local header only. */
  localName?: string;
}

const VERSION = 20;

export function buildZip(entries: ZipBuilderEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;

  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : (entry.data ?? Buffer.alloc(0));
    const method = entry.method ?? 'deflate';
    const body = method === 'deflate' ? deflateRawSync(data) : data;
    const crc = entry.declaredCrc ?? crc32(data);
    const size = entry.declaredUncompressedSize ?? data.length;
    const flags = (entry.utf8 ? 0x800 : 0) | (entry.encrypted ? 0x1 : 0);
    const methodCode = method === 'deflate' ? 8 : 0;
    const encode = (name: string) => Buffer.from(name, entry.utf8 ? 'utf8' : 'latin1');
    const name = encode(entry.name);
    const localName = entry.localName === undefined ? name : encode(entry.localName);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(methodCode, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(localName.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, localName, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode === undefined ? VERSION : (3 << 8) | VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(methodCode, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(entry.unixMode === undefined ? 0 : (entry.unixMode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + localName.length + body.length;
  }

  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}

/** A deflated entry of `megabytes` MiB of zeros: about a thousandfold expansion. */
export function zeroBomb(megabytes: number, name = 'zeros.bin'): ZipBuilderEntry {
  return { name, data: Buffer.alloc(megabytes * 1024 * 1024), method: 'deflate' };
}
