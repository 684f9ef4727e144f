import { PageHeader } from '../components/ui/ui.tsx';

export function OverviewPage() {
  return (
    <div class="page">
      <PageHeader title="OverviewPage" />
    </div>
  );
}
