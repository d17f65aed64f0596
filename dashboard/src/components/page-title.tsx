import { useLayoutEffect, useRef } from 'preact/hooks';
import { navigated } from '../router.ts';

/**
 * The page's one h1. After moving by a link, focus goes to it so a screen reader
 * announces the new page and Tab continues from its top.
 */
export function PageTitle(props: { children: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Before the first paint of the new page, so nothing typed meanwhile lands elsewhere.
  useLayoutEffect(() => {
    document.title = `${props.children} · calc dashboard`;
    if (navigated) heading.current?.focus();
  }, [props.children]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {props.children}
    </h1>
  );
}
