// The sign-in screen (after a 401) and the "server did not answer" card.
import { createSignal, Show } from 'solid-js';
import { createAction } from '../../data/createAction.ts';
import { checkMeta, signIn, signInReason, unreachableMessage } from '../../stores/auth.ts';
import { SIGN_IN_TTL_MS } from '../../../../shared/limits.ts';
import { Icon } from '../ui/Icon.tsx';
import { Button } from '../ui/ui.tsx';

export function Brand(props: { small?: boolean }) {
  return (
    <span class={props.small ? 'brand small' : 'brand'}>
      <svg class="brand-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect width="32" height="32" rx="8" />
        <path d="M8 22 L14 10 L18 18 L24 8" />
      </svg>
      <span class="brand-word">
        engine <span class="brand-tag">console</span>
      </span>
    </span>
  );
}

export function SignInScreen() {
  const [token, setToken] = createSignal('');
  const [error, setError] = createSignal('');
  const [show, setShow] = createSignal(false);
  // signIn answers with its refusal rather than throwing, so the action only keeps it busy.
  const send = createAction(signIn);
  const submit = async (e: Event) => {
    e.preventDefault();
    const message = await send.run(token());
    if (message !== undefined) setError(message ?? '');
  };
  return (
    <main class="center-screen" id="main" tabindex="-1">
      <form class="signin card" data-testid="sign-in" onSubmit={(e) => void submit(e)} novalidate>
        <Brand />
        <h1>Sign in to the console</h1>
        <Show when={signInReason()}>
          <p class="notice notice-warn" role="alert" data-testid="sign-in-reason">
            {signInReason()}
          </p>
        </Show>
        <p class="muted" id="signin-help">
          When it starts, <code>engine-console</code> prints a link with its token, such as <code>{window.location.origin}/?token=…</code>. Open that
          link, or paste the token here.
        </p>
        <label for="token">Token</label>
        <div class="input-with-button">
          <Icon name="key" class="input-icon" />
          <input
            id="token"
            class="mono"
            type={show() ? 'text' : 'password'}
            autocomplete="off"
            spellcheck={false}
            autofocus
            placeholder="64 hex digits"
            aria-describedby={error() ? 'signin-error signin-help' : 'signin-help'}
            aria-invalid={error() ? 'true' : undefined}
            value={token()}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
          <button type="button" class="btn btn-ghost btn-sm btn-square" aria-label={show() ? 'Hide the token' : 'Show the token'} onClick={() => setShow(!show())}>
            <Icon name={show() ? 'eye-off' : 'eye'} />
          </button>
        </div>
        <Show when={error()}>
          <p class="field-error" id="signin-error" role="alert">
            {error()}
          </p>
        </Show>
        <p class="field-hint">
          The token is also in <code>ENGINE_CONSOLE_TOKEN</code> if you set it, or after <code>--token</code>. The browser keeps a sign-in, not the token, in an
          HttpOnly cookie; it lasts {SIGN_IN_TTL_MS / 3_600_000} hours, or until you sign out. Setting <code>ENGINE_CONSOLE_TOKEN</code> keeps the link the same across restarts.
        </p>
        <Button type="submit" variant="primary" icon="login" loading={send.busy()} class="full">
          Sign in
        </Button>
      </form>
    </main>
  );
}

export function UnreachableScreen() {
  const retry = createAction(checkMeta);
  return (
    <main class="center-screen" id="main" tabindex="-1">
      <div class="signin card" role="alert">
        <Brand />
        <div class="empty-icon danger">
          <Icon name="plug" size={22} />
        </div>
        <h1>The console server did not answer</h1>
        <p>{unreachableMessage()}</p>
        <p class="muted">
          Start it with <code>engine-console</code> so that it listens at <code>{window.location.host}</code>, where this page came from, then try again.
        </p>
        <Button
          variant="primary"
          icon="retry"
          loading={retry.busy()}
          onClick={() => void retry.run()}
        >
          Try again
        </Button>
      </div>
    </main>
  );
}
