import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Shell } from './components/shell.tsx';
import { PageTitle } from './components/page-title.tsx';
import { Account } from './pages/account.tsx';
import { Domains } from './pages/domains.tsx';
import { Overview } from './pages/overview.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { Usage } from './pages/usage.tsx';
import { BASE, path, routeOf, type Route } from './router.ts';
import { token } from './session.ts';

/**
 * A page that is a chunk of its own, loaded when it opens: the calculator page carries the
 * catalogue and the widget's form model for its preview, and most owners never open the
 * results endpoint's, so the sign-in form waits for neither. The calculator builder (the
 * Calculators page and the editor) carries the definition validator and the widget's renderer.
 */
function Lazy<P extends object>(props: { load: () => Promise<(props: P) => JSX.Element>; props: P }) {
  const [Page, setPage] = useState<{ component: (props: P) => JSX.Element } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    props.load().then(
      (component) => setPage({ component }),
      () => setFailed(true),
    );
  }, []);
  if (failed) return <p role="alert">This page could not be loaded. Reload to try again.</p>;
  return Page ? <Page.component {...props.props} /> : <p aria-busy="true">Loading…</p>;
}

const loadCalculator = () => import('./pages/calculator.tsx').then((module) => module.Calculator);
// The calculator builder (the Calculators page and the editor): its forms, the definition
// validator and the widget's renderer for the preview.
const loadCalculators = () => import('./builder/builder.tsx').then((module) => module.Calculators);
const loadBuilder = () => import('./builder/builder.tsx').then((module) => module.Builder);
const loadResultsEndpoint = () => import('./pages/results-pages.ts').then((module) => module.ResultsEndpoint);
const loadResults = () => import('./pages/results-pages.ts').then((module) => module.Results);

function Page(props: { route: Route }) {
  const { route } = props;
  switch (route.page) {
    case 'overview':
      return <Overview />;
    case 'domains':
      return <Domains />;
    case 'calculators':
      return <Lazy load={loadCalculators} props={{}} />;
    case 'calculator':
      return <Lazy load={loadCalculator} props={{ calcId: route.calcId }} />;
    case 'builder':
      return <Lazy load={loadBuilder} props={{ calcId: route.calcId }} />;
    case 'usage':
      return <Usage />;
    case 'account':
      return <Account />;
    case 'results-endpoint':
      return <Lazy load={loadResultsEndpoint} props={{}} />;
    case 'results':
      return <Lazy load={loadResults} props={{}} />;
    default:
      return (
        <>
          <PageTitle>Page not found</PageTitle>
          <p>There is no dashboard page at this address.</p>
        </>
      );
  }
}

/** Which nav entry a page belongs to (a calculator's page is under Calculators). */
function section(route: Route): string {
  switch (route.page) {
    case 'overview':
      return BASE;
    case 'calculator':
    case 'builder':
      return `${BASE}/calculators`;
    case 'results-endpoint':
      return `${BASE}/results`;
    case 'not-found':
      return '';
    default:
      return `${BASE}/${route.page}`;
  }
}

/** Signed out: the sign-in form at the address asked for. Signed in: that address's page. */
export function App(props: { signupEnabled: boolean }) {
  if (!token.value) return <SignIn signupEnabled={props.signupEnabled} />;
  const route = routeOf(path.value);
  return (
    <Shell current={section(route)}>
      <Page key={path.value} route={route} />
    </Shell>
  );
}
