import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemMessage } from './components/problem-message.js';
import { PAGES, type ConsolePage } from './pages.js';
import { holds } from './permissions.js';
import type { Problem } from './problem.js';
import { signOut, type Session } from './session.js';
import { SignIn } from './sign-in.js';

/** The page the address names (`#/tokens`), among those shown; the first (the overview) otherwise. */
const pageAt = (hash: string, shown: readonly ConsolePage[]): ConsolePage =>
  shown.find((page) => `#${page.path}` === hash) ?? shown[0]!;

/** The console: the sign-in form, then the signed-in shell. The session lives in this page's memory only. */
export function App() {
  const [session, setSession] = useState<Session | null>(null);
  return session === null ? (
    <SignIn onSignedIn={setSession} />
  ) : (
    <Shell session={session} onSignedOut={() => setSession(null)} />
  );
}

function Shell({ session, onSignedOut }: { readonly session: Session; readonly onSignedOut: () => void }) {
  const shown = PAGES.filter((page) => holds(session.token.permissions, page.permission));
  const [hash, setHash] = useState(location.hash);
  const [problem, setProblem] = useState<Problem | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const page = pageAt(hash, shown);
  const first = useRef(true);
  useEffect(() => {
    const follow = () => setHash(location.hash);
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  // A page opened from the navigation is announced by moving the focus to its heading.
  useEffect(() => {
    if (first.current) first.current = false;
    else heading.current?.focus();
  }, [page]);
  const leave = async () => {
    const refused = await signOut(session);
    if (refused) setProblem(refused);
    else onSignedOut();
  };
  const { user, token } = session;
  const PageComponent = page.component;
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          heading.current?.focus();
        }}
      >
        Skip to the content
      </a>
      <header class="top">
        <p class="brand">utility-api console</p>
        <p class="who">
          Signed in as <strong>{user.fullName ?? user.username}</strong>
          {user.fullName ? ` (${user.username})` : ''}
          {token.name ? `, token “${token.name}”` : ''}
        </p>
        <button type="button" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <ProblemMessage problem={problem} />
      <nav class="pages" aria-label="Console pages">
        <ul>
          {shown.map((each) => (
            <li key={each.path}>
              <a href={`#${each.path}`} aria-current={each === page ? 'page' : undefined}>
                {each.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {page.name}
        </h1>
        <PageComponent key={page.path} session={session} forgetSession={onSignedOut} />
      </main>
    </>
  );
}
