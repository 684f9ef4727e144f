// Settings: what the console runs with (it is set when engine-console starts): the data dir and its disk
// use by kind, privacy, the binaries and the key, access, and this browser's theme. Sign out is here.
import { For, Show } from 'solid-js';
import { getSettings } from '../api/endpoints.ts';
import { Icon } from '../components/ui/Icon.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Button, Card, CopyButton, ErrorState, Notice, PageHeader, Segmented, Skeleton } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { formatBytes, formatCount } from '../lib/format.ts';
import { signOut } from '../stores/auth.ts';
import { setTheme, theme, type Theme } from '../stores/theme.ts';

export default function SettingsPage() {
  useTitle(() => 'Settings');
  const res = createApiResource(
    () => true,
    (_s, signal) => getSettings({ signal }),
    { topics: ['sessions', 'flows'] },
  );
  const s = () => res.data();
  const disk = () => {
    const d = s()?.disk;
    if (!d) return [];
    return [
      { label: 'Session logs', note: 'with their flow and confirmation logs', bytes: d.logs_bytes },
      { label: 'Flows', note: '*.flow.json', bytes: d.flows_bytes },
      { label: 'Answer cache', note: 'oracle-cache', bytes: d.cache_bytes },
      { label: 'Everything else', note: 'the registry, jobs, the trash', bytes: d.other_bytes },
    ];
  };
  const share = (b: number) => {
    const t = s()?.disk.total_bytes ?? 0;
    if (t === 0 || b === 0) return 0;
    return Math.max(0.8, (b / t) * 100);
  };
  return (
    <div class="page">
      <PageHeader title="Settings" sub="The console’s data, installation and access. It is set when engine-console starts: these show what it runs with." />
      <Show when={!res.error()} fallback={<Card label="Settings"><ErrorState error={res.error()!} retry={res.refetch} /></Card>}>
        <Show when={s()} fallback={<Skeleton lines={8} height={18} />}>
          <div class={`grid-2 even${res.refreshing() ? ' refreshing' : ''}`}>
            <div class="stack">
              <Card title="Data" caption="The directory the console reads: --data, else $ENGINE_HOME, else ~/.engine">
                <div class="stack" style={{ gap: '14px' }}>
                  <div class="well">
                    <span>{s()!.data_dir}</span>
                    <CopyButton text={() => s()!.data_dir} what="Path" />
                  </div>
                  <p>
                    <strong>{formatCount(s()!.sessions)}</strong> sessions · <strong>{formatCount(s()!.flows)}</strong> flows · <strong>{formatBytes(s()!.disk.total_bytes)}</strong> on disk
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
                  <Notice tone="info">{s()!.retention_note}</Notice>
                </div>
              </Card>
              <Card title="Privacy">
                <div class="stack" style={{ gap: '10px' }}>
                  <p>
                    Session logs hold every tool call and result verbatim, and what the customer said when the host passes the conversation. Treat them like the
                    data the tools touch.
                  </p>
                  <ul class="bullets">
                    <li>The console reads the data dir and serves it to this browser only. It sends nothing anywhere else.</li>
                    <li>
                      The registry, <code>servers.json</code>, holds environment variable names and header names, never their values.
                    </li>
                    <li>It never reads or shows a variable’s value, never follows a link out of the data dir, and moves what you delete to its trash.</li>
                    <li>To share sessions, redact them first: a job writes a pseudonymized copy that learns the same flow.</li>
                  </ul>
                  <p class="muted">
                    What each file holds, and what is sent where: <code>docs/privacy.md</code> in the engine’s repository.
                  </p>
                </div>
              </Card>
            </div>
            <div class="stack">
              <Card title="Installation">
                <ul class="binaries">
                  <li>
                    <strong>Console</strong> <span class="mono">{s()!.version}</span>
                  </li>
                  <For each={s()!.binaries}>
                    {(b) => (
                      <li>
                        <span class="mono">{b.name}</span>{' '}
                        <Show when={b.path} fallback={<small class="missing">not found: jobs that run it fail</small>}>
                          <span class="mono">{b.version === null ? "no --version" : b.version.replace(`${b.name} `, "")}</span>
                          <small>{b.path}</small>
                        </Show>
                      </li>
                    )}
                  </For>
                  <li>
                    <strong>Jev key</strong>{' '}
                    <Show when={s()!.key_set} fallback={<span class="badge">not set</span>}>
                      <span class="badge accent">
                        <Icon name="key" size={12} /> set
                      </span>
                    </Show>
                    <small style={{ 'font-family': 'var(--font)' }}>
                      TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE, in the console’s environment; its value is never read. Flows served with reach or the habit need none.
                    </small>
                  </li>
                </ul>
              </Card>
              <Card title="Access">
                <div class="stack" style={{ gap: '12px' }}>
                  <Show
                    when={s()!.auth}
                    fallback={
                      <p class="access">
                        <Icon name="info" />
                        <span>
                          Started with <code>--no-auth</code>: anyone who can reach this loopback address can use it.
                        </span>
                      </p>
                    }
                  >
                    <p class="access">
                      <Icon name="shield" />
                      <span>A token is required. The browser holds it in an HttpOnly cookie that only this console reads.</span>
                    </p>
                  </Show>
                  <Show
                    when={s()!.read_only}
                    fallback={
                      <p class="access">
                        <Icon name="check" />
                        <span>Writes are allowed: servers, deletes, connection tests and jobs.</span>
                      </p>
                    }
                  >
                    <p class="access warn">
                      <Icon name="lock" />
                      <span>
                        Read-only (<code>--read-only</code>): every write, test and job is refused.
                      </span>
                    </p>
                  </Show>
                  <Show when={s()!.auth}>
                    <div>
                      <Button icon="logout" onClick={() => void signOut()}>
                        Sign out
                      </Button>
                    </div>
                  </Show>
                </div>
              </Card>
              <Card title="Appearance" caption="Kept in this browser">
                <Segmented<Theme>
                  label="Theme"
                  value={theme()}
                  onChange={setTheme}
                  options={[
                    { value: 'system', label: 'System', icon: 'monitor' },
                    { value: 'light', label: 'Light', icon: 'sun' },
                    { value: 'dark', label: 'Dark', icon: 'moon' },
                  ]}
                />
              </Card>
            </div>
          </div>
        </Show>
      </Show>
    </div>
  );
}
