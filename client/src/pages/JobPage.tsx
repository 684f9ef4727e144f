import { PageHeader } from '../components/ui/ui.tsx';

export default function JobPage() {
  return (
    <div class="page">
      <PageHeader title="JobPage" />
    </div>
  );
}
