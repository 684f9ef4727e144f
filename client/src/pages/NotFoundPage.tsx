// Not found: any address no route knows.
import { useTitle } from '../components/ui/title.ts';
import { Button, Empty } from '../components/ui/ui.tsx';

export default function NotFoundPage() {
  useTitle(() => 'Not found');
  return (
    <div class="page">
      <h1 class="sr-only">Page not found</h1>
      <div class="card">
        <Empty
          icon="compass"
          title="Nothing is at this address"
          heading="h2"
          actions={
            <Button variant="primary" to="/">
              Go to the overview
            </Button>
          }
        >
          The page may have moved, or the session, flow or job it named was deleted.
        </Empty>
      </div>
    </div>
  );
}
