import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { FileHandle, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Global, Injectable, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { DomainError } from '../errors/domain-error';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** An upload written to a private temporary file, hashed on the way; not yet in the store. */
export interface StagedBlob {
  sha256: string;
  sizeBytes: number;
  /** Where the bytes can be read until `commit` or `discard`. */
  path: string;
}

/**
 * Archives on the local disk, addressed by their SHA-256, so a blob's name
 * proves its content and a re-upload of the same bytes stores nothing new.
 * Writes go to a temporary file first and are renamed into place, so a reader
 * never sees half a blob.
 */
@Injectable()
export class BlobStore {
  private readonly root: string;

  constructor(@InjectConfig() config: AppConfig) {
    this.root = config.blobDir;
  }

  /** Streams `source` to a temporary file, refusing it once it passes `maxBytes` (413). */
  async stage(source: Readable, maxBytes: number): Promise<StagedBlob> {
    const incoming = path.join(this.root, 'incoming');
    await mkdir(incoming, { recursive: true, mode: 0o700 });
    const tempPath = path.join(incoming, randomUUID());
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sizeBytes += chunk.length;
        if (sizeBytes > maxBytes)
          return done(new DomainError('payload_too_large', `The archive is larger than ${maxBytes} bytes`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(tempPath, { mode: 0o600 }));
      // On disk before any event names it.
      const written = await open(tempPath, 'r');
      await written.sync().finally(() => written.close());
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    return { sha256: hash.digest('hex'), sizeBytes, path: tempPath };
  }

  /** Moves a staged blob to its content address; a blob already there is kept as it is. */
  async commit(staged: StagedBlob): Promise<void> {
    const target = this.pathOf(staged.sha256);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    if (await this.exists(staged.sha256)) return this.discard(staged);
    await rename(staged.path, target);
  }

  async discard(staged: StagedBlob): Promise<void> {
    await rm(staged.path, { force: true });
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch (error) {
      // Only "not there" is an answer; a disk that cannot be read is an error to retry, not a missing blob.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  open(sha256: string): Readable {
    return createReadStream(this.pathOf(sha256));
  }

  /**
   * A blob's bytes with their size, or null when it is not stored. Size and
   * stream come from one open file, so a `content-length` always matches the bytes sent.
   */
  async read(sha256: string): Promise<{ sizeBytes: number; stream: Readable } | null> {
    let file: FileHandle;
    try {
      file = await open(this.pathOf(sha256), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await file.stat();
      // The stream closes the file when it ends or is destroyed (a client that hangs up).
      return { sizeBytes: size, stream: file.createReadStream() };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  /** The file holding a blob; the name comes from a validated hash, never from user input. */
  pathOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error(`Not a SHA-256 hex digest: ${sha256}`);
    return path.join(this.root, 'sha256', sha256.slice(0, 2), sha256);
  }
}

@Global()
@Module({ providers: [BlobStore], exports: [BlobStore] })
export class BlobStoreModule {}
