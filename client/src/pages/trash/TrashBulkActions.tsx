// The Trash page's ticks, all at once: restore the ticked items, tick every listed item, or untick.
import { Button } from '../../components/ui/ui.tsx';
import { plural } from '../../lib/format.ts';
import { READ_ONLY_REASON, readOnly } from '../../stores/auth.ts';

export function TrashBulkActions(props: {
  ticked: number;
  listed: number;
  restoring: boolean;
  onRestore: () => void;
  onTickAll: () => void;
  onUntick: () => void;
}) {
  return (
    <div class="trash-bulk" role="group" aria-label="The ticked items" data-testid="trash-bulk">
      <span class="trash-bulk-count" aria-live="polite">
        {plural(props.ticked, 'item')} ticked
      </span>
      <Button
        icon="corner-up-left"
        loading={props.restoring}
        disabled={readOnly() || props.ticked === 0}
        reason={readOnly() ? READ_ONLY_REASON : 'Tick the items to restore first'}
        onClick={props.onRestore}
        testid="trash-restore-ticked"
      >
        Restore ticked
      </Button>
      <Button variant="ghost" icon="check" disabled={props.ticked === props.listed} reason="Every item is ticked" onClick={props.onTickAll} testid="trash-tick-all">
        Tick all
      </Button>
      <Button variant="ghost" icon="x" disabled={props.ticked === 0} reason="Nothing is ticked" onClick={props.onUntick} testid="trash-untick">
        Untick
      </Button>
    </div>
  );
}
