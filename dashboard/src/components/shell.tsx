import type { ComponentChildren } from 'preact';
import { BASE } from '../router.ts';
import { endSession } from '../session.ts';
import { Link } from './link.tsx';

const NAV = [
  { href: BASE, label: 'Overview' },
  { href: `${BASE}/domains`, label: 'Domains' },
  { href: `${BASE}/calculators`, label: 'Calculators' },
  { href: `${BASE}/usage`, label: 'Usage' },
  { href: `${BASE}/results`, label: 'Results' },
  { href: `${BASE}/account`, label: 'Account' },
];

/** The frame around every signed-in page: skip link, navigation, sign-out. */
export function Shell(props: { current: string; children: ComponentChildren }) {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">calc</span>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} current={item.href === props.current}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={() => endSession('You are signed out.')}>
          Sign out
        </button>
      </header>
      <main id="main">{props.children}</main>
    </>
  );
}
