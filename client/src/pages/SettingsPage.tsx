import { PageHeader } from '../components/ui/ui.tsx';

export default function SettingsPage() {
  return (
    <div class="page">
      <PageHeader title="SettingsPage" />
    </div>
  );
}
