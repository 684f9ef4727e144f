// Who may use the console (a token, or --no-auth), whether it writes (--read-only), and signing out.
import { Show } from 'solid-js';
import type { Settings } from '../../../../shared/settings.ts';
import { SIGN_IN_TTL_MS } from '../../../../shared/limits.ts';
import { signOut } from '../../stores/auth.ts';
import { Icon } from '../ui/Icon.tsx';
import { Button, Card } from '../ui/ui.tsx';

export function AccessCard(props: { settings: Settings }) {
  const s = () => props.settings;
  return (
    <Card title="Access">
      <div class="stack" style={{ gap: '12px' }}>
        <Show
          when={s().auth}
          fallback={
            <p class="access">
              <Icon name="info" />
              <span>
                Started with <code>--no-auth</code>: anyone who can reach this loopback address can use it.
              </span>
            </p>
          }
        >
          <p class="access">
            <Icon name="shield" />
            <span>A token is required. The browser holds a sign-in made from it, not the token, in an HttpOnly cookie; it lasts {SIGN_IN_TTL_MS / 3_600_000} hours, and signing out ends it at once.</span>
          </p>
        </Show>
        <Show
          when={s().read_only}
          fallback={
            <p class="access">
              <Icon name="check" />
              <span>Writes are allowed: servers, deletes, connection tests and jobs.</span>
            </p>
          }
        >
          <p class="access warn">
            <Icon name="lock" />
            <span>
              Read-only (<code>--read-only</code>): every write, test and job is refused.
            </span>
          </p>
        </Show>
        <Show when={s().auth}>
          <div>
            <Button icon="logout" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </Show>
      </div>
    </Card>
  );
}
