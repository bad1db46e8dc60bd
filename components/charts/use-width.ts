'use client';
// The width of a chart's box, followed as it changes (a phone turned, a window resized), so a chart can
// lay itself out for the room it has: a 250 px label column leaves no room for bars at 390 px.
import { type RefObject, useEffect, useRef, useState } from 'react';

export function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number | null] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Below this width a chart's labels go above its bars instead of in a column beside them. */
export const NARROW_CHART = 520;
