import { PageHeader } from '../components/ui/ui.tsx';

export default function JobsPage() {
  return (
    <div class="page">
      <PageHeader title="JobsPage" />
    </div>
  );
}
