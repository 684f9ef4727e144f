import { PageHeader } from '../components/ui/ui.tsx';

export default function NotFoundPage() {
  return (
    <div class="page">
      <PageHeader title="NotFoundPage" />
    </div>
  );
}
