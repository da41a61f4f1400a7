/**
 * A progress bar on stderr for long runs, drawn only when stderr is a
 * terminal: in a pipe or a file it writes nothing, so output stays clean.
 */
export class Progress {
  private done = 0;
  private lastDrawn = 0;
  private readonly enabled: boolean;

  constructor(
    private readonly label: string,
    private readonly total: number | null,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.enabled = Boolean(stream.isTTY);
  }

  advance(count: number): void {
    this.done += count;
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDrawn < 100) return;
    this.lastDrawn = now;
    this.draw();
  }

  finish(): void {
    if (!this.enabled) return;
    this.draw();
    this.stream.write('\n');
  }

  private draw(): void {
    const width = 30;
    if (this.total && this.total > 0) {
      const share = Math.min(1, this.done / this.total);
      const filled = Math.round(share * width);
      this.stream.write(
        `\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(share * 100)}% ${this.done} events`,
      );
    } else {
      this.stream.write(`\r${this.label} ${this.done} events`);
    }
  }
}
