import { PageHeader } from '../components/ui/ui.tsx';

export default function JobNewPage() {
  return (
    <div class="page">
      <PageHeader title="JobNewPage" />
    </div>
  );
}
