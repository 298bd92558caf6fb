import { useState } from 'preact/hooks';
import { ProblemMessage } from './components/problem-message.js';
import type { Problem } from './problem.js';
import { CONSOLE_TOKEN_LIFETIME, openSession, signInWithPassword, type Session, type SignedIn } from './session.js';

/**
 * Signing in: a username or email and password (a token of 8 hours is made for this page and
 * deleted at sign-out), or a token pasted as it is (forgotten at sign-out, never deleted).
 */
export function SignIn({ onSignedIn }: { readonly onSignedIn: (session: Session) => void }) {
  const [problem, setProblem] = useState<Problem | undefined>();
  const [busy, setBusy] = useState(false);
  const settle = (signedIn: SignedIn) => {
    setBusy(false);
    if (signedIn.ok) onSignedIn(signedIn.session);
    else setProblem(signedIn.problem);
  };
  const submit = (event: SubmitEvent, attempt: (form: FormData) => Promise<SignedIn>) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    void attempt(new FormData(event.currentTarget as HTMLFormElement)).then(settle);
  };
  return (
    <main id="main" class="sign-in">
      <h1>utility-api console</h1>
      <p>Manage your tokens and see what they do. Sign in with your password, or paste a token.</p>
      <ProblemMessage problem={problem} />
      <form
        aria-labelledby="with-password"
        onSubmit={(event) =>
          submit(event, (form) => signInWithPassword(String(form.get('login')), String(form.get('password'))))
        }
      >
        <h2 id="with-password">With your password</h2>
        <label>
          Username or email
          <input name="login" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p class="hint">
          This makes a token named “console” that expires in {CONSOLE_TOKEN_LIFETIME.replace('h', ' hours')}, kept in
          this page only; signing out deletes it.
        </p>
      </form>
      <form
        aria-labelledby="with-token"
        onSubmit={(event) => submit(event, (form) => openSession(String(form.get('token')).trim(), false))}
      >
        <h2 id="with-token">With a token</h2>
        <label>
          Token
          <input name="token" type="password" autocomplete="off" required />
        </label>
        <button type="submit" disabled={busy}>
          Sign in with the token
        </button>
      </form>
    </main>
  );
}
