// The data directory the console reads, its sessions and flows, and its disk use by kind (a bar each).
import { For } from 'solid-js';
import type { Settings } from '../../../../shared/settings.ts';
import { formatBytes, formatCount } from '../../lib/format.ts';
import { Card, CopyButton, Notice } from '../ui/ui.tsx';

export function DataCard(props: { settings: Settings }) {
  const s = () => props.settings;
  const disk = () => {
    const d = s().disk;
    return [
      { label: 'Session logs', note: 'with their flow and confirmation logs', bytes: d.logs_bytes },
      { label: 'Flows', note: '*.flow.json', bytes: d.flows_bytes },
      { label: 'Answer cache', note: 'oracle-cache', bytes: d.cache_bytes },
      { label: 'Everything else', note: 'the registry, jobs, the trash', bytes: d.other_bytes },
    ];
  };
  // A kind that holds anything keeps a sliver of bar, so it does not read as empty.
  const share = (b: number) => {
    const t = s().disk.total_bytes;
    if (t === 0 || b === 0) return 0;
    return Math.max(0.8, (b / t) * 100);
  };
  return (
    <Card title="Data" caption="The directory the console reads: --data, else $ENGINE_HOME, else ~/.engine">
      <div class="stack" style={{ gap: '14px' }}>
        <div class="well">
          <span>{s().data_dir}</span>
          <CopyButton text={() => s().data_dir} what="Path" />
        </div>
        <p>
          <strong>{formatCount(s().sessions)}</strong> sessions · <strong>{formatCount(s().flows)}</strong> flows · <strong>{formatBytes(s().disk.total_bytes)}</strong> on disk
        </p>
        <ul class="disk" aria-label="Disk use by kind">
          <For each={disk()}>
            {(row) => (
              <li>
                <span>
                  <strong>{row.label}</strong>
                  <small>{row.note}</small>
                </span>
                <span class="num">{formatBytes(row.bytes)}</span>
                <span class="bar" aria-hidden="true">
                  <span style={{ width: `${share(row.bytes)}%` }} />
                </span>
                <span class="sr-only">{Math.round(share(row.bytes))}% of the total</span>
              </li>
            )}
          </For>
        </ul>
        <Notice tone="info">{s().retention_note}</Notice>
      </div>
    </Card>
  );
}
