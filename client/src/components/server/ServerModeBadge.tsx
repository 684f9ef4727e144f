// A server's mode as a badge with a word and a title: what its proxy does.
import type { ServerMode } from '../../../../shared/servers.ts';

const MODE: Record<ServerMode, { word: string; title: string; cls: string }> = {
  serve: { word: 'Serving', title: 'The proxy serves a flow: its lookups ride in the results', cls: 'mode-served' },
  shadow: { word: 'Shadow', title: 'The flow decides and logs, but looks nothing up', cls: 'mode-shadow' },
  record: { word: 'Recording', title: 'The proxy records sessions and runs no flow', cls: 'mode-recorded' },
};

export default function ServerModeBadge(props: { mode: ServerMode }) {
  return (
    <span class={`badge mode ${MODE[props.mode].cls}`} title={MODE[props.mode].title}>
      <span class="dot" aria-hidden="true" />
      {MODE[props.mode].word}
    </span>
  );
}
