// A child of the bench (measure.ts's bareParseSplit): the bare parse of every `parts`th file from `part`, once
// the parent says go, so that its start-up is not timed. Its figures go back through the IPC channel.
import { readFileSync } from 'node:fs';
import { bareParse } from './measure.ts';

const [list, part, parts] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const files = (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((_, i) => i % parts === part);
process.send?.('ready');
process.once('message', () => {
  process.send?.(bareParse(files), () => process.exit(0));
});
