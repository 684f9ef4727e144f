// Settings: what the console runs with (it is set when engine-console starts): the data dir and its disk
// use by kind, privacy, the binaries and the key, access, and this browser's theme. Sign out is here.
import { getOtlpStatus, getSettings } from '../api/endpoints.ts';
import { OtlpCard } from '../components/settings/OtlpCard.tsx';
import { AccessCard } from '../components/settings/AccessCard.tsx';
import { DataCard } from '../components/settings/DataCard.tsx';
import { InstallationCard } from '../components/settings/InstallationCard.tsx';
import { PrivacyCard } from '../components/settings/PrivacyCard.tsx';
import { Loaded } from '../components/ui/Loaded.tsx';
import { useTitle } from '../components/ui/title.ts';
import { Card, PageHeader, Segmented } from '../components/ui/ui.tsx';
import { createApiResource } from '../data/createApiResource.ts';
import { Show } from 'solid-js';
import { setTheme, theme, type Theme } from '../stores/theme.ts';

function AppearanceCard() {
  return (
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
  );
}

export default function SettingsPage() {
  useTitle(() => 'Settings');
  const res = createApiResource(
    () => true,
    (_s, signal) => getSettings({ signal }),
    { topics: ['sessions', 'flows'] },
  );
  const otlp = createApiResource(() => true, (_s, signal) => getOtlpStatus({ signal }), { topics: ['sessions'] });
  return (
    <div class="page">
      <PageHeader title="Settings" sub="The console’s data, installation and access. It is set when engine-console starts: these show what it runs with." />
      <Loaded resource={res} skeleton={8} skeletonHeight={18} errorFrame={(content) => <Card label="Settings">{content}</Card>}>
        {(s) => (
          <div class={`grid-2 even${res.refreshing() ? ' refreshing' : ''}`}>
            <div class="stack">
              <DataCard settings={s()} />
              <PrivacyCard />
              <Show when={otlp.data()}>{(o) => <OtlpCard status={o()} />}</Show>
            </div>
            <div class="stack">
              <InstallationCard settings={s()} />
              <AccessCard settings={s()} />
              <AppearanceCard />
            </div>
          </div>
        )}
      </Loaded>
    </div>
  );
}
