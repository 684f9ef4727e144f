import { PageHeader } from '../components/ui/ui.tsx';

export default function SessionsPage() {
  return (
    <div class="page">
      <PageHeader title="SessionsPage" />
    </div>
  );
}
