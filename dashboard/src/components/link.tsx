import type { ComponentChildren } from 'preact';
import { navigate, path } from '../router.ts';

/** An ordinary link (open in a new tab works) that moves within the app without a reload. */
export function Link(props: { href: string; children: ComponentChildren; current?: boolean }) {
  const current = props.current ?? path.value === props.href;
  return (
    <a
      href={props.href}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}
