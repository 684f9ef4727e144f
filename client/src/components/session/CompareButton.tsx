// "Compare with a recorded session": on a served session's page, asks for the recorded session of the same
// domain closest by the tools called and opens the two side by side (recorded as A, this one as B).
import { useNavigate } from '@solidjs/router';
import type { SessionSummary } from '../../../../shared/sessions.ts';
import { getClosestSession } from '../../api/endpoints.ts';
import { createAction } from '../../data/createAction.ts';
import { compareHref } from '../../lib/compare.ts';
import { toast } from '../../stores/toasts.ts';
import { Button } from '../ui/ui.tsx';

export function CompareWithRecorded(props: { summary: SessionSummary }) {
  const navigate = useNavigate();
  const compare = createAction(
    async () => {
      const r = await getClosestSession(props.summary.key);
      if (r.closest === null) {
        toast({
          kind: 'info',
          title: 'No recorded session to compare with',
          message: `The domain ${props.summary.domain ?? '(none)'} has no session recorded without a flow.`,
        });
      } else navigate(compareHref(r.closest, props.summary.key));
    },
    { failure: 'Could not find a session to compare with' },
  );
  return (
    <Button icon="scale" loading={compare.busy()} testid="compare-with-recorded" title="Open this session beside the recorded session of its domain that called the most alike tools" onClick={() => void compare.run()}>
      Compare with a recorded session
    </Button>
  );
}
