import { Progress } from '../../../src/ledger/progress';

const streamOf = (isTTY: boolean) => {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
};

describe('ledger progress bar', () => {
  it('draws a bar with the share done on a terminal, and ends the line', () => {
    const { written, stream } = streamOf(true);
    const progress = new Progress('reconciling', 200, stream);
    progress.advance(50);
    progress.finish();
    expect(written[0]).toMatch(/^\rreconciling \[#{8}-{22}\] 25% 50 events$/);
    expect(written.at(-1)).toBe('\n');
  });

  it('writes nothing when stderr is a pipe or a file', () => {
    const { written, stream } = streamOf(false);
    const progress = new Progress('reconciling', 200, stream);
    progress.advance(200);
    progress.finish();
    expect(written).toEqual([]);
  });
});
