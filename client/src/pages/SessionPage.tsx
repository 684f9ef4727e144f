import { PageHeader } from '../components/ui/ui.tsx';

export default function SessionPage() {
  return (
    <div class="page">
      <PageHeader title="SessionPage" />
    </div>
  );
}
